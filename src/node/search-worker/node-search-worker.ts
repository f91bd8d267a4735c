/**
 * The search worker headless: the same bundled script main.js starts as a Web Worker (scripts/search-worker-build.mjs),
 * run in a Node worker thread behind a shim that gives it a dedicated worker's `postMessage` / `onmessage`, with its
 * index files in folders on disk. Used by the benchmark (`bench index --store worker`) and the worker's tests.
 */
import { Worker } from "node:worker_threads";
import { promises as fs } from "node:fs";
import { fileURLToPath } from "node:url";
import { ALL_LANGUAGES } from "../../core/router/languages/all";
import { SearchWorkerClient } from "../../engine/search-worker/worker-client";
import type { WorkerFolderFiles } from "../../engine/search-worker/worker-ops";
import type { FromWorker, MessageEndpoint, ToWorker } from "../../engine/search-worker/protocol";
import { FolderVectorFiles } from "../folder-vault/folder-vector-files";

/**
 * A worker thread as a dedicated worker sees its scope: messages arrive as `onmessage({data})`. The shim alone also
 * answers "node-heap" (the thread's V8 heap in use, for the benchmark), which the worker's code never sees.
 */
const SHIM = [
  'const { parentPort } = require("node:worker_threads");',
  "globalThis.self = globalThis;",
  "globalThis.postMessage = (message, transfer) => parentPort.postMessage(message, transfer);",
  "parentPort.on('message', (data) => {",
  "  if (data && data.kind === 'node-heap') return parentPort.postMessage({ kind: 'node-heap', used: require('node:v8').getHeapStatistics().used_heap_size });",
  "  if (globalThis.onmessage) globalThis.onmessage({ data });",
  "});",
].join("\n");

interface WorkerBuild {
  buildSearchWorker(options?: { minify?: boolean }): Promise<string>;
  WORKER_LANGUAGES_GLOBAL: string;
}

let built: Promise<{ source: string; global: string }> | null = null;

/** The worker script, bundled once per process. */
function workerScript(): Promise<{ source: string; global: string }> {
  built ??= (async () => {
    const script = fileURLToPath(new URL("../../../scripts/search-worker-build.mjs", import.meta.url));
    const build = (await import(script)) as WorkerBuild;
    return { source: await build.buildSearchWorker({ minify: true }), global: build.WORKER_LANGUAGES_GLOBAL };
  })();
  return built;
}

/** A folder's index files on disk. */
export function folderFiles(folder: string): WorkerFolderFiles {
  const files = new FolderVectorFiles(folder);
  return {
    read: (name) => files.read(name),
    write: (name, bytes) => files.write(name, bytes),
    rename: (from, to) => files.rename(from, to),
    remove: (name) => fs.rm(`${files.folder}/${name}`, { force: true }),
  };
}

export interface NodeSearchWorker {
  client: SearchWorkerClient;
  /** The worker thread. */
  thread: Worker;
  /** Bytes of V8 heap the worker thread uses now. */
  heapUsed(): Promise<number>;
  close(): Promise<void>;
}

/** Starts the search worker in a worker thread, its index files in folders on disk (absolute folder names). */
export async function startNodeSearchWorker(options: { onNotice?: (message: string) => void; files?: (folder: string) => WorkerFolderFiles } = {}): Promise<NodeSearchWorker> {
  const { source, global } = await workerScript();
  const languages = `globalThis[${JSON.stringify(global)}] = ${JSON.stringify(ALL_LANGUAGES)};`;
  const thread = new Worker(`${SHIM}\n${languages}\n${source}`, { eval: true });
  const heapWaiters: ((bytes: number) => void)[] = [];
  const endpoint: MessageEndpoint<FromWorker, ToWorker> = {
    post: (message, transfer) => thread.postMessage(message, transfer ?? []),
    listen: (handler) =>
      void thread.on("message", (message: FromWorker | { kind: "node-heap"; used: number }) => {
        if (message.kind === "node-heap") heapWaiters.shift()?.(message.used);
        else handler(message);
      }),
  };
  const client = new SearchWorkerClient(endpoint, { files: options.files ?? folderFiles, onNotice: options.onNotice, terminate: () => void thread.terminate() });
  thread.on("error", (err) => client.fail(err));
  thread.on("exit", (code) => client.fail(new Error(`The search worker exited (code ${code}).`)));
  return {
    client,
    thread,
    heapUsed: () =>
      new Promise((resolve) => {
        heapWaiters.push(resolve);
        thread.postMessage({ kind: "node-heap" });
      }),
    async close() {
      client.close();
      await thread.terminate();
    },
  };
}
