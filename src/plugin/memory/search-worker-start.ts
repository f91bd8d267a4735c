/**
 * Starts the search worker in Obsidian (desktop and mobile): the bundled script main.js carries
 * (search-worker-packed.ts) inflated, preceded by the router's language tables main.js has loaded, and started as a
 * Web Worker from a Blob URL. Its index files are read and written through the vault adapter, in the index folder.
 */
import { inflateSync, strFromU8 } from "fflate";
import { ALL_LANGUAGES } from "../../core/router/languages/all";
import { SearchWorkerClient } from "../../engine/search-worker/worker-client";
import type { WorkerFolderFiles } from "../../engine/search-worker/worker-ops";
import type { FromWorker, MessageEndpoint, ToWorker } from "../../engine/search-worker/protocol";
import { AdapterVectorFiles, type BinaryAdapter } from "../mobile/adapter-vector-files";
import { SEARCH_WORKER_PACKED } from "./search-worker-packed";
import { fromZ85 } from "../../core/text/z85";

/** The global the worker script reads the language tables from (scripts/search-worker-build.mjs). */
const LANGUAGES_GLOBAL = "__VAULT_AGENT_WORKER_LANGUAGES__";

/** The worker script with the language tables set before it; "" when this build carries none. */
export function searchWorkerSource(packed: string = SEARCH_WORKER_PACKED): string {
  if (!packed) return "";
  const script = strFromU8(inflateSync(fromZ85(packed)));
  return `globalThis[${JSON.stringify(LANGUAGES_GLOBAL)}] = ${JSON.stringify(ALL_LANGUAGES)};\n${script}`;
}

/** A folder's index files through the adapter (vault-relative folder). */
function adapterFiles(adapter: BinaryAdapter, folder: string): WorkerFolderFiles {
  const files = new AdapterVectorFiles(adapter, () => folder);
  return {
    read: (name) => files.read(name),
    write: (name, bytes) => files.write(name, bytes),
    rename: (from, to) => files.rename(from, to),
    remove: async (name) => {
      const path = `${folder}/${name}`;
      if (await adapter.exists(path)) await adapter.remove(path);
    },
  };
}

/** The search worker, or null where this build has none or the platform cannot start one (the indexes then stay here). */
export function startSearchWorker(adapter: BinaryAdapter, onNotice: (message: string) => void): SearchWorkerClient | null {
  const source = searchWorkerSource();
  if (!source || typeof Worker === "undefined" || typeof Blob === "undefined") return null;
  let worker: Worker;
  const url = URL.createObjectURL(new Blob([source], { type: "text/javascript" }));
  try {
    worker = new Worker(url);
  } catch {
    return null;
  } finally {
    // The worker has fetched its script by the time it runs; the URL is not needed after construction.
    window.setTimeout(() => URL.revokeObjectURL(url), 60_000);
  }
  const endpoint: MessageEndpoint<FromWorker, ToWorker> = {
    post: (message, transfer) => worker.postMessage(message, transfer ?? []),
    listen: (handler) => {
      worker.onmessage = (event: MessageEvent<FromWorker>) => handler(event.data);
    },
  };
  const client = new SearchWorkerClient(endpoint, { files: (folder) => adapterFiles(adapter, folder), onNotice, terminate: () => worker.terminate() });
  worker.onerror = (event) => client.fail(new Error(`The search worker stopped: ${event.message || "unknown error"}.`));
  return client;
}
