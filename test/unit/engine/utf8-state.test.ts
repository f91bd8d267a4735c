import { describe, expect, it } from "vitest";
import { vocabularyBytes } from "../../../src/host/token-bytes";
import { isValidUtf8, UTF8_BOUNDARY, UTF8_INVALID, utf8Run } from "../../../src/host/utf8-state";

const enc = (s: string) => new TextEncoder().encode(s);
const b = (...xs: number[]) => Uint8Array.from(xs);

describe("UTF-8 automaton", () => {
  it("accepts whole text in any script and rejects what llama.cpp's grammar let through", () => {
    for (const ok of ["a", "Grüße", "你好", "🙂", "é\u0301", "\uFFFD"]) expect(isValidUtf8(enc(ok)), ok).toBe(true);
    // Measured in grammar output before the guard: an invalid lead byte, a 5-byte lead, an encoded surrogate.
    for (const bad of [b(0xfe, 0x91, 0x90, 0x9a), b(0xf9, 0xb8, 0x8c, 0x92), b(0xed, 0xa8, 0xa1), b(0xe0, 0x8e, 0xae), b(0xc1, 0xa1), b(0xf4, 0x90, 0x80, 0x80), b(0xe2, 0x19)]) {
      expect(isValidUtf8(bad), [...bad].map((x) => x.toString(16)).join(" ")).toBe(false);
    }
  });

  it("tracks a character split across tokens, and knows a dead end at once", () => {
    const [e4, bd, a0] = enc("你");
    let s = utf8Run(UTF8_BOUNDARY, b(e4));
    expect(s).not.toBe(UTF8_BOUNDARY);
    s = utf8Run(s, b(bd));
    expect(utf8Run(s, b(0x41))).toBe(UTF8_INVALID);
    expect(utf8Run(s, b(a0))).toBe(UTF8_BOUNDARY);
    expect(utf8Run(UTF8_BOUNDARY, b(0x80))).toBe(UTF8_INVALID);
  });
});

describe("token bytes", () => {
  it("undoes GPT-2's byte map for byte-level BPE and reads SentencePiece pieces", () => {
    // "Ġ" is the space byte, "ä½" the first two bytes of 你 (E4 BD) in byte-level BPE.
    const bpe = vocabularyBytes("gpt2", ["Ġhello", "ä½", "<think>", "<|im_end|>"], [1, 1, 4, 3]);
    expect(bpe[0]).toEqual(enc(" hello"));
    expect(bpe[1]).toEqual(b(0xe4, 0xbd));
    expect(bpe[2]).toEqual(enc("<think>"));
    expect(bpe[3]).toBeNull();
    const spm = vocabularyBytes("llama", ["▁hello", "<0xE4>", "<s>"], [1, 6, 3]);
    expect(spm).toEqual([enc(" hello"), b(0xe4), null]);
  });
});
