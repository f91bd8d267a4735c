/**
 * The engine host's request handling, independent of stdio: takes client messages, runs ops (many in
 * flight, each abortable by id), and emits events and exactly one result or error per request. Every
 * failure becomes an error reply; nothing a request does can take the host down.
 */
import { availableParallelism } from "node:os";
import type { Llama } from "node-llama-cpp";
import { EngineError, type ModelInfo } from "../core/ports/engine";
import { readGgufInfo } from "../engine/gguf/read-gguf-info";
import { createServerEngine, type ServerEngine } from "../engine/server/create-server-engine";
import type { ServerEngineConfig } from "../engine/server/server-config";
import { GrammarCache } from "./grammar-cache";
import { LlamaLogTail } from "./llama-log";
import { loadLlamaRuntime } from "./llama-runtime";
import { LoadedModel } from "./loaded-model";
import { DEFAULT_GRAMMAR_TEXT_BYTES, ReceivedGrammars } from "./received-grammars";
import { checkModelFile, loadCheckedModel } from "./model-loader";
import { modelFileIdentity, SequenceStates } from "./sequence-states";
import { GRAMMAR_UNKNOWN, type ClientMessage, type EngineEvent, type HostMessage, type HostStatus, type ModelOptions, type OpParams, type OpResults } from "../engine/client/host-protocol";
import { serverSlotStates } from "./server-slot-states";
import { serverSplitCharacterTokens } from "./server-token-ban";
import { chooseThreads } from "./threads";

/** An extra op (e.g. the memory layer's "vector.query"). */
export type ExtraOp = (params: unknown) => Promise<unknown>;

/** Context size used when the caller gives none: enough for agent turns, far below most trained sizes. */
const DEFAULT_CONTEXT_SIZE = 8192;
/** Sequences kept per context: conversations whose evaluated prefix survives between turns. */
const CONVERSATION_SEQUENCES = 2;

interface OpContext {
  signal: AbortSignal;
  emit: (event: EngineEvent) => void;
}

/** How the host finds llama.cpp: GPU auto-detection in production, CPU only on request. */
export interface HostServerOptions {
  /** `"auto"` (default) lets node-llama-cpp pick a GPU backend when present; `false` runs on the CPU. */
  gpu?: "auto" | false;
  /** Extra ops served besides the built-in ones. */
  extraOps?: Record<string, ExtraOp>;
  /** Awaited before a shutdown request is answered: pending index writes land before the client stops waiting. */
  beforeShutdown?: () => Promise<void>;
  /** Called when a shutdown request has been answered. */
  onShutdown?: () => void;
  /** Bound on the grammar texts kept by the client's keys (received-grammars.ts); default 32 MB. */
  grammarTextBytes?: number;
}

/** A generate request named its grammar by a key this host does not hold; the client sends the text again. */
class UnknownGrammarKey extends Error {}

/** What generate / embed / countTokens / info run on: the loaded built-in model or a server engine. */
interface ActiveEngine {
  info(): ModelInfo | Promise<ModelInfo>;
  generate(params: OpParams["generate"], signal: AbortSignal, onText: (text: string) => void): Promise<OpResults["generate"]>;
  embed(texts: string[], signal: AbortSignal): Promise<number[][]>;
  countTokens(text: string): number | Promise<number>;
}

/** A server engine in the host's terms (the HTTP client runs here, where fetch streams). */
function serverActive(engine: ServerEngine): ActiveEngine {
  return {
    info: () => engine.modelInfo(),
    generate: (params, signal, onText) => engine.generate({ ...params, signal, onText }),
    embed: (texts, signal) => {
      if (!Array.isArray(texts) || texts.some((t) => typeof t !== "string")) throw new EngineError("An embed request needs a list of texts.", "internal");
      return engine.embed(texts, { signal });
    },
    countTokens: (text) => engine.countTokens(text),
  };
}

export class HostServer {
  private llama: Promise<Llama> | null = null;
  private grammars: GrammarCache | null = null;
  private readonly llamaLog = new LlamaLogTail();
  private loaded: LoadedModel | null = null;
  /** The server engine in use instead of a built-in model. */
  private remote: { engine: ServerEngine; active: ActiveEngine } | null = null;
  private loading: { key: string; promise: Promise<LoadedModel> } | null = null;
  /** Loads run one after another, so two never build models side by side. */
  private loadQueue: Promise<unknown> = Promise.resolve();
  private readonly inFlight = new Map<number, AbortController>();
  /** Grammar texts by the client's keys, so a turn can name its grammar instead of sending it again. */
  private readonly receivedGrammars: ReceivedGrammars;

  constructor(
    /** Sends one message to the client. */
    private readonly send: (msg: HostMessage) => void,
    private readonly options: HostServerOptions = {},
  ) {
    this.receivedGrammars = new ReceivedGrammars(options.grammarTextBytes ?? DEFAULT_GRAMMAR_TEXT_BYTES);
  }

  /** Handles one parsed client message. */
  handle(msg: ClientMessage): void {
    if (msg.type === "abort") {
      this.inFlight.get(msg.id)?.abort();
      return;
    }
    const controller = new AbortController();
    this.inFlight.set(msg.id, controller);
    const ctx: OpContext = {
      signal: controller.signal,
      emit: (event) => this.send({ type: "event", id: msg.id, event }),
    };
    this.run(msg.op, msg.params ?? {}, ctx).then(
      (result) => {
        this.inFlight.delete(msg.id);
        this.send({ type: "result", id: msg.id, result });
        if (msg.op === "shutdown") this.options.onShutdown?.();
      },
      (err: unknown) => {
        this.inFlight.delete(msg.id);
        if (err instanceof UnknownGrammarKey) {
          this.send({ type: "error", id: msg.id, error: { message: err.message, code: GRAMMAR_UNKNOWN } });
          return;
        }
        const e =
          err instanceof EngineError
            ? err
            : new EngineError(`The engine failed on "${msg.op}": ${err instanceof Error ? err.message : String(err)}`, "internal");
        this.send({ type: "error", id: msg.id, error: { message: e.message, code: e.code } });
      },
    );
  }

  private async run(op: string, params: unknown, ctx: OpContext): Promise<unknown> {
    switch (op) {
      case "load":
        return this.load(params as OpParams["load"], ctx);
      case "info": {
        const path = (params as OpParams["info"]).path;
        if (typeof path === "string") return readGgufInfo(path);
        return this.requireModel().info();
      }
      case "server.probe": {
        const config = (params as OpParams["server.probe"]).server;
        if (!config || typeof config.url !== "string") throw new EngineError("Give the server's address to test.", "internal");
        return createServerEngine(config, { splitCharacterTokens: serverSplitCharacterTokens }).probe();
      }
      case "generate": {
        // Before the first await: requests are taken in the order they came, so a text sent with its key is held
        // before a later request names it by the key alone.
        const p = this.withGrammarText(params as OpParams["generate"]);
        const result = await this.requireModel().generate(p, ctx.signal, (text) => ctx.emit({ kind: "text", text }));
        // The built-in engine constrains by our GBNF whenever one is given; server engines say what they did.
        return { constraint: p.grammar !== undefined ? "gbnf" : "none", ...result } satisfies OpResults["generate"];
      }
      case "embed":
        return { vectors: await this.requireModel().embed((params as OpParams["embed"]).texts, ctx.signal) } satisfies OpResults["embed"];
      case "countTokens": {
        const text = (params as OpParams["countTokens"]).text;
        if (typeof text !== "string") throw new EngineError("countTokens needs a text.", "internal");
        return { count: await this.requireModel().countTokens(text) } satisfies OpResults["countTokens"];
      }
      case "unload":
        return { unloaded: await this.unload() } satisfies OpResults["unload"];
      case "status":
        return this.status();
      case "shutdown":
        for (const c of this.inFlight.values()) c.abort();
        await this.unload();
        await this.options.beforeShutdown?.();
        return { stopping: true } satisfies OpResults["shutdown"];
      default: {
        const extra = this.options.extraOps?.[op];
        if (!extra) throw new EngineError(`The engine has no operation "${op}"; the plugin and its engine host may be out of date with each other.`, "internal");
        return extra(params);
      }
    }
  }

  /** The request with its grammar's text: kept under its key when sent, looked up when only the key came. */
  private withGrammarText(params: OpParams["generate"]): OpParams["generate"] {
    const { grammarKey, ...rest } = params;
    if (typeof grammarKey !== "string") return params;
    if (typeof rest.grammar === "string") {
      this.receivedGrammars.put(grammarKey, rest.grammar);
      return rest;
    }
    const grammar = this.receivedGrammars.get(grammarKey);
    if (grammar === undefined) throw new UnknownGrammarKey(`The engine does not hold the grammar "${grammarKey}"; send its text.`);
    return { ...rest, grammar };
  }

  private requireModel(): ActiveEngine {
    if (this.remote) return this.remote.active;
    if (!this.loaded) throw new EngineError("No model is loaded yet; load a model before generating.", "no_model");
    return this.loaded;
  }

  private getLlama(): Promise<Llama> {
    if (!this.llama) {
      const attempt = loadLlamaRuntime().then(({ getLlama }) =>
        getLlama({
          gpu: this.options.gpu ?? "auto",
          build: "never",
          logger: this.llamaLog.logger,
          progressLogs: false,
        }),
      );
      this.llama = attempt;
      attempt.catch(() => {
        if (this.llama === attempt) this.llama = null;
      });
    }
    return this.llama;
  }

  private async load(params: OpParams["load"], ctx: OpContext): Promise<unknown> {
    if (params?.server) return this.loadServer(params.server);
    const model = params?.model;
    if (!model || typeof model.path !== "string" || model.path === "") {
      throw new EngineError("No model is configured; choose a .gguf model file in the settings.", "no_model");
    }
    const key = JSON.stringify([model, params.embeddingModel?.path ?? null]);
    if (this.loading?.key === key) return (await this.loading.promise).info();
    const promise = this.loadQueue.then(() => this.loadFresh(model, params.embeddingModel, ctx));
    this.loadQueue = promise.catch(() => undefined);
    this.loading = { key, promise };
    try {
      return (await promise).info();
    } catch (err) {
      if (this.loading?.promise === promise) this.loading = null;
      throw err;
    }
  }

  /** Switches to a server engine once the server answers (health and props): a down server leaves nothing half-switched. */
  private async loadServer(config: ServerEngineConfig): Promise<ModelInfo> {
    if (typeof config.url !== "string" || (config.kind !== "llama-server" && config.kind !== "openai")) {
      throw new EngineError('A server engine needs a kind ("llama-server" or "openai") and a URL.', "internal");
    }
    const engine = createServerEngine(config, { splitCharacterTokens: serverSplitCharacterTokens, slotStates: serverSlotStates, onNotice: (message) => process.stderr.write(`${message}\n`) });
    const switched = this.loadQueue.then(async () => {
      const info = await engine.connect();
      this.loading = null;
      await this.disposeLoaded();
      this.remote = { engine, active: serverActive(engine) };
      return info;
    });
    this.loadQueue = switched.catch(() => undefined);
    return switched;
  }

  private async loadFresh(options: ModelOptions, embedding: { path: string } | undefined, ctx: OpContext): Promise<LoadedModel> {
    const llama = await this.getLlama();
    // Check before unloading, so a bad new file leaves the current model usable.
    const info = await checkModelFile(llama, options.path, options.gpuLayers);
    if (embedding) await checkModelFile(llama, embedding.path, undefined);
    await this.disposeLoaded();
    this.grammars ??= new GrammarCache(llama, this.llamaLog);
    const cores = availableParallelism();
    const threads = Math.max(1, Math.min(cores, Math.floor(options.threads ?? chooseThreads(info.fileSizeBytes, cores))));
    const weight = embedding ? 0.8 : 1;
    const model = await loadCheckedModel(llama, options.path, options.gpuLayers, this.llamaLog, (p) =>
      ctx.emit({ kind: "progress", progress: p * weight, stage: "model" }),
    );
    try {
      const trained = model.trainContextSize;
      const context = await model.createContext({
        contextSize: options.contextSize ?? { min: Math.min(2048, trained), max: Math.min(trained, DEFAULT_CONTEXT_SIZE) },
        sequences: CONVERSATION_SEQUENCES,
        threads,
        // Sliding-window models (Gemma) can reuse a prefix longer than the window only with the full cache.
        swaFullCache: true,
      });
      const states = options.states
        ? new SequenceStates(options.states, { modelFile: modelFileIdentity(options.path), contextSize: context.contextSize })
        : undefined;
      const embeddingModel = embedding
        ? await loadCheckedModel(llama, embedding.path, undefined, this.llamaLog, (p) =>
            ctx.emit({ kind: "progress", progress: weight + p * (1 - weight), stage: "embeddingModel" }),
          )
        : undefined;
      this.loaded = new LoadedModel({
        llama, model, context, info, threads, grammars: this.grammars, embeddingModel,
        states,
        saveDelayMs: options.states?.saveDelayMs,
        ...(options.checkpointBytes !== undefined ? { checkpointBytes: options.checkpointBytes } : {}),
        onStateError: (message) => process.stderr.write(`${message}\n`),
      });
      return this.loaded;
    } catch (err) {
      await model.dispose();
      if (err instanceof EngineError) throw err;
      throw new EngineError(
        `The model file ${options.path} loaded, but its context could not be created (${err instanceof Error ? err.message : String(err)}); try a smaller context size.`,
        "too_large",
      );
    }
  }

  private async unload(): Promise<boolean> {
    this.loading = null;
    return this.disposeLoaded();
  }

  private async disposeLoaded(): Promise<boolean> {
    const remote = this.remote;
    this.remote = null;
    if (remote) await remote.engine.dispose();
    const current = this.loaded;
    this.loaded = null;
    if (!current) return remote !== null;
    await current.dispose();
    return true;
  }

  private async status(): Promise<HostStatus> {
    const llama = this.llama ? await this.llama.catch(() => null) : null;
    return {
      loaded: this.loaded !== null || this.remote !== null,
      threads: this.loaded?.threads,
      availableParallelism: availableParallelism(),
      gpu: llama ? llama.gpu : false,
      conversations: this.remote?.engine.conversations ?? this.loaded?.conversations ?? 0,
      ...(this.loaded?.checkpoints ? { checkpoints: this.loaded.checkpoints } : {}),
      ...(this.remote ? { server: this.remote.engine.http.label } : {}),
    };
  }
}
