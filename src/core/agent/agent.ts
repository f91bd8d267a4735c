/**
 * The agent: runs one turn at a time over a conversation. Public API used by the CLI and the chat pane:
 *
 *   const agent = new Agent({ engine, tools, toolContext, router, user, grammars, memory, options });
 *   const result = await agent.runTurn("summarize my inbox", { signal, onEvent });
 *   save(agent.conversation.toJSON()); agent.conversation = Conversation.fromJSON(saved);
 */
import { Conversation } from "./conversation";
import type { AgentEvent, AgentEventListener } from "./events";
import { DEFAULT_AGENT_OPTIONS, type AgentOptions } from "./options";
import type { AgentDeps, RunTurnOptions, TurnResult } from "./agent-types";
import { runTurnLoop } from "./turn-loop";
import { Gatekeeper } from "../gatekeeper/gatekeeper";
import { TokenCounter } from "./token-counter";

export type { AgentOptions } from "./options";
export type { AgentDeps, RunTurnOptions, TurnResult } from "./agent-types";
export type { GrammarSource, MemoryPrefetch, RouterPort, RouteDecision, TranscriptSink, CompiledGrammar } from "../ports/agent";

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
    this.gatekeeper = new Gatekeeper(deps.tools, { ...deps.toolContext, user: deps.user }, deps.vaultPaths);
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
      const result = await runTurnLoop({
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
      this.conversation.keepWithin(this.options.conversationMaxBytes);
      return result;
    } finally {
      this.running = false;
    }
  }
}
