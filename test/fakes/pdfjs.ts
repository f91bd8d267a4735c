/**
 * Obsidian's `loadPdfJs()`: in the app it loads the pdf.js its PDF view uses; here the pdfjs-dist package (the
 * version the CLI uses), with pdf.js's worker code run in this thread, in Node (vitest) and in the browser harness.
 */
let loading: Promise<unknown> | null = null;

export function loadPdfJs(): Promise<unknown> {
  loading ??= (async () => {
    const lib = await import("pdfjs-dist/legacy/build/pdf.mjs");
    const scope = globalThis as { pdfjsWorker?: unknown };
    // pdf.js runs its worker in this thread when it finds the worker's module here.
    // @ts-expect-error pdfjs-dist ships no types for its worker module.
    scope.pdfjsWorker ??= await import("pdfjs-dist/legacy/build/pdf.worker.mjs");
    return lib;
  })();
  return loading;
}
