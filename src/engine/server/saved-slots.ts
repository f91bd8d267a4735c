/**
 * llama-server's saved slots: a conversation's slot (its evaluated prompt) written to the server's
 * `--slot-save-path` folder (`POST /slots/{id}?action=save`) when its turn has been idle a moment and before its
 * slot goes to another conversation, and read back (`action=restore`) when the conversation needs a slot it does not
 * hold, after a server restart too; with `cache_prompt` the next request then evaluates only what is new. The folder
 * (file names, keys checked before a restore, the disk bound) is the store's: the engine host's is state-folder.ts,
 * the same the built-in engine's saved states use.
 */
import { EngineError } from "../../core/ports/engine";
import type { ServerHttp } from "./server-http";
import type { PromptParts } from "./completion-stream";
import type { HeldPrompts } from "./server-prompts";
import type { SlotStateStore } from "./slot-states";

interface SlotRecord {
  /** The conversation whose state the server's slot holds. */
  owner?: string;
  /** Generated on since the last save. */
  dirty: boolean;
  timer?: ReturnType<typeof setTimeout>;
  /** The save or restore in progress on the slot. */
  tail: Promise<void>;
}

export class SavedSlots {
  private readonly slots = new Map<number, SlotRecord>();

  constructor(
    private readonly http: ServerHttp,
    private readonly store: SlotStateStore,
    private readonly saveDelayMs = 1000,
    /** Told when a save or restore fails (the conversation goes on, evaluated from its text). */
    private readonly onNotice?: (message: string) => void,
    /** What each slot holds as prompt parts (saved with the slot, adopted after a restore). */
    private readonly held?: HeldPrompts,
  ) {}

  /**
   * Before a request of `conversationId` on `slot`: waits for the slot's save, saves the state of the conversation
   * the slot held (when it generated since), and restores this conversation's saved state into it. Resolves with the
   * tokens restored, if any.
   */
  async before(slot: number, conversationId: string): Promise<number | undefined> {
    const record = this.record(slot);
    await record.tail;
    if (record.owner === conversationId) {
      if (record.timer) clearTimeout(record.timer);
      record.timer = undefined;
      return undefined;
    }
    await this.saveNow(slot, record);
    record.owner = conversationId;
    record.dirty = false;
    let usable = false;
    try {
      usable = await this.store.usable(conversationId);
    } catch (err) {
      this.onNotice?.(err instanceof Error ? err.message : String(err));
    }
    if (!usable) return undefined;
    try {
      const reply = await this.http.json<{ n_restored?: number }>(`/slots/${slot}?action=restore`, { body: { filename: this.store.fileName(conversationId) }, timeoutMs: 120_000 });
      await this.store.restored(conversationId);
      await this.adoptPrompt(slot, conversationId);
      return reply.n_restored;
    } catch (err) {
      if (!(err instanceof EngineError)) throw err;
      await this.store.discard(conversationId);
      this.onNotice?.(`The saved state of this conversation could not be restored (${err.message}); the conversation is read again from its text.`);
      return undefined;
    }
  }

  /** After a request of the slot's conversation: its state is saved once the slot has been idle for the delay. */
  after(slot: number): void {
    const record = this.record(slot);
    if (record.owner === undefined) return;
    record.dirty = true;
    if (record.timer) clearTimeout(record.timer);
    record.timer = setTimeout(() => {
      record.timer = undefined;
      record.tail = record.tail.then(() => this.saveNow(slot, record));
    }, this.saveDelayMs);
    record.timer.unref?.();
  }

  /** Saves every slot not yet written (before the server stops). */
  async flush(): Promise<void> {
    await Promise.all(
      [...this.slots.entries()].map(async ([slot, record]) => {
        await record.tail;
        await this.saveNow(slot, record);
      }),
    );
  }

  /** The prompt parts kept with the restored state, so the next prompt extends its tokens exactly (none: from text). */
  private async adoptPrompt(slot: number, conversationId: string): Promise<void> {
    if (!this.held || !this.store.savedPrompt) return;
    this.held.forget(slot);
    const json = await this.store.savedPrompt(conversationId).catch(() => undefined);
    if (json === undefined) return;
    try {
      const prompt = JSON.parse(json) as { text?: unknown; parts?: unknown };
      const parts = prompt.parts;
      const valid = typeof parts === "string" || (Array.isArray(parts) && parts.every((p) => typeof p === "string" || Number.isInteger(p)));
      if (typeof prompt.text === "string" && valid) this.held.after(slot, conversationId, { text: prompt.text, parts: parts as PromptParts });
    } catch {
      // An unreadable note: the next prompt is sent as text.
    }
  }

  private record(slot: number): SlotRecord {
    let record = this.slots.get(slot);
    if (!record) this.slots.set(slot, (record = { dirty: false, tail: Promise.resolve() }));
    return record;
  }

  private async saveNow(slot: number, record: SlotRecord): Promise<void> {
    if (record.timer) clearTimeout(record.timer);
    record.timer = undefined;
    const owner = record.owner;
    if (!record.dirty || owner === undefined) return;
    record.dirty = false;
    try {
      const reply = await this.http.json<{ n_saved?: number; n_written?: number }>(`/slots/${slot}?action=save`, { body: { filename: this.store.fileName(owner) }, timeoutMs: 120_000 });
      await this.store.saved(owner, { bytes: reply.n_written ?? 0, tokens: reply.n_saved ?? 0 });
      const prompt = this.held?.latest(slot, owner);
      if (prompt && this.store.savePrompt) await this.store.savePrompt(owner, JSON.stringify(prompt));
    } catch (err) {
      this.onNotice?.(`The conversation's state could not be saved: ${err instanceof Error ? err.message : String(err)}`);
    }
  }
}
