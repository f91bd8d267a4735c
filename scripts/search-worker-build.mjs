// The search worker (src/engine/search-worker/worker-entry.ts) bundled into one script, for main.js to start a Web
// Worker from (a Blob URL) and for the Node tests and the bench to run in a worker thread: the same code in both.
// main.js carries it deflated in Z85 (searchWorkerPacked, esbuild.config.mjs), and fills in the router's language
// tables, which main.js already has, when it starts the worker (src/plugin/memory/search-worker-start.ts).
import esbuild from "esbuild";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { deflateSync } from "fflate";
import { toZ85 } from "./z85.mjs";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
export const SEARCH_WORKER_ENTRY = resolve(ROOT, "src/engine/search-worker/worker-entry.ts");
/** The global the worker reads the router's language tables from (set before its code runs). */
export const WORKER_LANGUAGES_GLOBAL = "__VAULT_AGENT_WORKER_LANGUAGES__";

/** The language tables' module in the worker: read from the global the starter sets, not bundled a second time. */
const workerLanguagesFromGlobal = {
  name: "worker-languages-from-global",
  setup(build) {
    build.onLoad({ filter: /[\\/]src[\\/]core[\\/]router[\\/]languages[\\/]all\.ts$/ }, () => ({
      contents: `export const ALL_LANGUAGES = globalThis[${JSON.stringify(WORKER_LANGUAGES_GLOBAL)}];\n`,
      loader: "js",
    }));
  },
};

/** The worker script's text (an IIFE for the browser and for a Node worker thread behind its shim). */
export async function buildSearchWorker({ minify = true } = {}) {
  const out = await esbuild.build({
    entryPoints: [SEARCH_WORKER_ENTRY],
    bundle: true,
    platform: "browser",
    format: "iife",
    target: "es2022",
    plugins: [workerLanguagesFromGlobal],
    minify,
    charset: "utf8",
    write: false,
    logLevel: "warning",
  });
  return out.outputFiles[0].text;
}

/** The worker script deflated, in base64 (what main.js carries). */
export function packSearchWorker(text) {
  return toZ85(deflateSync(Buffer.from(text, "utf8"), { level: 9, mem: 12 }));
}

/**
 * The esbuild plugin for main.js: src/plugin/memory/search-worker-packed.ts (an empty string in the sources) becomes
 * the packed worker script.
 */
export const searchWorkerPacked = {
  name: "search-worker-packed",
  setup(build) {
    build.onLoad({ filter: /[\\/]src[\\/]plugin[\\/]memory[\\/]search-worker-packed\.ts$/ }, async () => {
      const text = await buildSearchWorker({ minify: true });
      return { contents: `export const SEARCH_WORKER_PACKED = ${JSON.stringify(packSearchWorker(text))};\n`, loader: "js", watchDirs: [resolve(ROOT, "src")] };
    });
  },
};
