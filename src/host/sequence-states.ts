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
