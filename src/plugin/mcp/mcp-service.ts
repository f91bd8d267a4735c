/**
 * The plugin's MCP servers: the client runs here in the renderer (measured: the SDK adds about 85 KiB to main.js,
 * sharing its zod and ajv, against about 317 KiB if embedded with the engine host), with stdio servers as child
 * processes and HTTP through a fetch not bound by the renderer's CORS. Servers start when a turn first needs them and
 * stop on unload. Where child processes cannot run (Obsidian mobile), stdio servers are never started: only streamable
 * HTTP servers run, and the first turn says once which local servers stay off.
 */
import { readMcpServers } from "../../engine/mcp/mcp-config";
import type { McpConnectionOptions } from "../../engine/mcp/mcp-connection";
import { McpHub } from "../../engine/mcp/mcp-hub";
import type { VaultAgentSettings } from "../settings/settings";

export interface McpServiceDeps {
  settings: () => VaultAgentSettings;
  /** Transport and fetch for this machine (the browser test harness supplies in-memory servers). */
  connection?: Pick<McpConnectionOptions, "transport" | "fetch">;
  /** The plugin's version, reported to servers. */
  version: string;
  /** Tells the user about a server that failed (once per reason). */
  notice?: (message: string) => void;
  /**
   * Set where child processes cannot run (mobile): why, in one sentence. stdio servers are then left out of the hub,
   * so they are never started and offer no tools. Default null (desktop: every server runs).
   */
  stdioUnavailable?: string | null;
}

export class McpService {
  readonly hub: McpHub;
  /** Entries of the saved configuration that cannot be used, one sentence each. */
  problems: string[] = [];
  /** Configured stdio servers left out because this device cannot run them (empty on desktop). */
  localOnly: string[] = [];
  private applied = "";
  private readonly told = new Set<string>();

  constructor(private readonly deps: McpServiceDeps) {
    this.hub = new McpHub([], { clientInfo: { name: "vault-agent", version: deps.version }, ...deps.connection });
    this.reload();
  }

  /** Applies the saved configuration (after a settings change); unchanged servers keep running. */
  reload(): void {
    const json = this.deps.settings().mcpConfig;
    const text = JSON.stringify(json);
    if (text === this.applied) return;
    this.applied = text;
    const { servers, problems } = readMcpServers(json);
    this.problems = problems;
    const gated = Boolean(this.deps.stdioUnavailable);
    this.localOnly = gated ? servers.filter((s) => s.transport === "stdio" && s.enabled).map((s) => s.name) : [];
    this.hub.configure(gated ? servers.filter((s) => s.transport !== "stdio") : servers);
  }

  /** The one sentence about stdio servers that stay off on this device, or null. */
  private localOnlySentence(): string | null {
    const names = this.localOnly;
    if (names.length === 0) return null;
    const list = names.map((n) => `"${n}"`).join(", ");
    const one = names.length === 1;
    return `MCP ${one ? "server" : "servers"} ${list} ${one ? "runs" : "run"} a local command (stdio), which needs the desktop app, so ${one ? "it stays" : "they stay"} off on this device; streamable HTTP servers work here.`;
  }

  /** Brings every enabled server up (what a turn waits for first). */
  async startAll(): Promise<void> {
    this.reload();
    await this.hub.startAll();
    for (const sentence of [...this.problems, this.localOnlySentence(), ...this.hub.servers().map((s) => (s.state === "failed" ? s.reason : undefined))]) {
      if (!sentence || this.told.has(sentence)) continue;
      this.told.add(sentence);
      this.deps.notice?.(sentence);
    }
  }

  close(): Promise<void> {
    return this.hub.close();
  }
}
