/**
 * All configured MCP servers: one connection each, started together when first needed, stopped together on unload.
 * Implements the port the MCP tool adapters read (src/tools/mcp/mcp-port.ts).
 */
import type { McpCallResult, McpServerView, McpToolHost } from "../../core/ports/mcp";
import type { McpServerConfig } from "./mcp-config";
import { McpConnection, type McpConnectionOptions } from "./mcp-connection";

export class McpHub implements McpToolHost {
  private connections = new Map<string, McpConnection>();
  private readonly listeners = new Set<() => void>();

  constructor(
    servers: readonly McpServerConfig[],
    private readonly options: McpConnectionOptions,
  ) {
    this.configure(servers);
  }

  /**
   * Applies a new server list: servers whose entry changed (or that were turned off or removed) stop; new and changed
   * ones start when next needed. Tool on/off switches apply at once without a restart.
   */
  configure(servers: readonly McpServerConfig[]): void {
    const next = new Map<string, McpConnection>();
    for (const config of servers) {
      const old = this.connections.get(config.name);
      const same = old && JSON.stringify({ ...old.config, disabledTools: [] }) === JSON.stringify({ ...config, disabledTools: [] });
      if (old && same) {
        old.config.disabledTools = config.disabledTools;
        next.set(config.name, old);
      } else {
        if (old) void old.stop();
        next.set(config.name, new McpConnection({ ...config }, this.options, () => this.emit()));
      }
    }
    for (const [name, old] of this.connections) if (!next.has(name)) void old.stop();
    this.connections = next;
    this.emit();
  }

  private emit(): void {
    for (const listener of [...this.listeners]) {
      try {
        listener();
      } catch {
        // One listener's failure must not starve the others.
      }
    }
  }

  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  servers(): McpServerView[] {
    return [...this.connections.values()].map((c) => c.view());
  }

  connection(name: string): McpConnection | undefined {
    return this.connections.get(name);
  }

  /**
   * Starts every enabled server that is not running and waits until each is ready or failed (failures are in
   * `servers()`, never thrown): what "first needed" means for a turn, since the router must see the tools.
   */
  async startAll(): Promise<void> {
    await Promise.all([...this.connections.values()].filter((c) => c.config.enabled && c.state !== "ready").map((c) => c.ready().catch(() => undefined)));
  }

  /** Restarts one server now (the settings' retry). */
  async restart(name: string): Promise<void> {
    const c = this.connections.get(name);
    if (!c) return;
    await c.stop();
    await c.start().catch(() => undefined);
  }

  async callTool(server: string, tool: string, args: Record<string, unknown>, options: { signal?: AbortSignal } = {}): Promise<McpCallResult> {
    const c = this.connections.get(server);
    if (!c || !c.config.enabled) throw new Error(`MCP server "${server}" is not configured or is turned off.`);
    return c.callTool(tool, args, options.signal);
  }

  /** Stops every server (plugin unload, CLI exit). */
  async close(): Promise<void> {
    await Promise.all([...this.connections.values()].map((c) => c.stop()));
  }
}
