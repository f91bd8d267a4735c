/**
 * The split-character ban for a llama-server on this machine: every token whose bytes are not whole UTF-8 on their
 * own (see src/core/grammar/utf8-guard.ts), read from the server's model file with node-llama-cpp's GGUF reader when
 * both are here, for every vocabulary kind (token-bytes.ts decodes SentencePiece and byte-level BPE alike).
 *
 * Why: llama.cpp's grammar decodes characters split across tokens leniently, so byte tokens can spell sequences that
 * are not UTF-8, and llama-server reads every finished reply (on `/completion` too) with its chat parser, which
 * fails the whole request on them ("does not match the expected … format", a 500 after the reply was generated).
 * Seen on the Qwen2.5 and Llama 3.2 family test models (byte-level BPE): 3 of 3 and 2 of 2 free 64-token replies failed so.
 * The built-in engine keeps output valid with a per-step UTF-8 guard (utf8-token-guard.ts); one request's static
 * bias cannot follow the output, so here the split tokens are banned (1,448 of Qwen2.5's 151,936, 1,352 of
 * Llama 3.2's 128,256, 128 of Gemma's), with the few that spell U+FFFD itself: a character the vocabulary spells
 * only in byte pieces comes as a `\u` escape inside JSON strings instead.
 */
import { existsSync } from "node:fs";
import { splitCharacterTokens } from "../core/grammar/utf8-guard";
import { loadLlamaRuntime } from "./llama-runtime";
import { vocabularyBytes } from "./token-bytes";

/** U+FFFD in UTF-8: what a decoder writes for broken bytes. */
const REPLACEMENT = [0xef, 0xbf, 0xbd];

/**
 * Tokens that spell U+FFFD itself (Llama 3's vocabulary has nine, "�" to " ����"): whole UTF-8, but a reply holding
 * one cannot be told from a broken one after the server decoded it, and no note needs the character.
 */
function replacementCharacterTokens(bytes: readonly (Uint8Array | null | undefined)[]): number[] {
  const ids: number[] = [];
  bytes.forEach((b, id) => {
    if (!b) return;
    for (let i = 0; i + 2 < b.length; i++) {
      if (b[i] === REPLACEMENT[0] && b[i + 1] === REPLACEMENT[1] && b[i + 2] === REPLACEMENT[2]) {
        ids.push(id);
        return;
      }
    }
  });
  return ids;
}

/** Token ids to ban, or [] when the file is not on this machine, the runtime is absent, or the vocabulary needs none. */
export async function serverSplitCharacterTokens(modelPath: string): Promise<number[]> {
  if (!modelPath || !existsSync(modelPath)) return [];
  try {
    const { readGgufFileInfo } = await loadLlamaRuntime();
    const info = await readGgufFileInfo(modelPath, { readTensorInfo: false });
    const ggml = (info.metadata as unknown as { tokenizer?: { ggml?: { model?: string; tokens?: string[]; token_type?: number[] } } }).tokenizer?.ggml;
    if (!ggml?.model || !Array.isArray(ggml.tokens)) return [];
    const bytes = vocabularyBytes(ggml.model, ggml.tokens, ggml.token_type ?? []);
    return [...new Set([...splitCharacterTokens(bytes), ...replacementCharacterTokens(bytes)])].sort((a, b) => a - b);
  } catch {
    // No runtime here (a server-only install): the server runs without the ban.
    return [];
  }
}
