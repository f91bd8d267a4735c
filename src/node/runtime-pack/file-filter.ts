/**
 * Which installed files a pack keeps: what Node loads at run time, plus licenses. Type declarations, source maps,
 * TypeScript and C/C++ sources, build scripts and llama.cpp's bundled source (node-llama-cpp's `llama/` folder,
 * 34 MB as a git bundle) stay out; node-llama-cpp loads only its prebuilt binaries with `build: "never"`.
 */

/** Files kept from node-llama-cpp's `llama/` folder: metadata its loader reads, and its grammar files. */
const LLAMA_KEEP = [/^llama\/package\.json$/, /^llama\/binariesGithubRelease\.json$/, /^llama\/llama\.cpp\.info\.json$/, /^llama\/grammars\/[^/]+\.gbnf$/];

/** Extensions nothing loads at run time. */
const DROPPED_EXTENSIONS = /\.(d\.ts|d\.mts|d\.cts|ts|mts|cts|tsx|map|c|cc|cpp|cxx|h|hh|hpp|gyp|gypi|cmake|mk|md|markdown|txt)$/i;

/** Licenses and notices are kept whatever their extension (the packages' MIT and other licenses require it). */
const LEGAL = /^(licen[cs]e|notice|copying|authors)([.-][^/]*)?$/i;

/** Whole folders of a package that hold tests, docs, examples or build inputs. */
const DROPPED_FOLDERS = new Set(["test", "tests", "__tests__", "docs", "doc", "example", "examples", "benchmark", "benchmarks", ".github", ".vscode"]);

/**
 * Whether the file at `rel` (relative to its package's folder) of package `name` goes into the pack.
 * Only the top level of a package is checked for dropped folders, so a library folder that happens to be called
 * "test" deep inside `dist/` is left alone.
 */
export function keepFile(name: string, rel: string): boolean {
  const base = rel.slice(rel.lastIndexOf("/") + 1);
  if (LEGAL.test(base)) return true;
  const top = rel.split("/")[0];
  if (rel.includes("/") && DROPPED_FOLDERS.has(top)) return false;
  if (base.startsWith(".")) return false;
  if (name === "node-llama-cpp") {
    if (top === "llama") return LLAMA_KEEP.some((re) => re.test(rel));
    // Project templates of its `init` command, and placeholders for binaries that moved to separate packages.
    if (top === "templates" || top === "bins") return false;
  }
  if (name === "node-llama-cpp" || name.startsWith("@node-llama-cpp/")) {
    if (base === "CMakeLists.txt") return false;
  }
  return !DROPPED_EXTENSIONS.test(base);
}
