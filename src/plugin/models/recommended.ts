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

export const RECOMMENDED_MODELS: RecommendedModel[] = [
  {
    name: "Qwen2.5 1.5B Instruct (Q4_K_M)",
    source: "hf:Qwen/Qwen2.5-1.5B-Instruct-GGUF/qwen2.5-1.5b-instruct-q4_k_m.gguf",
    approxBytes: 1_120_000_000,
    note: "Good balance of speed and tool use on most laptops.",
    family: "qwen2.5",
  },
  {
    name: "Qwen2.5 0.5B Instruct (Q4_K_M)",
    source: "hf:Qwen/Qwen2.5-0.5B-Instruct-GGUF/qwen2.5-0.5b-instruct-q4_k_m.gguf",
    approxBytes: 398_000_000,
    note: "Smallest and fastest; fine for lookups, weaker at multi-step edits.",
    family: "qwen2.5",
  },
  {
    name: "Llama 3.2 3B Instruct (Q4_K_M)",
    source: "hf:bartowski/Llama-3.2-3B-Instruct-GGUF/Llama-3.2-3B-Instruct-Q4_K_M.gguf",
    approxBytes: 2_020_000_000,
    note: "Stronger answers; wants 8 GB of memory or a GPU.",
    family: "llama3.2",
  },
  {
    name: "nomic-embed-text v1.5 (Q8_0, embeddings)",
    source: "hf:nomic-ai/nomic-embed-text-v1.5-GGUF/nomic-embed-text-v1.5.Q8_0.gguf",
    approxBytes: 146_000_000,
    note: "An embedding model for semantic search, strongest in English.",
    family: null,
  },
  {
    name: "Qwen3 Embedding 0.6B (Q8_0, embeddings, multilingual)",
    source: "hf:Qwen/Qwen3-Embedding-0.6B-GGUF/Qwen3-Embedding-0.6B-Q8_0.gguf",
    // 639,150,592 bytes: the size recorded for this file.
    approxBytes: 639_000_000,
    note: "An embedding model for semantic search in over 100 languages, the router's 14 among them; runs on a laptop CPU.",
    family: null,
  },
];
