/**
 * The search worker's real script (the bundle main.js starts as a Web Worker) in a Node worker thread: the full-text
 * index and the flat vector store pass the same contract suites there as in this process, and index files cross
 * the thread boundary as transferred buffers.
 */
import { afterAll, describe, expect, it } from "vitest";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { LocalTextStore } from "../../../src/core/memory/text-store";
import { RemoteTextStore } from "../../../src/engine/vector/remote-text-store";
import { RemoteVectorStore } from "../../../src/engine/vector/remote-store";
import { FLAT_FILE } from "../../../src/engine/vector/flat-store";
import { FolderIndexStore } from "../../../src/host/vector/folder-index-store";
import { vectorOps } from "../../../src/host/vector/host-ops";
import { folderFiles, startNodeSearchWorker, type NodeSearchWorker } from "../../../src/node/search-worker/node-search-worker";
import type { SearchWorkerClient } from "../../../src/engine/search-worker/worker-client";
import { describeTextStoreContract } from "../../contract/text-store-contract";
import { contractItem, describeVectorStoreContract, type OpenableVectorStore } from "../../contract/vector-store-contract";

const workers: NodeSearchWorker[] = [];
afterAll(async () => {
  for (const w of workers) await w.close();
});

async function worker(options: Parameters<typeof startNodeSearchWorker>[0] = {}): Promise<NodeSearchWorker> {
  const w = await startNodeSearchWorker(options);
  workers.push(w);
  return w;
}

/** The host's ops called in-process, with a JSON round trip as over the pipe. */
const hostRequester = {
  async request(op: string, params: unknown): Promise<unknown> {
    return JSON.parse(JSON.stringify(await vectorOps[op](JSON.parse(JSON.stringify(params)))));
  },
};

describeTextStoreContract("LocalTextStore (in this process)", {
  create: async (folder) => ({ store: new LocalTextStore(new FolderIndexStore(folder)), end: async () => undefined }),
});
describeTextStoreContract("RemoteTextStore over the engine host's ops", {
  create: async (folder) => ({ store: new RemoteTextStore(hostRequester, folder), end: async () => void (await vectorOps["text.close"]({ folder })) }),
});
describeTextStoreContract("RemoteTextStore over the search worker", {
  create: async (folder) => {
    const w = await worker();
    return { store: new RemoteTextStore(w.client, folder), end: () => w.close() };
  },
});

/** The worker's flat store through the client the plugin uses, with the lifecycle the contract drives. */
class WorkerVectorStore extends RemoteVectorStore implements OpenableVectorStore {
  constructor(
    private readonly worker: SearchWorkerClient,
    private readonly folder: string,
    private readonly flushDelayMs?: number,
    private readonly onNotice?: (message: string) => void,
  ) {
    super(worker, { folder });
  }
  /** As RemoteVectorStore opens, with the contract's quiet time. */
  override async open(): Promise<{ items: number; dimension?: number; notices: string[] }> {
    const opened = (await this.worker.request("vector.open", { folder: this.folder, flushDelayMs: this.flushDelayMs })) as { items: number; notices: string[] };
    for (const n of opened.notices) this.onNotice?.(n);
    return opened;
  }
  async close(): Promise<void> {
    await this.worker.request("vector.close", { folder: this.folder });
  }
}

let shared: NodeSearchWorker | null = null;
describeVectorStoreContract("FlatVectorStore in the search worker", {
  create: (folder, options) => {
    const pending = shared ? Promise.resolve(shared) : worker().then((w) => (shared = w));
    // The contract constructs synchronously: the first call waits for the worker inside each method.
    const lazy = pending.then((w) => new WorkerVectorStore(w.client, folder, options.flushDelayMs, options.onNotice));
    return new Proxy({} as OpenableVectorStore, {
      get: (_t, key: keyof OpenableVectorStore) => async (...args: unknown[]) => {
        const store = await lazy;
        return (store[key] as (...a: unknown[]) => Promise<unknown>)(...args);
      },
    });
  },
  fileName: FLAT_FILE,
});

describe("the search worker", () => {
  it("receives index files and sends them back as transferred buffers, not copies", async () => {
    const dir = await mkdtemp(join(tmpdir(), "worker-transfer-"));
    try {
      const sent: Uint8Array[] = [];
      const received: Uint8Array[] = [];
      const files = (folder: string) => {
        const inner = folderFiles(folder);
        return {
          ...inner,
          read: async (name: string) => {
            const bytes = await inner.read(name);
            if (bytes) sent.push(bytes);
            return bytes;
          },
          write: async (name: string, bytes: Uint8Array) => {
            received.push(bytes);
            await inner.write(name, bytes);
          },
        };
      };
      const first = await worker({ files });
      const text = new RemoteTextStore(first.client, dir);
      await text.load();
      text.set("Garden.md", "# Garden\nTomatoes need sun.", "h1");
      const vectors = new RemoteVectorStore(first.client, { folder: join(dir, "vectors") });
      await vectors.upsert([contractItem("a", [1, 0, 0], "Garden.md")]);
      await text.save();
      await vectors.flush();
      // Shards, head and the vector file arrived here as whole buffers of their own.
      expect(received.length).toBeGreaterThanOrEqual(3);
      for (const bytes of received) expect(bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength).toBe(true);
      await first.close();

      const second = await worker({ files });
      const again = new RemoteTextStore(second.client, dir);
      expect(await again.load()).toBe(true);
      expect((await again.search("tomatoes", 3)).map((h) => h.path)).toEqual(["Garden.md"]);
      const reopened = new RemoteVectorStore(second.client, { folder: join(dir, "vectors") });
      expect((await reopened.query([1, 0, 0], 1))[0].id).toBe("a");
      // What was read moved to the worker: the buffers here are detached (length 0).
      expect(sent.length).toBeGreaterThanOrEqual(3);
      for (const bytes of sent) expect(bytes.byteLength).toBe(0);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("answers an unknown op and a bad parameter with an error, and keeps serving", async () => {
    const w = await worker();
    await expect(w.client.request("text.nothing", {})).rejects.toThrow(/no op "text.nothing"/);
    await expect(w.client.request("text.search", {})).rejects.toThrow(/needs "folder"/);
    await expect(w.client.request("vector.stats", { folder: "" })).rejects.toThrow(/needs "folder"/);
  });

  it("fails pending and later requests with a clear error once closed", async () => {
    const w = await worker();
    await w.close();
    await expect(w.client.request("text.open", { folder: "/nowhere" })).rejects.toThrow(/search worker was closed/);
  });
});
