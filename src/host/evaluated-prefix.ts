/**
 * Keeps a sequence's evaluated reply reusable. A past reply comes back in the next prompt as text, and
 * the tokenizer may split that text differently from the tokens the model sampled ("tho"+"ught" vs
 * "thought"), which would end the reused prefix at the reply's first token. When the prompt's text at
 * that point is exactly the evaluated tokens' text, the evaluated tokens stand in for the re-tokenized
 * ones (same text, the model's own split), so only what follows the reply is evaluated.
 */
import type { LlamaModel, Token } from "node-llama-cpp";

function commonPrefix(a: readonly Token[], b: readonly Token[]): number {
  const n = Math.min(a.length, b.length);
  let i = 0;
  while (i < n && a[i] === b[i]) i++;
  return i;
}

/** `prompt` with its re-tokenized copy of the evaluated tail replaced by `evaluated`'s tokens, when their text matches. */
export function alignToEvaluated(model: LlamaModel, evaluated: readonly Token[], prompt: Token[]): Token[] {
  const p = commonPrefix(evaluated, prompt);
  if (p === evaluated.length || p === prompt.length) return prompt;
  const context = evaluated.slice(Math.max(0, p - 8), p);
  const evaluatedText = model.detokenize(evaluated.slice(p), true, context);
  if (evaluatedText === "") return prompt;
  const tail = prompt.slice(p);
  // Grow the prompt's tail until its text covers the evaluated text.
  let m = 0;
  let text = "";
  while (m < tail.length && text.length < evaluatedText.length) {
    m++;
    text = model.detokenize(tail.slice(0, m), true, context);
  }
  if (!text.startsWith(evaluatedText)) return prompt;
  // A token that straddles the end of the evaluated text: its remaining characters are plain text (special tokens are whole).
  const extra = text.slice(evaluatedText.length);
  const bridge = extra === "" ? [] : model.tokenize(extra, false, "trimLeadingSpace");
  if (model.detokenize(bridge, false) !== extra) return prompt;
  return [...evaluated, ...bridge, ...tail.slice(m)];
}
