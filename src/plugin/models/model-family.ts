/**
 * Which model family and chat template a model file has, from its header facts, and whether that
 * family is one the project's test matrix proves (real tokenizer and template through the engine:
 * test/integration/families).
 */
import type { ModelInfo } from "../../core/ports/engine";

/** Families proven by the matrix, by the name the list shows. */
export const TESTED_FAMILIES = ["Qwen2.5", "Qwen3", "Llama 3", "Phi-3", "Gemma 2", "Gemma 4", "SmolLM3", "Qwen3.5", "LFM2", "Granite 4.0-H"] as const;

const BY_ARCHITECTURE: Record<string, string> = {
  qwen2: "Qwen2.5",
  qwen3: "Qwen3",
  phi3: "Phi-3",
  gemma2: "Gemma 2",
  gemma3: "Gemma 3",
  gemma4: "Gemma 4",
  smollm3: "SmolLM3",
  mistral3: "Mistral",
  granite: "Granite",
  qwen35: "Qwen3.5",
  lfm2: "LFM2",
  granitehybrid: "Granite 4.0-H",
};

/** The family name for the list, or undefined when the header does not say. */
export function modelFamily(info: Pick<ModelInfo, "architecture" | "chatTemplateKind">): string | undefined {
  if (info.architecture === "llama") return info.chatTemplateKind === "Llama 3" ? "Llama 3" : undefined;
  return BY_ARCHITECTURE[info.architecture];
}

/** "Qwen3 · ChatML template with thinking · tested family" */
export function describeFamily(info: ModelInfo): string {
  const family = modelFamily(info);
  const parts: string[] = [];
  if (family) parts.push(family);
  if (info.chatTemplateKind) parts.push(`${info.chatTemplateKind === "other" ? "own" : info.chatTemplateKind} template${info.thinkingModel ? " with thinking" : ""}`);
  else parts.push("no chat template");
  parts.push(family && (TESTED_FAMILIES as readonly string[]).includes(family) ? "tested family" : "untested family");
  return parts.join(" · ");
}
