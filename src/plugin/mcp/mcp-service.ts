/**
 * The plugin's MCP servers: the client runs here in the renderer (measured: the SDK adds about 85 KiB to main.js,
 * sharing its zod and ajv, against about 317 KiB if embedded with the engine host), with stdio servers as child
 * processes and HTTP through a fetch not bound by the renderer's CORS. Servers start when a turn first needs them and
 * stop on unload.
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
}

export class McpService {
  readonly hub: McpHub;
  /** Entries of the saved configuration that cannot be used, one sentence each. */
  problems: string[] = [];
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
    this.hub.configure(servers);
  }

  /** Brings every enabled server up (what a turn waits for first). */
  async startAll(): Promise<void> {
    this.reload();
    await this.hub.startAll();
    for (const sentence of [...this.problems, ...this.hub.servers().map((s) => (s.state === "failed" ? s.reason : undefined))]) {
      if (!sentence || this.told.has(sentence)) continue;
      this.told.add(sentence);
      this.deps.notice?.(sentence);
    }
  }

  close(): Promise<void> {
    return this.hub.close();
  }
}
