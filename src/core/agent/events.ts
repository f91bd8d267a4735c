/**
 * The typed event stream of one agent turn. The CLI prints it as a transcript, the chat pane renders it,
 * and the optional JSONL transcript stores it line by line. Every event is plain JSON data.
 */
import type { ConfirmDecision, ConfirmRequest } from "../ports/user";
import type { Constraint } from "../ports/engine";

/** Which grammar a generation ran under. */
export type GrammarBranch =
  /** No tools offered: the envelope's tool_calls must be empty. */
  | "chat"
  /** The router's top-K tools. */
  | "routed"
  /** The router was unsure: every tool. */
  | "full"
  /** Recovery: only the failing tool, with the same schema. */
  | "targeted"
  /** Recovery: the looser static grammar of the failing tool. */
  | "static"
  /** No grammar at all (evaluation only). */
  | "none";

/** How a turn ended. */
export type TurnOutcome =
  /** The model answered without (further) tool calls. */
  | "done"
  /** The round cap was reached while the model still asked for tools. */
  | "round-cap"
  /** The caller aborted the turn. */
  | "aborted"
  /** Recovery ran out of attempts or the engine failed. */
  | "failed";

export type { AgentErrorCode } from "../protocol/error-codes";
import type { AgentErrorCode } from "../protocol/error-codes";

export interface TurnStartEvent {
  type: "turn-start";
  /** Unique per turn. */
  turnId: string;
  /** The user's message as sent. */
  message: string;
  /** Milliseconds since the epoch. */
  at: number;
}

export interface RoutedEvent {
  type: "routed";
  turnId: string;
  /** Tools offered to the model, best first, with the router's fused score (0..1). Empty when chat only. */
  tools: { name: string; score: number }[];
  /** True when the router decided this is small talk or a general question: no tools are offered. */
  chatOnly: boolean;
  /** The grammar branch the round runs under. */
  branch: GrammarBranch;
  /**
   * The round this offer is for: 1 is the router's choice for the message; a later round gets its own event when its
   * offer changed (widened by what happened, or narrowed to the tool being repaired). Absent means 1.
   */
  round?: number;
  /** Tools new in this round's offer (later rounds only). */
  added?: string[];
}

export interface ThoughtDeltaEvent {
  type: "thought-delta";
  turnId: string;
  /** 1-based model round within the turn. */
  round: number;
  /** Newly decoded characters of the envelope's `thought`. */
  text: string;
}

export interface MessageDeltaEvent {
  type: "message-delta";
  turnId: string;
  round: number;
  /** Newly decoded characters of the envelope's `message_to_user`. */
  text: string;
}

export interface ToolCallEvent {
  type: "tool-call";
  turnId: string;
  round: number;
  /** Unique within the turn: `r<round>c<index>`. */
  callId: string;
  name: string;
  /** Arguments as the model wrote them (before alias repair). */
  args: Record<string, unknown>;
}

export interface ConfirmAskedEvent {
  type: "confirm-asked";
  turnId: string;
  callId: string;
  request: ConfirmRequest;
}

export interface ConfirmAnsweredEvent {
  type: "confirm-answered";
  turnId: string;
  callId: string;
  decision: ConfirmDecision;
}

export interface ToolResultEvent {
  type: "tool-result";
  turnId: string;
  callId: string;
  name: string;
  /** False when the gatekeeper refused the call or the handler failed. */
  ok: boolean;
  /** The text the model sees (after truncation to the result budget). */
  content: string;
  /** Set when `ok` is false. */
  error?: { code: AgentErrorCode; message: string };
  /** Arguments after alias repair, as the handler received them (absent when refused before repair). */
  args?: Record<string, unknown>;
  /** True when the handler found nothing. */
  empty?: boolean;
}

export interface ErrorEvent {
  type: "error";
  turnId: string;
  code: AgentErrorCode;
  /** One sentence a user can act on. */
  message: string;
  /** True when the turn goes on (a recovery attempt follows); false when the turn stops. */
  recoverable: boolean;
}

export interface TurnEndEvent {
  type: "turn-end";
  turnId: string;
  outcome: TurnOutcome;
  /** The final message to the user (the last non-null message_to_user), or null. */
  message: string | null;
  /** Model rounds run (including recovery attempts). */
  rounds: number;
  /** Prompt tokens sent over the turn (each round's whole prompt). */
  tokensIn: number;
  /** Of those, the tokens the engine evaluated by its own count (the rest was reused); absent when it cannot tell. */
  tokensEvaluated?: number;
  /** Tokens generated over the turn. */
  tokensOut: number;
  /** Wall-clock milliseconds of the whole turn. */
  ms: number;
  /** What constrained the turn's last generation: GBNF, the server's JSON Schema, or none. Absent when nothing was generated. */
  constraint?: Constraint;
}

export type AgentEvent =
  | TurnStartEvent
  | RoutedEvent
  | ThoughtDeltaEvent
  | MessageDeltaEvent
  | ToolCallEvent
  | ConfirmAskedEvent
  | ConfirmAnsweredEvent
  | ToolResultEvent
  | ErrorEvent
  | TurnEndEvent;

/** Receives events as they happen. Must not throw; a throwing listener is ignored. */
export type AgentEventListener = (event: AgentEvent) => void;
