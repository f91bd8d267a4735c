/**
 * llama-server's saved slots: a conversation's slot (its evaluated prompt) written to the server's
 * `--slot-save-path` folder (`POST /slots/{id}?action=save`) when its turn has been idle a moment and before its
 * slot goes to another conversation, and read back (`action=restore`) when the conversation needs a slot it does not
 * hold, after a server restart too; with `cache_prompt` the next request then evaluates only what is new. The folder
 * (file names, keys checked before a restore, the disk bound) is the store's: the engine host's is state-folder.ts,
 * the same the built-in engine's saved states use. On a model that needs checkpoints, system states too: the system
 * text alone, saved once per system message and restored into a slot read from a file before a prompt that leaves it
 * (a trim), since a restored slot has no checkpoint to go back to (beforeLeaving).
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

/** A system message's own text and the prompt's tokens up to its end (server-prompts.ts systemEnd): a system state. */
export interface SystemPrefix {
  content: string;
  tokens: number[];
  /** Rendered as a grammar turn. */
  grammar: boolean;
}

export class SavedSlots {
  private readonly slots = new Map<number, SlotRecord>();
  /**
   * Slots whose state was read from a file since a request last read them from before the system text's end: they
   * have no checkpoint (a restore clears the server's checkpoints), so a prompt that leaves their tokens is read from
   * the start on a hybrid model.
   */
  private readonly fromFile = new Set<number>();

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
      this.fromFile.add(slot);
      await this.adoptPrompt(slot, conversationId);
      return reply.n_restored;
    } catch (err) {
      if (!(err instanceof EngineError)) throw err;
      await this.store.discard(conversationId);
      this.onNotice?.(`The saved state of this conversation could not be restored (${err.message}); the conversation is read again from its text.`);
      return undefined;
    }
  }

  /**
   * Before a request whose prompt leaves what `slot` holds (a trim: the earlier turns' summaries appended to the system
   * message, the turns after it dropped; or a conversation new to the slot). On a slot read from a file, which has no
   * checkpoint, the longest saved system state the prompt starts with is restored first (each text of the system
   * message before one of its line breaks is looked up, since a trim appends lines), so only what follows it is read.
   * Then, when this system message has no saved state yet, its tokens are evaluated alone (`evaluate`), saved as one,
   * and read back, so the slot holds them without checkpoints and the request that follows checkpoints where the
   * system text ends (the system-end delimiter). Resolves true when the slot's tokens were replaced (what it holds is
   * then the system text only). A failure leaves the request to read what it must.
   */
  async beforeLeaving(slot: number, system: SystemPrefix, evaluate: (tokens: number[]) => Promise<void>): Promise<boolean> {
    const record = this.record(slot);
    await record.tail;
    const own = systemStateName(system.grammar, system.content);
    let replaced = false;
    try {
      if (this.fromFile.delete(slot)) {
        for (const content of systemTexts(system.content)) {
          const name = systemStateName(system.grammar, content);
          if (!(await this.usable(name))) continue;
          await this.http.json(`/slots/${slot}?action=restore`, { body: { filename: this.store.fileName(name) }, timeoutMs: 120_000 });
          await this.store.restored(name);
          replaced = true;
          if (name === own) return true;
          break;
        }
      }
      if (await this.usable(own)) return replaced;
      replaced = true;
      await evaluate(system.tokens);
      const reply = await this.http.json<{ n_saved?: number; n_written?: number }>(`/slots/${slot}?action=save`, { body: { filename: this.store.fileName(own) }, timeoutMs: 120_000 });
      await this.store.saved(own, { bytes: reply.n_written ?? 0, tokens: reply.n_saved ?? 0 });
      await this.http.json(`/slots/${slot}?action=restore`, { body: { filename: this.store.fileName(own) }, timeoutMs: 120_000 });
    } catch (err) {
      if (!(err instanceof EngineError)) throw err;
      this.onNotice?.(`The system prompt's state could not be saved or restored (${err.message}); the prompt is read from its text.`);
    }
    return replaced;
  }

  /**
   * Whether a system state is saved under `name`. One made for another model is discarded by the store, silently here:
   * its sentence speaks of a conversation, and the state is made again when needed.
   */
  private async usable(name: string): Promise<boolean> {
    return this.store.usable(name).catch(() => false);
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

/** The store's name of a system message's saved state (the store hashes names into file names). */
function systemStateName(grammar: boolean, content: string): string {
  return `slot-system:${grammar ? "grammar" : "free"}:${content}`;
}

/** The system message, then each text of it before one of its line breaks, longest first. */
function systemTexts(content: string): string[] {
  const texts = [content];
  for (let i = content.lastIndexOf("\n"); i > 0; i = content.lastIndexOf("\n", i - 1)) texts.push(content.slice(0, i));
  return texts;
}
