/**
 * Saved context-sequence states: a conversation's evaluated tokens written to disk when its turn ends
 * (node-llama-cpp's saveStateToFile), so reopening the conversation after a restart evaluates only
 * what is new; and per model the state of the fixed system prompt, so a new conversation starts with
 * it evaluated. The folder, its keys (checked before `loadStateFromFile`) and its bound are state-folder.ts's.
 */
import { rename } from "node:fs/promises";
import type { LlamaContextSequence, Token } from "node-llama-cpp";
import { StateFolder, stateKey, type StateFolderOptions } from "./state-folder";

export { DEFAULT_STATE_BYTES, modelFileIdentity, PROMPT_FORMAT_VERSION, StateRefused, type StateFolderOptions } from "./state-folder";

export class SequenceStates {
  private readonly folder: StateFolder;

  constructor(options: StateFolderOptions, identity: { modelFile: string; contextSize: number }) {
    this.folder = new StateFolder(options, stateKey(identity));
  }

  /** Checks that must pass before a state is loaded into this model's context. */
  get key(): string {
    return this.folder.key;
  }

  /** Writes the sequence's state under `name` (a conversation id, or a system-prompt key), then keeps the folder in bound. */
  async save(name: string, sequence: LlamaContextSequence): Promise<{ bytes: number }> {
    await this.folder.prepare();
    const { state } = this.folder.paths(name);
    const temp = `${state}.${process.pid}.tmp`;
    const tokens = sequence.contextTokens.length;
    const { fileSize } = await sequence.saveStateToFile(temp);
    await rename(temp, state);
    await this.folder.written(name, { bytes: fileSize, tokens });
    return { bytes: fileSize };
  }

  /** The name a system prompt's state is saved under: its tokens, under this folder's key. */
  systemName(tokens: readonly Token[]): string {
    return `system:${this.key}:${tokens.join(",")}`;
  }

  /**
   * The longest system-prompt state saved here that `prompt` starts with, ending at or before token `limit`: its token
   * count, or 0. A trim appends the earlier turns' summaries to the system message, so after a second trim the state
   * saved at the first one is a prefix of the new prompt (names carry the tokens: each length is one lookup, longest first).
   */
  async longestSystemPrefix(prompt: readonly Token[], limit: number): Promise<number> {
    const head = `system:${this.key}:`;
    const joined = prompt.slice(0, limit).join(",");
    // ends[n]: where the first n tokens end in `joined`.
    const ends = [0];
    for (let n = 1, at = 0; n <= Math.min(limit, prompt.length); n++) {
      at += String(prompt[n - 1]).length + (n > 1 ? 1 : 0);
      ends.push(at);
    }
    for (let n = ends.length - 1; n >= 2; n--) {
      if (await this.folder.has(head + joined.slice(0, ends[n]))) return n;
    }
    return 0;
  }

  /** Whether a state is saved under `name` (without checking it). */
  async has(name: string): Promise<boolean> {
    return this.folder.has(name);
  }

  /**
   * Loads the state saved under `name` into `sequence` after checking its key and size; resolves with the
   * tokens it holds, or undefined when none is saved. A state from another model, context size or prompt
   * format, or a damaged file, is deleted and refused with a StateRefused sentence.
   */
  async restore(name: string, sequence: LlamaContextSequence): Promise<readonly Token[] | undefined> {
    const state = await this.folder.check(name);
    if (state === undefined) return undefined;
    await sequence.loadStateFromFile(state, { acceptRisk: true });
    await this.folder.touch(name);
    return sequence.contextTokens;
  }
}
