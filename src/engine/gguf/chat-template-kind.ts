/**
 * What kind of chat template a model ships, recognized from the markers in its Jinja text (the same
 * markers node-llama-cpp and llama.cpp key on), so a model list can say how a file formats its turns
 * without loading it.
 */

/** The template families the model list names. */
export type ChatTemplateKind = "ChatML" | "Llama 3" | "Gemma" | "Gemma 4" | "Phi-3" | "Mistral" | "Granite" | "other";

/** The template kind and whether it has a thinking mode, from the template text. */
export function chatTemplateKind(template: string): { kind: ChatTemplateKind; thinking: boolean } {
  const thinking = /enable_thinking/.test(template);
  let kind: ChatTemplateKind = "other";
  if (template.includes("<|turn>")) kind = "Gemma 4";
  else if (template.includes("<start_of_turn>")) kind = "Gemma";
  else if (template.includes("<|start_header_id|>")) kind = "Llama 3";
  else if (template.includes("<|im_start|>")) kind = "ChatML";
  else if (template.includes("<|user|>") && template.includes("<|end|>")) kind = "Phi-3";
  else if (template.includes("[INST]")) kind = "Mistral";
  else if (template.includes("<|start_of_role|>")) kind = "Granite";
  return { kind, thinking };
}
