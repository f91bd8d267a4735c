/**
 * A conversation's history: what the agent replays to the model and what a chat pane shows.
 * Plain data that serializes to JSON and back, so the plugin can persist and restore it.
 */
import type { Envelope } from "../protocol/envelope";
import type { StagedMemory } from "../protocol/staged-memory";
import { StagedMemories } from "../memory/staging";

/** One tool call's outcome as stored in history. */
export interface StoredToolResult {
  /** `r<round>c<index>` within the turn. */
  callId: string;
  name: string;
  /** False when refused or failed. */
  ok: boolean;
  /** The (truncated) text the model saw. */
  content: string;
}

export type ConversationEntry =
  | {
      kind: "user";
      turnId: string;
      /** Milliseconds since the epoch. */
      at: number;
      /** The message as the user typed it. */
      content: string;
      /** Attached note texts, shown to the model after the message. */
      attachments?: { path: string; text: string }[];
      /** The turn block sent with the message (growing layout): replayed as it was, so the prompt prefix stays. */
      turnBlock?: string;
      /** A correction sent after the message when a reply of this turn was not an envelope. */
      correction?: string;
    }
  | {
      kind: "assistant";
      turnId: string;
      at: number;
      /** The envelope the model produced (parsed). */
      envelope: Envelope;
      /** The reply's text as generated, when it differs from the envelope's JSON (replayed byte for byte). */
      text?: string;
      /**
       * Set on the closing reply stored when a turn ended without a final envelope (stopped, round cap, failure),
       * so the history always alternates user/assistant.
       */
      placeholder?: "aborted" | "round-cap" | "failed";
    }
  | {
      kind: "tool-results";
      turnId: string;
      at: number;
      results: StoredToolResult[];
      /** A recovery instruction sent with the results (what to fix and how). */
      correction?: string;
      /** Tools the next round offers besides the turn block's (a later round widened the offer), announced after the results. */
      offered?: string;
    };

/** Turns that left the prompt to fit the context (oldest first), each kept as one summary line. */
export interface ConversationTrim {
  /** The last turn left out; turns up to it are not replayed. */
  throughTurnId: string;
  /** One line per left-out turn, oldest first. */
  summaries: string[];
}

/** The serialized form (version 1). */
export interface ConversationData {
  version: 1;
  id: string;
  /** A short title (the first user message, shortened). */
  title: string;
  createdAt: number;
  entries: ConversationEntry[];
  /** Tools the user answered "always" for: they run without asking again in this conversation. */
  alwaysAllowed: string[];
  /** Turns trimmed from the prompt, with their summaries; absent while everything fits. */
  trim?: ConversationTrim;
  /** Oldest turns removed to keep the saved file within its size cap; absent = none. */
  droppedTurns?: number;
  /** Facts staged to remember, not yet kept in the vault or dropped (memory's staging tier); absent = none. */
  staged?: StagedMemory[];
}

/** Thrown by `Conversation.fromJSON` for data that is not a stored conversation. */
export class ConversationFormatError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ConversationFormatError";
  }
}

let counter = 0;
function newId(): string {
  counter = (counter + 1) % 1_000_000;
  return `c${Date.now().toString(36)}${counter.toString(36)}`;
}

export class Conversation {
  /** Stable id, used as the engine's conversationId so the evaluated prefix is reused. */
  readonly id: string;
  /** When the conversation started. */
  readonly createdAt: number;
  /** Short title for lists. */
  title: string;
  private readonly items: ConversationEntry[];
  /** Tools that run without confirmation for the rest of this conversation. */
  readonly alwaysAllowed: Set<string>;
  /** Notes the agent has seen in this conversation (read, attached, active), with their text then, oldest first. */
  readonly notesSeen = new Map<string, string>();
  private trimmed: ConversationTrim | undefined;
  /** Oldest turns removed by `keepWithin`. */
  droppedTurns: number;
  /** Facts staged to remember, waiting for the user's review; saved with the conversation, never in the vault's notes. */
  readonly staged: StagedMemories;

  constructor(data?: Partial<ConversationData>) {
    this.id = data?.id ?? newId();
    this.createdAt = data?.createdAt ?? Date.now();
    this.title = data?.title ?? "";
    this.items = [...(data?.entries ?? [])];
    this.alwaysAllowed = new Set(data?.alwaysAllowed ?? []);
    this.droppedTurns = data?.droppedTurns ?? 0;
    this.staged = StagedMemories.fromJSON(data?.staged);
    this.trimmed = data?.trim ? { throughTurnId: data.trim.throughTurnId, summaries: [...data.trim.summaries] } : undefined;
  }

  /** Turns left out of the prompt so far, with their one-line summaries. */
  get trim(): Readonly<ConversationTrim> | undefined {
    return this.trimmed;
  }

  /** Records that turns up to `throughTurnId` left the prompt, adding one summary line per newly left-out turn. */
  recordTrim(throughTurnId: string, summaries: readonly string[]): void {
    this.trimmed = { throughTurnId, summaries: [...(this.trimmed?.summaries ?? []), ...summaries] };
  }

  /** Entries oldest first (read-only view). */
  get entries(): readonly ConversationEntry[] {
    return this.items;
  }

  append(entry: ConversationEntry): void {
    if (!this.title && entry.kind === "user") this.title = entry.content.replace(/\s+/g, " ").trim().slice(0, 60);
    this.items.push(entry);
  }

  /** Removes every entry (the id and "always" answers stay). */
  clear(): void {
    this.items.length = 0;
    this.trimmed = undefined;
  }

  /**
   * Keeps the saved form within `maxBytes` (UTF-8 JSON) by removing the oldest whole turns; the newest turn always
   * stays. Tool results are already stored cut to what the model saw, so this only bites in long conversations.
   * Returns how many turns it removed.
   */
  keepWithin(maxBytes: number): number {
    const encoder = new TextEncoder();
    const size = (value: unknown): number => encoder.encode(JSON.stringify(value)).length;
    // Everything but the entries, as toJSON writes it (trim summaries included), with room for a larger drop count.
    const head = { version: 1, id: this.id, title: this.title, createdAt: this.createdAt, entries: [], alwaysAllowed: [...this.alwaysAllowed], trim: this.trimmed, droppedTurns: this.droppedTurns + 1_000_000, staged: this.staged.toJSON() };
    let total = size(head);
    const sizes = this.items.map((e) => size(e) + 1);
    for (const s of sizes) total += s;
    let cut = 0;
    let dropped = 0;
    const newest = this.items.at(-1)?.turnId;
    while (total > maxBytes && cut < this.items.length && this.items[cut].turnId !== newest) {
      const turnId = this.items[cut].turnId;
      while (cut < this.items.length && this.items[cut].turnId === turnId) total -= sizes[cut++];
      dropped++;
    }
    if (dropped > 0) {
      this.items.splice(0, cut);
      this.droppedTurns += dropped;
    }
    return dropped;
  }

  toJSON(): ConversationData {
    return {
      version: 1,
      id: this.id,
      title: this.title,
      createdAt: this.createdAt,
      entries: this.items.map((e) => structuredClone(e)),
      alwaysAllowed: [...this.alwaysAllowed],
      ...(this.trimmed ? { trim: { throughTurnId: this.trimmed.throughTurnId, summaries: [...this.trimmed.summaries] } } : {}),
      ...(this.droppedTurns ? { droppedTurns: this.droppedTurns } : {}),
      ...(this.staged.size ? { staged: this.staged.toJSON() } : {}),
    };
  }

  /** Restores a conversation saved with `toJSON` (also accepts the JSON text). */
  static fromJSON(input: unknown): Conversation {
    const data = typeof input === "string" ? (JSON.parse(input) as unknown) : input;
    if (!data || typeof data !== "object") throw new ConversationFormatError("This is not a saved conversation: expected a JSON object.");
    const d = data as Partial<ConversationData>;
    if (d.version !== 1) throw new ConversationFormatError(`This saved conversation has version ${String(d.version)}; only version 1 can be opened.`);
    if (typeof d.id !== "string" || !Array.isArray(d.entries)) {
      throw new ConversationFormatError("This saved conversation is missing its id or entries; it cannot be opened.");
    }
    for (const e of d.entries) {
      if (!e || typeof e !== "object" || !["user", "assistant", "tool-results"].includes(e.kind)) {
        throw new ConversationFormatError("This saved conversation has an entry of unknown kind; it cannot be opened.");
      }
    }
    const trim = d.trim as unknown;
    if (trim !== undefined) {
      const t = trim as Partial<ConversationTrim>;
      if (typeof t.throughTurnId !== "string" || !Array.isArray(t.summaries) || !t.summaries.every((x) => typeof x === "string")) {
        throw new ConversationFormatError("This saved conversation's trimmed-turn summaries are damaged; it cannot be opened.");
      }
    }
    return new Conversation(d);
  }
}
