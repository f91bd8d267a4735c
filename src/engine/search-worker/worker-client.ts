/**
 * The main thread's side of the search worker: sends ops and resolves their answers (it is an EngineRequester, so
 * RemoteTextStore and RemoteVectorStore run over it unchanged), and serves the worker's file requests from the
 * index folder (`files`), moving the bytes across instead of copying them. Nothing here parses or searches an index:
 * what the main thread spends per query is one message each way.
 */
import type { EngineRequester } from "../vector/remote-store";
import type { WorkerFolderFiles } from "./worker-ops";
import { transferable, type FileRequest, type FromWorker, type MessageEndpoint, type ToWorker } from "./protocol";

export interface SearchWorkerClientOptions {
  /** The index files of a folder, as the ops name it (vault-relative in the plugin, absolute headless). */
  files: (folder: string) => WorkerFolderFiles;
  /** Told the worker's notices (an unreadable vector index moved aside). */
  onNotice?: (message: string) => void;
  /** Ends the worker (close). */
  terminate?: () => void;
}

export class SearchWorkerClient implements EngineRequester {
  private nextId = 1;
  private readonly pending = new Map<number, { resolve: (value: unknown) => void; reject: (err: Error) => void }>();
  /** Set once the worker failed or was closed: every later request is refused with it. */
  private failure: Error | null = null;

  constructor(
    private readonly endpoint: MessageEndpoint<FromWorker, ToWorker>,
    private readonly options: SearchWorkerClientOptions,
  ) {
    endpoint.listen((message) => {
      if (message.kind === "file") void this.serveFile(message);
      else if (message.id === 0) this.options.onNotice?.(String(message.value));
      else {
        const p = this.pending.get(message.id);
        this.pending.delete(message.id);
        if (message.error !== undefined) p?.reject(new Error(message.error));
        else p?.resolve(message.value);
      }
    });
  }

  request(op: string, params: unknown): Promise<unknown> {
    if (this.failure) return Promise.reject(this.failure);
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.endpoint.post({ kind: "op", id, op, params });
    });
  }

  /** The worker stopped (an uncaught error, or it could not start): pending and later requests fail with this. */
  fail(error: Error): void {
    this.failure ??= error;
    for (const p of this.pending.values()) p.reject(this.failure);
    this.pending.clear();
  }

  /** Ends the worker; what it had not saved is lost (save the indexes first). */
  close(): void {
    this.fail(new Error("The search worker was closed."));
    this.options.terminate?.();
  }

  private async serveFile(req: FileRequest): Promise<void> {
    try {
      const files = this.options.files(req.folder);
      if (req.op === "read") {
        const bytes = await files.read(req.name);
        if (bytes === null) this.endpoint.post({ kind: "file-reply", id: req.id, bytes: null });
        else {
          const own = transferable(bytes);
          this.endpoint.post({ kind: "file-reply", id: req.id, bytes: own.bytes }, [own.buffer]);
        }
        return;
      }
      if (req.op === "write") await files.write(req.name, req.bytes ?? new Uint8Array(0));
      else if (req.op === "rename") await files.rename(req.name, req.to ?? req.name);
      else await files.remove(req.name);
      this.endpoint.post({ kind: "file-reply", id: req.id });
    } catch (err) {
      this.endpoint.post({ kind: "file-reply", id: req.id, error: err instanceof Error ? err.message : String(err) });
    }
  }
}
