/**
 * The search worker's script, deflated in Z85 (src/core/text/z85.ts). Empty in the sources: main.js's build puts the bundled worker here
 * (scripts/search-worker-build.mjs, searchWorkerPacked); without it (tests, a build without the plugin) the plugin
 * keeps the indexes on its main thread.
 */
export const SEARCH_WORKER_PACKED: string = "";
