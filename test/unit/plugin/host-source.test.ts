import { describe, expect, it } from "vitest";
import { engineHostSource } from "../../../src/plugin/engine/host-source";

// The build's own packing (esbuild.config.mjs has no types).
const { packHost } = (await import(new URL("../../../esbuild.config.mjs", import.meta.url).href)) as { packHost(text: string): string };

describe("the engine host embedded in main.js", () => {
  it("unpacks to exactly the text the build packed, at under half its size", () => {
    const text = `// host ✓\n${"export const line = 'a line of the engine host';\n".repeat(400)}`;
    const packed = packHost(text);
    expect(engineHostSource(packed)).toBe(text);
    expect(packed.length).toBeLessThan(text.length / 2);
  });

  it("is empty outside a build", () => {
    expect(packHost("")).toBe("");
    expect(engineHostSource("")).toBe("");
  });
});
