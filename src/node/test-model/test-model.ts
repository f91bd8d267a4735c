/**
 * The deterministic tiny random-weight llama model the tests and the offline demo run on.
 * Its words are noise; its tokenizer, chat template and shapes are real, so the whole engine path
 * (load, chat formatting, grammar-constrained sampling, embedding) is exercised for real.
 */
import { mkdirSync, renameSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { encodeGguf, encodeGgufHeader, type GgufContent, type GgufValue } from "./gguf-writer";
import { architectureMetadata, transformerTensors, type TestModelShape } from "./tensors";
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

export type { TestModelShape } from "./tensors";

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

/** Metadata and tensors (weights produced lazily) for these options. */
export function testModelContent(options: TestModelOptions = {}): GgufContent {
  const vocabSize = options.vocab ?? DEFAULT_TEST_VOCAB;
  const seed = options.seed ?? DEFAULT_TEST_SEED;
  const arch = options.architecture ?? "llama";
  const vocab = buildVocabulary(vocabSize);
  const s: TestModelShape = { ...TEST_MODEL_SHAPE, ...options.shape };
  const tensors = transformerTensors(arch, s, vocabSize, seed, Object.values(SPECIAL_TOKENS));

  const u32 = (value: number): GgufValue => ({ type: "uint32", value });
  const metadata: Array<[string, GgufValue]> = [
    ["general.architecture", { type: "string", value: arch }],
    ["general.name", { type: "string", value: `Vault Agent test model (vocab ${vocabSize}, seed ${seed})` }],
    ["general.file_type", u32(1)],
    ["general.quantization_version", u32(2)],
    ...architectureMetadata(arch, s),
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
