/** One chat message as the engine formats it with the model's own chat template. */
export interface ChatMessage {
  /** Who speaks. Tool results travel as `user` messages prefixed by the agent, so every chat template accepts them. */
  role: "system" | "user" | "assistant";
  /** Plain text. */
  content: string;
}


/** What the agent asks of a language model. Implemented by the engine host client and by the scripted engine in tests. */
export interface Engine {
  /** Generates one assistant reply. Rejects with an `EngineError` on failure; resolves with stopReason "abort" when aborted. */
  generate(request: GenerateRequest): Promise<GenerateResult>;
  /** Embeds each text; vectors have the embedding model's dimension. */
  embed(texts: string[], options?: { signal?: AbortSignal }): Promise<number[][]>;
  /** Tokens the loaded chat model needs for this text. */
  countTokens(text: string): Promise<number>;
  /** Facts about the loaded chat model, including the context size it runs with. */
  modelInfo(): Promise<ModelInfo>;
}

export interface GenerateRequest {
  messages: ChatMessage[];
  /** GBNF text. Absent means free generation. A grammar llama.cpp cannot parse is an error, never an unconstrained run. */
  grammar?: string;
  /**
   * The same constraint as a JSON Schema (the envelope with the offered tools' args), for engines that constrain
   * through a server's JSON Schema support rather than GBNF. Engines that take GBNF ignore it.
   */
  jsonSchema?: Record<string, unknown>;
  /** Hard cap on generated tokens. */
  maxTokens: number;
  /** Default 0.7. */
  temperature?: number;
  /** Default 0.95. */
  topP?: number;
  /** Fixed seed for reproducible sampling; default random. */
  seed?: number;
  /** Generation ends before any of these strings. */
  stop?: string[];
  /**
   * For thinking models under a grammar: a free think span of at most `maxTokens` tokens runs before the
   * grammar starts; its text is never part of the reply. Absent: grammar turns run with thinking off.
   */
  thinkFirst?: { maxTokens: number };
  /** Keeps a context sequence per conversation so the evaluated prefix is reused next turn. */
  conversationId?: string;
  signal?: AbortSignal;
  /** Called with each decoded text chunk as it is generated. */
  onText?: (chunk: string) => void;
}

export interface GenerateResult {
  text: string;
  tokensIn: number;
  tokensOut: number;
  /**
   * Prompt tokens the engine evaluated, by its own count (node-llama-cpp's token meter, llama-server's timings); the
   * rest of tokensIn was reused from what it held. Absent when the engine cannot tell.
   */
  tokensEvaluated?: number;
  /** Milliseconds spent evaluating the prompt (excluding reused prefix). */
  promptEvalMs: number;
  /** Milliseconds from the first generated token to the end. */
  generateMs: number;
  stopReason: "eos" | "maxTokens" | "stop" | "abort";
  /**
   * Whether the reply's bytes, as the model produced them, were valid UTF-8 (checked on bytes: a reply
   * may legitimately contain U+FFFD). Absent when the engine cannot tell.
   */
  utf8Valid?: boolean;
  /** What constrained this reply: our GBNF, the server's JSON Schema support, or nothing (prompt only). Absent = as requested. */
  constraint?: Constraint;
  /** One sentence on how this reply was produced when it differs from what was asked (e.g. the server took no schema). */
  notice?: string;
  /** One sentence when the conversation's saved state could not be used (another model, a damaged file); the prompt was read from its text. */
  stateNotice?: string;
}

/** What constrained a generation. */
export type Constraint = "gbnf" | "json_schema" | "none";

/** How an engine constrains grammar-bound turns, in the user's words (status line, settings). */
export const CONSTRAINT_LABELS: Record<Constraint, string> = {
  gbnf: "GBNF grammar",
  json_schema: "JSON Schema",
  none: "no constraint (prompt only)",
};

/** Read from the GGUF header (no load needed) plus, when loaded, the runtime context size. */
export interface ModelInfo {
  path: string;
  /** general.name, or the file name. */
  name: string;
  /** general.architecture, e.g. "llama". */
  architecture: string;
  parameterCount?: number;
  /** e.g. "F16", "Q4_K_M". */
  quantization?: string;
  fileSizeBytes: number;
  /** The context length the model was trained with. */
  trainedContextLength?: number;
  /** The context size the engine runs with (≤ trained). */
  contextSize?: number;
  embeddingLength?: number;
  hasChatTemplate: boolean;
  /** The kind of chat template the file ships ("ChatML", "Llama 3", "Gemma", "Gemma 4", "Phi-3", "Mistral", "other"). */
  chatTemplateKind?: string;
  /** When loaded: the chat format node-llama-cpp resolved for the model (e.g. "Qwen", "Llama 3.2 lightweight", "JinjaTemplate"). */
  chatWrapper?: string;
  /** Whether the template has a thinking mode (grammar turns then run with thinking off). */
  thinkingModel?: boolean;
  /** How this engine constrains a turn that asks for a grammar. Absent = GBNF (the built-in engine). */
  constraint?: Constraint;
  /** Where the model runs when it is not this computer: e.g. "the llama.cpp server at http://host:8080". */
  server?: string;
}

/** A failure a user can act on: `message` is one clear sentence. */
export class EngineError extends Error {
  constructor(
    message: string,
    /** Machine-readable kind. */
    readonly code:
      | "model_missing"
      | "not_gguf"
      | "truncated"
      | "too_large"
      | "unsupported_architecture"
      | "bad_grammar"
      | "host_crashed"
      | "aborted"
      | "no_model"
      /** The built-in engine's runtime (node-llama-cpp) is not installed. */
      | "runtime_missing"
      /** A server engine's server cannot be reached, or dropped the connection. */
      | "server_unreachable"
      /** The server refused the API key (401/403). */
      | "server_auth"
      /** The server has no such model or endpoint (404). */
      | "server_not_found"
      /** The server refused the request (a 4xx/5xx other than the above, or a reply that is not what it should be). */
      | "server_rejected"
      /** The prompt does not fit the context the engine runs with. */
      | "context_overflow"
      | "internal",
  ) {
    super(message);
    this.name = "EngineError";
  }
}
