/**
 * A bounded folder of saved evaluation states, whoever writes them (node-llama-cpp's saveStateToFile for the built-in
 * engine, llama-server's `/slots/{id}?action=save` for llama.cpp on this computer). Loading a state made by another
 * model crashes llama.cpp or fills the context with garbage, so every state has a sidecar with its key (model file
 * identity, context size, prompt-format version, and whatever else the writer names) and byte size, checked before
 * it is loaded. Least recently used states are removed first when the folder outgrows its bound.
 */
import { createHash } from "node:crypto";
import { closeSync, openSync, readSync, statSync } from "node:fs";
import { mkdir, readdir, readFile, rm, stat, utimes } from "node:fs/promises";
import { join } from "node:path";
import { writeFileAtomic } from "../engine/atomic-file";

/** Bumped whenever the rendering of prompts changes, so states of the old rendering are never loaded. */
export const PROMPT_FORMAT_VERSION = 2;
/** Default bound of a state folder. */
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

/** The key of a state: what must match before it is loaded. */
export function stateKey(identity: { modelFile: string; contextSize: number }, extra = ""): string {
  return `${identity.modelFile}:ctx${identity.contextSize}:fmt${PROMPT_FORMAT_VERSION}${extra ? `:${extra}` : ""}`;
}

export class StateFolder {
  readonly dir: string;
  private readonly maxBytes: number;

  constructor(
    options: StateFolderOptions,
    /** What a state must have been saved with to be loaded here. */
    readonly key: string,
  ) {
    this.dir = options.dir;
    this.maxBytes = options.maxBytes ?? DEFAULT_STATE_BYTES;
  }

  /** The state file's name for any name (a conversation id from the renderer; never a path). */
  fileName(name: string): string {
    return `${createHash("sha256").update(name).digest("hex").slice(0, 32)}.state`;
  }

  /** The state file and its sidecar. */
  paths(name: string): { state: string; sidecar: string } {
    const file = this.fileName(name);
    return { state: join(this.dir, file), sidecar: join(this.dir, file.replace(/\.state$/, ".json")) };
  }

  /** Creates the folder. */
  async prepare(): Promise<void> {
    await mkdir(this.dir, { recursive: true });
  }

  /** After the state file of `name` was written: its sidecar, then the folder back in bound (`name` stays). */
  async written(name: string, saved: { bytes: number; tokens: number }): Promise<void> {
    const { state, sidecar } = this.paths(name);
    const data: StateSidecar = { key: this.key, bytes: saved.bytes, tokens: saved.tokens };
    await writeFileAtomic(sidecar, JSON.stringify(data));
    await this.evict(state);
  }

  /** Whether a state is saved under `name` (without checking it). */
  async has(name: string): Promise<boolean> {
    return stat(this.paths(name).sidecar).then(() => true, () => false);
  }

  /**
   * The state file of `name` after checking its key and size, or undefined when none is saved. A state from another
   * model, context size or prompt format, or a damaged file, is deleted and refused with a StateRefused sentence.
   */
  async check(name: string): Promise<string | undefined> {
    const { state, sidecar } = this.paths(name);
    const text = await readFile(sidecar, "utf8").catch(() => undefined);
    if (text === undefined) return undefined;
    let data: Partial<StateSidecar>;
    try {
      data = JSON.parse(text) as Partial<StateSidecar>;
    } catch {
      return this.refuse(name, "has an unreadable description");
    }
    if (data.key !== this.key) return this.refuse(name, "was made for another model, context size or prompt format");
    const size = await stat(state).then((s) => s.size, () => -1);
    if (size !== data.bytes) return this.refuse(name, size < 0 ? "is missing its data file" : `is incomplete (${size} of ${data.bytes} bytes)`);
    return state;
  }

  /** Deletes the state of `name` and refuses it in one sentence. */
  async refuse(name: string, why: string): Promise<never> {
    await this.remove(name);
    throw new StateRefused(`The saved state of this conversation ${why}; it was discarded and the conversation is read again from its text.`);
  }

  /** Deletes the state of `name`. */
  async remove(name: string): Promise<void> {
    const { state, sidecar } = this.paths(name);
    await Promise.all([rm(state, { force: true }), rm(sidecar, { force: true })]);
  }

  /** Marks the state of `name` as just used (for the eviction order). */
  async touch(name: string): Promise<void> {
    const { state, sidecar } = this.paths(name);
    const now = new Date();
    await Promise.all([utimes(state, now, now), utimes(sidecar, now, now)]).catch(() => undefined);
  }

  /** Removes least recently used states until the folder holds at most maxBytes (`keep` stays). */
  private async evict(keep: string): Promise<void> {
    const names = (await readdir(this.dir)).filter((n) => n.endsWith(".state"));
    const files = await Promise.all(
      names.map(async (n) => {
        const path = join(this.dir, n);
        const s = await stat(path).catch(() => undefined);
        return { path, bytes: s?.size ?? 0, used: s?.mtimeMs ?? 0 };
      }),
    );
    let total = files.reduce((sum, f) => sum + f.bytes, 0);
    for (const f of files.sort((a, b) => a.used - b.used)) {
      if (total <= this.maxBytes) break;
      if (f.path === keep) continue;
      await Promise.all([rm(f.path, { force: true }), rm(f.path.replace(/\.state$/, ".json"), { force: true })]);
      total -= f.bytes;
    }
  }
}
