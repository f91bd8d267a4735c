/**
 * Random-weight tensors and `<arch>.*` hyperparameters of the hybrid recurrent/attention architectures,
 * in the layout llama.cpp reads (`src/models/qwen35.cpp`, `lfm2.cpp`, `granite-hybrid.cpp` of the source
 * node-llama-cpp ships): Qwen3.5 (Gated DeltaNet layers, every fourth layer gated attention), LFM2 (short
 * convolutions between grouped-query attention layers) and Granite 4.0-H (Mamba-2 layers between
 * attention layers, no positional encoding). Decays are negative constants and norms ones, so a state
 * neither grows nor dies over a long prompt; everything else is drawn as for the attention models.
 */
import type { GgufTensor, GgufValue } from "./gguf-writer";
import { tensorMaker, type HybridArchitecture, type RecurrentShape, type TensorFill, type TestModelShape } from "./tensors";

/** Whether `arch` is one of the hybrid architectures this file writes. */
export function isHybridArchitecture(arch: string): arch is HybridArchitecture {
  return arch === "qwen35" || arch === "lfm2" || arch === "granitehybrid";
}

/** The tiny test shape's recurrent layers: four blocks, the layout of each family's releases in small. */
export function tinyRecurrentShape(arch: HybridArchitecture): RecurrentShape {
  if (arch === "qwen35") return { attentionLayers: [3], convKernel: 4, stateSize: 16, groups: 2, heads: 4 };
  if (arch === "lfm2") return { attentionLayers: [2], convKernel: 3, stateSize: 0, groups: 0, heads: 0 };
  return { attentionLayers: [2], convKernel: 4, stateSize: 16, groups: 1, heads: 8 };
}

/** Every `interval`-th layer of `blocks` (the Qwen3.5 layout: three Gated DeltaNet layers, then attention). */
export function everyNth(blocks: number, interval: number): number[] {
  return Array.from({ length: blocks }, (_, i) => i).filter((i) => (i + 1) % interval === 0);
}

const u32 = (value: number): GgufValue => ({ type: "uint32", value });
const f32 = (value: number): GgufValue => ({ type: "float32", value });

function recurrentOf(s: TestModelShape): RecurrentShape {
  if (!s.recurrent) throw new Error("A hybrid architecture needs the recurrent part of its shape.");
  return s.recurrent;
}

/** Qwen3.5's partial rotary: a quarter of each head, split 11:11:10 across its three M-RoPE sections. */
function qwen35Rope(headDim: number): { nRot: number; sections: number[] } {
  const nRot = headDim / 4;
  const half = nRot / 2;
  const a = Math.round((half * 11) / 32);
  return { nRot, sections: [a, a, half - 2 * a, 0] };
}

/** `<arch>.*` hyperparameters of a hybrid model with this shape. */
export function hybridMetadata(arch: HybridArchitecture, s: TestModelShape): Array<[string, GgufValue]> {
  const r = recurrentOf(s);
  const headDim = s.headDim ?? s.embeddingLength / s.headCount;
  const kvPerLayer: GgufValue = {
    type: "uint32[]",
    value: Array.from({ length: s.blockCount }, (_, i) => (r.attentionLayers.includes(i) ? s.headCountKv : 0)),
  };
  const out: Array<[string, GgufValue]> = [
    // Granite 4.0-H has no positional encoding; its converter writes 2^20 as the context then.
    [`${arch}.context_length`, u32(arch === "granitehybrid" ? 2 ** 20 : s.contextLength)],
    [`${arch}.embedding_length`, u32(s.embeddingLength)],
    [`${arch}.block_count`, u32(s.blockCount)],
    [`${arch}.feed_forward_length`, u32(s.feedForwardLength)],
    [`${arch}.attention.head_count`, u32(s.headCount)],
  ];
  if (arch === "qwen35") {
    const interval = r.attentionLayers[0] + 1;
    const expected = everyNth(s.blockCount, interval);
    if (expected.join() !== r.attentionLayers.join()) throw new Error("Qwen3.5 puts attention on every n-th layer only.");
    const rope = qwen35Rope(headDim);
    out.push(
      [`${arch}.attention.head_count_kv`, u32(s.headCountKv)],
      [`${arch}.attention.key_length`, u32(headDim)],
      [`${arch}.attention.value_length`, u32(headDim)],
      [`${arch}.attention.layer_norm_rms_epsilon`, f32(1e-6)],
      [`${arch}.rope.dimension_count`, u32(rope.nRot)],
      [`${arch}.rope.dimension_sections`, { type: "int32[]", value: rope.sections }],
      [`${arch}.rope.freq_base`, f32(10_000_000)],
      [`${arch}.full_attention_interval`, u32(interval)],
      [`${arch}.ssm.conv_kernel`, u32(r.convKernel)],
      [`${arch}.ssm.state_size`, u32(r.stateSize)],
      [`${arch}.ssm.group_count`, u32(r.groups)],
      [`${arch}.ssm.time_step_rank`, u32(r.heads)],
      [`${arch}.ssm.inner_size`, u32(r.heads * r.stateSize)],
    );
  } else if (arch === "lfm2") {
    out.push(
      [`${arch}.attention.head_count_kv`, kvPerLayer],
      [`${arch}.attention.layer_norm_rms_epsilon`, f32(1e-5)],
      [`${arch}.rope.freq_base`, f32(1_000_000)],
      [`${arch}.shortconv.l_cache`, u32(r.convKernel)],
    );
  } else {
    out.push(
      [`${arch}.attention.head_count_kv`, kvPerLayer],
      [`${arch}.attention.layer_norm_rms_epsilon`, f32(1e-5)],
      [`${arch}.rope.freq_base`, f32(10000)],
      [`${arch}.rope.scaling.finetuned`, { type: "bool", value: false }],
      // Granite's multipliers, as the Granite 4.0 H Micro config gives them (residual: Granite 3's).
      [`${arch}.embedding_scale`, f32(12)],
      [`${arch}.residual_scale`, f32(0.22)],
      [`${arch}.attention.scale`, f32(0.015625)],
      [`${arch}.logit_scale`, f32(8)],
      [`${arch}.ssm.conv_kernel`, u32(r.convKernel)],
      [`${arch}.ssm.state_size`, u32(r.stateSize)],
      [`${arch}.ssm.group_count`, u32(r.groups)],
      [`${arch}.ssm.time_step_rank`, u32(r.heads)],
      [`${arch}.ssm.inner_size`, u32(2 * s.embeddingLength)],
    );
  }
  return out;
}

/**
 * Tensors of a hybrid model. `quietTokens` get zero output logits. The releases tie the output projection
 * to the token embedding (`fill.tiedOutput`, as the realistic sizes write them); the tiny models have their
 * own output projection, since a random model with tied embeddings only echoes its last input token.
 */
export function hybridTensors(
  arch: HybridArchitecture,
  s: TestModelShape,
  vocabSize: number,
  seed: number,
  quietTokens: readonly number[],
  fill: TensorFill = {},
): GgufTensor[] {
  const r = recurrentOf(s);
  const { ones, constant, matrix, randomF32 } = tensorMaker(seed, fill);
  const e = s.embeddingLength;
  const headDim = s.headDim ?? e / s.headCount;
  const qDim = headDim * s.headCount;
  const kvDim = headDim * s.headCountKv;
  const layerScale = 1 / Math.sqrt(e);
  const tied = fill.tiedOutput ?? false;
  const tensors: GgufTensor[] = [matrix("token_embd.weight", e, vocabSize, 1, tied ? quietTokens : [])];
  const ffn = (p: string): GgufTensor[] => [
    matrix(`${p}ffn_gate.weight`, e, s.feedForwardLength, layerScale),
    matrix(`${p}ffn_down.weight`, s.feedForwardLength, e, 1 / Math.sqrt(s.feedForwardLength)),
    matrix(`${p}ffn_up.weight`, e, s.feedForwardLength, layerScale),
  ];
  const attention = (p: string, qRows: number, oCols: number): GgufTensor[] => [
    matrix(`${p}attn_q.weight`, e, qRows, layerScale),
    matrix(`${p}attn_k.weight`, e, kvDim, layerScale),
    matrix(`${p}attn_v.weight`, e, kvDim, layerScale),
    matrix(`${p}attn_output.weight`, oCols, e, 1 / Math.sqrt(oCols)),
  ];
  for (let b = 0; b < s.blockCount; b++) {
    const p = `blk.${b}.`;
    const isAttention = r.attentionLayers.includes(b);
    tensors.push(ones(`${p}attn_norm.weight`, e));
    if (arch === "qwen35") {
      tensors.push(ones(`${p}post_attention_norm.weight`, e));
      if (isAttention) {
        // The query projection carries the output gate beside the query (twice the width).
        tensors.push(...attention(p, 2 * qDim, qDim), ones(`${p}attn_q_norm.weight`, headDim), ones(`${p}attn_k_norm.weight`, headDim));
      } else {
        const keyDim = r.stateSize * r.groups;
        const valueDim = r.stateSize * r.heads;
        tensors.push(
          matrix(`${p}attn_qkv.weight`, e, 2 * keyDim + valueDim, layerScale),
          matrix(`${p}attn_gate.weight`, e, valueDim, layerScale),
          randomF32(`${p}ssm_conv1d.weight`, [r.convKernel, 2 * keyDim + valueDim], 0.5),
          constant(`${p}ssm_dt.bias`, [r.heads], 1),
          constant(`${p}ssm_a`, [r.heads], -1),
          matrix(`${p}ssm_beta.weight`, e, r.heads, layerScale),
          matrix(`${p}ssm_alpha.weight`, e, r.heads, layerScale),
          ones(`${p}ssm_norm.weight`, r.stateSize),
          matrix(`${p}ssm_out.weight`, valueDim, e, 1 / Math.sqrt(valueDim)),
        );
      }
    } else if (arch === "lfm2") {
      if (isAttention) {
        tensors.push(...attention(p, e, e), ones(`${p}attn_q_norm.weight`, headDim), ones(`${p}attn_k_norm.weight`, headDim));
      } else {
        tensors.push(
          randomF32(`${p}shortconv.conv.weight`, [r.convKernel, e], 0.5),
          matrix(`${p}shortconv.in_proj.weight`, e, 3 * e, layerScale),
          matrix(`${p}shortconv.out_proj.weight`, e, e, layerScale),
        );
      }
    } else if (isAttention) {
      tensors.push(...attention(p, qDim, qDim));
    } else {
      // Mamba-2: the input projection yields z, x, B, C and dt; the convolution runs over x, B and C.
      const inner = 2 * e;
      const convDim = inner + 2 * r.groups * r.stateSize;
      tensors.push(
        matrix(`${p}ssm_in.weight`, e, 2 * inner + 2 * r.groups * r.stateSize + r.heads, layerScale),
        randomF32(`${p}ssm_conv1d.weight`, [r.convKernel, convDim], 0.5),
        constant(`${p}ssm_conv1d.bias`, [convDim], 0),
        constant(`${p}ssm_dt.bias`, [r.heads], 0),
        constant(`${p}ssm_a`, [1, r.heads], -1),
        constant(`${p}ssm_d`, [1, r.heads], 1),
        constant(`${p}ssm_norm.weight`, [inner / r.groups, r.groups], 1),
        matrix(`${p}ssm_out.weight`, inner, e, 1 / Math.sqrt(inner)),
      );
    }
    // Qwen3.5 normalizes the FFN's input with post_attention_norm; the others have an ffn_norm.
    if (arch !== "qwen35") tensors.push(ones(`${p}ffn_norm.weight`, e));
    tensors.push(...ffn(p));
  }
  // LFM2's final norm is stored under the name "token_embd_norm" (llama.cpp reads it as the output norm).
  tensors.push(ones(arch === "lfm2" ? "token_embd_norm.weight" : "output_norm.weight", e));
  if (!tied) tensors.push(matrix("output.weight", e, vocabSize, 0.5, quietTokens));
  return tensors;
}
