/**
 * The agent: runs one turn at a time over a conversation. Public API used by the CLI and the chat pane:
 *
 *   const agent = new Agent({ engine, tools, toolContext, router, user, grammars, memory, options });
 *   const result = await agent.runTurn("summarize my inbox", { signal, onEvent });
 *   save(agent.conversation.toJSON()); agent.conversation = Conversation.fromJSON(saved);
 */
import type { Constraint, Engine } from "../ports/engine";
import type { UserPort } from "../ports/user";
import type { ToolContext } from "../protocol/tool";
import type { ToolCatalog } from "../protocol/registry";
import { Conversation } from "./conversation";
import type { AgentEvent, AgentEventListener, ToolResultEvent, TurnOutcome } from "./events";
import { DEFAULT_AGENT_OPTIONS, type AgentOptions } from "./options";
import type { GrammarSource, MemoryPrefetch, RouterPort, TranscriptSink } from "../ports/agent";
import { runTurnLoop } from "./turn-loop";
import { Gatekeeper } from "../gatekeeper/gatekeeper";
import { TokenCounter } from "./token-counter";
import type { ChangeJournal } from "../journal/change-journal";

export type { AgentOptions } from "./options";
export type { GrammarSource, MemoryPrefetch, RouterPort, RouteDecision, TranscriptSink, CompiledGrammar } from "../ports/agent";

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
  /** Memories for the system prompt; absent = none. */
  memory?: MemoryPrefetch;
  /**
   * Runs at the start of every turn, before routing: brings tool sources up when first needed (MCP servers start, a
   * crashed one finishes its restart) so the router sees their tools. Absent = nothing to prepare.
   */
  prepare?: (options: { signal?: AbortSignal }) => Promise<void>;
  /** Records every vault change a tool makes, before it happens, for undo; absent = no journal. */
  journal?: ChangeJournal;
  /** Receives each event as one JSON line (the optional JSONL transcript). */
  transcript?: TranscriptSink;
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
  tokensOut: number;
  ms: number;
  /** What constrained the last generation (see TurnEndEvent). */
  constraint?: Constraint;
}

export class Agent {
  /** The history this agent continues; assign another to switch conversations (not during a turn). */
  conversation: Conversation;
  /** Resolved options. */
  readonly options: AgentOptions;
  private readonly deps: AgentDeps;
  private running = false;
  private readonly gatekeeper: Gatekeeper;
  private readonly counter: TokenCounter;

  constructor(deps: AgentDeps) {
    this.deps = deps;
    this.conversation = deps.conversation ?? new Conversation();
    this.options = { ...DEFAULT_AGENT_OPTIONS, ...deps.options };
    this.gatekeeper = new Gatekeeper(deps.tools, { ...deps.toolContext, user: deps.user });
    this.counter = new TokenCounter(deps.engine);
  }

  /** True while a turn runs; a second `runTurn` meanwhile is refused. */
  get busy(): boolean {
    return this.running;
  }

  /** Runs one turn: route, generate under the grammar, check and run tool calls, repeat; resolves when the turn ends. */
  async runTurn(message: string, opts: RunTurnOptions = {}): Promise<TurnResult> {
    if (this.running) throw new Error("A turn is already running; wait for it to end or stop it first.");
    this.running = true;
    const listeners: AgentEventListener[] = [];
    if (opts.onEvent) listeners.push(opts.onEvent);
    const transcript = this.deps.transcript;
    const emit = (event: AgentEvent): void => {
      for (const l of listeners) {
        try {
          l(event);
        } catch {
          // A failing listener must not break the turn.
        }
      }
      if (transcript) {
        try {
          transcript(JSON.stringify(event));
        } catch {
          // Same for the transcript sink.
        }
      }
    };
    try {
      return await runTurnLoop({
        deps: this.deps,
        options: this.options,
        conversation: this.conversation,
        message,
        attachments: opts.attachments ?? [],
        signal: opts.signal,
        emit,
        gatekeeper: this.gatekeeper,
        counter: this.counter,
      });
    } finally {
      this.running = false;
    }
  }
}
