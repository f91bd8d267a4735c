/**
 * The model families the project is proven on, each as a recipe for a tiny random-weight test model
 * that carries the family's real tokenizer and chat template: which vocabulary file and template of
 * llama.cpp's source to read, the `general.architecture` the released GGUFs have, and the special
 * tokens the released tokenizers have but the (older) vocabulary files lack.
 */
import type { TestArchitecture } from "./tensors";

/** GGUF token types used below. */
const CONTROL = 3;
const USER_DEFINED = 4;

/** The families `make-test-model --family` knows. */
export const FAMILY_IDS = ["qwen2.5", "qwen3", "llama3.2", "phi3.5", "gemma2", "gemma4", "smollm3", "qwen3.5", "lfm2", "granite4h"] as const;
export type FamilyId = (typeof FAMILY_IDS)[number];

/** One family's recipe. */
export interface FamilySpec {
  id: FamilyId;
  /** How users name it. */
  label: string;
  /** `models/ggml-vocab-<vocab>.gguf` in llama.cpp's source. */
  vocab: string;
  /** `models/templates/<template>` in llama.cpp's source. */
  template: string;
  /** general.architecture of the released GGUFs (node-llama-cpp's Qwen wrapper requires a qwen one). */
  architecture: TestArchitecture;
  /** general.* facts of the released GGUFs that node-llama-cpp's wrapper choice reads. */
  general: Record<string, string>;
  /** Released special tokens missing from the vocabulary file: [id, text, GGUF token type]. */
  restore: ReadonlyArray<readonly [number, string, number]>;
  /** tokenizer.ggml.* ids as released (e.g. the instruct models' end-of-turn eos). */
  ids?: Record<string, number>;
  /**
   * "sentencepiece": read the vocabulary as a SentencePiece ("llama") one — tokens, scores and types
   * without BPE merges — as Gemma 2 and 3 GGUFs store it.
   */
  tokenizer?: "sentencepiece";
  /** The tokens that end a turn in this family's template (they must never end a reply from inside a string). */
  endOfTurn: string;
  /** Where llama.cpp ships no vocabulary of the family: which one stands in for it, and why that one. */
  standIn?: string;
  /** tokenizer.ggml.add_bos_token as released, where it differs from the vocabulary file's. */
  addBos?: boolean;
}

const range = (from: number, texts: string[], type: (t: string) => number): Array<[number, string, number]> =>
  texts.map((t, i) => [from + i, t, type(t)]);

/** Released converters mark `<|…|>` added tokens as control and the tag-like ones as user-defined. */
const qwenType = (t: string): number => (t.startsWith("<|") ? CONTROL : USER_DEFINED);

/** Qwen2.5's added tokens after <|im_end|> (151645), as released; the vocabulary file has [PAD…] placeholders there. */
const QWEN25_ADDED = [
  "<|object_ref_start|>", "<|object_ref_end|>", "<|box_start|>", "<|box_end|>", "<|quad_start|>", "<|quad_end|>",
  "<|vision_start|>", "<|vision_end|>", "<|vision_pad|>", "<|image_pad|>", "<|video_pad|>", "<tool_call>", "</tool_call>",
  "<|fim_prefix|>", "<|fim_middle|>", "<|fim_suffix|>", "<|fim_pad|>", "<|repo_name|>", "<|file_sep|>",
];
/** Qwen3 adds these after Qwen2.5's (151665–151668). */
const QWEN3_ADDED = ["<tool_response>", "</tool_response>", "<think>", "</think>"];

/**
 * Llama 3.1+ named four of Llama 3's reserved tokens (<|finetune_right_pad_id|>, <|eom_id|>,
 * <|python_tag|>) and renumbered the rest; the vocabulary file is Llama 3.0's.
 */
function llama31Specials(): Array<[number, string, number]> {
  const out: Array<[number, string, number]> = [
    [128002, "<|reserved_special_token_0|>", CONTROL],
    [128003, "<|reserved_special_token_1|>", CONTROL],
    [128004, "<|finetune_right_pad_id|>", CONTROL],
    [128005, "<|reserved_special_token_2|>", CONTROL],
    [128008, "<|eom_id|>", CONTROL],
    [128010, "<|python_tag|>", CONTROL],
  ];
  for (let id = 128011; id < 128256; id++) out.push([id, `<|reserved_special_token_${id - 128008}|>`, CONTROL]);
  return out;
}

export const FAMILIES: Readonly<Record<FamilyId, FamilySpec>> = {
  "qwen2.5": {
    id: "qwen2.5",
    label: "Qwen2.5",
    vocab: "qwen2",
    template: "Qwen-Qwen2.5-7B-Instruct.jinja",
    architecture: "qwen2",
    general: { name: "Qwen2.5 7B Instruct", basename: "Qwen2.5", size_label: "7B", finetune: "Instruct" },
    restore: range(151646, QWEN25_ADDED, qwenType),
    ids: { eos_token_id: 151645 },
    endOfTurn: "<|im_end|>",
  },
  qwen3: {
    id: "qwen3",
    label: "Qwen3",
    vocab: "qwen2",
    template: "Qwen-Qwen3-0.6B.jinja",
    architecture: "qwen3",
    general: { name: "Qwen3 0.6B", basename: "Qwen3", size_label: "0.6B" },
    restore: [...range(151646, QWEN25_ADDED, qwenType), ...range(151665, QWEN3_ADDED, qwenType)],
    ids: { eos_token_id: 151645 },
    endOfTurn: "<|im_end|>",
  },
  "llama3.2": {
    id: "llama3.2",
    label: "Llama 3.2",
    vocab: "llama-bpe",
    template: "meta-llama-Llama-3.2-3B-Instruct.jinja",
    architecture: "llama",
    general: { name: "Llama 3.2 3B Instruct", basename: "Llama-3.2", size_label: "3B", finetune: "Instruct" },
    restore: llama31Specials(),
    ids: { eos_token_id: 128009 },
    endOfTurn: "<|eot_id|>",
  },
  "phi3.5": {
    id: "phi3.5",
    label: "Phi-3.5",
    vocab: "phi-3",
    template: "microsoft-Phi-3.5-mini-instruct.jinja",
    architecture: "phi3",
    general: { name: "Phi 3.5 Mini Instruct", basename: "Phi-3.5", size_label: "mini", finetune: "instruct" },
    restore: [],
    endOfTurn: "<|end|>",
  },
  gemma2: {
    id: "gemma2",
    label: "Gemma 2",
    // Gemma 2's own 256k vocabulary is not in llama.cpp's source; Gemma's 262k SentencePiece vocabulary
    // (Gemma 3's layout, read from the Gemma 4 file, turn markers restored) stands in for it.
    vocab: "gemma-4",
    template: "google-gemma-2-2b-it.jinja",
    architecture: "gemma2",
    general: { name: "Gemma 2 2b It", basename: "gemma-2", size_label: "2B", finetune: "it" },
    restore: [
      [105, "<start_of_turn>", CONTROL],
      [106, "<end_of_turn>", CONTROL],
    ],
    tokenizer: "sentencepiece",
    endOfTurn: "<end_of_turn>",
  },
  gemma4: {
    id: "gemma4",
    label: "Gemma 4",
    vocab: "gemma-4",
    template: "google-gemma-4-31B-it.jinja",
    architecture: "gemma4",
    general: { name: "Gemma 4 31B It", basename: "gemma-4", size_label: "31B", finetune: "it" },
    restore: [],
    endOfTurn: "<turn|>",
  },
  "qwen3.5": {
    id: "qwen3.5",
    label: "Qwen3.5",
    vocab: "qwen35",
    template: "Qwen3.5-4B.jinja",
    architecture: "qwen35",
    general: { name: "Qwen3.5 4B", basename: "Qwen3.5", size_label: "4B" },
    // llama.cpp's qwen35 vocabulary file has Qwen3.5's pre-tokenizer on Qwen2's 151,936-token layout (the
    // released vocabulary has 248,320): Qwen3's added tokens are restored where Qwen3 has them.
    restore: [...range(151646, QWEN25_ADDED, qwenType), ...range(151665, QWEN3_ADDED, qwenType)],
    ids: { eos_token_id: 151645 },
    endOfTurn: "<|im_end|>",
    standIn: "qwen35 (Qwen3.5's pre-tokenizer over Qwen2's token list; Qwen3's added tokens restored)",
  },
  lfm2: {
    id: "lfm2",
    label: "LFM2",
    vocab: "llama-bpe",
    template: "LFM2.5-Instruct.jinja",
    architecture: "lfm2",
    general: { name: "LFM2.5 1.2B Instruct", basename: "LFM2.5", size_label: "1.2B", finetune: "Instruct" },
    // LFM2's 65,536-token byte-level BPE is not in llama.cpp's source. Its pre-tokenizer is Llama 3's, so
    // Llama 3's vocabulary stands in, its reserved ids giving LFM2's start-of-text and ChatML markers.
    restore: [
      [128000, "<|startoftext|>", CONTROL],
      [128011, "<|im_start|>", CONTROL],
      [128012, "<|im_end|>", CONTROL],
    ],
    ids: { bos_token_id: 128000, eos_token_id: 128012 },
    endOfTurn: "<|im_end|>",
    standIn: "llama-bpe (Llama 3's vocabulary: LFM2's pre-tokenizer; LFM2's markers on reserved ids)",
  },
  granite4h: {
    id: "granite4h",
    label: "Granite 4.0-H",
    vocab: "llama-bpe",
    template: "ibm-granite-granite-4.0.jinja",
    architecture: "granitehybrid",
    general: { name: "Granite 4.0 H Micro", basename: "granite-4.0-h", size_label: "micro" },
    // Granite 4's 100,352-token vocabulary (cl100k-based) is not in llama.cpp's source; Llama 3's, whose first
    // 100,000 tokens are cl100k's, stands in, with Granite's role markers on reserved ids.
    restore: [
      [128011, "<|start_of_role|>", CONTROL],
      [128012, "<|end_of_role|>", CONTROL],
    ],
    ids: { bos_token_id: 128001, eos_token_id: 128001 },
    addBos: false,
    endOfTurn: "<|end_of_text|>",
    standIn: "llama-bpe (Llama 3's vocabulary, cl100k-based as Granite 4's is; role markers on reserved ids)",
  },
  smollm3: {
    id: "smollm3",
    label: "SmolLM3",
    vocab: "llama-bpe",
    template: "HuggingFaceTB-SmolLM3-3B.jinja",
    architecture: "smollm3",
    general: { name: "SmolLM3 3B", basename: "SmolLM3", size_label: "3B" },
    // SmolLM3 keeps Llama 3's vocabulary and gives reserved ids its chat and thinking markers.
    restore: [
      [128002, "<think>", USER_DEFINED],
      [128003, "</think>", USER_DEFINED],
      [128011, "<|im_start|>", CONTROL],
      [128012, "<|im_end|>", CONTROL],
    ],
    ids: { bos_token_id: 128000, eos_token_id: 128012 },
    endOfTurn: "<|im_end|>",
  },
};

/** The recipe for `id`, or undefined when no family has that name. */
export function familySpec(id: string): FamilySpec | undefined {
  return (FAMILY_IDS as readonly string[]).includes(id) ? FAMILIES[id as FamilyId] : undefined;
}
