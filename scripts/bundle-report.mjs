// What main.js (and the engine host it embeds) is made of: builds both as `node esbuild.config.mjs production` does,
// without writing them, and prints their largest inputs by package or source folder from esbuild's metafile, minified
// bytes as they stand in the output.
// Usage: node scripts/bundle-report.mjs [--top N] [--depth D] [--files] [--host]
//   --top N    groups (or files) to list per bundle (default 25)
//   --depth D  how many folders under src/ name a group (default 2: src/core/router)
//   --files    list single input files instead of groups
//   --host     report the engine host bundle too (before its brotli packing)
import esbuild from "esbuild";
import { MAX_MAIN_JS_BYTES } from "./bundle-limit.mjs";
import { hostOptions, mainOptions } from "../esbuild.config.mjs";

const kib = (bytes) => `${(bytes / 1024).toFixed(1).padStart(7)} KiB`;

function option(name, fallback) {
  const at = process.argv.indexOf(name);
  if (at < 0) return fallback;
  const value = Number(process.argv[at + 1]);
  if (!Number.isInteger(value) || value < 0) {
    console.error(`${name} needs a whole number.`);
    process.exit(2);
  }
  return value;
}

const top = option("--top", 25);
const depth = option("--depth", 2);
const byFile = process.argv.includes("--files");

/** The group an input path belongs to: its npm package, its src/ folder to `depth` levels, or itself. */
function groupOf(path) {
  const clean = path.replace(/^[^:]+:/, "").replace(/\\/g, "/");
  const pkg = /(?:^|\/)node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(clean);
  if (pkg) return pkg[1];
  const parts = clean.split("/");
  if (parts[0] === "src") return parts.slice(0, Math.min(parts.length - 1, depth + 1)).join("/") + "/";
  return clean;
}

/** Prints one output's inputs, largest first. */
function report(title, metafile) {
  const [output] = Object.values(metafile.outputs);
  const sums = new Map();
  for (const [path, { bytesInOutput }] of Object.entries(output.inputs)) {
    const key = byFile ? path : groupOf(path);
    sums.set(key, (sums.get(key) ?? 0) + bytesInOutput);
  }
  const counted = [...sums.values()].reduce((a, b) => a + b, 0);
  console.log(`${title}: ${kib(output.bytes).trim()} (inputs ${kib(counted).trim()}, the rest is esbuild's glue)`);
  for (const [key, bytes] of [...sums].sort((a, b) => b[1] - a[1]).slice(0, top)) {
    console.log(`  ${kib(bytes)}  ${((100 * bytes) / output.bytes).toFixed(1).padStart(5)}%  ${key}`);
  }
}

const host = await esbuild.build({ ...hostOptions(true), write: false, metafile: true, logLevel: "warning" });
const hostText = host.outputFiles[0].text;
if (process.argv.includes("--host")) {
  report("engine host (src/host/main.ts, embedded brotli-packed)", host.metafile);
  console.log("");
}
const main = await esbuild.build({ ...mainOptions(hostText, true), write: false, metafile: true, logLevel: "warning" });
report(`main.js (limit ${MAX_MAIN_JS_BYTES / 1024} KiB; the packed engine host counts under build-constants.ts)`, main.metafile);
