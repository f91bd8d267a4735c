/**
 * The `Engine` the agent talks to: spawns the engine host lazily, speaks the JSON-lines protocol,
 * streams events back, aborts by id, and supervises the process — if the host dies, every pending
 * request is rejected with a clear error and the next request starts a fresh host.
 */
import {
  EngineError,
  type Engine,
  type GenerateRequest,
  type ModelInfo,
} from "../../core/ports/engine";
import { abortedReply, GRAMMAR_UNKNOWN, type ClientMessage, type EngineEvent, type HostMessage, type ModelOptions, type OpResults } from "./host-protocol";
import type { ServerEngineConfig, ServerProbe } from "../server/server-config";
import { HostLog } from "./host-log";
import { SentGrammars } from "./sent-grammars";
import type { ChildProcessLike, HostLauncher } from "./launcher";

/** What to run and how to log it. */
export interface EngineClientOptions {
  /** The chat model; ops that need it fail with "no_model" when absent. */
  model?: ModelOptions;
  /** A separate embedding model; default: embed with the chat model. */
  embeddingModel?: { path: string };
  /** A server engine instead of a built-in model: the host talks HTTP to it and needs no node-llama-cpp. */
  server?: ServerEngineConfig;
  /** Host stderr lines kept in memory; default 500. */
  logLines?: number;
  /** Also append host stderr to this file. */
  logFile?: string;
}

/** A generated reply with the host's prefix-reuse accounting. */
export type GeneratedReply = OpResults["generate"];

/** Where the host process stands. */
export type EngineState =
  /** No host process (never started, or shut down). */
  | "stopped"
  /** A host runs; no model is loaded in it. */
  | "running"
  /** The model is loading. */
  | "loading"
  /** The model is loaded and ready. */
  | "loaded"
  /** The host died unexpectedly; the next request restarts it. */
  | "crashed";

/** Per-request options of `request`. */
export interface RequestOptions {
  /** Aborting sends an abort for this request id; the request still settles. */
  signal?: AbortSignal;
  /** Events (progress, text chunks) as they arrive. */
  onEvent?: (event: EngineEvent) => void;
}

interface Pending {
  resolve: (value: unknown) => void;
  reject: (err: Error) => void;
  onEvent?: (event: EngineEvent) => void;
  /** Detaches the abort listener. */
  cleanup: () => void;
  /** Host log position when the request was sent. */
  logMark: number;
}

/** llama.cpp prints why a grammar failed straight to stderr, which can arrive just after the error reply. */
const GRAMMAR_REASON_WAIT_MS = 50;
const GRAMMAR_REASON = /error parsing grammar: (.*)$/;

/** Built-in ops that run on the loaded chat model; the client loads it first. Every other op (status, vector.*) needs no model. */
const MODEL_OPS = new Set(["generate", "embed", "countTokens"]);

/** The host answered a generate request with GRAMMAR_UNKNOWN: it does not hold the grammar the request named by key. */
class UnknownGrammarKey extends Error {}

export class EngineClient implements Engine {
  /** The host's stderr (and the client's own notes on starts and exits). */
  readonly log: HostLog;
  private child: ChildProcessLike | null = null;
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  private loading: Promise<ModelInfo> | null = null;
  private loaded = false;
  private crashed = false;
  private stopping: Promise<void> | null = null;
  private loadListeners: Array<(progress: number, stage: string) => void> = [];
  private options: EngineClientOptions;
  /** Grammar texts the running host holds by key; cleared when a host starts. */
  private readonly sentGrammars = new SentGrammars();

  constructor(
    /** Starts a host process. */
    private readonly launcher: HostLauncher,
    options: EngineClientOptions = {},
  ) {
    this.options = { ...options };
    this.log = new HostLog(options.logLines ?? 500, options.logFile);
  }

  /** Where the host process stands now. */
  get state(): EngineState {
    if (!this.child) return this.crashed ? "crashed" : "stopped";
    if (this.loaded) return "loaded";
    return this.loading ? "loading" : "running";
  }

  /** Process id of the running host, if one runs. */
  get hostPid(): number | undefined {
    return this.child?.pid;
  }

  /** The configured chat model, if any. */
  get model(): ModelOptions | undefined {
    return this.options.model;
  }

  /**
   * Loads the chat model (and the embedding model), starting the host if needed. With new options,
   * replaces the configured models; the new ones load in place of the old.
   */
  async loadModel(
    options: {
      model?: ModelOptions;
      embeddingModel?: { path: string } | null;
      /** A server engine to switch to; a new `model` switches back to the built-in engine. */
      server?: ServerEngineConfig;
      onProgress?: (progress: number, stage: string) => void;
    } = {},
  ): Promise<ModelInfo> {
    if (options.model || options.server || options.embeddingModel !== undefined) {
      this.options = {
        ...this.options,
        model: options.model ?? this.options.model,
        embeddingModel: options.embeddingModel === null ? undefined : (options.embeddingModel ?? this.options.embeddingModel),
        server: options.server ?? (options.model ? undefined : this.options.server),
      };
      this.loading = null;
      this.loaded = false;
    }
    return this.ensureLoaded(options.onProgress);
  }

  /** Frees the models in the host (the host keeps running). */
  async unload(): Promise<void> {
    if (!this.child) return;
    this.loading = null;
    this.loaded = false;
    await this.send("unload", {});
  }

  /** Stops the host cleanly: asks it to exit, and kills it if it has not within `graceMs`. */
  shutdown(graceMs = 5000): Promise<void> {
    const child = this.child;
    if (!child) return Promise.resolve();
    if (this.stopping) return this.stopping;
    this.stopping = new Promise<void>((resolve) => {
      const timer = setTimeout(() => child.kill("SIGKILL"), graceMs);
      child.on("exit", () => {
        clearTimeout(timer);
        resolve();
      });
      this.write({ type: "request", id: this.nextId++, op: "shutdown", params: {} });
    });
    return this.stopping;
  }

  /** Sends any op (built-in or an extra host op such as "vector.query") and resolves with its result. */
  async request(op: string, params: unknown, opts: RequestOptions = {}): Promise<unknown> {
    if (MODEL_OPS.has(op)) await this.ensureLoaded();
    return this.send(op, params, opts);
  }

  /** As `Engine.generate`, plus `tokensEvaluated`: prompt tokens evaluated this turn (the rest was a reused prefix). */
  async generate(request: GenerateRequest): Promise<GeneratedReply> {
    const { signal, onText, grammar, ...params } = request;
    if (signal?.aborted) return abortedReply();
    await this.ensureLoaded();
    if (signal?.aborted) return abortedReply();
    const opts: RequestOptions = {
      signal,
      onEvent: (e) => {
        if (e.kind === "text") onText?.(e.text);
      },
    };
    if (grammar === undefined) return (await this.send("generate", params, opts)) as GeneratedReply;
    // A grammar the host holds goes by its key alone; one it lacks (evicted, or a host started since) is sent again.
    const known = this.child ? this.sentGrammars.keyOf(grammar) : undefined;
    if (known !== undefined) {
      try {
        return (await this.send("generate", { ...params, grammarKey: known }, opts)) as GeneratedReply;
      } catch (err) {
        if (!(err instanceof UnknownGrammarKey)) throw err;
        this.sentGrammars.forget(grammar);
      }
      if (signal?.aborted) return abortedReply();
    }
    this.ensureHost();
    return (await this.send("generate", { ...params, grammar, grammarKey: this.sentGrammars.add(grammar) }, opts)) as GeneratedReply;
  }

  async embed(texts: string[], options: { signal?: AbortSignal } = {}): Promise<number[][]> {
    if (texts.length === 0) return [];
    const result = (await this.request("embed", { texts }, { signal: options.signal })) as OpResults["embed"];
    return result.vectors;
  }

  async countTokens(text: string): Promise<number> {
    const result = (await this.request("countTokens", { text })) as OpResults["countTokens"];
    return result.count;
  }

  async modelInfo(): Promise<ModelInfo> {
    await this.ensureLoaded();
    return (await this.send("info", {})) as ModelInfo;
  }

  /** Tries a server (model, context size, grammar or schema, embeddings) through the host, without switching to it. */
  async probeServer(server: ServerEngineConfig): Promise<ServerProbe> {
    return (await this.send("server.probe", { server })) as ServerProbe;
  }

  /** Header facts of any GGUF file, read by the host without loading it. */
  async fileInfo(path: string): Promise<ModelInfo> {
    return (await this.send("info", { path })) as ModelInfo;
  }

  private ensureLoaded(onProgress?: (progress: number, stage: string) => void): Promise<ModelInfo> {
    if (onProgress) this.loadListeners.push(onProgress);
    if (this.loading) return this.loading;
    const { model, server } = this.options;
    if (!model && !server) {
      return Promise.reject(new EngineError("No model is configured; choose a .gguf model file in the settings.", "no_model"));
    }
    const loading = this.send(
      "load",
      server ? { server } : { model, embeddingModel: this.options.embeddingModel },
      {
        onEvent: (e) => {
          if (e.kind === "progress") for (const l of this.loadListeners) l(e.progress, e.stage);
        },
      },
    ).then(
      (info) => {
        if (this.loading === loading) this.loaded = true;
        this.loadListeners = [];
        return info as ModelInfo;
      },
      (err: unknown) => {
        // A failed load is retried by the next request (the user may have fixed the file).
        if (this.loading === loading) this.loading = null;
        this.loadListeners = [];
        throw err;
      },
    );
    this.loading = loading;
    return loading;
  }

  private send(op: string, params: unknown, opts: RequestOptions = {}): Promise<unknown> {
    if (opts.signal?.aborted) return Promise.reject(new EngineError(`The ${op} request was cancelled.`, "aborted"));
    try {
      this.ensureHost();
    } catch (err) {
      return Promise.reject(err instanceof Error ? err : new Error(String(err)));
    }
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      const onAbort = (): void => this.write({ type: "abort", id });
      opts.signal?.addEventListener("abort", onAbort, { once: true });
      this.pending.set(id, {
        resolve,
        reject,
        onEvent: opts.onEvent,
        cleanup: () => opts.signal?.removeEventListener("abort", onAbort),
        logMark: this.log.mark(),
      });
      this.write({ type: "request", id, op, params });
    });
  }

  private ensureHost(): void {
    if (this.child) return;
    let child: ChildProcessLike;
    try {
      child = this.launcher();
    } catch (err) {
      const reason = err instanceof Error ? err.message : String(err);
      this.log.note(`engine host could not start: ${reason}`);
      throw new EngineError(`The engine process could not start (${reason}); check that the plugin's engine files are installed.`, "host_crashed");
    }
    this.child = child;
    this.sentGrammars.clear();
    this.crashed = false;
    this.stopping = null;
    this.log.note(`engine host started (pid ${child.pid ?? "?"})`);
    let buffered = "";
    child.stdout?.setEncoding("utf8");
    child.stdout?.on("data", (chunk: string | Buffer) => {
      buffered += chunk.toString();
      let nl: number;
      while ((nl = buffered.indexOf("\n")) >= 0) {
        const line = buffered.slice(0, nl);
        buffered = buffered.slice(nl + 1);
        if (line.trim()) this.onLine(line);
      }
    });
    child.stderr?.on("data", (chunk: string | Buffer) => this.log.write(chunk.toString()));
    // A broken pipe shows up as an exit too; the exit handler does the bookkeeping.
    child.stdin?.on("error", () => undefined);
    child.on("error", (err) => this.onExit(child, `it could not start: ${err.message}`));
    child.on("exit", (code, signal) => this.onExit(child, signal ? `signal ${signal}` : `exit code ${code}`));
  }

  private onLine(line: string): void {
    let msg: HostMessage;
    try {
      msg = JSON.parse(line) as HostMessage;
    } catch {
      // Stray output (a library printing to stdout) is logged, never fatal.
      this.log.write(`[stdout] ${line}\n`);
      return;
    }
    if (msg.type === "ready") return;
    const p = this.pending.get(msg.id);
    if (!p) return;
    if (msg.type === "event") {
      p.onEvent?.(msg.event);
      return;
    }
    this.pending.delete(msg.id);
    p.cleanup();
    if (msg.type === "result") p.resolve(msg.result);
    else if (msg.error.code === GRAMMAR_UNKNOWN) p.reject(new UnknownGrammarKey(msg.error.message));
    else if (msg.error.code === "bad_grammar") setTimeout(() => p.reject(this.withGrammarReason(msg.error.message, p.logMark)), GRAMMAR_REASON_WAIT_MS);
    else p.reject(new EngineError(msg.error.message, msg.error.code));
  }

  /** Adds llama.cpp's own reason ("Undefined rule identifier 'foo'") from the host's stderr, when it printed one. */
  private withGrammarReason(message: string, mark: number): EngineError {
    const reason = this.log
      .linesSince(mark)
      .map((l) => GRAMMAR_REASON.exec(l)?.[1])
      .filter((r): r is string => r !== undefined)
      .pop();
    return new EngineError(reason ? message.replace(/\(([^)]*)\)/, `(${reason.trim()})`) : message, "bad_grammar");
  }

  private onExit(child: ChildProcessLike, how: string): void {
    if (this.child !== child) return;
    const expected = this.stopping !== null;
    this.child = null;
    this.sentGrammars.clear();
    this.loading = null;
    this.loaded = false;
    this.crashed = !expected;
    this.log.note(`engine host exited (${how})`);
    const last = this.log.lastHostLine();
    const error = expected
      ? new EngineError("The engine was shut down before this request finished.", "aborted")
      : new EngineError(
          `The engine process stopped unexpectedly (${how}${last ? `: ${last.slice(0, 200)}` : ""}); it will restart on the next request.`,
          "host_crashed",
        );
    const pending = [...this.pending.values()];
    this.pending.clear();
    for (const p of pending) {
      p.cleanup();
      p.reject(error);
    }
  }

  private write(msg: ClientMessage): void {
    this.child?.stdin?.write(JSON.stringify(msg) + "\n");
  }
}
