/**
 * The deterministic tiny random-weight llama model the tests and the offline demo run on.
 * Its words are noise; its tokenizer, chat template and shapes are real, so the whole engine path
 * (load, chat formatting, grammar-constrained sampling, embedding) is exercised for real.
 */
import { mkdirSync, renameSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { encodeGguf, encodeGgufHeader, type GgufContent, type GgufTensor, type GgufValue } from "./gguf-writer";
import { SeededRandom } from "./prng";
import { buildVocabulary, SPECIAL_TOKENS } from "./vocabulary";

/** What the test model may vary. */
export interface TestModelOptions {
  /** Vocabulary size; default 8192. */
  vocab?: number;
  /** PRNG seed for the weights; default 1. */
  seed?: number;
  /** general.architecture; default "llama". Tests set another to get an unsupported model. */
  architecture?: string;
  /** Dimension overrides; tests use huge ones (header only) to get a model too large for memory. */
  shape?: Partial<TestModelShape>;
}

/** The model's dimensions. */
export interface TestModelShape {
  embeddingLength: number;
  blockCount: number;
  headCount: number;
  headCountKv: number;
  feedForwardLength: number;
  /** llama.context_length: the trained context. */
  contextLength: number;
}

/** Fixed tiny dimensions: big enough to be a real llama graph, small enough to run ~1000 tokens/s on one core. */
export const TEST_MODEL_SHAPE: Readonly<TestModelShape> = {
  embeddingLength: 64,
  blockCount: 2,
  headCount: 4,
  headCountKv: 4,
  feedForwardLength: 128,
  contextLength: 16384,
};

export const DEFAULT_TEST_VOCAB = 8192;
export const DEFAULT_TEST_SEED = 1;

/** ChatML, the template most instruction models ship; node-llama-cpp recognizes it. */
export const CHATML_TEMPLATE =
  "{% for message in messages %}{{'<|im_start|>' + message['role'] + '\\n' + message['content'] + '<|im_end|>' + '\\n'}}{% endfor %}" +
  "{% if add_generation_prompt %}{{ '<|im_start|>assistant\\n' }}{% endif %}";

/** FNV-1a of a tensor name: each tensor draws from its own stream, so values never depend on write order. */
function nameHash(name: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < name.length; i++) h = Math.imul(h ^ name.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

/** Metadata and tensors (weights produced lazily) for these options. */
export function testModelContent(options: TestModelOptions = {}): GgufContent {
  const vocabSize = options.vocab ?? DEFAULT_TEST_VOCAB;
  const seed = options.seed ?? DEFAULT_TEST_SEED;
  const arch = options.architecture ?? "llama";
  const vocab = buildVocabulary(vocabSize);
  const s: TestModelShape = { ...TEST_MODEL_SHAPE, ...options.shape };
  const headDim = s.embeddingLength / s.headCount;
  const kvDim = headDim * s.headCountKv;
  const norm = (name: string): GgufTensor => ({
    name,
    dims: [s.embeddingLength],
    type: "F32",
    values: () => new Float32Array(s.embeddingLength).fill(1),
  });
  const matrix = (name: string, cols: number, rows: number, scale: number, zeroRows: readonly number[] = []): GgufTensor => ({
    name,
    dims: [cols, rows],
    type: "F16",
    values: () => {
      const data = new SeededRandom((seed ^ nameHash(name)) >>> 0).fill(cols * rows, scale);
      for (const r of zeroRows) data.fill(0, r * cols, (r + 1) * cols);
      return data;
    },
  });

  const tensors: GgufTensor[] = [matrix("token_embd.weight", s.embeddingLength, vocabSize, 1)];
  const layerScale = 1 / Math.sqrt(s.embeddingLength);
  for (let b = 0; b < s.blockCount; b++) {
    const p = `blk.${b}.`;
    tensors.push(
      norm(`${p}attn_norm.weight`),
      matrix(`${p}attn_q.weight`, s.embeddingLength, s.embeddingLength, layerScale),
      matrix(`${p}attn_k.weight`, s.embeddingLength, kvDim, layerScale),
      matrix(`${p}attn_v.weight`, s.embeddingLength, kvDim, layerScale),
      matrix(`${p}attn_output.weight`, s.embeddingLength, s.embeddingLength, layerScale),
      norm(`${p}ffn_norm.weight`),
      matrix(`${p}ffn_gate.weight`, s.embeddingLength, s.feedForwardLength, layerScale),
      matrix(`${p}ffn_down.weight`, s.feedForwardLength, s.embeddingLength, 1 / Math.sqrt(s.feedForwardLength)),
      matrix(`${p}ffn_up.weight`, s.embeddingLength, s.feedForwardLength, layerScale),
    );
  }
  // Special tokens get zero logits, so random sampling rarely ends a reply or fakes a turn marker.
  tensors.push(norm("output_norm.weight"), matrix("output.weight", s.embeddingLength, vocabSize, 0.5, Object.values(SPECIAL_TOKENS)));

  const u32 = (value: number): GgufValue => ({ type: "uint32", value });
  const metadata: Array<[string, GgufValue]> = [
    ["general.architecture", { type: "string", value: arch }],
    ["general.name", { type: "string", value: `Vault Agent test model (vocab ${vocabSize}, seed ${seed})` }],
    ["general.file_type", u32(1)],
    ["general.quantization_version", u32(2)],
    [`${arch}.context_length`, u32(s.contextLength)],
    [`${arch}.embedding_length`, u32(s.embeddingLength)],
    [`${arch}.block_count`, u32(s.blockCount)],
    [`${arch}.feed_forward_length`, u32(s.feedForwardLength)],
    [`${arch}.attention.head_count`, u32(s.headCount)],
    [`${arch}.attention.head_count_kv`, u32(s.headCountKv)],
    [`${arch}.rope.dimension_count`, u32(headDim)],
    [`${arch}.rope.freq_base`, { type: "float32", value: 10000 }],
    [`${arch}.attention.layer_norm_rms_epsilon`, { type: "float32", value: 1e-5 }],
    [`${arch}.vocab_size`, u32(vocabSize)],
    ["tokenizer.ggml.model", { type: "string", value: "llama" }],
    ["tokenizer.ggml.tokens", { type: "string[]", value: vocab.tokens }],
    ["tokenizer.ggml.scores", { type: "float32[]", value: vocab.scores }],
    ["tokenizer.ggml.token_type", { type: "int32[]", value: vocab.types }],
    ["tokenizer.ggml.unknown_token_id", u32(SPECIAL_TOKENS.unknown)],
    ["tokenizer.ggml.bos_token_id", u32(SPECIAL_TOKENS.bos)],
    ["tokenizer.ggml.eos_token_id", u32(SPECIAL_TOKENS.eos)],
    ["tokenizer.ggml.eot_token_id", u32(SPECIAL_TOKENS.imEnd)],
    ["tokenizer.ggml.add_bos_token", { type: "bool", value: true }],
    ["tokenizer.ggml.add_eos_token", { type: "bool", value: false }],
    ["tokenizer.chat_template", { type: "string", value: CHATML_TEMPLATE }],
  ];
  return { metadata, tensors };
}

/** Builds the GGUF image for these options; same options, same bytes. */
export function buildTestModel(options: TestModelOptions = {}): Buffer {
  return encodeGguf(testModelContent(options));
}

/** Just the header of the model, and the size the full file would have (for sparse "huge model" fixtures). */
export function buildTestModelHeader(options: TestModelOptions = {}): { header: Buffer; totalBytes: number } {
  return encodeGgufHeader(testModelContent(options));
}

/** Writes the model to `path` atomically (temp file, then rename), so concurrent writers never expose half a file. */
export function writeTestModel(path: string, options: TestModelOptions = {}): string {
  mkdirSync(dirname(path), { recursive: true });
  const temp = `${path}.${process.pid}.${Date.now()}.tmp`;
  writeFileSync(temp, buildTestModel(options));
  renameSync(temp, path);
  return path;
}
