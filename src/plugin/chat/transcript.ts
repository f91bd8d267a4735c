/**
 * What the chat pane shows, as plain data: a list of items built from the agent's events while a turn runs, or
 * from a saved conversation when it is reopened. No DOM here, so the logic is tested in Node.
 */
import type { AgentEvent } from "../../core/agent/events";
import type { ConversationData } from "../../core/agent/conversation";
import type { ConfirmDecision, ConfirmRequest } from "../../core/ports/user";

export interface UserItem {
  kind: "user";
  id: string;
  text: string;
  /** Paths of attached notes (or selections). */
  attachments: string[];
}

export interface AssistantItem {
  kind: "assistant";
  /** `<turnId>:<round>`. */
  id: string;
  thought: string;
  /** message_to_user so far (streams in). */
  text: string;
  /** True until the round's envelope is complete. */
  streaming: boolean;
}

export type ToolStatus = "running" | "awaiting" | "ok" | "failed" | "denied" | "stopped";

export interface ToolItem {
  kind: "tool";
  /** `<turnId>:<callId>`. */
  id: string;
  name: string;
  args: Record<string, unknown>;
  status: ToolStatus;
  /** First lines of the result (or the refusal sentence). */
  summary?: string;
  /** When the call was announced and when its result came (ms since epoch). */
  startedAt: number;
  endedAt?: number;
  /** Set while the user is asked to approve it. */
  confirm?: ConfirmRequest;
  /** The user's answer, once given. */
  decision?: ConfirmDecision;
  /** The tools the round that made this call had on offer (per-round routing), when the turn ran in this pane. */
  offered?: RoundOffer;
}

/** What one round offered the model: the `routed` event in force for it. */
export interface RoundOffer {
  /** The round the offer was made for (1: the router's choice for the message; later: widened or narrowed). */
  round: number;
  tools: string[];
  /** Tools new in that round's offer (empty in round 1). */
  added: string[];
  /** The grammar branch: "routed", "full", "targeted" (recovery)… */
  branch: string;
}

export interface NoticeItem {
  kind: "notice";
  id: string;
  /** "stopped" after Stop; "failed" when the turn ended on an error; "info" otherwise. */
  tone: "info" | "stopped" | "failed";
  text: string;
}

/** After a turn that changed the vault: its "Undo this turn" action. */
export interface UndoItem {
  kind: "undo";
  /** `<turnId>:undo`. */
  id: string;
  turnId: string;
  /** "ready" until undone. */
  state: "ready" | "undone";
}

export type ChatItem = UserItem | AssistantItem | ToolItem | NoticeItem | UndoItem;

/** Characters and lines of a tool result shown on its card. */
const SUMMARY_CHARS = 280;
const SUMMARY_LINES = 4;

/** The first few non-blank lines of a result, cut to fit a card. */
export function summarize(content: string): string {
  const lines = content.split("\n").filter((l) => l.trim() !== "");
  let text = lines.slice(0, SUMMARY_LINES).join("\n");
  const cut = lines.length > SUMMARY_LINES || text.length > SUMMARY_CHARS;
  if (text.length > SUMMARY_CHARS) text = text.slice(0, SUMMARY_CHARS).trimEnd();
  return cut ? `${text}…` : text;
}

/** The transcript: items in order plus an index by id; `apply` folds one agent event in and returns the changed item ids. */
export class Transcript {
  readonly items: ChatItem[] = [];
  private readonly byId = new Map<string, ChatItem>();
  private lastConfirmId: string | null = null;
  /** Per turn, the latest routed event's offer (a round keeps the offer announced before it). */
  private readonly offers = new Map<string, RoundOffer>();

  constructor(private readonly now: () => number = Date.now) {}

  get(id: string): ChatItem | undefined {
    return this.byId.get(id);
  }

  add(item: ChatItem): void {
    this.items.push(item);
    this.byId.set(item.id, item);
  }

  /** Places the turn's undo action after its last item (once); returns its id. */
  addUndo(turnId: string): string {
    const id = `${turnId}:undo`;
    if (this.byId.has(id)) return id;
    const item: UndoItem = { kind: "undo", id, turnId, state: "ready" };
    let at = -1;
    this.items.forEach((other, i) => {
      if (other.id.startsWith(`${turnId}:`)) at = i;
    });
    if (at < 0) this.items.push(item);
    else this.items.splice(at + 1, 0, item);
    this.byId.set(id, item);
    return id;
  }

  clear(): void {
    this.items.length = 0;
    this.byId.clear();
  }

  /** The tool item waiting for the user's answer, if any. */
  get awaiting(): ToolItem | undefined {
    const item = this.lastConfirmId ? this.byId.get(this.lastConfirmId) : undefined;
    return item?.kind === "tool" && item.status === "awaiting" ? item : undefined;
  }

  apply(event: AgentEvent): string[] {
    switch (event.type) {
      case "turn-start":
        return [];
      case "routed":
        this.offers.set(event.turnId, { round: event.round ?? 1, tools: event.tools.map((t) => t.name), added: event.added ?? [], branch: event.branch });
        return [];
      case "thought-delta":
      case "message-delta": {
        const item = this.assistant(`${event.turnId}:${event.round}`);
        if (event.type === "thought-delta") item.thought += event.text;
        else item.text += event.text;
        return [item.id];
      }
      case "tool-call": {
        const changed = this.finishRound(`${event.turnId}:${event.round}`);
        const id = `${event.turnId}:${event.callId}`;
        const existing = this.byId.get(id);
        if (existing?.kind === "tool") {
          existing.args = event.args;
          return [...changed, id];
        }
        const offered = this.offers.get(event.turnId);
        this.add({ kind: "tool", id, name: event.name, args: event.args, status: "running", startedAt: this.now(), ...(offered ? { offered } : {}) });
        return [...changed, id];
      }
      case "confirm-asked": {
        const item = this.tool(event.turnId, event.callId, event.request.tool);
        item.status = "awaiting";
        item.confirm = event.request;
        this.lastConfirmId = item.id;
        return [item.id];
      }
      case "confirm-answered": {
        const item = this.tool(event.turnId, event.callId, "");
        item.decision = event.decision;
        item.status = event.decision === "deny" ? "denied" : "running";
        return [item.id];
      }
      case "tool-result": {
        const item = this.tool(event.turnId, event.callId, event.name);
        if (event.args) item.args = event.args;
        item.endedAt = this.now();
        if (event.ok) item.status = "ok";
        else if (event.error?.code === "denied_by_user") item.status = "denied";
        else item.status = "failed";
        item.summary = summarize(event.ok ? event.content : (event.error?.message ?? event.content));
        return [item.id];
      }
      case "error": {
        if (event.recoverable) return [];
        const id = `${event.turnId}:error:${this.items.length}`;
        this.add({ kind: "notice", id, tone: "failed", text: event.message });
        return [id];
      }
      case "turn-end": {
        const changed: string[] = [];
        for (const item of this.items) {
          if (item.kind === "assistant" && item.id.startsWith(`${event.turnId}:`) && item.streaming) {
            item.streaming = false;
            changed.push(item.id);
          }
          if (item.kind === "tool" && item.id.startsWith(`${event.turnId}:`) && (item.status === "running" || item.status === "awaiting")) {
            item.status = "stopped";
            item.confirm = undefined;
            changed.push(item.id);
          }
        }
        // Empty assistant bubbles (a round that only called tools) are dropped.
        for (const item of [...this.items]) {
          if (item.kind === "assistant" && item.id.startsWith(`${event.turnId}:`) && !item.text.trim() && !item.thought.trim()) this.remove(item.id);
        }
        if (event.outcome === "aborted") {
          const id = `${event.turnId}:stopped`;
          this.add({ kind: "notice", id, tone: "stopped", text: "Stopped." });
          changed.push(id);
        } else if (event.outcome === "round-cap") {
          const id = `${event.turnId}:cap`;
          this.add({ kind: "notice", id, tone: "info", text: `Stopped after ${event.rounds} rounds; ask again to continue.` });
          changed.push(id);
        }
        return changed;
      }
    }
  }

  private remove(id: string): void {
    const index = this.items.findIndex((i) => i.id === id);
    if (index >= 0) this.items.splice(index, 1);
    this.byId.delete(id);
  }

  private assistant(id: string): AssistantItem {
    const existing = this.byId.get(id);
    if (existing?.kind === "assistant") return existing;
    const item: AssistantItem = { kind: "assistant", id, thought: "", text: "", streaming: true };
    this.add(item);
    return item;
  }

  private finishRound(id: string): string[] {
    const item = this.byId.get(id);
    if (item?.kind === "assistant" && item.streaming) {
      item.streaming = false;
      return [id];
    }
    return [];
  }

  private tool(turnId: string, callId: string, name: string): ToolItem {
    const id = `${turnId}:${callId}`;
    const existing = this.byId.get(id);
    if (existing?.kind === "tool") return existing;
    const item: ToolItem = { kind: "tool", id, name, args: {}, status: "running", startedAt: this.now() };
    this.add(item);
    return item;
  }

  /** Rebuilds the items of a saved conversation (no timings, no pending confirmations). */
  static fromConversation(data: ConversationData): Transcript {
    const t = new Transcript();
    let n = 0;
    for (const entry of data.entries) {
      if (entry.kind === "user") {
        t.add({ kind: "user", id: `${entry.turnId}:user`, text: entry.content, attachments: (entry.attachments ?? []).map((a) => a.path) });
      } else if (entry.kind === "assistant") {
        const e = entry.envelope;
        if (e.message_to_user || e.thought) {
          t.add({ kind: "assistant", id: `${entry.turnId}:a${n++}`, thought: e.thought, text: e.message_to_user ?? "", streaming: false });
        }
        e.tool_calls.forEach((call, i) => {
          t.add({ kind: "tool", id: `${entry.turnId}:a${n}c${i}`, name: call.name, args: call.args, status: "ok", startedAt: entry.at });
        });
        if (entry.placeholder === "aborted") t.add({ kind: "notice", id: `${entry.turnId}:stopped${n}`, tone: "stopped", text: "Stopped." });
      } else {
        // Fill the cards of the preceding assistant entry with their results, in order.
        const cards = t.items.filter((i): i is ToolItem => i.kind === "tool" && i.id.startsWith(`${entry.turnId}:a${n}c`));
        entry.results.forEach((r, i) => {
          const card = cards[i];
          if (!card) return;
          card.status = r.ok ? "ok" : "failed";
          card.summary = summarize(r.content);
        });
      }
    }
    return t;
  }
}
