import { createHash } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { UsageError } from "../../../src/node/cli-types";
import { run } from "../../../src/node/commands/make-test-model";
import { familyModelContent } from "../../../src/node/test-model/family-model";
import { encodeGguf, encodeGgufHeader, writeGgufFile } from "../../../src/node/test-model/gguf-writer";
import { llamaSourceDir } from "../../../src/node/test-model/llama-source";
import { releasedShape } from "../../../src/node/test-model/sizes";

const dir = mkdtempSync(join(tmpdir(), "model-sizes-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const sha = (bytes: Uint8Array): string => createHash("sha256").update(bytes).digest("hex");

describe("realistic-size family models", () => {
  it("describes Qwen2.5 0.5b at Qwen2.5-0.5B's dimensions, output tied to the embedding, about 1 GB in F16", () => {
    const content = familyModelContent("qwen2.5", 1, llamaSourceDir(), "0.5b");
    const meta = new Map(content.metadata.map(([k, v]) => [k, v.value]));
    expect([meta.get("qwen2.embedding_length"), meta.get("qwen2.block_count"), meta.get("qwen2.attention.head_count")]).toEqual([896, 24, 14]);
    expect([meta.get("qwen2.attention.head_count_kv"), meta.get("qwen2.feed_forward_length")]).toEqual([2, 4864]);
    expect(content.tensors.some((t) => t.name === "output.weight")).toBe(false);
    const { totalBytes } = encodeGgufHeader(content);
    expect(totalBytes).toBeGreaterThan(0.98e9);
    expect(totalBytes).toBeLessThan(1.0e9);
  });

  it("gives Qwen3 its 128-wide heads, so the query projection is wider than the hidden size", () => {
    const content = familyModelContent("qwen3", 1, llamaSourceDir(), "0.5b");
    const q = content.tensors.find((t) => t.name === "blk.0.attn_q.weight")!;
    const o = content.tensors.find((t) => t.name === "blk.0.attn_output.weight")!;
    expect(q.dims).toEqual([1024, 2048]);
    expect(o.dims).toEqual([2048, 1024]);
    expect(new Map(content.metadata.map(([k, v]) => [k, v.value])).get("qwen3.attention.key_length")).toBe(128);
  });

  it("describes Qwen3.5 2b at Qwen3.5-2B's dimensions: three Gated DeltaNet layers to one gated attention layer, 248,320 tokens", () => {
    const content = familyModelContent("qwen3.5", 1, llamaSourceDir(), "2b");
    const meta = new Map(content.metadata.map(([k, v]) => [k, v.value]));
    expect([meta.get("qwen35.embedding_length"), meta.get("qwen35.block_count"), meta.get("qwen35.feed_forward_length")]).toEqual([2048, 24, 6144]);
    expect([meta.get("qwen35.full_attention_interval"), meta.get("qwen35.ssm.inner_size"), meta.get("qwen35.rope.dimension_count")]).toEqual([4, 2048, 64]);
    expect([...(meta.get("qwen35.rope.dimension_sections") as number[])]).toEqual([11, 11, 10, 0]);
    expect((meta.get("tokenizer.ggml.tokens") as string[]).length).toBe(248320);
    const dims = (name: string) => content.tensors.find((t) => t.name === name)?.dims;
    // Layer 3 attends: the query carries its output gate (2 x 8 heads x 256); layer 0 is a Gated DeltaNet layer.
    expect(dims("blk.3.attn_q.weight")).toEqual([2048, 4096]);
    expect(dims("blk.3.attn_qkv.weight")).toBeUndefined();
    expect(dims("blk.0.attn_qkv.weight")).toEqual([2048, 6144]);
    expect(dims("blk.0.ssm_conv1d.weight")).toEqual([4, 6144]);
    expect(content.tensors.some((t) => t.name === "output.weight")).toBe(false);
    const { totalBytes } = encodeGgufHeader(content);
    // About 1.9 B weights in F16 (the released model's text part).
    expect(totalBytes).toBeGreaterThan(3.5e9);
    expect(totalBytes).toBeLessThan(4.2e9);
  });

  it("streams a matrix as repeated row blocks with the quiet token rows zeroed", () => {
    const content = familyModelContent("qwen2.5", 1, llamaSourceDir(), "0.5b");
    const embd = content.tensors.find((t) => t.name === "token_embd.weight")!;
    const [cols, rows] = embd.dims;
    const bytes = Buffer.concat([...embd.chunks!()]);
    expect(bytes.length).toBe(cols * rows * 2);
    const row = (r: number): Buffer => bytes.subarray(r * cols * 2, (r + 1) * cols * 2);
    // <|im_end|> (151645) is a control token: zero logits; ordinary rows repeat every 61 rows and are not zero.
    expect(row(151645).every((b) => b === 0)).toBe(true);
    expect(row(1000).equals(row(1061))).toBe(true);
    expect(row(1000).equals(row(1001))).toBe(false);
    expect(row(1000).some((b) => b !== 0)).toBe(true);
  });

  it("writes a tiny model to a file with the same bytes as the in-memory encoder", () => {
    const content = familyModelContent("phi3.5", 1, llamaSourceDir(), "tiny");
    const path = join(dir, "tiny.gguf");
    writeGgufFile(path, content);
    expect(sha(readFileSync(path))).toBe(sha(encodeGguf(content)));
  });

  it("refuses a size the family has no release of, naming the sizes it has", async () => {
    expect(releasedShape("llama3.2", "0.5b")).toBe("The llama3.2 family has no released model at size 0.5b; its sizes are tiny, 1.5b, 3b.");
    await expect(run(["--family", "llama3.2", "--size", "0.5b", "--out", join(dir, "x.gguf")])).rejects.toThrow(UsageError);
    await expect(run(["--family", "qwen2.5", "--size", "7b", "--out", join(dir, "x.gguf")])).rejects.toThrow("--size must be one of tiny, 0.5b, 1.5b, 2b, 3b, 4b");
    await expect(run(["--size", "0.5b", "--out", join(dir, "x.gguf")])).rejects.toThrow("--size needs --family");
  });
});
