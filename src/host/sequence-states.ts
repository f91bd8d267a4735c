/**
 * Saved context-sequence states: a conversation's evaluated tokens written to disk when its turn ends
 * (node-llama-cpp's saveStateToFile), so reopening the conversation after a restart evaluates only
 * what is new; and per model the state of the fixed system prompt, so a new conversation starts with
 * it evaluated. Loading a state made by another model crashes llama.cpp, so every state has a sidecar
 * with its key (model file identity, context size, prompt-format version) and byte size, checked
 * before `loadStateFromFile`. The folder is bounded: least recently used states are removed first.
 */
import { createHash } from "node:crypto";
import { closeSync, openSync, readSync, statSync } from "node:fs";
import { mkdir, readdir, readFile, rename, rm, stat, utimes, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { LlamaContextSequence, Token } from "node-llama-cpp";

/** Bumped whenever the rendering of prompts changes, so states of the old rendering are never loaded. */
export const PROMPT_FORMAT_VERSION = 1;
/** Default bound of the state folder. */
export const DEFAULT_STATE_BYTES = 300 * 1024 * 1024;
/** Bytes of the model file's start hashed into its identity (the header: metadata and tensor directory). */
const IDENTITY_HEAD_BYTES = 8 * 1024 * 1024;

/** Where states go and how much they may take. */
export interface StateFolderOptions {
  /** The folder (the plugin's data folder, next to the conversations). */
  dir: string;
  /** Bound on the folder's state bytes; default DEFAULT_STATE_BYTES. */
  maxBytes?: number;
}

/** What the sidecar of a state file says. */
interface StateSidecar {
  key: string;
  bytes: number;
  tokens: number;
}

/** A state that could not be used, in one sentence; the turn then evaluates from the text. */
export class StateRefused extends Error {}

/** The identity of a model file: its size and a hash of its header bytes (the same file anywhere, another file never). */
export function modelFileIdentity(path: string): string {
  const size = statSync(path).size;
  const fd = openSync(path, "r");
  try {
    const head = Buffer.alloc(Math.min(size, IDENTITY_HEAD_BYTES));
    readSync(fd, head, 0, head.length, 0);
    return createHash("sha256").update(String(size)).update(head).digest("hex").slice(0, 24);
  } finally {
    closeSync(fd);
  }
}

/** A file name for any conversation id (ids come from the renderer; never a path). */
function fileStem(name: string): string {
  return createHash("sha256").update(name).digest("hex").slice(0, 32);
}

export class SequenceStates {
  private readonly dir: string;
  private readonly maxBytes: number;
  /** Checks that must pass before a state is loaded into this model's context. */
  readonly key: string;

  constructor(options: StateFolderOptions, identity: { modelFile: string; contextSize: number }) {
    this.dir = options.dir;
    this.maxBytes = options.maxBytes ?? DEFAULT_STATE_BYTES;
    this.key = `${identity.modelFile}:ctx${identity.contextSize}:fmt${PROMPT_FORMAT_VERSION}`;
  }

  private paths(name: string): { state: string; sidecar: string } {
    const stem = fileStem(name);
    return { state: join(this.dir, `${stem}.state`), sidecar: join(this.dir, `${stem}.json`) };
  }

  /** Writes the sequence's state under `name` (a conversation id, or a system-prompt key), then keeps the folder in bound. */
  async save(name: string, sequence: LlamaContextSequence): Promise<{ bytes: number }> {
    await mkdir(this.dir, { recursive: true });
    const { state, sidecar } = this.paths(name);
    const temp = `${state}.${process.pid}.tmp`;
    const tokens = sequence.contextTokens.length;
    const { fileSize } = await sequence.saveStateToFile(temp);
    await rename(temp, state);
    const data: StateSidecar = { key: this.key, bytes: fileSize, tokens };
    await writeFile(sidecar, JSON.stringify(data));
    await this.evict(state);
    return { bytes: fileSize };
  }

  /** Whether a state is saved under `name` (without checking it). */
  async has(name: string): Promise<boolean> {
    return stat(this.paths(name).sidecar).then(() => true, () => false);
  }

  /**
   * Loads the state saved under `name` into `sequence` after checking its key and size; resolves with the
   * tokens it holds, or undefined when none is saved. A state from another model, context size or prompt
   * format, or a damaged file, is deleted and refused with a StateRefused sentence.
   */
  async restore(name: string, sequence: LlamaContextSequence): Promise<readonly Token[] | undefined> {
    const { state, sidecar } = this.paths(name);
    const text = await readFile(sidecar, "utf8").catch(() => undefined);
    if (text === undefined) return undefined;
    const refuse = async (why: string): Promise<never> => {
      await Promise.all([rm(state, { force: true }), rm(sidecar, { force: true })]);
      throw new StateRefused(`The saved state of this conversation ${why}; it was discarded and the conversation is read again from its text.`);
    };
    let data: Partial<StateSidecar>;
    try {
      data = JSON.parse(text) as Partial<StateSidecar>;
    } catch {
      return refuse("has an unreadable description");
    }
    if (data.key !== this.key) return refuse("was made for another model, context size or prompt format");
    const size = await stat(state).then((s) => s.size, () => -1);
    if (size !== data.bytes) return refuse(size < 0 ? "is missing its data file" : `is incomplete (${size} of ${data.bytes} bytes)`);
    await sequence.loadStateFromFile(state, { acceptRisk: true });
    const now = new Date();
    await Promise.all([utimes(state, now, now), utimes(sidecar, now, now)]).catch(() => undefined);
    return sequence.contextTokens;
  }

  /** Removes least recently used states until the folder holds at most maxBytes (`keep` stays). */
  private async evict(keep: string): Promise<void> {
    const names = (await readdir(this.dir)).filter((n) => n.endsWith(".state"));
    const files = await Promise.all(names.map(async (n) => {
      const path = join(this.dir, n);
      const s = await stat(path).catch(() => undefined);
      return { path, bytes: s?.size ?? 0, used: s?.mtimeMs ?? 0 };
    }));
    let total = files.reduce((sum, f) => sum + f.bytes, 0);
    for (const f of files.sort((a, b) => a.used - b.used)) {
      if (total <= this.maxBytes) break;
      if (f.path === keep) continue;
      await Promise.all([rm(f.path, { force: true }), rm(f.path.replace(/\.state$/, ".json"), { force: true })]);
      total -= f.bytes;
    }
  }
}
