/**
 * The split-character ban for a llama-server on this machine: the same tokens the built-in engine bans under a
 * grammar (see src/core/grammar/utf8-guard.ts), read from the server's model file with node-llama-cpp's GGUF
 * reader when both are here. Without the ban, a SentencePiece model's byte tokens can leave half a character
 * in a reply, which llama-server's chat parser then refuses ("does not match the expected … format").
 */
import { existsSync } from "node:fs";
import { sentencePieceBytes, splitCharacterTokens } from "../core/grammar/utf8-guard";
import { loadLlamaRuntime } from "./llama-runtime";

/** GGUF `token_type` of control tokens (never text). */
const CONTROL_TOKEN = 3;

/** Token ids to ban, or [] when the file is not on this machine, the runtime is absent, or the vocabulary needs none. */
export async function serverSplitCharacterTokens(modelPath: string): Promise<number[]> {
  if (!modelPath || !existsSync(modelPath)) return [];
  try {
    const { readGgufFileInfo } = await loadLlamaRuntime();
    const info = await readGgufFileInfo(modelPath, { readTensorInfo: false });
    const ggml = (info.metadata as unknown as { tokenizer?: { ggml?: { model?: string; tokens?: string[]; token_type?: number[] } } }).tokenizer?.ggml;
    if (ggml?.model !== "llama" || !Array.isArray(ggml.tokens)) return [];
    const types = ggml.token_type ?? [];
    return splitCharacterTokens(ggml.tokens.map((piece, id) => sentencePieceBytes(piece, types[id] === CONTROL_TOKEN)));
  } catch {
    // No runtime here (a server-only install): the server runs without the ban.
    return [];
  }
}
