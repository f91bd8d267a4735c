/**
 * Realistic sizes for the family test models: the dimensions of the released model of that size, so a
 * benchmark pays what a user's laptop pays for prompt evaluation (random weights; the tokenizer and
 * template stay the family's real ones).
 */
import type { FamilyId } from "./families";
import { everyNth } from "./hybrid-tensors";
import type { TestModelShape } from "./tensors";

/** The sizes `make-test-model --size` knows; "tiny" is the test suite's shape. */
export const MODEL_SIZES = ["tiny", "0.5b", "1.5b", "2b", "3b", "4b"] as const;
export type ModelSize = (typeof MODEL_SIZES)[number];

/** One released model's dimensions, and its name (what the size stands for in that family). */
export interface ReleasedShape extends TestModelShape {
  /** The released model these dimensions are copied from. */
  release: string;
  /** Whether the released GGUF has no output.weight (the token embedding is the output projection). */
  tiedOutput: boolean;
  /** The released (padded) vocabulary size, where it is larger than the vocabulary file's. */
  vocabSize?: number;
}

type SizedShapes = Partial<Record<Exclude<ModelSize, "tiny">, ReleasedShape>>;

const qwen25 = (release: string, e: number, blocks: number, heads: number, ffn: number): ReleasedShape => ({
  release, embeddingLength: e, blockCount: blocks, headCount: heads, headCountKv: 2, feedForwardLength: ffn, contextLength: 32768, tiedOutput: true,
});

const qwen35 = (release: string, e: number, blocks: number, heads: number, kv: number, ffn: number, valueHeads: number): ReleasedShape => ({
  release, embeddingLength: e, blockCount: blocks, headCount: heads, headCountKv: kv, headDim: 256, feedForwardLength: ffn, contextLength: 262144,
  tiedOutput: true, vocabSize: 248320,
  recurrent: { attentionLayers: everyNth(blocks, 4), convKernel: 4, stateSize: 128, groups: 16, heads: valueHeads },
});

/** Released dimensions per family and size (from each model's config.json). */
export const RELEASED_SHAPES: Readonly<Record<FamilyId, SizedShapes>> = {
  "qwen2.5": {
    "0.5b": qwen25("Qwen2.5-0.5B-Instruct", 896, 24, 14, 4864),
    "1.5b": qwen25("Qwen2.5-1.5B-Instruct", 1536, 28, 12, 8960),
    "3b": qwen25("Qwen2.5-3B-Instruct", 2048, 36, 16, 11008),
  },
  qwen3: {
    "0.5b": { release: "Qwen3-0.6B", embeddingLength: 1024, blockCount: 28, headCount: 16, headCountKv: 8, headDim: 128, feedForwardLength: 3072, contextLength: 40960, tiedOutput: true },
    "1.5b": { release: "Qwen3-1.7B", embeddingLength: 2048, blockCount: 28, headCount: 16, headCountKv: 8, headDim: 128, feedForwardLength: 6144, contextLength: 40960, tiedOutput: true },
    "3b": { release: "Qwen3-4B", embeddingLength: 2560, blockCount: 36, headCount: 32, headCountKv: 8, headDim: 128, feedForwardLength: 9728, contextLength: 40960, tiedOutput: true },
  },
  "llama3.2": {
    "1.5b": { release: "Llama-3.2-1B-Instruct", embeddingLength: 2048, blockCount: 16, headCount: 32, headCountKv: 8, feedForwardLength: 8192, contextLength: 131072, tiedOutput: true },
    "3b": { release: "Llama-3.2-3B-Instruct", embeddingLength: 3072, blockCount: 28, headCount: 24, headCountKv: 8, feedForwardLength: 8192, contextLength: 131072, tiedOutput: true },
  },
  "phi3.5": {
    "3b": { release: "Phi-3.5-mini-instruct", embeddingLength: 3072, blockCount: 32, headCount: 32, headCountKv: 32, feedForwardLength: 8192, contextLength: 131072, tiedOutput: false },
  },
  gemma2: {
    "1.5b": { release: "gemma-2-2b-it", embeddingLength: 2304, blockCount: 26, headCount: 8, headCountKv: 4, headDim: 256, feedForwardLength: 9216, contextLength: 8192, tiedOutput: true },
  },
  gemma4: {},
  // Qwen3.5: three Gated DeltaNet layers (128-wide key and value heads, kernel 4), then one gated attention layer.
  "qwen3.5": {
    "2b": qwen35("Qwen3.5-2B", 2048, 24, 8, 2, 6144, 16),
    "4b": qwen35("Qwen3.5-4B", 2560, 32, 16, 4, 9216, 32),
  },
  // LFM2.5-1.2B: ten short-convolution blocks (cache 3) and six grouped-query attention blocks. The stand-in
  // vocabulary (128,256 tokens against the release's 65,536) makes its embedding larger than the release's.
  lfm2: {
    "1.5b": {
      release: "LFM2.5-1.2B-Instruct", embeddingLength: 2048, blockCount: 16, headCount: 32, headCountKv: 8, feedForwardLength: 8192, contextLength: 32768,
      tiedOutput: true, recurrent: { attentionLayers: [2, 5, 8, 10, 12, 14], convKernel: 3, stateSize: 0, groups: 0, heads: 0 },
    },
  },
  // Granite 4.0 H Micro: 40 blocks, attention at 5, 15, 25 and 35, Mamba-2 (64 heads of 64, state 128, one group)
  // elsewhere. The stand-in vocabulary has 128,256 tokens against the release's 100,352.
  granite4h: {
    "3b": {
      release: "granite-4.0-h-micro", embeddingLength: 2048, blockCount: 40, headCount: 32, headCountKv: 8, feedForwardLength: 8192, contextLength: 131072,
      tiedOutput: true, recurrent: { attentionLayers: [5, 15, 25, 35], convKernel: 4, stateSize: 128, groups: 1, heads: 64 },
    },
  },
  smollm3: {
    "3b": { release: "SmolLM3-3B", embeddingLength: 2048, blockCount: 36, headCount: 16, headCountKv: 4, feedForwardLength: 11008, contextLength: 65536, tiedOutput: true },
  },
};

/** The released shape of `family` at `size`, or a sentence naming the sizes it has. */
export function releasedShape(family: FamilyId, size: Exclude<ModelSize, "tiny">): ReleasedShape | string {
  const shapes = RELEASED_SHAPES[family];
  const shape = shapes[size];
  if (shape) return shape;
  const known = Object.keys(shapes);
  return `The ${family} family has no released model at size ${size}; its sizes are ${["tiny", ...known].join(", ")}.`;
}
