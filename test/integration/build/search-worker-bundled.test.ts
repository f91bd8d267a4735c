/**
 * The search worker as main.js carries it: the bundled script without the router's language tables (main.js sets them
 * before the script when it starts the worker), packed and unpacked to the same text; and main.js itself without the
 * index code, which runs only in the worker and the engine host.
 */
import { describe, expect, it } from "vitest";
import esbuild from "esbuild";
import { searchWorkerSource } from "../../../src/plugin/memory/search-worker-start";
import { repoRoot } from "../../helpers/host-bundle";

// @ts-expect-error -- the build scripts are plain JavaScript.
const worker = (await import("../../../scripts/search-worker-build.mjs")) as { buildSearchWorker(): Promise<string>; packSearchWorker(text: string): string; WORKER_LANGUAGES_GLOBAL: string };
// @ts-expect-error -- the build script is plain JavaScript.
const config = (await import("../../../esbuild.config.mjs")) as { mainOptions(hostText: string, release?: boolean): esbuild.BuildOptions };

describe("the search worker main.js carries", () => {
  it("leaves the language tables out and gets them from main.js, in front of the script it packs", async () => {
    const text = await worker.buildSearchWorker();
    // A word only the German table holds.
    expect(text).not.toContain("dankeschon");
    expect(text).toContain(worker.WORKER_LANGUAGES_GLOBAL);
    const source = searchWorkerSource(worker.packSearchWorker(text));
    expect(source.startsWith(`globalThis[${JSON.stringify(worker.WORKER_LANGUAGES_GLOBAL)}] = `)).toBe(true);
    expect(source).toContain("dankeschon");
    expect(source.endsWith(text)).toBe(true);
  }, 60_000);

  it("is the only place of minisearch, the text index and the flat store: main.js has none of them", async () => {
    const cwd = process.cwd();
    process.chdir(repoRoot);
    try {
      const out = await esbuild.build({ ...config.mainOptions("", true), write: false, metafile: true, logLevel: "silent" });
      const inputs = Object.keys(out.metafile.inputs);
      expect(inputs.some((p) => p.includes("search-worker/worker-client"))).toBe(true);
      for (const code of ["node_modules/minisearch/", "src/core/memory/text-engine.ts", "src/core/memory/text-index.ts", "src/engine/vector/flat-store.ts"]) {
        expect(inputs.filter((p) => p.includes(code))).toEqual([]);
      }
    } finally {
      process.chdir(cwd);
    }
  }, 120_000);
});
