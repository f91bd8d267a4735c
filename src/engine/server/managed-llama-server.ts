/**
 * The user's llama-server run as our child process ("llama.cpp on this computer"): started when first needed on
 * 127.0.0.1 with a free port and a fresh random API key per start (passed in the environment, never on the command
 * line, never shown or written), waited on through /health, restarted with backoff after a crash, stopped on
 * unload. Its output goes to the caller's log with the key removed. Desktop only (child_process, net, crypto).
 */
import { checkLlamaServer, type LlamaServerBinary } from "./managed-llama-binary";
import type { ServerEngineConfig } from "./server-config";
import { nodeModule } from "../node-builtins";

type ChildProcess = import("child_process").ChildProcess;
const nodeChildProcess = nodeModule("childProcess");
const nodeCrypto = nodeModule("crypto");
const nodeFs = nodeModule("fs");
const nodeNet = nodeModule("net");

export interface ManagedLlamaServerOptions {
  /** The llama-server binary (found or picked). */
  binary: string;
  /** The chat model file. */
  model: string;
  /** Tokens per conversation; default 4096. Each slot gets this much (`-c` is this times `parallel`). */
  contextSize?: number;
  /** Conversations kept at once (`-np`); default 1. */
  parallel?: number;
  /** CPU threads (`-t`); default llama.cpp's choice. */
  threads?: number;
  /** Layers on the GPU (`-ngl`); default llama.cpp's choice. */
  gpuLayers?: number;
  /** Serve embeddings from the chat model (`--embeddings --pooling mean`); default false. */
  embeddings?: boolean;
  /**
   * Folder for saved slot states (`--slot-save-path`), when the binary has the flag: each conversation's slot is saved
   * there and restored after a restart (saved-slots.ts). Created when missing.
   */
  slotSavePath?: string;
  /** Bound on that folder; least recently used states go first. Default 300 MB. */
  slotStateBytes?: number;
  /** Each line the server prints, the key removed; also the manager's own notes. */
  log?: (line: string) => void;
  /** While starting: what happens, and the seconds waited. */
  onProgress?: (stage: string, seconds: number) => void;
  /** How long to wait for /health; default 180 s (a large model loads slowly from disk). */
  readyTimeoutMs?: number;
  /** Waits before each restart after consecutive crashes; default 0.5, 1, 2, 5, 10, 30 s. */
  backoffMs?: number[];
  /** Consecutive crashes after which it stays stopped; default 5. */
  maxRestarts?: number;
}

export type ManagedLlamaState = "stopped" | "starting" | "ready" | "crashed" | "failed";

const DEFAULT_BACKOFF_MS = [500, 1000, 2000, 5000, 10_000, 30_000];
/** A server that ran this long counts as healthy again: its next crash starts the backoff from the shortest wait. */
const HEALTHY_AFTER_MS = 60_000;
/** Checkpoints per slot the managed server keeps for hybrid models (`--ctx-checkpoints`; llama.cpp's default is 32). */
export const SERVER_CHECKPOINTS = 12;
/** How the manager names the server in sentences. */
export const LOCAL_LLAMA_LABEL = "llama.cpp on this computer";

/** A free TCP port on 127.0.0.1 (the tests start their servers on one too). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = nodeNet.createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const port = (server.address() as { port: number }).port;
      server.close(() => resolve(port));
    });
  });
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

export class ManagedLlamaServer {
  private child: ChildProcess | null = null;
  private config: ServerEngineConfig | null = null;
  private starting: Promise<ServerEngineConfig> | null = null;
  private checked: LlamaServerBinary | null = null;
  private key = "";
  private stateName: ManagedLlamaState = "stopped";
  private crashes = 0;
  private readySince = 0;
  private stopping = false;
  private lastLines: string[] = [];
  /** Why the last run ended, for the sentence of a turn it broke. */
  private exitNote = "";
  private readonly exitListeners = new Set<(note: string) => void>();

  constructor(private readonly options: ManagedLlamaServerOptions) {}

  get state(): ManagedLlamaState {
    return this.stateName;
  }

  /** Process id of the running server. */
  get pid(): number | undefined {
    return this.child?.pid;
  }

  /** The checked binary, once started. */
  get binary(): LlamaServerBinary | null {
    return this.checked;
  }

  /** Called when the server exits on its own (not through stop), with a clause saying how. */
  onExit(listener: (note: string) => void): () => void {
    this.exitListeners.add(listener);
    return () => this.exitListeners.delete(listener);
  }

  /** The running server's address and key, starting it (or waiting out a restart's backoff) first. */
  ready(): Promise<ServerEngineConfig> {
    if (this.config && this.child) return Promise.resolve(this.config);
    if (this.stateName === "failed") return Promise.reject(new Error(this.exitNote));
    this.starting ??= this.start().finally(() => (this.starting = null));
    return this.starting;
  }

  /** Stops the server (unload, model change, idle); the next `ready` starts it again. */
  async stop(): Promise<void> {
    this.stopping = true;
    const child = this.child;
    try {
      await this.starting?.catch(() => undefined);
      const running = this.child ?? child;
      if (running) await this.kill(running, "SIGTERM", 5000);
    } finally {
      this.child = null;
      this.config = null;
      this.key = "";
      this.stateName = "stopped";
      this.crashes = 0;
      this.stopping = false;
    }
  }

  private async start(): Promise<ServerEngineConfig> {
    if (this.stateName === "crashed" && this.crashes > 0) {
      const backoff = this.options.backoffMs ?? DEFAULT_BACKOFF_MS;
      const wait = backoff[Math.min(this.crashes - 1, backoff.length - 1)];
      this.note(`restarting in ${wait} ms (crash ${this.crashes} in a row)`);
      await sleep(wait);
    }
    this.stateName = "starting";
    try {
      this.checked ??= await checkLlamaServer(this.options.binary);
      const config = await this.spawnAndWait(this.checked);
      this.stateName = "ready";
      this.readySince = Date.now();
      return config;
    } catch (err) {
      this.stateName = this.stopping ? "stopped" : "failed";
      this.exitNote = err instanceof Error ? err.message : String(err);
      throw err;
    }
  }

  private args(binary: LlamaServerBinary, port: number): string[] {
    const o = this.options;
    const parallel = Math.max(1, o.parallel ?? 1);
    const args = ["-m", o.model, "--host", "127.0.0.1", "--port", String(port), "-np", String(parallel), "-c", String((o.contextSize ?? 4096) * parallel)];
    if (o.threads !== undefined && o.threads > 0) args.push("-t", String(o.threads));
    if (o.gpuLayers !== undefined && o.gpuLayers >= 0) args.push("-ngl", String(o.gpuLayers));
    if (o.embeddings) args.push("--embeddings", "--pooling", "mean");
    if (o.slotSavePath && binary.supports.slotSavePath) args.push("--slot-save-path", o.slotSavePath);
    if (binary.supports.noWebui) args.push("--no-webui");
    // Hybrid and recurrent models (Qwen3.5, LFM2, Granite 4-H) cannot cut their state back: a prompt that leaves the
    // slot before its end restores the last checkpoint before that point. Prompts here extend the slot's tokens, so the
    // ones the server takes near each prompt's end serve (a stopped reply, a retried round); the count bounds their
    // memory (about 19 MB each at Qwen3.5 2B's size). Ignored by attention-only models.
    if (binary.supports.ctxCheckpoints) args.push("--ctx-checkpoints", String(SERVER_CHECKPOINTS));
    return args;
  }

  private async spawnAndWait(binary: LlamaServerBinary): Promise<ServerEngineConfig> {
    const port = await freePort();
    if (this.options.slotSavePath && binary.supports.slotSavePath) nodeFs.mkdirSync(this.options.slotSavePath, { recursive: true });
    this.key = nodeCrypto.randomBytes(24).toString("base64url");
    const args = this.args(binary, port);
    this.note(`starting ${binary.path} ${args.join(" ")}`);
    const child = nodeChildProcess.spawn(binary.path, args, {
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...process.env, LLAMA_API_KEY: this.key },
      windowsHide: true,
    });
    this.child = child;
    this.lastLines = [];
    const lines = (chunk: Buffer): void => {
      for (const line of chunk.toString().split(/\r?\n/)) if (line.trim()) this.line(line);
    };
    child.stdout?.on("data", lines);
    child.stderr?.on("data", lines);
    let spawnError: Error | null = null;
    child.once("error", (err) => (spawnError = err));
    child.once("exit", (code, signal) => this.exited(child, code, signal));
    const url = `http://127.0.0.1:${port}`;
    const started = Date.now();
    const deadline = started + (this.options.readyTimeoutMs ?? 180_000);
    for (;;) {
      if (spawnError) throw new Error(`${LOCAL_LLAMA_LABEL} could not start (${(spawnError as Error).message}); check the llama-server path in the settings.`);
      if (this.child !== child || child.exitCode !== null || child.signalCode !== null) {
        throw new Error(`${LOCAL_LLAMA_LABEL} stopped while loading the model${this.lastLineNote()}; check the model file and the settings.`);
      }
      const health = await fetch(`${url}/health`, { signal: AbortSignal.timeout(2000) }).catch(() => null);
      if (health?.ok) break;
      const seconds = Math.round((Date.now() - started) / 1000);
      this.options.onProgress?.(health ? "loading the model" : "starting llama-server", seconds);
      if (Date.now() > deadline) {
        await this.kill(child, "SIGKILL", 5000);
        throw new Error(`${LOCAL_LLAMA_LABEL} did not become ready within ${seconds} s${this.lastLineNote()}; try a smaller model or context size.`);
      }
      await sleep(250);
    }
    this.note(`ready on ${url} (pid ${child.pid})`);
    const slots = this.options.slotSavePath && binary.supports.slotSavePath ? { dir: this.options.slotSavePath, ...(this.options.slotStateBytes ? { maxBytes: this.options.slotStateBytes } : {}) } : undefined;
    // Forced text as prompt: on the same machine a round trip costs well under a millisecond, and the measured envelope
    // took 0.29-0.66x the plain path's time (docs/measured.md, "llama.cpp on this computer").
    this.config = { kind: "llama-server", url, apiKey: this.key, forcedText: true, ...(slots ? { slotStates: slots } : {}) };
    return this.config;
  }

  private exited(child: ChildProcess, code: number | null, signal: NodeJS.Signals | null): void {
    if (this.child !== child) return;
    const how = signal ? `killed by ${signal}` : `exit code ${code}`;
    this.note(`exited (${how})`);
    this.child = null;
    this.config = null;
    if (this.stopping || this.stateName === "starting") return;
    if (Date.now() - this.readySince > HEALTHY_AFTER_MS) this.crashes = 0;
    this.crashes++;
    const max = this.options.maxRestarts ?? 5;
    this.exitNote =
      this.crashes > max
        ? `${LOCAL_LLAMA_LABEL} stopped ${this.crashes} times in a row (${how}${this.lastLineNote(", last said: ")}); change the model or settings, which starts it again.`
        : `${LOCAL_LLAMA_LABEL} stopped (${how}); it starts again for the next turn.`;
    this.stateName = this.crashes > max ? "failed" : "crashed";
    for (const listener of this.exitListeners) listener(this.exitNote);
  }

  private kill(child: ChildProcess, signal: NodeJS.Signals, graceMs: number): Promise<void> {
    if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(() => child.kill("SIGKILL"), graceMs);
      child.once("exit", () => {
        clearTimeout(timer);
        resolve();
      });
      child.kill(signal);
    });
  }

  /** Why a turn failed when the server died under it. */
  get lastExit(): string {
    return this.exitNote;
  }

  private line(raw: string): void {
    const line = this.key ? raw.split(this.key).join("[key]") : raw;
    this.lastLines.push(line);
    if (this.lastLines.length > 20) this.lastLines.shift();
    this.options.log?.(`[llama-server] ${line}`);
  }

  private note(text: string): void {
    this.options.log?.(`[llama-server manager] ${text}`);
  }

  private lastLineNote(prefix = ", its last words: "): string {
    const last = [...this.lastLines].reverse().find((l) => /error|fail|unable|cannot|invalid/i.test(l)) ?? this.lastLines[this.lastLines.length - 1];
    return last ? `${prefix}"${last.trim().slice(0, 200)}"` : "";
  }
}
