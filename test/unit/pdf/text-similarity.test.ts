import { describe, expect, it } from "vitest";
import { commonWordCount, foldWhitespace, lcsLength, ratioOf, tallyPair, wordRatioOf } from "../../../src/node/pdf/text-similarity";

describe("text similarity (the PDF benchmark's measure)", () => {
  it("folds every run of whitespace to one space", () => {
    expect(foldWhitespace("  a\n\tb   c\f")).toBe("a b c");
  });

  it("finds the longest common subsequence", () => {
    expect(lcsLength("ABCBDAB", "BDCABA")).toBe(4);
    expect(lcsLength("", "abc")).toBe(0);
    expect(lcsLength("same text", "same text")).toBe(9);
  });

  it("is 1 for texts equal after folding, lower for a changed character, and order-free for words", () => {
    const t = { common: 0, total: 0 };
    tallyPair(t, "Tomato yield\nrose", "Tomato  yield rose");
    expect(ratioOf(t)).toBe(1);
    const u = { common: 0, total: 0 };
    tallyPair(u, "abcd", "abed");
    expect(ratioOf(u)).toBe(0.75);
    const v = { common: 0, total: 0 };
    tallyPair(v, "one two three", "three one two");
    expect(ratioOf(v)).toBeLessThan(1);
    expect(wordRatioOf(v)).toBe(1);
    expect(commonWordCount(["a", "a", "b"], ["a", "b", "b"])).toBe(2);
  });
});
