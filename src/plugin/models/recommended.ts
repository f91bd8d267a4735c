/**
 * A short curated list of small instruct models that run on a laptop CPU and follow the envelope well.
 * Chat models only from families the test matrix proves (test/integration/families: real tokenizer and
 * chat template through the engine).
 */
export interface RecommendedModel {
  /** What the picker shows. */
  name: string;
  /** Where to get it (`hf:owner/repo/file.gguf`). */
  source: string;
  /** Approximate download size in bytes (shown before downloading). */
  approxBytes: number;
  /** One line on what it is good for. */
  note: string;
  /** The id of the family test model that proves a chat model (`make-test-model --family`; a test checks it); null for an embedding model. */
  family: string | null;
}

/**
 * Small instruct models people run on laptops in late 2026, each from a family the matrix proves, Q4_K_M (the
 * usual 4-bit trade-off). Every repository and file name, and every size (the file's byte count, rounded), was
 * found pinned in other projects' downloaders: docs/models.md lists where. Sizes are shown before a download
 * and checked against free disk. Three of the six are hybrids (recurrent layers between attention layers),
 * whose conversations stay cheap as they grow.
 */
export const RECOMMENDED_MODELS: RecommendedModel[] = [
  {
    name: "Qwen3.5 2B (Q4_K_M)",
    source: "hf:unsloth/Qwen3.5-2B-GGUF/Qwen3.5-2B-Q4_K_M.gguf",
    approxBytes: 1_281_000_000, // 1,280,835,840 bytes
    note: "The default: quick on any laptop, good tool use; Gated DeltaNet layers keep long chats cheap.",
    family: "qwen3.5",
  },
  {
    name: "Qwen3.5 4B (Q4_K_M)",
    source: "hf:unsloth/Qwen3.5-4B-GGUF/Qwen3.5-4B-Q4_K_M.gguf",
    approxBytes: 2_741_000_000, // 2,740,937,888 bytes
    note: "The strongest of the list at multi-step edits; wants 8 GB of memory or a GPU.",
    family: "qwen3.5",
  },
  {
    name: "LFM2.5 1.2B Instruct (Q4_K_M)",
    source: "hf:LiquidAI/LFM2.5-1.2B-Instruct-GGUF/LFM2.5-1.2B-Instruct-Q4_K_M.gguf",
    approxBytes: 731_000_000, // 730,895,168 bytes
    note: "Smallest and fastest (short convolutions, few attention layers): lookups and short edits, also on old machines.",
    family: "lfm2",
  },
  {
    name: "Gemma 4 E2B Instruct (Q4_K_M)",
    source: "hf:unsloth/gemma-4-E2B-it-GGUF/gemma-4-E2B-it-Q4_K_M.gguf",
    // 3,106,738,272 bytes: the per-layer embeddings make the file larger than the 2B it computes with.
    approxBytes: 3_107_000_000,
    note: "Best with notes in many languages; computes like a 2B model, though the file is larger.",
    family: "gemma4",
  },
  {
    name: "Granite 4.0 H Micro (Q4_K_M)",
    source: "hf:ibm-granite/granite-4.0-h-micro-GGUF/granite-4.0-h-micro-Q4_K_M.gguf",
    approxBytes: 1_943_000_000, // 1,942,564,512 bytes
    note: "Mamba-2 layers with a few attention layers: steady on long sessions and long notes.",
    family: "granite4h",
  },
  {
    name: "SmolLM3 3B (Q4_K_M)",
    source: "hf:bartowski/HuggingFaceTB_SmolLM3-3B-GGUF/HuggingFaceTB_SmolLM3-3B-Q4_K_M.gguf",
    approxBytes: 1_915_000_000, // 1,915,305,792 bytes
    note: "Fully open (weights, data and training recipe); a plain attention model for comparison.",
    family: "smollm3",
  },
  {
    name: "nomic-embed-text v1.5 (Q8_0, embeddings)",
    source: "hf:nomic-ai/nomic-embed-text-v1.5-GGUF/nomic-embed-text-v1.5.Q8_0.gguf",
    approxBytes: 146_000_000, // 146,146,432 bytes
    note: "An embedding model for semantic search, strongest in English.",
    family: null,
  },
  {
    name: "Qwen3 Embedding 0.6B (Q8_0, embeddings, multilingual)",
    source: "hf:Qwen/Qwen3-Embedding-0.6B-GGUF/Qwen3-Embedding-0.6B-Q8_0.gguf",
    approxBytes: 639_000_000, // 639,150,592 bytes
    note: "An embedding model for semantic search in over 100 languages, the router's 14 among them; runs on a laptop CPU.",
    family: null,
  },
];
