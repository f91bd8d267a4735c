/**
 * One MCP server through the official SDK client: started when first needed, its tool list kept current
 * (`notifications/tools/list_changed`), restarted with backoff after a crash, stopped on unload. Every failure
 * becomes one sentence naming the server.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { CfWorkerJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/cfworker";
import type { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { ErrorCode, McpError, ToolListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import type { McpCallResult, McpServerState, McpServerView, McpToolInfo } from "../../core/ports/mcp";
import type { McpServerConfig } from "./mcp-config";

/** How connections are made and supervised; every default is stated. */
export interface McpConnectionOptions {
  /** Name and version this client reports to servers. */
  clientInfo: { name: string; version: string };
  /** Makes the transport for a server (tests wrap it to watch messages). Default: stdio or streamable HTTP from the config. */
  transport?: (config: McpServerConfig, fetchImpl?: typeof fetch) => Transport | Promise<Transport>;
  /** fetch for streamable HTTP (the plugin passes one that is not bound by the renderer's CORS). Default: the global one. */
  fetch?: typeof fetch;
  /** Waits before restart n (ms); the last repeats. Default 500, 1000, 2000, 5000, 10000, 30000. */
  backoffMs?: number[];
  /** Restarts after crashes in a row before the server stays failed. Default 5. */
  maxRestarts?: number;
  /** A server that stays up this long (ms) counts as healthy again. Default 60 000. */
  healthyAfterMs?: number;
  /** How long starting may take (spawn, initialize, first tools/list), ms. Default 30 000. */
  startTimeoutMs?: number;
}

const DEFAULT_BACKOFF_MS = [500, 1000, 2000, 5000, 10_000, 30_000];
/** Characters of the server's stderr kept for failure reasons. */
const STDERR_TAIL = 600;

/**
 * Streamable HTTP, or stdio: the SDK's stdio transport spawns child processes, so it is loaded only when a stdio
 * server starts (never on Obsidian mobile, where main.js must load without Node).
 */
export async function createTransport(config: McpServerConfig, fetchImpl?: typeof fetch): Promise<Transport> {
  if (config.transport === "http") {
    return new StreamableHTTPClientTransport(new URL(config.url ?? ""), {
      requestInit: config.headers ? { headers: config.headers } : undefined,
      ...(fetchImpl ? { fetch: fetchImpl } : {}),
    });
  }
  const { StdioClientTransport } = await import("@modelcontextprotocol/sdk/client/stdio.js");
  return new StdioClientTransport({ command: config.command ?? "", args: config.args ?? [], env: config.env, cwd: config.cwd, stderr: "pipe" });
}

/** A stdio transport, told apart without loading its module. */
function asStdio(transport: Transport | undefined): StdioClientTransport | null {
  return transport !== undefined && "pid" in transport && "stderr" in transport ? (transport as StdioClientTransport) : null;
}

const seconds = (ms: number): string => (ms < 1000 ? `${ms} ms` : `${Math.round(ms / 100) / 10} s`);

export class McpConnection {
  state: McpServerState = "stopped";
  /** Why the server failed, as one sentence. */
  reason: string | undefined;
  tools: McpToolInfo[] = [];
  private client: Client | null = null;
  private starting: Promise<void> | null = null;
  private restartTimer: ReturnType<typeof setTimeout> | null = null;
  /** Resolves when a scheduled restart has run (so a call waits for it instead of failing). */
  private restartDone: Promise<void> | null = null;
  private crashes = 0;
  private readySince = 0;
  private stopping = false;
  /** From a crash until the restart succeeded or was given up. */
  private recovering = false;
  private stderrTail = "";

  constructor(
    readonly config: McpServerConfig,
    private readonly options: McpConnectionOptions,
    private readonly changed: () => void,
  ) {}

  private get label(): string {
    return `MCP server "${this.config.name}"`;
  }

  view(): McpServerView {
    return {
      name: this.config.name,
      enabled: this.config.enabled,
      state: this.state,
      ...(this.reason ? { reason: this.reason } : {}),
      ...(this.recovering ? { restarting: true } : {}),
      tools: this.tools,
      disabledTools: this.config.disabledTools,
    };
  }

  private set(state: McpServerState, reason?: string): void {
    this.state = state;
    this.reason = reason;
    this.changed();
  }

  /** Starts the server unless it is running or starting; resolves when it is ready, rejects with the reason. */
  start(): Promise<void> {
    if (this.state === "ready" && this.client) return Promise.resolve();
    if (this.starting) return this.starting;
    this.stopping = false;
    const run = this.connect().finally(() => {
      if (this.starting === run) this.starting = null;
    });
    this.starting = run;
    return run;
  }

  private async connect(): Promise<void> {
    this.set("starting");
    this.stderrTail = "";
    const transport = await (this.options.transport ?? createTransport)(this.config, this.options.fetch);
    const stdio = asStdio(transport);
    if (stdio) {
      stdio.stderr?.on("data", (chunk: Buffer | string) => {
        this.stderrTail = (this.stderrTail + chunk.toString()).slice(-STDERR_TAIL);
      });
    }
    // Tool output schemas are checked with the same code-free validator as tool args (src/tools/args-validator.ts),
    // so main.js carries no ajv (esbuild.config.mjs leaves the SDK's default ajv provider out).
    const client = new Client(this.options.clientInfo, { capabilities: {}, jsonSchemaValidator: new CfWorkerJsonSchemaValidator() });
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      if (this.client === client) void this.refreshTools(client);
    });
    client.onclose = () => this.closed(client);
    const timeoutMs = this.options.startTimeoutMs ?? 30_000;
    let timer: ReturnType<typeof setTimeout> | undefined;
    try {
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`it did not answer within ${seconds(timeoutMs)}`)), timeoutMs);
      });
      this.client = client;
      await Promise.race([client.connect(transport), timeout]);
      this.tools = await Promise.race([this.listAll(client), timeout]);
    } catch (err) {
      this.client = null;
      await client.close().catch(() => undefined);
      const reason = this.startFailure(err);
      this.set("failed", reason);
      throw new Error(reason);
    } finally {
      clearTimeout(timer);
    }
    if (this.stopping) {
      this.client = null;
      await client.close().catch(() => undefined);
      this.set("stopped");
      return;
    }
    this.readySince = Date.now();
    this.recovering = false;
    this.set("ready");
  }

  private stderrNote(): string {
    const line = this.stderrTail.trim().split("\n").filter(Boolean).pop();
    return line ? ` (it said: ${line.trim().slice(0, 200)})` : "";
  }

  private startFailure(err: unknown): string {
    const e = err as NodeJS.ErrnoException;
    if (e?.code === "ENOENT" && this.config.transport === "stdio") {
      return `${this.label} could not start: the command "${this.config.command}" was not found; check the command or install it.`;
    }
    if (e?.code === "EACCES") return `${this.label} could not start: "${this.config.command}" is not executable.`;
    const message = e instanceof Error ? e.message.replace(/\.$/, "") : String(err);
    if (this.config.transport === "http") return `${this.label} could not be reached at ${this.config.url}: ${message}.`;
    return `${this.label} could not start: ${message}${this.stderrNote()}.`;
  }

  private async listAll(client: Client): Promise<McpToolInfo[]> {
    const tools: McpToolInfo[] = [];
    let cursor: string | undefined;
    // Bounded: a server that pages forever still ends.
    for (let page = 0; page < 50; page++) {
      const res = await client.listTools(cursor ? { cursor } : undefined);
      tools.push(...(res.tools as McpToolInfo[]));
      cursor = res.nextCursor;
      if (!cursor) break;
    }
    return tools;
  }

  private async refreshTools(client: Client): Promise<void> {
    try {
      const tools = await this.listAll(client);
      if (this.client !== client) return;
      this.tools = tools;
      this.changed();
    } catch {
      // The connection is going away; `closed` reports it.
    }
  }

  /** The transport closed: a stop we asked for, or a crash that schedules a restart. */
  private closed(client: Client): void {
    if (this.client !== client) return;
    this.client = null;
    if (!this.stopping) this.crashed(`${this.label} stopped unexpectedly${this.stderrNote()}`);
  }

  /** Counts a crash (or a failed restart) and schedules the next start with backoff, or gives up. */
  private crashed(what: string): void {
    if (Date.now() - this.readySince > (this.options.healthyAfterMs ?? 60_000)) this.crashes = 0;
    this.crashes++;
    const max = this.options.maxRestarts ?? 5;
    if (this.crashes > max) {
      this.recovering = false;
      this.set("failed", `${what}; it failed ${this.crashes} times in a row, so turn it off and on again in the settings to retry.`);
      return;
    }
    const backoff = this.options.backoffMs ?? DEFAULT_BACKOFF_MS;
    const delay = backoff[Math.min(this.crashes - 1, backoff.length - 1)];
    this.recovering = true;
    this.restartDone = new Promise<void>((resolve) => {
      this.restartTimer = setTimeout(() => {
        this.restartTimer = null;
        this.start().then(resolve, () => {
          resolve();
          if (!this.stopping) this.crashed((this.reason ?? `${this.label} could not restart`).replace(/\.$/, ""));
        });
      }, delay);
    });
    this.set("failed", `${what}; it restarts in ${seconds(delay)}.`);
  }

  /** Resolves when the server is ready: starts it, or waits for a scheduled restart; rejects with the reason. */
  async ready(): Promise<Client> {
    if (this.restartTimer && this.restartDone) await this.restartDone;
    if (this.state !== "ready" || !this.client) await this.start();
    if (!this.client) throw new Error(this.reason ?? `${this.label} is not running.`);
    return this.client;
  }

  /** Calls one tool; the signal sends `notifications/cancelled`; errors are one sentence. */
  async callTool(tool: string, args: Record<string, unknown>, signal?: AbortSignal): Promise<McpCallResult> {
    const client = await this.ready();
    const timeout = this.config.timeoutSeconds * 1000;
    try {
      return (await client.callTool({ name: tool, arguments: args }, undefined, { signal, timeout, maxTotalTimeout: timeout })) as McpCallResult;
    } catch (err) {
      if (signal?.aborted) throw err;
      if (err instanceof McpError && err.code === (ErrorCode.RequestTimeout as number)) {
        throw new Error(`Tool ${tool} on ${this.label} did not answer within ${seconds(timeout)}; the call was cancelled.`);
      }
      if (err instanceof McpError && err.code === (ErrorCode.ConnectionClosed as number)) {
        throw new Error(`${this.label} stopped during the call to ${tool}${this.stderrNote()}; it restarts by itself, so ask again in a moment.`);
      }
      if (this.config.transport === "http" && err instanceof TypeError) {
        // The HTTP endpoint went away: reconnect on the next call.
        this.client = null;
        await client.close().catch(() => undefined);
        this.set("failed", `${this.label} could not be reached at ${this.config.url}: ${err.message}.`);
        throw new Error(this.reason);
      }
      const message = err instanceof Error ? err.message : String(err);
      throw new Error(`Tool ${tool} on ${this.label} failed: ${message.replace(/\.$/, "")}.`);
    }
  }

  /** Stops the server (and any scheduled restart); the next `start` begins afresh. */
  async stop(): Promise<void> {
    this.stopping = true;
    if (this.restartTimer) clearTimeout(this.restartTimer);
    this.restartTimer = null;
    this.restartDone = null;
    this.recovering = false;
    this.crashes = 0;
    const client = this.client;
    this.client = null;
    await this.starting?.catch(() => undefined);
    if (client) {
      const transport = client.transport;
      if (transport instanceof StreamableHTTPClientTransport) await transport.terminateSession().catch(() => undefined);
      await client.close().catch(() => undefined);
    }
    if (this.state !== "stopped") this.set("stopped");
  }

  /** The child process id of a stdio server while it runs (tests kill it to simulate a crash). */
  get pid(): number | null {
    return asStdio(this.client?.transport)?.pid ?? null;
  }
}
