import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { parseGgufHeader } from "../../../src/engine/gguf/header-parser";
import { toHalf } from "../../../src/node/test-model/gguf-writer";
import { buildTestModel, TEST_MODEL_SHAPE } from "../../../src/node/test-model/test-model";
import { buildVocabulary } from "../../../src/node/test-model/vocabulary";

const sha = (b: Buffer): string => createHash("sha256").update(b).digest("hex");

describe("test model generator", () => {
  it("produces the same bytes for the same arguments", () => {
    expect(sha(buildTestModel({ vocab: 4096, seed: 3 }))).toBe(sha(buildTestModel({ vocab: 4096, seed: 3 })));
  });

  it("produces exactly the recorded bytes, on any machine (integer PRNG, IEEE rounding only)", () => {
    // Update deliberately when the generator changes; a surprise change here means determinism broke.
    expect(sha(buildTestModel({ vocab: 2048, seed: 1 }))).toBe("10e2b22409ec248b5bd39091691eaab13a57072286f8545efa4b47b1a472017d");
  });

  it("produces different weights for a different seed, with the same header size", () => {
    const a = buildTestModel({ vocab: 4096, seed: 3 });
    const b = buildTestModel({ vocab: 4096, seed: 4 });
    expect(a.length).toBe(b.length);
    expect(sha(a)).not.toBe(sha(b));
  });

  it("writes a GGUF v3 llama header with the chosen vocabulary size and a trained context of at least 8192", () => {
    const header = parseGgufHeader(buildTestModel({ vocab: 32000 }));
    expect(header.version).toBe(3);
    expect(header.metadata.get("general.architecture")).toBe("llama");
    expect(header.metadata.get("tokenizer.ggml.model")).toBe("llama");
    expect(header.metadata.get("tokenizer.ggml.tokens")).toEqual({ arrayLength: 32000 });
    expect(header.metadata.get("llama.context_length") as number).toBeGreaterThanOrEqual(8192);
    expect(header.metadata.get("tokenizer.chat_template")).toContain("<|im_start|>");
    const embd = header.tensors.find((t) => t.name === "token_embd.weight");
    expect(embd?.dims).toEqual([TEST_MODEL_SHAPE.embeddingLength, 32000]);
    expect(header.tensors.filter((t) => t.name.startsWith("blk.")).length).toBe(9 * TEST_MODEL_SHAPE.blockCount);
  });
});

describe("test model vocabulary", () => {
  const vocab = buildVocabulary(8192);

  it("has exactly the requested size with unique pieces", () => {
    expect(vocab.tokens.length).toBe(8192);
    expect(new Set(vocab.tokens).size).toBe(8192);
  });

  it("has <unk>, <s>, </s> and all 256 byte-fallback tokens", () => {
    expect(vocab.tokens.slice(0, 3)).toEqual(["<unk>", "<s>", "</s>"]);
    for (let b = 0; b < 256; b++) expect(vocab.tokens).toContain(`<0x${b.toString(16).toUpperCase().padStart(2, "0")}>`);
    expect(vocab.types.filter((t) => t === 6).length).toBe(256);
  });

  it("has multi-character JSON punctuation, words and digits", () => {
    for (const piece of ['{"', '":', '",', '"}', "\u2581\"", "\u2581the", "thought", "42"]) expect(vocab.tokens).toContain(piece);
  });

  it("holds every prefix of every multi-character piece, so SentencePiece merges can reach it", () => {
    const set = new Set(vocab.tokens);
    for (let id = 261; id < vocab.tokens.length; id++) {
      const chars = [...vocab.tokens[id]];
      for (let k = 2; k < chars.length; k++) expect(set.has(chars.slice(0, k).join(""))).toBe(true);
    }
  });

  it("rejects a vocabulary size outside the supported range", () => {
    expect(() => buildVocabulary(100)).toThrow(/from 2048 to 65536/);
  });
});

describe("half-precision conversion", () => {
  it("rounds like IEEE 754 binary16", () => {
    expect(toHalf(1)).toBe(0x3c00);
    expect(toHalf(-2)).toBe(0xc000);
    expect(toHalf(0.1)).toBe(0x2e66);
    expect(toHalf(65504)).toBe(0x7bff);
    expect(toHalf(1e6)).toBe(0x7c00);
    expect(toHalf(5.960464477539063e-8)).toBe(0x0001);
  });
});
