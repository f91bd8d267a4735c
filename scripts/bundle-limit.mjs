// The size limit on main.js (ARCHITECTURE.md: goal ≤ 1 MB), shared by the release build (esbuild.config.mjs), which
// fails over it, and scripts/check-sizes.mjs, which fails on a release main.js over it.
import { readFileSync, statSync } from "node:fs";

/** 1,024 KiB: what Obsidian reads and parses at every start, on phones too. */
export const MAX_MAIN_JS_BYTES = 1024 * 1024;

const kib = (bytes) => `${(bytes / 1024).toFixed(1)} KiB`;

/**
 * The bundle at `path`: its size, whether it is a development build (`npm run dev` inlines a source map, so its
 * size says nothing), and, for a release build over the limit, the sentence that says so, naming it `name` (else null).
 */
export function bundleReport(path, name = path) {
  const size = statSync(path).size;
  const development = readFileSync(path, "utf8").slice(-1_000_000).includes("sourceMappingURL=data:");
  const problem = !development && size > MAX_MAIN_JS_BYTES
    ? `${name} is ${kib(size)}, over the ${kib(MAX_MAIN_JS_BYTES)} limit; keep desktop-only or rarely used parts out of main.js or packed (see esbuild.config.mjs).`
    : null;
  return { size, development, problem };
}
