/**
 * The hybrid family models' layouts, as llama.cpp reads them (src/models/qwen35.cpp, lfm2.cpp and granite-hybrid.cpp
 * of node-llama-cpp's llama.cpp source): which layers attend and which carry recurrent state, and the hyperparameters
 * that say so. The family tests load and run them; these catch a layout change in milliseconds.
 */
import { describe, expect, it } from "vitest";
import { familyModelContent } from "../../../src/node/test-model/family-model";
import { llamaSourceDir } from "../../../src/node/test-model/llama-source";

const layers = (names: string[], suffix: string): number[] =>
  names.filter((n) => n.endsWith(suffix)).map((n) => Number(n.split(".")[1])).sort((a, b) => a - b);

describe("hybrid family test models", () => {
  it("gives tiny Qwen3.5 three Gated DeltaNet layers, then a gated attention layer, and no ffn_norm", () => {
    const content = familyModelContent("qwen3.5", 1, llamaSourceDir(), "tiny");
    const names = content.tensors.map((t) => t.name);
    const meta = new Map(content.metadata.map(([k, v]) => [k, v.value]));
    expect(layers(names, ".attn_q.weight")).toEqual([3]);
    expect(layers(names, ".attn_qkv.weight")).toEqual([0, 1, 2]);
    expect(layers(names, ".ssm_a")).toEqual([0, 1, 2]);
    expect(names.some((n) => n.includes("ffn_norm"))).toBe(false);
    expect(meta.get("qwen35.full_attention_interval")).toBe(4);
    // The query projection carries the output gate: twice the heads' width.
    expect(content.tensors.find((t) => t.name === "blk.3.attn_q.weight")!.dims).toEqual([64, 128]);
  });

  it("marks LFM2's and Granite 4.0-H's recurrent layers by zero key/value heads, as their converters do", () => {
    for (const [family, arch, recurrent] of [["lfm2", "lfm2", ".shortconv.in_proj.weight"], ["granite4h", "granitehybrid", ".ssm_in.weight"]] as const) {
      const content = familyModelContent(family, 1, llamaSourceDir(), "tiny");
      const names = content.tensors.map((t) => t.name);
      const meta = new Map(content.metadata.map(([k, v]) => [k, v.value]));
      expect([...(meta.get(`${arch}.attention.head_count_kv`) as number[])], family).toEqual([0, 0, 4, 0]);
      expect(layers(names, ".attn_q.weight"), family).toEqual([2]);
      expect(layers(names, recurrent), family).toEqual([0, 1, 3]);
    }
  });

  it("writes Granite 4.0-H without positions (no rope) and LFM2's final norm under llama.cpp's name for it", () => {
    const granite = new Map(familyModelContent("granite4h", 1, llamaSourceDir(), "tiny").metadata.map(([k, v]) => [k, v.value]));
    expect(granite.get("granitehybrid.rope.scaling.finetuned")).toBe(false);
    expect(granite.get("granitehybrid.ssm.inner_size")).toBe(128);
    const lfm2 = familyModelContent("lfm2", 1, llamaSourceDir(), "tiny").tensors.map((t) => t.name);
    expect(lfm2).toContain("token_embd_norm.weight");
    expect(lfm2).not.toContain("output_norm.weight");
  });

  it("describes LFM2 1.5b at LFM2.5-1.2B's dimensions: six attention layers among sixteen", () => {
    const content = familyModelContent("lfm2", 1, llamaSourceDir(), "1.5b");
    const meta = new Map(content.metadata.map(([k, v]) => [k, v.value]));
    expect([meta.get("lfm2.embedding_length"), meta.get("lfm2.block_count"), meta.get("lfm2.feed_forward_length")]).toEqual([2048, 16, 8192]);
    expect([...(meta.get("lfm2.attention.head_count_kv") as number[])].filter((kv) => kv > 0)).toHaveLength(6);
    expect(content.tensors.some((t) => t.name === "output.weight")).toBe(false);
  });

  it("describes Granite 4.0-H 3b at Granite 4.0 H Micro's dimensions: attention at 5, 15, 25 and 35, Mamba-2 between", () => {
    const content = familyModelContent("granite4h", 1, llamaSourceDir(), "3b");
    const meta = new Map(content.metadata.map(([k, v]) => [k, v.value]));
    const kv = [...(meta.get("granitehybrid.attention.head_count_kv") as number[])];
    expect(kv.flatMap((n, i) => (n > 0 ? [i] : []))).toEqual([5, 15, 25, 35]);
    expect([meta.get("granitehybrid.ssm.inner_size"), meta.get("granitehybrid.ssm.time_step_rank"), meta.get("granitehybrid.ssm.state_size")]).toEqual([4096, 64, 128]);
    // z, x, B, C and one dt per head: 2 x 4096 + 2 x 128 + 64.
    expect(content.tensors.find((t) => t.name === "blk.0.ssm_in.weight")!.dims).toEqual([2048, 8512]);
  });
});
