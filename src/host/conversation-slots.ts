/**
 * Context sequences kept per conversation, so the next turn of a conversation reuses the prompt prefix
 * already evaluated in its sequence. A fixed pool (memory grows with each sequence); when a new
 * conversation needs one, the least recently used conversation gives its sequence up. Turns on the
 * same sequence run one after the other.
 */
import type { ChatWrapper, LlamaChat, LlamaContext, LlamaContextSequence } from "node-llama-cpp";
import { llamaRuntime } from "./llama-runtime";

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
}

export class ConversationSlots {
  private readonly states: SlotState[];
  private clock = 0;

  constructor(context: LlamaContext, chatWrapper?: ChatWrapper) {
    this.states = [];
    const { LlamaChat: Chat } = llamaRuntime();
    for (let i = 0; i < context.totalSequences; i++) {
      const sequence = context.getSequence();
      const chat = new Chat({ contextSequence: sequence, chatWrapper: chatWrapper ?? "auto" });
      this.states.push({ slot: { sequence, chat }, lastUsed: 0, tail: Promise.resolve() });
    }
  }

  /** Conversations that currently keep a sequence. */
  get conversations(): number {
    return this.states.filter((s) => s.conversationId !== undefined).length;
  }

  /**
   * Waits for the conversation's sequence (or a recycled one) to be free and hands it over; call
   * `release` when the turn ends. Without an id the turn uses a recycled sequence and keeps nothing.
   */
  async acquire(conversationId?: string): Promise<{ slot: Slot; release: () => void }> {
    let state = conversationId === undefined ? undefined : this.states.find((s) => s.conversationId === conversationId);
    if (!state) {
      // Prefer a sequence no conversation holds; otherwise evict the least recently used conversation.
      const free = this.states.filter((s) => s.conversationId === undefined);
      const pool = free.length > 0 ? free : this.states;
      state = pool.reduce((a, b) => (b.lastUsed < a.lastUsed ? b : a));
      state.conversationId = conversationId;
    }
    state.lastUsed = ++this.clock;
    const previous = state.tail;
    let release!: () => void;
    state.tail = new Promise<void>((resolve) => (release = resolve));
    await previous;
    return { slot: state.slot, release };
  }
}
