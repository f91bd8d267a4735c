/**
 * "llama.cpp on this computer" as an engine: the llama-server engine as it is, over a ManagedLlamaServer that starts
 * on the first request. Each start has a new port and key, so the inner engine (the llama-server engine, in the
 * engine host inside Obsidian or in process headless) is made afresh per start. A turn the server dies under fails
 * with one sentence; the next one starts it again.
 */
import { EngineError, type Engine, type GenerateRequest, type GenerateResult, type ModelInfo } from "../../core/ports/engine";
import { LOCAL_LLAMA_LABEL, type ManagedLlamaServer } from "./managed-llama-server";
import type { ServerEngineConfig } from "./server-config";

/** The engine made for one start of the server; `shutdown` frees what it holds (an engine host, for one). */
export type LocalServerEngine = Engine & {
  request?(op: string, params: unknown, opts?: { signal?: AbortSignal }): Promise<unknown>;
  shutdown?(): Promise<void>;
};

export class ManagedLlamaEngine implements Engine {
  private inner: { config: ServerEngineConfig; engine: LocalServerEngine } | null = null;

  constructor(
    /** The process. */
    readonly server: ManagedLlamaServer,
    /** The llama-server engine for a running server's address and key. */
    private readonly connect: (config: ServerEngineConfig) => LocalServerEngine,
  ) {}

  /** The managed process's state, for status lines. */
  get state(): string {
    return this.server.state;
  }

  async generate(request: GenerateRequest): Promise<GenerateResult> {
    return this.use((engine) => engine.generate(request));
  }

  async embed(texts: string[], options?: { signal?: AbortSignal }): Promise<number[][]> {
    return this.use((engine) => engine.embed(texts, options));
  }

  async countTokens(text: string): Promise<number> {
    return this.use((engine) => engine.countTokens(text));
  }

  async modelInfo(): Promise<ModelInfo> {
    const info = await this.use((engine) => engine.modelInfo());
    return { ...info, server: LOCAL_LLAMA_LABEL };
  }

  /** Host operations (the vector index) go to the inner engine's host, when it has one. */
  async request(op: string, params: unknown, opts?: { signal?: AbortSignal }): Promise<unknown> {
    return this.use((engine) => {
      if (!engine.request) throw new Error("This engine has no host to run the vector index in.");
      return engine.request(op, params, opts);
    });
  }

  /** Stops the server (idle unload): the next request starts it again. */
  async unload(): Promise<void> {
    await this.dropInner();
    await this.server.stop();
  }

  /** Stops the server and the inner engine (plugin unload, model change). */
  async shutdown(): Promise<void> {
    await this.unload();
  }

  private async use<T>(fn: (engine: LocalServerEngine) => Promise<T>): Promise<T> {
    const engine = await this.engine();
    const pid = this.server.pid;
    try {
      return await fn(engine);
    } catch (err) {
      // The server died under this request: say so in one sentence rather than the connection error it caused.
      if (err instanceof EngineError && err.code === "aborted") throw err;
      if (pid !== undefined && this.server.pid !== pid) {
        await this.dropInner();
        throw new EngineError(this.server.lastExit || `${LOCAL_LLAMA_LABEL} stopped; it starts again for the next turn.`, "server_unreachable");
      }
      throw err;
    }
  }

  private async engine(): Promise<LocalServerEngine> {
    const config = await this.server.ready();
    if (this.inner?.config === config) return this.inner.engine;
    await this.dropInner();
    this.inner = { config, engine: this.connect(config) };
    return this.inner.engine;
  }

  private async dropInner(): Promise<void> {
    const inner = this.inner;
    this.inner = null;
    await inner?.engine.shutdown?.().catch(() => undefined);
  }
}
