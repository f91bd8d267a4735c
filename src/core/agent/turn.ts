/** One turn's record: its entries, results, counts and outcome, and how it opens and closes. */
import type { Constraint } from "../ports/engine";
import type { Envelope } from "../protocol/envelope";
import type { Gatekeeper } from "../gatekeeper/gatekeeper";
import type { AgentDeps, TurnResult } from "./agent-types";
import type { Conversation, ConversationEntry } from "./conversation";
import type { AgentErrorCode, AgentEvent, ToolResultEvent, TurnOutcome } from "./events";
import type { AgentOptions } from "./options";
import { LoopGuard } from "./loop-guard";
import type { TokenCounter } from "./token-counter";

export interface TurnLoopInput {
  deps: AgentDeps;
  options: AgentOptions;
  conversation: Conversation;
  message: string;
  attachments: { path: string; text: string }[];
  signal?: AbortSignal;
  emit(event: AgentEvent): void;
  /** Shared across turns so token counts and validators are reused. */
  gatekeeper: Gatekeeper;
  counter: TokenCounter;
}

let turnCounter = 0;
function newTurnId(): string {
  turnCounter = (turnCounter + 1) % 1_000_000;
  return `t${Date.now().toString(36)}${turnCounter.toString(36)}`;
}

const EMPTY_ENVELOPE: Envelope = { thought: "", status: "Idle", message_to_user: null, tool_calls: [] };

export class Turn {
  readonly id = newTurnId();
  readonly started = Date.now();
  /** The conversation before this turn (the prompt may trim it). */
  readonly history: ConversationEntry[];
  /** This turn's entries so far, the user's message first (never trimmed). */
  readonly current: ConversationEntry[];
  readonly toolResults: ToolResultEvent[] = [];
  tokensIn = 0;
  tokensOut = 0;
  /** Prompt tokens the engine evaluated over the turn, by its own count; undefined when it cannot tell. */
  tokensEvaluated: number | undefined;
  /** Model rounds run, recovery attempts included. */
  rounds = 0;
  /** The last non-null message_to_user. */
  finalMessage: string | null = null;
  outcome: TurnOutcome = "done";
  /** What constrained the last generation (the engine's report; GBNF when it says nothing and a grammar was sent). */
  constraint?: Constraint;
  /** The engine's sentence on an unconstrained reply, added to a final failure so the user knows why. */
  engineNotice?: string;
  /** Repeated calls and rounds that find nothing. */
  readonly guard: LoopGuard;
  private readonly conversation: Conversation;
  private readonly sink: (event: AgentEvent) => void;

  constructor(input: TurnLoopInput) {
    this.conversation = input.conversation;
    this.sink = (event) => input.emit(event);
    this.history = input.conversation.entries.slice();
    this.guard = LoopGuard.forTurn(this.history, input.message);
    const attachments = input.attachments.length ? { attachments: input.attachments } : {};
    const userEntry: ConversationEntry = { kind: "user", turnId: this.id, at: this.started, content: input.message, ...attachments };
    this.current = [userEntry];
    input.conversation.append(userEntry);
    this.emit({ type: "turn-start", turnId: this.id, message: input.message, at: this.started });
  }

  emit(event: AgentEvent): void {
    this.sink(event);
  }

  /** Adds an entry to this turn and to the conversation. */
  commit(entry: ConversationEntry): void {
    this.current.push(entry);
    this.conversation.append(entry);
  }

  /** Ends the turn as failed, telling the listeners why. */
  fail(code: AgentErrorCode, message: string): void {
    this.outcome = "failed";
    this.emit({ type: "error", turnId: this.id, code, message, recoverable: false });
  }

  /** Closes the turn: history always alternates, so a turn without a final reply gets a closing placeholder. */
  end(): TurnResult {
    const entries = this.conversation.entries;
    const last = entries[entries.length - 1];
    if (last.kind !== "assistant" || last.turnId !== this.id || last.envelope.tool_calls.length > 0) {
      const placeholder = this.outcome === "aborted" ? "aborted" : this.outcome === "round-cap" ? "round-cap" : "failed";
      this.commit({ kind: "assistant", turnId: this.id, at: Date.now(), envelope: EMPTY_ENVELOPE, placeholder });
    }
    const ms = Date.now() - this.started;
    const evaluated = this.tokensEvaluated === undefined ? {} : { tokensEvaluated: this.tokensEvaluated };
    const summary = { outcome: this.outcome, message: this.finalMessage, rounds: this.rounds, tokensIn: this.tokensIn, tokensOut: this.tokensOut, ...evaluated, ms };
    const constraint = this.constraint ? { constraint: this.constraint } : {};
    this.emit({ type: "turn-end", turnId: this.id, ...summary, ...constraint });
    return { turnId: this.id, ...summary, toolResults: this.toolResults, ...constraint };
  }
}
