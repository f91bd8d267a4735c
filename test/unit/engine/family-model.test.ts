import { createHash } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it, vi } from "vitest";
import { UsageError } from "../../../src/node/cli-types";
import { run } from "../../../src/node/commands/make-test-model";
import { FAMILIES, FAMILY_IDS } from "../../../src/node/test-model/families";
import { familySourceFiles, familyTokenizer } from "../../../src/node/test-model/family-model";
import { readGgufMetadata } from "../../../src/node/test-model/gguf-metadata";

const dir = mkdtempSync(join(tmpdir(), "family-model-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const sha = (path: string): string => createHash("sha256").update(readFileSync(path)).digest("hex");

describe("family test models", () => {
  it("copies the vocabulary file's tokenizer keys and restores the released special tokens", () => {
    const spec = FAMILIES.qwen3;
    const source = readGgufMetadata(familySourceFiles(spec).vocab);
    const copied = new Map(familyTokenizer(spec));
    const original = source.get("tokenizer.ggml.tokens")!.value as string[];
    const tokens = copied.get("tokenizer.ggml.tokens")!.value as string[];
    expect(tokens.length).toBe(original.length);
    // The vocabulary file holds placeholders where Qwen3 released its tool and thinking tokens.
    expect(original[151667]).toBe("[PAD151667]");
    expect([tokens[151657], tokens[151665], tokens[151667], tokens[151668]]).toEqual(["<tool_call>", "<tool_response>", "<think>", "</think>"]);
    const restored = new Set(spec.restore.map(([id]) => id));
    expect(tokens.every((t, id) => restored.has(id) || t === original[id])).toBe(true);
    expect(copied.get("tokenizer.ggml.merges")).toEqual(source.get("tokenizer.ggml.merges"));
    expect(copied.get("tokenizer.ggml.pre")).toEqual({ type: "string", value: "qwen2" });
    expect(copied.get("tokenizer.ggml.eos_token_id")).toEqual({ type: "uint32", value: 151645 });
    expect(copied.get("tokenizer.chat_template")!.value).toBe(readFileSync(familySourceFiles(spec).template, "utf8"));
  });

  it("gives Llama 3.2 the <|eom_id|> token its released tokenizer has", () => {
    const tokens = new Map(familyTokenizer(FAMILIES["llama3.2"])).get("tokenizer.ggml.tokens")!.value as string[];
    expect(tokens[128008]).toBe("<|eom_id|>");
    expect(tokens[128009]).toBe("<|eot_id|>");
    expect(tokens[128255]).toBe("<|reserved_special_token_247|>");
  });

  it("writes the same bytes for the same family and seed, other weights for another seed", async () => {
    const out = vi.spyOn(process.stdout, "write").mockImplementation(() => true);
    try {
      const [a, b, c] = ["a", "b", "c"].map((n) => join(dir, `${n}.gguf`));
      expect(await run(["--family", "phi3.5", "--out", a])).toBe(0);
      expect(await run(["--family", "phi3.5", "--out", b, "--seed", "1"])).toBe(0);
      expect(await run(["--family", "phi3.5", "--out", c, "--seed", "2"])).toBe(0);
      expect(out).toHaveBeenCalledWith(a + "\n");
      expect(sha(a)).toBe(sha(b));
      expect(sha(a)).not.toBe(sha(c));
      const meta = readGgufMetadata(a);
      expect(meta.get("general.architecture")?.value).toBe("phi3");
      expect(meta.get("phi3.embedding_length")?.value).toBe(64);
    } finally {
      out.mockRestore();
    }
  });

  it("rejects an unknown family or a vocabulary size for a family", async () => {
    await expect(run(["--family", "gpt5", "--out", join(dir, "x.gguf")])).rejects.toBeInstanceOf(UsageError);
    await expect(run(["--family", "qwen3", "--vocab", "4096", "--out", join(dir, "x.gguf")])).rejects.toThrow(/real vocabulary/);
  });

  it("knows every family it lists", () => {
    for (const id of FAMILY_IDS) expect(FAMILIES[id].id).toBe(id);
  });
});
