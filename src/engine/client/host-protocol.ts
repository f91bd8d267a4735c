/**
 * The wire protocol between the engine client and the host: one JSON object per line.
 * Client → host: requests (with an id) and aborts (by id). Host → client: events, then exactly one
 * result or error per request id. Pure types and constants: the plugin bundle imports this file.
 */
import type { EngineError, GenerateRequest, ModelInfo } from "../../core/ports/engine";
import type { ServerEngineConfig, ServerProbe } from "../server/server-config";

/** A request the client sends. */
export interface WireRequest {
  type: "request";
  /** Unique per client; echoed on every reply. */
  id: number;
  /** Operation name: one of the built-in ops below, or a key of the host's extra ops (e.g. "vector.query"). */
  op: string;
  /** Op-specific parameters. */
  params: unknown;
}

/** Asks the host to stop work on a request; the request still settles (generate resolves with stopReason "abort"). */
export interface WireAbort {
  type: "abort";
  /** The request to abort. */
  id: number;
}

/** Something a request reports before it settles (progress, a text chunk). */
export interface WireEvent {
  type: "event";
  id: number;
  event: EngineEvent;
}

/** A request's successful end. */
export interface WireResult {
  type: "result";
  id: number;
  result: unknown;
}

/** A request's failed end: the sentence a user can act on, and the machine-readable kind. */
export interface WireError {
  type: "error";
  id: number;
  error: { message: string; code: EngineError["code"] | typeof GRAMMAR_UNKNOWN };
}

/**
 * The error code of a generate request that named its grammar by a key the host does not hold (evicted, or the host
 * started since the text was sent): the client sends the request again with the text. Never shown to a user.
 */
export const GRAMMAR_UNKNOWN = "grammar_unknown";

/** Sent once when the host is ready to take requests. */
export interface WireReady {
  type: "ready";
  /** Host process id. */
  pid: number;
}

export type ClientMessage = WireRequest | WireAbort;
export type HostMessage = WireEvent | WireResult | WireError | WireReady;

/** Events a request can emit. */
export type EngineEvent =
  | { kind: "progress"; /** 0..1 */ progress: number; /** What is loading: "model" or "embeddingModel". */ stage: string }
  | { kind: "text"; /** A decoded chunk of generated text. */ text: string };

/** Where the model lives and how to run it. */
export interface ModelOptions {
  /** Absolute path of the .gguf file. */
  path: string;
  /** Context size to run with; default min(trained, 8192) shrunk to what memory allows. */
  contextSize?: number;
  /** CPU threads; default chosen from the machine's cores and the model's size. */
  threads?: number;
  /** Layers to offload to a GPU; default node-llama-cpp's automatic choice ("auto"); 0 forces CPU. */
  gpuLayers?: number;
  /**
   * Where conversation states (and the system prompt's) are saved so a restart does not evaluate a conversation
   * again; absent: nothing is saved.
   */
  states?: {
    /** The folder (the plugin's data folder, next to the conversations). */
    dir: string;
    /** Bound on the folder; least recently used states go first. Default 300 MB. */
    maxBytes?: number;
    /** Idle time after a generation before the state is written; default 1000 ms. */
    saveDelayMs?: number;
  };
  /**
   * Bound on the in-memory checkpoints of recurrent and hybrid models' sequences, all together (RAM): where a prompt
   * leaves the evaluated tokens, the state is restored from one instead of read again. Default 512 MB.
   */
  checkpointBytes?: number;
}

/** Parameters of the built-in ops. */
export interface OpParams {
  /** A built-in model (node-llama-cpp in the host), or a server engine (HTTP from the host; no runtime needed). */
  load: { model?: ModelOptions; embeddingModel?: { path: string }; server?: ServerEngineConfig };
  /** Tries a server for real (health, props or models, a constrained request, embeddings) without switching to it. */
  "server.probe": { server: ServerEngineConfig };
  /** With `path`: header facts of that file without loading. Without: the loaded model's facts. */
  info: { path?: string };
  generate: Omit<GenerateRequest, "signal" | "onText"> & {
    /**
     * The client's name for the grammar: sent beside `grammar` the first time, then alone (`grammar` absent) while the
     * host holds the text (received-grammars.ts); a key the host lacks is answered with GRAMMAR_UNKNOWN.
     */
    grammarKey?: string;
    /** Under a grammar: evaluate forced text in batches and mask small choices cheaply (default true); false for llama.cpp's grammar alone. */
    jumpForward?: boolean;
  };
  embed: { texts: string[] };
  countTokens: { text: string };
  unload: Record<string, never>;
  shutdown: Record<string, never>;
  /** Facts about how the host runs the model (thread choice, GPU), for benchmarks and diagnostics. */
  status: Record<string, never>;
}

/** What the `status` op returns. */
export interface HostStatus {
  /** Whether a chat model is loaded. */
  loaded: boolean;
  /** Threads the loaded model's contexts use. */
  threads?: number;
  /** `os.availableParallelism()` in the host. */
  availableParallelism: number;
  /** The GPU backend in use, or false for CPU only. */
  gpu: string | false;
  /** Conversations whose context sequence is kept. */
  conversations: number;
  /** Bytes the checkpoints of all sequences take now, and their bound (recurrent and hybrid models; absent otherwise). */
  checkpoints?: { bytes: number; maxBytes: number };
  /** The server a server engine talks to ("the llama.cpp server at …"); absent for the built-in engine. */
  server?: string;
}

/** The reply to a generation aborted before it produced anything (the same on both sides of the pipe). */
export function abortedReply(): OpResults["generate"] {
  return { text: "", tokensIn: 0, tokensOut: 0, promptEvalMs: 0, generateMs: 0, stopReason: "abort", tokensEvaluated: 0 };
}

/** Results of the built-in ops. */
export interface OpResults {
  load: ModelInfo;
  info: ModelInfo;
  generate: import("../../core/ports/engine").GenerateResult & {
    /**
     * Prompt tokens the engine evaluated this turn, by its own meter (node-llama-cpp's token meter; llama-server's
     * prompt count): what an erase re-read on a recurrent model counts, so tokensIn minus this is what was reused.
     */
    tokensEvaluated: number;
    /** Prompt tokens the sequence held when the turn began (what reuse could keep); tokensIn minus this is what had to be read. */
    tokensHeld?: number;
    /** Every token the engine evaluated on the sequence during the call (prompt, re-reads and the reply's own), by its meter. */
    tokensMetered?: number;
    /** Bytes the sequence's checkpoints take after the turn (recurrent and hybrid models; 0 otherwise). */
    checkpointBytes?: number;
    /** Tokens of a "think first" span (sampled, then dropped from the reply); 0 or absent without one. */
    thoughtTokens?: number;
    /** Of tokensOut, those the model sampled (the rest were forced by the grammar); absent without forced-text generation. */
    tokensSampled?: number;
    /** Tokens loaded from the conversation's saved state before this generation (after a restart or a switch). */
    restoredTokens?: number;
  };
  embed: { vectors: number[][] };
  countTokens: { count: number };
  unload: { unloaded: boolean };
  shutdown: { stopping: true };
  status: HostStatus;
  "server.probe": ServerProbe;
}

/** What the host's `runtime.check` op answers: an installed runtime proven before the plugin switches to it. */
export interface RuntimeCheckResult {
  /** What node-llama-cpp loaded: false for the CPU build, else the GPU backend. */
  gpu: false | string;
  /** node-llama-cpp's version, from the runtime folder it loaded from. */
  nodeLlamaCpp: string;
  /** Where node-llama-cpp was loaded from (the runtime folder's node_modules). */
  loadedFrom: string;
  /** Items the vectra index returned from its query, the fewest over both codecs (1 when it works). */
  vectorHits: number;
  ms: number;
}
