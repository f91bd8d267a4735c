/**
 * The search worker's script (bundled by scripts/search-worker-build.mjs into the text main.js starts a Web Worker
 * from): serves the search ops on the worker's own scope. Under Node a tiny shim gives a worker thread the same
 * `postMessage` / `onmessage` (src/node/search-worker/node-search-worker.ts).
 */
import { serveSearchWorker } from "./worker-server";
import type { FromWorker, ToWorker } from "./protocol";

/** The part of a dedicated worker's global scope used here. */
interface WorkerScope {
  postMessage(message: FromWorker, transfer?: ArrayBuffer[]): void;
  onmessage: ((event: { data: ToWorker }) => void) | null;
}

const scope = globalThis as unknown as WorkerScope;
serveSearchWorker({
  post: (message, transfer) => scope.postMessage(message, transfer ?? []),
  listen: (handler) => {
    scope.onmessage = (event) => handler(event.data);
  },
});
