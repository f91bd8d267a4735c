/**
 * The search worker's own server and client joined in this process (no thread): what the plugin's memory needs from
 * a worker, for tests that are about something else. Its index files live in a map.
 */
import { SearchWorkerClient } from "../../src/engine/search-worker/worker-client";
import { serveSearchWorker } from "../../src/engine/search-worker/worker-server";
import type { WorkerFolderFiles } from "../../src/engine/search-worker/worker-ops";
import type { FromWorker, ToWorker } from "../../src/engine/search-worker/protocol";

/** Index files in a map, by folder and name. */
export function memoryFiles(files = new Map<string, Uint8Array>()): (folder: string) => WorkerFolderFiles {
  return (folder) => ({
    read: async (name) => files.get(`${folder}/${name}`)?.slice() ?? null,
    write: async (name, bytes) => void files.set(`${folder}/${name}`, bytes.slice()),
    rename: async (from, to) => {
      const bytes = files.get(`${folder}/${from}`);
      if (bytes) files.set(`${folder}/${to}`, bytes);
      files.delete(`${folder}/${from}`);
    },
    remove: async (name) => void files.delete(`${folder}/${name}`),
  });
}

/** A search worker client whose worker runs in this process, messages delivered asynchronously as between threads. */
export function inProcessSearchWorker(files: (folder: string) => WorkerFolderFiles = memoryFiles()): SearchWorkerClient {
  let toWorker: ((message: ToWorker) => void) | null = null;
  let toMain: ((message: FromWorker) => void) | null = null;
  serveSearchWorker({ post: (message) => void setTimeout(() => toMain?.(message), 0), listen: (handler) => (toWorker = handler) });
  return new SearchWorkerClient({ post: (message) => void setTimeout(() => toWorker?.(message), 0), listen: (handler) => (toMain = handler) }, { files });
}
