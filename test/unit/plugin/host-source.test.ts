import { describe, expect, it } from "vitest";
import { engineHostSource } from "../../../src/plugin/engine/host-source";
import { ALL_LANGUAGES } from "../../../src/core/router/languages/all";

// The build's own packing (esbuild.config.mjs has no types).
const { packHost, fillHostLanguages, routerLanguagesJson, HOST_LANGUAGES_SLOT } = (await import(new URL("../../../esbuild.config.mjs", import.meta.url).href)) as {
  packHost(text: string): string;
  fillHostLanguages(slotted: string, json: string): string;
  routerLanguagesJson(): Promise<{ json: string }>;
  HOST_LANGUAGES_SLOT: string;
};

describe("the engine host embedded in main.js", () => {
  it("unpacks to exactly the text the build packed, at under half its size", () => {
    const text = `// host ✓\n${"export const line = 'a line of the engine host';\n".repeat(400)}`;
    const packed = packHost(text);
    expect(engineHostSource(packed)).toBe(text);
    expect(packed.length).toBeLessThan(text.length / 2);
  });

  it("gets the router's language tables from main.js: filled in as the build fills the host it writes itself", async () => {
    const [before, after] = ['const a=1;export const ALL_LANGUAGES=JSON.parse(', ');const b="$&$1";\n'];
    const slotted = `${before}${JSON.stringify(HOST_LANGUAGES_SLOT)}${after}`;
    const { json } = await routerLanguagesJson();
    const filled = engineHostSource(packHost(slotted));
    expect(filled).toBe(fillHostLanguages(slotted, json));
    expect(filled.startsWith(before) && filled.endsWith(after)).toBe(true);
    // The slot now holds a string literal of the tables' JSON, which the host parses.
    const tables: unknown = JSON.parse(JSON.parse(filled.slice(before.length, -after.length)) as string);
    expect(tables).toEqual(ALL_LANGUAGES);
  });

  it("is empty outside a build", () => {
    expect(packHost("")).toBe("");
    expect(engineHostSource("")).toBe("");
  });
});
