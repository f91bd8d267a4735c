/** The types the agent and its turn loop share: what the agent is built from, and what one turn returns. */
import type { Constraint, Engine } from "../ports/engine";
import type { UserPort } from "../ports/user";
import type { ToolContext } from "../protocol/tool";
import type { ToolCatalog } from "../protocol/registry";
import type { GrammarSource, MemoryPrefetch, RouterPort, TranscriptSink } from "../ports/agent";
import type { Conversation } from "./conversation";
import type { AgentEventListener, ToolResultEvent, TurnOutcome } from "./events";
import type { AgentOptions } from "./options";
import type { ChangeJournal } from "../journal/change-journal";
import type { VaultPathIndex } from "../grammar/vault-paths";

/** Everything the agent works with, constructed once per host and passed in. */
export interface AgentDeps {
  engine: Engine;
  /** The validated tool catalog. */
  tools: ToolCatalog;
  /** What tool handlers get (vault, user, settings, memory search...). */
  toolContext: ToolContext;
  /** Picks the offered tools per message. */
  router: RouterPort;
  /** Confirmations for writes, notices. */
  user: UserPort;
  /** Envelope grammars per tool subset (a `SubsetCache` over `tools.grammarTools()`). */
  grammars: GrammarSource;
  /** The vault's paths kept current from its change events; absent = path args are not grounded. */
  vaultPaths?: VaultPathIndex;
  /** Memories for the system prompt; absent = none. */
  memory?: MemoryPrefetch;
  /**
   * Runs at the start of every turn, before routing: brings tool sources up when first needed (MCP servers start, a
   * crashed one finishes its restart) so the router sees their tools. Absent = nothing to prepare.
   */
  prepare?: (options: { signal?: AbortSignal }) => Promise<void>;
  /** Receives each event as one JSON line (the optional JSONL transcript). */
  transcript?: TranscriptSink;
  /** Records every vault change a tool makes, before it happens, for undo; absent = no journal. */
  journal?: ChangeJournal;
  /** History to continue; default a new conversation. */
  conversation?: Conversation;
  options?: Partial<AgentOptions>;
}

export interface RunTurnOptions {
  /** Aborting stops generation and tool execution; history stays consistent and no note is half-written. */
  signal?: AbortSignal;
  /** Notes attached to the message (e.g. the active note), shown to the model after it. */
  attachments?: { path: string; text: string }[];
  /** Receives every event of this turn as it happens. */
  onEvent?: AgentEventListener;
}

/** What one turn produced. */
export interface TurnResult {
  turnId: string;
  outcome: TurnOutcome;
  /** The final message to the user, or null. */
  message: string | null;
  /** Every tool result of the turn, in order. */
  toolResults: ToolResultEvent[];
  rounds: number;
  tokensIn: number;
  /** Prompt tokens the engine evaluated (see TurnEndEvent). */
  tokensEvaluated?: number;
  tokensOut: number;
  ms: number;
  /** What constrained the last generation (see TurnEndEvent). */
  constraint?: Constraint;
}
