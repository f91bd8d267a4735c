/**
 * Z85 as main.js's packed parts use it: the build's encoder (scripts/z85.mjs) and the plugin's decoder
 * (src/core/text/z85.ts) give back every byte of every length, in a string literal JSON needs no escapes for, at five
 * characters per four bytes.
 */
import { describe, expect, it } from "vitest";
import { fromZ85 } from "../../../src/core/text/z85";

// @ts-expect-error -- the build script is plain JavaScript.
const { toZ85 } = (await import("../../../scripts/z85.mjs")) as { toZ85(bytes: Uint8Array): string };

describe("Z85", () => {
  it("round-trips every length and byte value, with nothing to escape in a string literal", () => {
    let seed = 1;
    for (let length = 0; length < 70; length++) {
      const bytes = Uint8Array.from({ length }, () => ((seed = (seed * 1103515245 + 12345) >>> 0) >>> 16) & 255);
      const text = toZ85(bytes);
      expect(fromZ85(text)).toEqual(bytes);
      expect(JSON.stringify(text)).toBe(`"${text}"`);
      expect(text.length).toBe(1 + Math.ceil(length / 4) * 5);
    }
    const all = Uint8Array.from({ length: 1024 }, (_, i) => (i * 7 + (i >> 8)) & 255);
    expect(fromZ85(toZ85(all))).toEqual(all);
    expect(fromZ85(toZ85(new Uint8Array([255, 255, 255, 255, 0])))).toEqual(new Uint8Array([255, 255, 255, 255, 0]));
  });
});
