/**
 * Random-weight tensors (and the shape metadata) of a tiny transformer in the layout llama.cpp expects
 * for each architecture the test models use. Every tensor draws from its own seeded stream, so the
 * bytes depend only on (architecture, shape, vocabulary size, seed).
 */
import { toHalf, type GgufTensor, type GgufValue } from "./gguf-writer";
import { SeededRandom } from "./prng";

/** The model's dimensions. */
export interface TestModelShape {
  embeddingLength: number;
  blockCount: number;
  headCount: number;
  headCountKv: number;
  feedForwardLength: number;
  /** <arch>.context_length: the trained context. */
  contextLength: number;
  /** Per-head dimension when it is not embeddingLength / headCount (Qwen3, Gemma 2). */
  headDim?: number;
  /** The recurrent layers of a hybrid architecture (Qwen3.5, LFM2, Granite 4-H); see hybrid-tensors.ts. */
  recurrent?: RecurrentShape;
}

/** Where a hybrid model's attention layers sit and the size of its recurrent layers. */
export interface RecurrentShape {
  /** Indices of the attention layers; every other layer is recurrent. */
  attentionLayers: readonly number[];
  /** Width of the causal convolution (LFM2's short convolution cache, the conv kernel of the others). */
  convKernel: number;
  /** Per-head state width: Gated DeltaNet's key/value head size, Mamba-2's d_state. Not used by LFM2. */
  stateSize: number;
  /** Gated DeltaNet's key heads, Mamba-2's groups. Not used by LFM2. */
  groups: number;
  /** Gated DeltaNet's value heads, Mamba-2's heads. Not used by LFM2. */
  heads: number;
}

/** How the weights are produced. */
export interface TensorFill {
  /**
   * Realistic-size models: each matrix repeats one seeded block of rows (written as F16 bytes in chunks),
   * so hundreds of millions of weights take seconds instead of minutes. Tiny models draw every weight.
   */
  repeatRows?: boolean;
  /** Leave out output.weight (the released model ties it to the token embedding). Default: per architecture. */
  tiedOutput?: boolean;
}

/** Rows in a repeated block: prime, so repeats do not line up with head or vocabulary boundaries. */
const BLOCK_ROWS = 61;
/** Bytes per written chunk of a repeated matrix. */
const CHUNK_BYTES = 4 << 20;

/** Architectures whose tensor layout this generator writes. */
export type TestArchitecture = "llama" | "qwen2" | "qwen3" | "phi3" | "gemma2" | "gemma4" | "smollm3" | HybridArchitecture;

/** Hybrid recurrent/attention architectures (hybrid-tensors.ts writes them). */
export type HybridArchitecture = "qwen35" | "lfm2" | "granitehybrid";

/** Architectures whose output projection is the token embedding (llama.cpp refuses an extra output tensor). */
const TIED_OUTPUT = new Set<string>(["gemma2", "gemma4"]);

/** FNV-1a of a tensor name: each tensor draws from its own stream, so values never depend on write order. */
function nameHash(name: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < name.length; i++) h = Math.imul(h ^ name.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

/** Makes the tensors of one model: every matrix draws from its own seeded stream (see nameHash). */
export interface TensorMaker {
  /** A vector of ones (norm weights). */
  ones: (name: string, n: number) => GgufTensor;
  /** A tensor of one value everywhere (e.g. a recurrent layer's negative decay). */
  constant: (name: string, dims: number[], value: number) => GgufTensor;
  /** A random [cols, rows] F16 matrix scaled by `scale`, with `zeroRows` zeroed. */
  matrix: (name: string, cols: number, rows: number, scale: number, zeroRows?: readonly number[]) => GgufTensor;
  /** A small random F32 tensor (what converters keep in F32, such as convolution kernels). */
  randomF32: (name: string, dims: number[], scale: number) => GgufTensor;
}

export function tensorMaker(seed: number, fill: TensorFill = {}): TensorMaker {
  const constant = (name: string, dims: number[], value: number): GgufTensor => ({
    name,
    dims,
    type: "F32",
    values: () => new Float32Array(dims.reduce((a, b) => a * b, 1)).fill(value),
  });
  const matrix = (name: string, cols: number, rows: number, scale: number, zeroRows: readonly number[] = []): GgufTensor => {
    const draw = (count: number): Float32Array => new SeededRandom((seed ^ nameHash(name)) >>> 0).fill(count, scale);
    const tensor: GgufTensor = {
      name,
      dims: [cols, rows],
      type: "F16",
      values: () => {
        const data = draw(cols * rows);
        for (const r of zeroRows) data.fill(0, r * cols, (r + 1) * cols);
        return data;
      },
    };
    if (fill.repeatRows && rows > BLOCK_ROWS) tensor.chunks = () => repeatedRows(draw(cols * BLOCK_ROWS), cols, rows, zeroRows);
    return tensor;
  };
  const randomF32 = (name: string, dims: number[], scale: number): GgufTensor => ({
    name,
    dims,
    type: "F32",
    values: () => new SeededRandom((seed ^ nameHash(name)) >>> 0).fill(dims.reduce((a, b) => a * b, 1), scale),
  });
  return { ones: (name, n) => constant(name, [n], 1), constant, matrix, randomF32 };
}

/**
 * Tensors for `arch`. `quietTokens` get zero output logits (their embedding rows, for tied
 * architectures), so random sampling rarely ends a reply or fakes a turn marker.
 */
export function transformerTensors(
  arch: string,
  s: TestModelShape,
  vocabSize: number,
  seed: number,
  quietTokens: readonly number[],
  fill: TensorFill = {},
): GgufTensor[] {
  const headDim = s.headDim ?? s.embeddingLength / s.headCount;
  const kvDim = headDim * s.headCountKv;
  const qDim = headDim * s.headCount;
  const { ones, matrix } = tensorMaker(seed, fill);
  const tied = fill.tiedOutput ?? TIED_OUTPUT.has(arch);
  const e = s.embeddingLength;
  const tensors: GgufTensor[] = [matrix("token_embd.weight", e, vocabSize, 1, tied ? quietTokens : [])];
  if (arch === "gemma4") tensors.push(ones("rope_freqs.weight", headDim / 2));
  const layerScale = 1 / Math.sqrt(e);
  for (let b = 0; b < s.blockCount; b++) {
    const p = `blk.${b}.`;
    tensors.push(
      ones(`${p}attn_norm.weight`, e),
      matrix(`${p}attn_q.weight`, e, qDim, layerScale),
      matrix(`${p}attn_k.weight`, e, kvDim, layerScale),
      matrix(`${p}attn_v.weight`, e, kvDim, layerScale),
      matrix(`${p}attn_output.weight`, qDim, e, 1 / Math.sqrt(qDim)),
    );
    if (arch === "qwen3" || arch === "gemma4") tensors.push(ones(`${p}attn_q_norm.weight`, headDim), ones(`${p}attn_k_norm.weight`, headDim));
    if (arch === "gemma2" || arch === "gemma4") tensors.push(ones(`${p}post_attention_norm.weight`, e));
    tensors.push(ones(`${p}ffn_norm.weight`, e));
    const down = matrix(`${p}ffn_down.weight`, s.feedForwardLength, e, 1 / Math.sqrt(s.feedForwardLength));
    if (arch === "phi3") {
      // Phi-3 fuses gate and up into one [n_embd, 2 * n_ff] projection.
      tensors.push(down, matrix(`${p}ffn_up.weight`, e, 2 * s.feedForwardLength, layerScale));
    } else {
      tensors.push(matrix(`${p}ffn_gate.weight`, e, s.feedForwardLength, layerScale), down, matrix(`${p}ffn_up.weight`, e, s.feedForwardLength, layerScale));
    }
    if (arch === "gemma2" || arch === "gemma4") tensors.push(ones(`${p}post_ffw_norm.weight`, e));
  }
  tensors.push(ones("output_norm.weight", e));
  if (!tied) tensors.push(matrix("output.weight", e, vocabSize, 0.5, quietTokens));
  return tensors;
}

/** F16 bytes of a `rows`-row matrix that repeats `block` (BLOCK_ROWS rows), with `zeroRows` zeroed. */
function* repeatedRows(block: Float32Array, cols: number, rows: number, zeroRows: readonly number[]): Generator<Uint8Array> {
  const blockBytes = Buffer.alloc(block.length * 2);
  for (let i = 0; i < block.length; i++) blockBytes.writeUInt16LE(toHalf(block[i]), i * 2);
  const rowBytes = cols * 2;
  const blocksPerChunk = Math.max(1, Math.floor(CHUNK_BYTES / blockBytes.length));
  const chunk = Buffer.alloc(blocksPerChunk * blockBytes.length);
  for (let b = 0; b < blocksPerChunk; b++) blockBytes.copy(chunk, b * blockBytes.length);
  const zero = [...zeroRows].sort((a, b) => a - b);
  const chunkRows = blocksPerChunk * BLOCK_ROWS;
  for (let start = 0; start < rows; start += chunkRows) {
    const n = Math.min(chunkRows, rows - start);
    const hits = zero.filter((r) => r >= start && r < start + n);
    if (hits.length === 0) {
      yield chunk.subarray(0, n * rowBytes);
      continue;
    }
    const copy = Buffer.from(chunk.subarray(0, n * rowBytes));
    for (const r of hits) copy.fill(0, (r - start) * rowBytes, (r - start + 1) * rowBytes);
    yield copy;
  }
}

/** `<arch>.*` hyperparameters for this shape. */
export function architectureMetadata(arch: string, s: TestModelShape): Array<[string, GgufValue]> {
  const u32 = (value: number): GgufValue => ({ type: "uint32", value });
  const f32 = (value: number): GgufValue => ({ type: "float32", value });
  const headDim = s.headDim ?? s.embeddingLength / s.headCount;
  const out: Array<[string, GgufValue]> = [
    [`${arch}.context_length`, u32(s.contextLength)],
    [`${arch}.embedding_length`, u32(s.embeddingLength)],
    [`${arch}.block_count`, u32(s.blockCount)],
    [`${arch}.feed_forward_length`, u32(s.feedForwardLength)],
    [`${arch}.attention.head_count`, u32(s.headCount)],
    [`${arch}.attention.head_count_kv`, u32(s.headCountKv)],
    [`${arch}.rope.dimension_count`, u32(headDim)],
    [`${arch}.rope.freq_base`, f32(10000)],
    [`${arch}.attention.layer_norm_rms_epsilon`, f32(1e-5)],
  ];
  if (s.headDim !== undefined && arch !== "gemma2" && arch !== "gemma4") {
    out.push([`${arch}.attention.key_length`, u32(headDim)], [`${arch}.attention.value_length`, u32(headDim)]);
  }
  if (arch === "gemma2" || arch === "gemma4") {
    out.push(
      [`${arch}.attention.key_length`, u32(headDim)],
      [`${arch}.attention.value_length`, u32(headDim)],
      [`${arch}.attention.sliding_window`, u32(512)],
      [`${arch}.final_logit_softcapping`, f32(30)],
    );
  }
  if (arch === "gemma2") out.push([`${arch}.attn_logit_softcapping`, f32(50)]);
  if (arch === "gemma4") {
    out.push(
      // Alternating sliding-window and full-attention layers, as Gemma 4 does.
      [`${arch}.attention.sliding_window_pattern`, { type: "bool[]", value: Array.from({ length: s.blockCount }, (_, i) => i % 2 === 0) }],
      [`${arch}.attention.shared_kv_layers`, u32(0)],
      [`${arch}.attention.key_length_swa`, u32(headDim)],
      [`${arch}.attention.value_length_swa`, u32(headDim)],
      [`${arch}.rope.dimension_count_swa`, u32(headDim)],
      [`${arch}.rope.freq_base_swa`, f32(10000)],
      [`${arch}.embedding_length_per_layer_input`, u32(0)],
    );
  }
  return out;
}
