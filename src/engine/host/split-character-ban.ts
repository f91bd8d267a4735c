/**
 * The token bias used whenever a grammar constrains sampling: bans tokens that are not whole UTF-8
 * on their own (see src/core/grammar/utf8-guard.ts for what llama.cpp's grammar matcher lets them do).
 */
import type { LlamaModel, Token, TokenBias } from "node-llama-cpp";
import { llamaRuntime } from "./llama-runtime";
import { sentencePieceBytes, splitCharacterTokens } from "../../core/grammar/utf8-guard";

/** GGUF `token_type` of control tokens (never text). */
const CONTROL_TOKEN = 3;

/**
 * A bias that bans the split-character tokens of a SentencePiece vocabulary, or null when the model's
 * vocabulary is not SentencePiece (byte-level BPE pieces use another byte mapping; not covered yet).
 */
export function splitCharacterBan(model: LlamaModel): TokenBias | null {
  const ggml = (model.fileInfo.metadata as unknown as { tokenizer?: { ggml?: { model?: string; tokens?: string[]; token_type?: number[] } } })
    .tokenizer?.ggml;
  if (ggml?.model !== "llama" || !Array.isArray(ggml.tokens)) return null;
  const types = ggml.token_type ?? [];
  const split = splitCharacterTokens(ggml.tokens.map((piece, id) => sentencePieceBytes(piece, types[id] === CONTROL_TOKEN)));
  if (split.length === 0) return null;
  const bias = new (llamaRuntime().TokenBias)(model.tokenizer);
  for (const token of split) bias.set(token as Token, "never");
  return bias;
}
