/**
 * Keeps a registry's MCP tools in step with the servers: a server that becomes ready brings its tools, one that
 * stops or fails takes them away, a `tools/list_changed` or a tool switched off in the settings updates them. A tool
 * whose schema is refused is left out with one notice naming the server, the tool and the reason.
 */
import type { GrammarOptions } from "../../core/grammar";
import type { ToolRegistry } from "../registry";
import type { McpToolHost } from "../../core/ports/mcp";
import { mcpToolDefinitions, refusedNotice, type McpToolReport } from "./mcp-tools";
import { uniqueParts } from "./mcp-tool-name";

export interface McpCatalogOptions {
  grammarOptions?: GrammarOptions;
  /** Told once per refused tool (a Notice in Obsidian, stderr headless). */
  notify?: (message: string) => void;
}

export class McpCatalog {
  /** How each server's tools compiled, by server name (servers that are not ready have none). */
  readonly reports = new Map<string, McpToolReport[]>();
  /** Registered names per server, and the tool list they were built from. */
  private readonly registered = new Map<string, { signature: string; names: string[] }>();
  private readonly told = new Set<string>();
  private readonly stop: () => void;

  constructor(
    private readonly host: McpToolHost,
    private readonly registry: ToolRegistry,
    private readonly options: McpCatalogOptions = {},
  ) {
    this.stop = host.onChange(() => this.sync());
    this.sync();
  }

  /** Brings the registry in step with the servers now. */
  sync(): void {
    const servers = this.host.servers();
    const parts = uniqueParts(servers.map((s) => s.name));
    const add = [];
    const remove: string[] = [];
    const seen = new Set<string>();
    for (const server of servers) {
      seen.add(server.name);
      // A server restarting after a crash keeps its tools: a call waits for the restart instead of the tool vanishing.
      const live = server.enabled && (server.state === "ready" || server.restarting === true);
      const signature = live ? JSON.stringify([parts.get(server.name), server.tools, server.disabledTools]) : "";
      const before = this.registered.get(server.name);
      if ((before?.signature ?? "") === signature) continue;
      if (before) remove.push(...before.names);
      this.registered.delete(server.name);
      if (!live) {
        this.reports.delete(server.name);
        continue;
      }
      const { definitions, reports } = mcpToolDefinitions({
        server: server.name,
        serverPart: parts.get(server.name) ?? server.name,
        tools: server.tools,
        disabled: server.disabledTools,
        host: this.host,
        grammarOptions: this.options.grammarOptions,
      });
      this.reports.set(server.name, reports);
      this.registered.set(server.name, { signature, names: definitions.map((d) => d.name) });
      add.push(...definitions);
      for (const r of reports) {
        const notice = r.status === "refused" ? refusedNotice(r) : "";
        if (notice && !this.told.has(notice)) {
          this.told.add(notice);
          this.options.notify?.(notice);
        }
      }
    }
    for (const [name, before] of this.registered) {
      if (seen.has(name)) continue;
      remove.push(...before.names);
      this.registered.delete(name);
      this.reports.delete(name);
    }
    if (add.length || remove.length) this.registry.update(add, remove);
  }

  /** Stops following the servers and takes their tools out of the registry. */
  dispose(): void {
    this.stop();
    this.registry.update([], [...this.registered.values()].flatMap((r) => r.names));
    this.registered.clear();
  }
}
