/**
 * The router's language tables as main.js carries them (esbuild.config.mjs packs them: deflated JSON, inflated at
 * load): what the bundle's module gives back is exactly the tables in src/core/router/languages, the packed form is
 * under half their size, and packing is deterministic (a reproducible build).
 */
import { describe, expect, it } from "vitest";
import { join } from "node:path";
import { runInThisContext } from "node:vm";
import esbuild from "esbuild";
import { ALL_LANGUAGES } from "../../../src/core/router/languages/all";

// @ts-expect-error -- the build script is plain JavaScript.
const config = (await import("../../../esbuild.config.mjs")) as {
  routerLanguagesJson(): Promise<{ json: string; sources: string[] }>;
  packedLanguagesModule(json: string): string;
};

const languagesDir = join(import.meta.dirname, "..", "..", "..", "src", "core", "router", "languages");

/** Bundles the packed module as main.js would (fflate resolved, no Node) and evaluates it. */
async function evaluatePacked(source: string): Promise<unknown> {
  const out = await esbuild.build({ stdin: { contents: source, resolveDir: languagesDir, loader: "js" }, bundle: true, platform: "browser", format: "cjs", write: false, logLevel: "silent" });
  const mod = { exports: {} as Record<string, unknown> };
  // Only module and exports are given: the packed module may not reach for require or Buffer (mobile has neither).
  (runInThisContext(`(function (module, exports, require, Buffer) {${out.outputFiles[0].text}\n})`) as (...a: unknown[]) => void)(mod, mod.exports, undefined, undefined);
  return mod.exports.ALL_LANGUAGES;
}

describe("router language tables packed for main.js", () => {
  it("inflate back to exactly the source tables, at under half their size, the same bytes every time", async () => {
    const { json, sources } = await config.routerLanguagesJson();
    expect(JSON.parse(json)).toEqual(ALL_LANGUAGES);
    expect(sources.some((p) => p.endsWith(join("languages", "de.ts")))).toBe(true);
    const packed = config.packedLanguagesModule(json);
    expect(packed).toBe(config.packedLanguagesModule(json));
    expect(Buffer.byteLength(packed)).toBeLessThan(Buffer.byteLength(json) / 2);
    const unpacked = await evaluatePacked(packed);
    expect(unpacked).toEqual(ALL_LANGUAGES);
    expect((unpacked as { code: string }[]).map((l) => l.code)).toEqual(["en", "de", "fr", "es", "pt", "it", "nl", "pl", "ru", "uk", "tr", "zh", "ja", "ko"]);
  });
});
