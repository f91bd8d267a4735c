/** `mcp list` and `ask --mcp` through the real CLI, with the real servers from node_modules. */
import { spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { mcpConfigJson } from "../../../src/engine/mcp/mcp-config";
import { realServers } from "../../helpers/mcp-servers";

const root = fileURLToPath(new URL("../../../", import.meta.url));
const tsx = pathToFileURL(createRequire(import.meta.url).resolve("tsx")).href;
const cli = (...args: string[]) =>
  spawnSync(process.execPath, ["--import", tsx, join(root, "src/node/cli.ts"), ...args], { encoding: "utf8", timeout: 120_000, cwd: root });

function configFile(json: unknown): string {
  const file = join(mkdtempSync(join(tmpdir(), "mcp-config-")), "servers.json");
  writeFileSync(file, typeof json === "string" ? json : JSON.stringify(json));
  return file;
}

describe("CLI: mcp list, ask --mcp", () => {
  it("mcp list prints each server, its tools with their effect and how each schema compiled; a missing command is one sentence", () => {
    const { configs } = realServers();
    const json = mcpConfigJson(configs);
    json.mcpServers.broken = { command: "vault-agent-no-such-command" };
    const r = cli("mcp", "list", "--config", configFile(json));
    expect(r.status).toBe(1);
    const lines = r.stdout.trim().split("\n");
    expect(lines).toContain("  mcp:filesystem:write_file  (destructive)  exact");
    expect(lines).toContain("  mcp:memory:read_graph  (read)  exact");
    expect(lines).toContain("  mcp:everything:echo  (read)  exact");
    expect(lines.find((l) => l.startsWith("broken  failed"))).toBeTruthy();
    expect(lines).toContain('  MCP server "broken" could not start: the command "vault-agent-no-such-command" was not found; check the command or install it.');
    expect(lines.at(-1)).toMatch(/^\d+ tools: \d+ exact, \d+ relaxed, 0 refused$/);
  });

  it("mcp list --json gives one object with every tool's report", () => {
    const { configs } = realServers();
    const r = cli("mcp", "list", "--json", "--config", configFile(mcpConfigJson(configs.filter((c) => c.name === "memory"))));
    expect(r.status, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout) as { servers: { name: string; state: string; tools: { name: string; status: string; effect: string }[] }[] };
    expect(out.servers[0]).toMatchObject({ name: "memory", state: "ready" });
    expect(out.servers[0].tools.find((t) => t.name === "mcp:memory:create_entities")).toMatchObject({ status: "exact", effect: "write" });
  });

  it("a malformed configuration is one sentence and exit 2, for mcp list and for ask", () => {
    const bad = configFile('{"mcpServers": {"x": {"args": []}}}');
    const r = cli("mcp", "list", "--config", bad);
    expect(r.status).toBe(2);
    expect(r.stderr).toBe('MCP server "x" needs a "command" (the program to run) or a "url".\n');
    const a = cli("ask", "--vault", join(root, "examples/vault"), "--mcp", configFile("{oops"), "hello");
    expect(a.status).toBe(2);
    expect(a.stderr.trim().split("\n")).toHaveLength(1);
    expect(a.stderr).toMatch(/^The MCP configuration servers\.json is not valid JSON/);
    expect(cli("mcp", "list", "--config", "/nonexistent/servers.json").stderr).toBe("The MCP configuration file /nonexistent/servers.json does not exist.\n");
  });
});
