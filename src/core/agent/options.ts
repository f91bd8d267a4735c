import type { PromptLayout } from "./prompt";

/** Agent options, each with its default. */
export interface AgentOptions {
  /** Model rounds per turn before stopping, recovery attempts excluded. Default 5. */
  maxRounds: number;
  /** Recovery attempts per turn (targeted retry, static grammar, ...). Default 3. */
  recoveryAttempts: number;
  /**
   * Write and destructive calls: "confirm" asks `UserPort.confirm` with a preview; "refuse" refuses them with a
   * sentence saying how to allow writes (headless without --allow-writes). Default "confirm".
   */
  writes: "confirm" | "refuse";
  /** The sentence that tells how to turn writes on, used when `writes` is "refuse". */
  writesOffHint: string;
  /** Characters of one tool result kept for the model. Default 2000. */
  resultChars: number;
  /** Tokens of the system prompt given to prefetched memories. Default 300. */
  memoryTokens: number;
  /**
   * Tokens of reply the context budget makes room for by trimming history (the reply may use more when the context
   * has it, up to the grammar's bound), and the cap on a reply without a grammar bound. Default 1024.
   */
  maxTokensCap: number;
  /** Context size when the engine does not report one. Default 4096. */
  fallbackContextSize: number;
  /** Tokens kept free for chat-template overhead the token count cannot see. Default 64. */
  templateMarginTokens: number;
  /** Sampling temperature. Default: the engine's. */
  temperature?: number;
  /** Sampling seed. Default: random. */
  seed?: number;
  /** Generate under a grammar (false only for the prompt-only evaluation). Default true. */
  grammar: boolean;
  /** Run the recovery ladder on schema failures. Default true. */
  recovery: boolean;
  /** "routed": the router's choice; "full": always the whole catalog. Default "routed". */
  toolSelection: "routed" | "full";
  /**
   * Thinking models only: tokens of free thinking allowed before each grammar-constrained reply ("Let
   * thinking models think first"); the thoughts never reach the reply. 0 runs grammar turns with
   * thinking off, as the model's template does for non-thinking mode. Default 0.
   */
  thinkFirstTokens: number;
  /**
   * Cap on a conversation's saved size in bytes: after each turn the oldest whole turns leave the conversation until
   * its JSON fits (the newest turn always stays). Default 2,000,000 (2 MB).
   */
  conversationMaxBytes: number;
  /** Extra instructions appended to the system prompt. Default none. */
  instructions?: string;
  /**
   * "growing": a fixed system message and the per-turn block (tools, memories, date) in the turn's user message, so
   * the evaluated prefix only grows; "previous": all of it in the system message, rebuilt per round (benchmarks).
   * Default "growing".
   */
  promptLayout: PromptLayout;
}

export const DEFAULT_AGENT_OPTIONS: AgentOptions = {
  maxRounds: 5,
  recoveryAttempts: 3,
  writes: "confirm",
  writesOffHint: "allow writes for this session and ask again.",
  resultChars: 2000,
  memoryTokens: 300,
  maxTokensCap: 1024,
  fallbackContextSize: 4096,
  templateMarginTokens: 64,
  grammar: true,
  recovery: true,
  toolSelection: "routed",
  thinkFirstTokens: 0,
  promptLayout: "growing",
  conversationMaxBytes: 2_000_000,
};
