/**
 * The engine as the plugin uses it: created on first use (so opening Obsidian costs nothing), the model unloaded
 * after an idle timeout, the host stopped on plugin unload, and a status (state, model name, tokens per second)
 * for the status bar and the chat pane's status line.
 */
import type { Constraint, Engine, GenerateRequest, GenerateResult, ModelInfo } from "../../core/ports/engine";
import type { HostStatus } from "../../engine/client/host-protocol";

/** An engine that may also manage a process (EngineClient does; the scripted test engine does not). */
export type InnerEngine = Engine & {
  /** Extra host operations (the vector index); absent in engines without a host. */
  request?(op: string, params: unknown, opts?: { signal?: AbortSignal }): Promise<unknown>;
  unload?(): Promise<void>;
  shutdown?(graceMs?: number): Promise<void>;
  readonly state?: string;
};

export type EngineStateName = "idle" | "starting" | "loading" | "ready" | "generating" | "error";

export interface EngineStatus {
  state: EngineStateName;
  /** The chat model's name, once known. */
  modelName?: string;
  /** Speed of the last generation. */
  tokensPerSecond?: number;
  /** The last generation's prompt: its tokens and those the engine evaluated (the rest was reused). */
  lastPrompt?: { tokens: number; evaluated: number };
  /** One sentence when state is "error". */
  error?: string;
  /** 0..1 while loading. */
  loadProgress?: number;
  /** What constrained the last reply (or, before one, what the engine will use): GBNF, JSON Schema or none. */
  constraint?: Constraint;
  /** The engine's sentence when a reply ran less constrained than asked (a server that took no schema). */
  notice?: string;
}

export interface ManagedEngineOptions {
  /** Builds the inner engine (writes the host script, checks the runtime, spawns lazily). Called once, on first use. */
  create: () => Promise<InnerEngine>;
  /** Minutes without requests before the model is unloaded; 0 = never. */
  idleMinutes: () => number;
  /** Timer functions (window's in Obsidian). */
  setTimer?: (fn: () => void, ms: number) => number;
  clearTimer?: (id: number) => void;
}

export class ManagedEngine implements Engine {
  private inner: Promise<InnerEngine> | null = null;
  private status: EngineStatus = { state: "idle" };
  private readonly listeners = new Set<(status: EngineStatus) => void>();
  private idleTimer: number | null = null;
  private active = 0;

  constructor(private readonly options: ManagedEngineOptions) {}

  /** Current state, model and speed. */
  get current(): EngineStatus {
    return this.status;
  }

  onStatus(listener: (status: EngineStatus) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  async generate(request: GenerateRequest): Promise<GenerateResult> {
    return this.use(async (engine) => {
      this.set({ state: "generating" });
      const result = await engine.generate(request);
      const tokensPerSecond = result.generateMs > 0 ? (result.tokensOut * 1000) / result.generateMs : undefined;
      this.set({
        state: "ready",
        tokensPerSecond: tokensPerSecond ?? this.status.tokensPerSecond,
        ...(result.tokensEvaluated !== undefined && result.stopReason !== "abort" ? { lastPrompt: { tokens: result.tokensIn, evaluated: result.tokensEvaluated } } : {}),
        ...(result.constraint ? { constraint: result.constraint } : {}),
        notice: result.notice,
      });
      return result;
    });
  }

  async embed(texts: string[], options?: { signal?: AbortSignal }): Promise<number[][]> {
    return this.use((engine) => engine.embed(texts, options));
  }

  async countTokens(text: string): Promise<number> {
    return this.use((engine) => engine.countTokens(text));
  }

  async modelInfo(): Promise<ModelInfo> {
    return this.use(async (engine) => {
      const info = await engine.modelInfo();
      this.set({ modelName: info.name, ...(info.constraint && !this.status.constraint ? { constraint: info.constraint } : {}) });
      return info;
    });
  }

  /** Sends a host operation (e.g. "vector.query") through the engine host, starting it if needed. */
  async request(op: string, params: unknown, opts?: { signal?: AbortSignal }): Promise<unknown> {
    return this.use((engine) => {
      if (!engine.request) throw new Error("This engine has no host to run the vector index in.");
      return engine.request(op, params, opts);
    });
  }

  /** The running host's backend and threads; null when no host runs (asking never starts one). */
  async hostStatus(): Promise<HostStatus | null> {
    const engine = this.inner ? await this.inner.catch(() => null) : null;
    if (!engine?.request || engine.state === "stopped" || engine.state === "crashed") return null;
    return (await engine.request("status", {}).catch(() => null)) as HostStatus | null;
  }

  /** Forgets the engine so the next use builds it with new settings (a different model). */
  async reset(): Promise<void> {
    const inner = this.inner;
    this.inner = null;
    this.clearIdle();
    this.set({ state: "idle", modelName: undefined, tokensPerSecond: undefined, error: undefined, constraint: undefined, notice: undefined });
    if (inner) await (await inner.catch(() => null))?.shutdown?.();
  }

  /** Stops the host for good (plugin unload). */
  async dispose(): Promise<void> {
    this.listeners.clear();
    await this.reset();
  }

  private async use<T>(fn: (engine: InnerEngine) => Promise<T>): Promise<T> {
    this.active++;
    this.clearIdle();
    try {
      if (this.status.state === "idle" || this.status.state === "error") this.set({ state: "starting", error: undefined });
      const engine = await this.engine();
      const result = await fn(engine);
      if (this.status.state !== "generating" && this.status.state !== "ready") this.set({ state: "ready" });
      return result;
    } catch (error) {
      this.set({ state: "error", error: error instanceof Error ? error.message : String(error) });
      throw error;
    } finally {
      this.active--;
      this.armIdle();
    }
  }

  private engine(): Promise<InnerEngine> {
    if (!this.inner) {
      const creating = this.options.create();
      this.inner = creating;
      // A failed start (no runtime, no model) is retried on the next use, after the user fixed it.
      creating.catch(() => {
        if (this.inner === creating) this.inner = null;
      });
    }
    return this.inner;
  }

  private armIdle(): void {
    const minutes = this.options.idleMinutes();
    if (this.active > 0 || minutes <= 0 || !this.inner) return;
    const set = this.options.setTimer ?? ((fn, ms) => window.setTimeout(fn, ms));
    this.idleTimer = set(() => void this.unloadIdle(), minutes * 60_000);
  }

  private clearIdle(): void {
    if (this.idleTimer === null) return;
    (this.options.clearTimer ?? ((id) => window.clearTimeout(id)))(this.idleTimer);
    this.idleTimer = null;
  }

  private async unloadIdle(): Promise<void> {
    this.idleTimer = null;
    if (this.active > 0 || !this.inner) return;
    const engine = await this.inner.catch(() => null);
    await engine?.unload?.();
    this.set({ state: "idle" });
  }

  private set(patch: Partial<EngineStatus>): void {
    this.status = { ...this.status, ...patch };
    for (const listener of this.listeners) listener(this.status);
  }
}
