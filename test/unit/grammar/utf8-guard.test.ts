/** Split-character tokens are found so the engine can ban them under a grammar. */
import { describe, expect, it } from "vitest";
import { isWholeUtf8, sentencePieceBytes, splitCharacterTokens } from "../../../src/core/grammar/utf8-guard";

const bytes = (...b: number[]) => Uint8Array.from(b);

describe("UTF-8 token guard", () => {
  it("accepts whole characters and rejects split, overlong, surrogate and out-of-range ones", () => {
    for (const ok of ["a", "é", "中文", "😀", "\u007f", " x"]) expect(isWholeUtf8(new TextEncoder().encode(ok)), ok).toBe(true);
    expect(isWholeUtf8(bytes(0xe2))).toBe(false);
    expect(isWholeUtf8(bytes(0x8c))).toBe(false);
    expect(isWholeUtf8(bytes(0xe0, 0x8e, 0xae))).toBe(false);
    expect(isWholeUtf8(bytes(0xc1, 0xa1))).toBe(false);
    expect(isWholeUtf8(bytes(0xed, 0xa0, 0x80))).toBe(false);
    expect(isWholeUtf8(bytes(0xf4, 0x90, 0x80, 0x80))).toBe(false);
    expect(isWholeUtf8(bytes(0xe2, 0x19))).toBe(false);
  });

  it("lists byte-fallback pieces of non-ASCII bytes but not whole pieces or control tokens", () => {
    const pieces = ["<unk>", "<0x41>", "<0xE2>", "<0x8C>", "\u2581hello", "é", "<|im_start|>"];
    const ids = splitCharacterTokens(pieces.map((p, i) => sentencePieceBytes(p, i === 0 || i === 6)));
    expect(ids).toEqual([2, 3]);
  });
});
