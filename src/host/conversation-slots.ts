/**
 * Context sequences kept per conversation, so the next turn of a conversation reuses the prompt prefix
 * already evaluated in its sequence. A fixed pool (memory grows with each sequence); when a new
 * conversation needs one, the least recently used conversation gives its sequence up. Turns on the
 * same sequence run one after the other. With a state folder, a conversation's state is saved when its
 * turn has been idle for `saveDelayMs` (and before its sequence goes to another conversation, and on
 * `flush`), and restored when the conversation needs a sequence again, after a restart too.
 */
import type { ChatWrapper, LlamaChat, LlamaContext, LlamaContextSequence } from "node-llama-cpp";
import { llamaRuntime } from "./llama-runtime";
import { checkpointOptions, DEFAULT_CHECKPOINT_BYTES } from "./sequence-checkpoints";
import { StateRefused, type SequenceStates } from "./sequence-states";

/** How conversation states persist. */
export interface SlotPersistence {
  states: SequenceStates;
  /** Idle time after a generation before its state is written; default 1000 ms. */
  saveDelayMs?: number;
  /** Told when a save fails (the conversation goes on; only the restart shortcut is lost). */
  onError?: (message: string) => void;
}

/** What `acquire` hands over. */
export interface AcquiredSlot {
  slot: Slot;
  /** Ends the turn on the sequence (and schedules its state save). */
  release: () => void;
  /** Tokens restored from the conversation's saved state. */
  restoredTokens?: number;
  /** One sentence when a saved state was refused (the turn evaluates from the text). */
  notice?: string;
}

/** One sequence and the chat state that lives on it. */
export interface Slot {
  /** The context sequence holding this conversation's evaluated tokens. */
  readonly sequence: LlamaContextSequence;
  /** The chat evaluator bound to the sequence; it reuses the sequence's matching token prefix. */
  readonly chat: LlamaChat;
}

interface SlotState {
  slot: Slot;
  /** The conversation it belongs to; undefined when free or used for a one-off request. */
  conversationId?: string;
  /** For least-recently-used eviction. */
  lastUsed: number;
  /** Resolves when the current turn on this sequence ends. */
  tail: Promise<void>;
  /** Generated on since the last save. */
  dirty: boolean;
  saveTimer?: ReturnType<typeof setTimeout>;
}

export class ConversationSlots {
  private readonly states: SlotState[];
  private clock = 0;

  /** Bound on the checkpoints of all sequences together (sequence-checkpoints.ts). */
  readonly checkpointBytes: number;

  constructor(context: LlamaContext, chatWrapper?: ChatWrapper, private readonly persistence?: SlotPersistence, checkpointBytes = DEFAULT_CHECKPOINT_BYTES) {
    this.states = [];
    this.checkpointBytes = checkpointBytes;
    const { LlamaChat: Chat } = llamaRuntime();
    const checkpoints = checkpointOptions(checkpointBytes, context.totalSequences);
    for (let i = 0; i < context.totalSequences; i++) {
      const sequence = context.getSequence({ checkpoints });
      const chat = new Chat({ contextSequence: sequence, chatWrapper: chatWrapper ?? "auto" });
      this.states.push({ slot: { sequence, chat }, lastUsed: 0, tail: Promise.resolve(), dirty: false });
    }
  }

  /** Bytes the checkpoints of all sequences take now; undefined when the model needs none (attention only). */
  get checkpointUsage(): number | undefined {
    if (!this.states[0]?.slot.sequence.needsCheckpoints) return undefined;
    return this.states.reduce((sum, s) => sum + s.slot.sequence.checkpointsMemoryUsage, 0);
  }

  /** Conversations that currently keep a sequence. */
  get conversations(): number {
    return this.states.filter((s) => s.conversationId !== undefined).length;
  }

  /**
   * Waits for the conversation's sequence (or a recycled one) to be free and hands it over; call
   * `release` when the turn ends. Without an id the turn uses a recycled sequence and keeps nothing.
   */
  async acquire(conversationId?: string): Promise<AcquiredSlot> {
    let state = conversationId === undefined ? undefined : this.states.find((s) => s.conversationId === conversationId);
    let recycled = false;
    if (!state) {
      // Prefer a sequence no conversation holds; otherwise evict the least recently used conversation.
      const free = this.states.filter((s) => s.conversationId === undefined);
      const pool = free.length > 0 ? free : this.states;
      state = pool.reduce((a, b) => (b.lastUsed < a.lastUsed ? b : a));
      recycled = true;
    }
    state.lastUsed = ++this.clock;
    const previous = state.tail;
    let release!: () => void;
    state.tail = new Promise<void>((resolve) => (release = resolve));
    await previous;
    const owner = state;
    const done = (): void => {
      if (owner.conversationId !== undefined && this.persistence) {
        owner.dirty = true;
        this.scheduleSave(owner);
      }
      release();
    };
    if (!recycled) return { slot: state.slot, release: done };
    // The evicted conversation keeps its work on disk before its sequence is reused.
    await this.saveNow(state);
    state.conversationId = conversationId;
    if (conversationId === undefined || !this.persistence) return { slot: state.slot, release: done };
    try {
      await state.slot.sequence.clearHistory();
      const tokens = await this.persistence.states.restore(conversationId, state.slot.sequence);
      return { slot: state.slot, release: done, ...(tokens ? { restoredTokens: tokens.length } : {}) };
    } catch (err) {
      if (!(err instanceof StateRefused)) throw err;
      await state.slot.sequence.clearHistory();
      return { slot: state.slot, release: done, notice: err.message };
    }
  }

  private scheduleSave(state: SlotState): void {
    if (state.saveTimer) clearTimeout(state.saveTimer);
    state.saveTimer = setTimeout(() => {
      state.saveTimer = undefined;
      // Saved between turns: a turn waiting on the sequence goes after the save.
      const previous = state.tail;
      let release!: () => void;
      state.tail = new Promise<void>((resolve) => (release = resolve));
      void previous.then(() => this.saveNow(state)).finally(release);
    }, this.persistence?.saveDelayMs ?? 1000);
    state.saveTimer.unref?.();
  }

  /** Writes a dirty sequence's state now. */
  private async saveNow(state: SlotState): Promise<void> {
    if (state.saveTimer) clearTimeout(state.saveTimer);
    state.saveTimer = undefined;
    if (!state.dirty || state.conversationId === undefined || !this.persistence) return;
    state.dirty = false;
    try {
      await this.persistence.states.save(state.conversationId, state.slot.sequence);
    } catch (err) {
      this.persistence.onError?.(`The conversation's state could not be saved: ${err instanceof Error ? err.message : String(err)}`);
    }
  }

  /** Saves every conversation state not yet written (before an unload or shutdown). */
  async flush(): Promise<void> {
    await Promise.all(this.states.map(async (state) => {
      await state.tail;
      await this.saveNow(state);
    }));
  }
}
