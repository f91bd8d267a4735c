/**
 * Checkpoints of a sequence's state where the next prompt may leave the evaluated tokens. Recurrent and hybrid
 * models (Qwen3.5's Gated DeltaNet layers, LFM2's short convolutions, Granite 4-H's Mamba-2) cannot cut their state
 * back to an earlier token: node-llama-cpp then restores the last checkpoint at or before the cut and evaluates from
 * there, or, with none, evaluates the whole sequence again, inside the erase. It takes checkpoints itself only inside
 * LlamaChat; grammar turns evaluate on the sequence directly, so they take them here: where the reused prefix ends (a
 * correction added to the last message diverges after it), before a prompt's last token (a retried round diverges
 * there; a cancelled reply is cut back to the prompt from it) and after the system prompt (a trim diverges there).
 * Attention models need none: every call here is then a no-op. Bounded per sequence in bytes and in number, the oldest
 * dropped first.
 */
import type { LlamaContextSequence, Token } from "node-llama-cpp";

/** Default bound on the checkpoints of all conversation sequences together (RAM, not VRAM). */
export const DEFAULT_CHECKPOINT_BYTES = 512 * 1024 * 1024;
/** Checkpoints a sequence keeps at most (a round takes two or three; older ones are rarely restored). */
export const MAX_CHECKPOINTS = 12;

/** node-llama-cpp's checkpoint options for one of `sequences` sequences sharing `totalBytes`. */
export function checkpointOptions(totalBytes: number, sequences: number): { max: number; maxMemory: number } {
  return { max: MAX_CHECKPOINTS, maxMemory: Math.max(1, Math.floor(totalBytes / Math.max(1, sequences))) };
}

/** Checkpoints the state at the sequence's end, when its model needs checkpoints and none is there yet. */
export async function checkpointAtEnd(sequence: LlamaContextSequence): Promise<void> {
  if (!sequence.needsCheckpoints || sequence.nextTokenIndex < 2 || sequence.lastCheckpointIndex === sequence.nextTokenIndex - 1) return;
  await sequence.takeCheckpoint();
}

/** node-llama-cpp's named checkpoints (what LlamaChat uses for a chat's start): counted apart from the others. */
interface NamedCheckpoints {
  _takeNamedCheckpoint?: (name: string, maxNamedCheckpoints: number) => Promise<void>;
}

/**
 * Checkpoints the end of the system prompt's stable text under its own name, so the round-by-round checkpoints, pruned
 * by number, never push it out (a trim, which appends to the system message, restores from it); a plain checkpoint
 * where this node-llama-cpp has no named ones.
 */
export async function checkpointSystemPrompt(sequence: LlamaContextSequence): Promise<void> {
  await namedCheckpoint(sequence, "vaultAgentSystemPrompt", 1);
}

/** A checkpoint at the sequence's end under `name`, of which `max` are kept; a plain one where node-llama-cpp has no names. */
async function namedCheckpoint(sequence: LlamaContextSequence, name: string, max: number): Promise<void> {
  if (!sequence.needsCheckpoints || sequence.nextTokenIndex < 2) return;
  const named = (sequence as unknown as NamedCheckpoints)._takeNamedCheckpoint;
  if (typeof named === "function") await named.call(sequence, name, max);
  else await sequence.takeCheckpoint();
}

/**
 * Brings the sequence to hold the longest prefix of `prompt` it can keep (at most all but the last token, whose logits
 * choose the first reply token) and returns the tokens still to evaluate. On models that need checkpoints, it
 * checkpoints where the kept prefix ends, evaluates the rest but the last token, and checkpoints there too (and at
 * each of `cuts`, token counts where a later prompt may leave this one).
 */
export async function preparePrompt(sequence: LlamaContextSequence, prompt: readonly Token[], cuts: readonly number[] = []): Promise<Token[]> {
  const keep = Math.max(0, Math.min(sequence.compareContextTokens([...prompt]).firstDifferentIndex, prompt.length - 1));
  if (keep < sequence.nextTokenIndex) await sequence.eraseContextTokenRanges([{ start: keep, end: sequence.nextTokenIndex }]);
  if (!sequence.needsCheckpoints) return prompt.slice(sequence.nextTokenIndex);
  await checkpointAtEnd(sequence);
  // Evaluated up to each cut that lies ahead (the system message's end, where a trim's summaries grow), then to all but
  // the last token, with a checkpoint at each stop.
  const stops = [...cuts.filter((c) => c > sequence.nextTokenIndex && c < prompt.length - 1).sort((a, b) => a - b), prompt.length - 1];
  for (const stop of stops) {
    const head = prompt.slice(sequence.nextTokenIndex, stop);
    if (head.length === 0) continue;
    await sequence.evaluateWithoutGeneratingNewTokens(head);
    // A cut's checkpoint is named, so the round-by-round ones, pruned by number, do not push it out.
    await (stop === prompt.length - 1 ? checkpointAtEnd(sequence) : namedCheckpoint(sequence, "vaultAgentCut", 2));
  }
  return prompt.slice(sequence.nextTokenIndex);
}

/** Cuts the sequence back to `length` tokens (a cancelled reply's tokens off its prompt), from a checkpoint where needed. */
export async function cutBackTo(sequence: LlamaContextSequence, length: number): Promise<void> {
  if (length > 0 && length < sequence.nextTokenIndex) await sequence.eraseContextTokenRanges([{ start: length, end: sequence.nextTokenIndex }]);
}

/** Tokens the sequence has evaluated so far, by node-llama-cpp's meter (inputs and outputs). */
export function meteredTokens(sequence: LlamaContextSequence): number {
  const { usedInputTokens, usedOutputTokens } = sequence.tokenMeter.getState();
  return usedInputTokens + usedOutputTokens;
}
