/** `mcp list --config F.json [--json]`: the configured MCP servers, their tools and how each tool's schema compiled. */
import { McpConfigError } from "../../engine/mcp/mcp-config";
import { McpHub } from "../../engine/mcp/mcp-hub";
import { McpCatalog } from "../../tools/mcp/mcp-catalog";
import { ToolRegistry } from "../../tools/registry";
import { parseArgs, UsageError } from "../cli-types";
import { MCP_CLIENT_INFO } from "../compose";
import { readMcpConfigFile } from "../mcp-config-file";

export const usage = "mcp list --config F.json [--json]   MCP servers, their tools and how each schema compiled (exact, relaxed, refused)";

export async function run(argv: string[]): Promise<number> {
  const { options, positionals } = parseArgs(argv, { strings: ["config"], booleans: ["json"] });
  if (positionals[0] !== "list") throw new UsageError('Say what to do: "mcp list --config F.json".');
  if (typeof options.config !== "string") throw new UsageError("Give the MCP configuration with --config F.json.");
  let servers;
  try {
    servers = readMcpConfigFile(options.config);
  } catch (err) {
    if (!(err instanceof McpConfigError)) throw err;
    process.stderr.write(`${err.message}\n`);
    return 2;
  }
  const hub = new McpHub(servers, { clientInfo: MCP_CLIENT_INFO });
  const catalog = new McpCatalog(hub, new ToolRegistry());
  try {
    await hub.startAll();
    catalog.sync();
    const views = hub.servers();
    if (options.json === true) {
      const out = views.map((s) => ({ name: s.name, enabled: s.enabled, state: s.state, reason: s.reason, tools: catalog.reports.get(s.name) ?? [] }));
      process.stdout.write(`${JSON.stringify({ servers: out })}\n`);
    } else {
      for (const s of views) {
        const config = servers.find((c) => c.name === s.name);
        const where = config?.transport === "http" ? config.url : [config?.command, ...(config?.args ?? [])].join(" ");
        const reports = catalog.reports.get(s.name) ?? [];
        process.stdout.write(`${s.name}  ${s.enabled ? s.state : "off"}  ${config?.transport} ${where}${s.state === "ready" ? `  ${reports.length} tools` : ""}\n`);
        if (s.reason) process.stdout.write(`  ${s.reason}\n`);
        for (const r of reports) {
          process.stdout.write(`  ${r.name}  (${r.effect})  ${r.status}${r.details.length ? `: ${r.details.join("; ")}` : ""}\n`);
        }
      }
      const all = [...catalog.reports.values()].flat();
      const count = (status: string): number => all.filter((r) => r.status === status).length;
      process.stdout.write(`${all.length} tools: ${count("exact")} exact, ${count("relaxed")} relaxed, ${count("refused")} refused\n`);
    }
    return views.some((s) => s.enabled && s.state !== "ready") ? 1 : 0;
  } finally {
    catalog.dispose();
    await hub.close();
  }
}
