/**
 * The engine host's store for llama-server's saved slots (saved-slots.ts): the managed server writes each file into
 * its `--slot-save-path` folder; here each gets the sidecar and key of the built-in engine's saved states
 * (state-folder.ts: model file identity, context size, prompt-format version, plus the server's build), checked
 * before a restore, and the folder stays in its bound, least recently used first.
 */
import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { writeFileAtomic } from "../engine/atomic-file";
import type { SlotStateFolder, SlotStateIdentity, SlotStateStore } from "../engine/server/slot-states";
import { modelFileIdentity, StateFolder, stateKey } from "./state-folder";

class ServerSlotStates implements SlotStateStore {
  constructor(private readonly folder: StateFolder) {}

  fileName(conversationId: string): string {
    return this.folder.fileName(conversationId);
  }

  saved(conversationId: string, saved: { bytes: number; tokens: number }): Promise<void> {
    return this.folder.written(conversationId, saved);
  }

  async usable(conversationId: string): Promise<boolean> {
    return (await this.folder.check(conversationId)) !== undefined;
  }

  restored(conversationId: string): Promise<void> {
    return this.folder.touch(conversationId);
  }

  async discard(conversationId: string): Promise<void> {
    await Promise.all([this.folder.remove(conversationId), this.folder.remove(promptName(conversationId))]);
  }

  /** The slot's prompt parts, kept as an entry of the same folder (same key check, same bound). */
  async savePrompt(conversationId: string, json: string): Promise<void> {
    const name = promptName(conversationId);
    await writeFileAtomic(this.folder.paths(name).state, json);
    await this.folder.written(name, { bytes: Buffer.byteLength(json), tokens: 0 });
  }

  async savedPrompt(conversationId: string): Promise<string | undefined> {
    const path = await this.folder.check(promptName(conversationId)).catch(() => undefined);
    return path === undefined ? undefined : readFile(path, "utf8");
  }
}

/** The folder entry a conversation's slot prompt is kept under. */
const promptName = (conversationId: string): string => `slot-prompt:${conversationId}`;

/** The store for a server whose model file is on this machine; null otherwise (nothing is saved then). */
export function serverSlotStates(folder: SlotStateFolder, identity: SlotStateIdentity): SlotStateStore | null {
  if (!identity.modelPath || !existsSync(identity.modelPath) || !existsSync(folder.dir)) return null;
  const key = stateKey({ modelFile: modelFileIdentity(identity.modelPath), contextSize: identity.contextSize }, `llama-server ${identity.build}`);
  return new ServerSlotStates(new StateFolder({ dir: folder.dir, ...(folder.maxBytes !== undefined ? { maxBytes: folder.maxBytes } : {}) }, key));
}
