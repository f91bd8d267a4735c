/**
 * The worker's side of the channel: runs each op asked by the main thread (worker-ops.ts) and answers it, and reaches
 * the index files by asking the main thread (file bytes arrive and leave as transferred buffers).
 */
import { createWorkerOps, type WorkerFolderFiles } from "./worker-ops";
import { transferable, type FileOp, type FileReply, type FromWorker, type MessageEndpoint, type ToWorker } from "./protocol";

/** Serves the search ops on `endpoint` (the worker's scope) until the worker ends. */
export function serveSearchWorker(endpoint: MessageEndpoint<ToWorker, FromWorker>): void {
  let nextFile = 1;
  const waiting = new Map<number, { resolve: (reply: FileReply) => void }>();
  const ask = (op: FileOp, folder: string, name: string, extra: { to?: string; bytes?: Uint8Array } = {}): Promise<FileReply> => {
    const id = nextFile++;
    const transfer: ArrayBuffer[] = [];
    let bytes = extra.bytes;
    if (bytes) {
      const own = transferable(bytes);
      bytes = own.bytes;
      transfer.push(own.buffer);
    }
    return new Promise<FileReply>((resolve) => {
      waiting.set(id, { resolve });
      endpoint.post({ kind: "file", id, op, folder, name, to: extra.to, bytes }, transfer);
    }).then((reply) => {
      if (reply.error !== undefined) throw new Error(reply.error);
      return reply;
    });
  };
  const files = (folder: string): WorkerFolderFiles => ({
    read: async (name) => (await ask("read", folder, name)).bytes ?? null,
    write: async (name, bytes) => void (await ask("write", folder, name, { bytes })),
    rename: async (from, to) => void (await ask("rename", folder, from, { to })),
    remove: async (name) => void (await ask("remove", folder, name)),
  });
  // Notices travel as replies to no request (id 0): the client passes them on.
  const ops = createWorkerOps(files, (message) => endpoint.post({ kind: "reply", id: 0, value: message }));
  endpoint.listen((message) => {
    if (message.kind === "file-reply") {
      const w = waiting.get(message.id);
      waiting.delete(message.id);
      w?.resolve(message);
      return;
    }
    const handler = ops[message.op];
    const run = handler ? handler(message.params) : Promise.reject(new Error(`The search worker has no op "${message.op}".`));
    run.then(
      (value) => endpoint.post({ kind: "reply", id: message.id, value }),
      (err: unknown) => endpoint.post({ kind: "reply", id: message.id, error: err instanceof Error ? err.message : String(err) }),
    );
  });
}
