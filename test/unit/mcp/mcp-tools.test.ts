import { describe, expect, it } from "vitest";
import { SubsetCache } from "../../../src/core/grammar";
import { CatalogRouter } from "../../../src/core/router/catalog-router";
import { ToolRouter } from "../../../src/core/router/tool-router";
import { ToolRefusal } from "../../../src/core/gatekeeper/refusal";
import { McpConfigError, mcpConfigJson, parseMcpConfig } from "../../../src/engine/mcp/mcp-config";
import { McpCatalog } from "../../../src/tools/mcp/mcp-catalog";
import type { McpCallResult, McpServerView, McpToolHost, McpToolInfo } from "../../../src/core/ports/mcp";
import { base64Bytes, mcpResult } from "../../../src/tools/mcp/mcp-result";
import { mcpEffect } from "../../../src/tools/mcp/mcp-tools";
import { namePart, uniqueParts } from "../../../src/tools/mcp/mcp-tool-name";
import { ToolRegistry } from "../../../src/tools/registry";
import { createToolCatalog } from "../../../src/tools/index";
import { parseGbnf } from "../../../src/core/grammar";

/** A tool host whose servers the test sets by hand (the real client is tested against real servers elsewhere). */
class HandHost implements McpToolHost {
  views: McpServerView[] = [];
  calls: { server: string; tool: string; args: Record<string, unknown> }[] = [];
  private listeners = new Set<() => void>();
  set(views: McpServerView[]): void {
    this.views = views;
    for (const l of this.listeners) l();
  }
  servers(): McpServerView[] {
    return this.views;
  }
  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
  async callTool(server: string, tool: string, args: Record<string, unknown>): Promise<McpCallResult> {
    this.calls.push({ server, tool, args });
    return { content: [{ type: "text", text: `${tool} ran` }] };
  }
}

const tool = (name: string, schema: Record<string, unknown> = { type: "object", properties: { q: { type: "string" } }, required: ["q"] }, extra: Partial<McpToolInfo> = {}): McpToolInfo => ({
  name,
  description: `Does ${name}.`,
  inputSchema: schema,
  ...extra,
});
const server = (name: string, tools: McpToolInfo[], over: Partial<McpServerView> = {}): McpServerView => ({ name, enabled: true, state: "ready", tools, disabledTools: [], ...over });

describe("MCP tool names", () => {
  it("are GBNF-safe, deterministic and collision-free", () => {
    expect(namePart("getTinyImage")).toBe("get_tiny_image");
    expect(namePart("My Server!")).toBe("my_server");
    expect(namePart("日本")).toBe("x");
    const a = uniqueParts(["get_sum", "getSum", "get-sum", "GET SUM"]);
    const b = uniqueParts(["GET SUM", "get-sum", "getSum", "get_sum"]);
    expect([...a.entries()].sort()).toEqual([...b.entries()].sort());
    expect(new Set(a.values()).size).toBe(4);
    expect(a.get("get_sum")).toBe("get_sum");
    for (const part of a.values()) expect(part).toMatch(/^[a-z0-9][a-z0-9_-]*$/);
  });
});

describe("MCP effect policy", () => {
  it("is effectful unless readOnlyHint is true, destructive unless destructiveHint is false", () => {
    expect(mcpEffect(tool("a", undefined, { annotations: { readOnlyHint: true } }))).toEqual({ effect: "read", destructive: false });
    expect(mcpEffect(tool("a"))).toEqual({ effect: "destructive", destructive: true });
    expect(mcpEffect(tool("a", undefined, { annotations: { destructiveHint: false } }))).toEqual({ effect: "write", destructive: false });
    expect(mcpEffect(tool("a", undefined, { annotations: { readOnlyHint: false, destructiveHint: true } }))).toEqual({ effect: "destructive", destructive: true });
  });
});

describe("MCP results", () => {
  const where = { server: "s", tool: "t", name: "mcp:s:t" };
  it("keeps text, summarizes images and binary resources, adds structured content once", () => {
    const png = Buffer.alloc(12 * 1024, 7).toString("base64");
    expect(base64Bytes(png)).toBe(12 * 1024);
    const r = mcpResult(
      {
        content: [
          { type: "text", text: "Here it is." },
          { type: "image", data: png, mimeType: "image/png" },
          { type: "resource", resource: { uri: "file:///a.bin", blob: Buffer.alloc(3000).toString("base64"), mimeType: "application/octet-stream" } },
          { type: "resource_link", uri: "file:///b.txt", name: "b.txt" },
        ],
        structuredContent: { temperature: 21.5, unit: "C" },
      },
      where,
    );
    expect(r.content).toBe('Here it is.\n[image, 12 KB, image/png]\n[binary resource file:///a.bin, 3 KB, application/octet-stream]\n[link b.txt file:///b.txt]\n{"temperature":21.5,"unit":"C"}');
    expect(mcpResult({ content: [{ type: "text", text: '{"temperature":21.5}' }], structuredContent: { temperature: 21.5 } }, where).content).toBe('{"temperature":21.5}');
    expect(mcpResult({ content: [] }, where).empty).toBe(true);
  });

  it("turns isError into a refusal the recovery loop retries", () => {
    let thrown: unknown;
    try {
      mcpResult({ isError: true, content: [{ type: "text", text: "Error: no such file" }] }, where);
    } catch (err) {
      thrown = err;
    }
    expect(thrown).toBeInstanceOf(ToolRefusal);
    expect((thrown as ToolRefusal).code).toBe("tool_error");
    expect((thrown as ToolRefusal).malformed).toBe(true);
    expect((thrown as ToolRefusal).message).toBe('MCP server "s" reported an error from t: Error: no such file. Correct the arguments or choose another tool.');
  });
});

describe("MCP configuration", () => {
  it("reads the Claude Desktop form (stdio and HTTP) and writes it back", () => {
    const text = JSON.stringify({
      mcpServers: {
        fs: { command: "npx", args: ["-y", "@modelcontextprotocol/server-filesystem", "/tmp"], env: { A: "1" } },
        web: { type: "http", url: "http://127.0.0.1:3001/mcp", headers: { Authorization: "Bearer x" } },
        off: { command: "node", disabled: true, disabledTools: ["rm"] },
      },
    });
    const servers = parseMcpConfig(text);
    expect(servers.map((s) => [s.name, s.transport, s.enabled])).toEqual([
      ["fs", "stdio", true],
      ["web", "http", true],
      ["off", "stdio", false],
    ]);
    expect(parseMcpConfig(JSON.stringify(mcpConfigJson(servers)))).toEqual(servers);
  });

  it.each([
    ["{", /is not valid JSON/],
    ["[]", /must be a JSON object/],
    ['{"servers": 1}', /has no "mcpServers" object/],
    ['{"mcpServers": {"a": {}}}', /MCP server "a" needs a "command"/],
    ['{"mcpServers": {"a": {"command": "x", "args": "y"}}}', /MCP server "a" args must be a list/],
    ['{"mcpServers": {"a": {"url": "nope"}}}', /not a valid address/],
    ['{"mcpServers": {"a": {"type": "sse", "url": "http://x"}}}', /old SSE transport/],
  ])("refuses %s with one sentence", (text, message) => {
    expect(() => parseMcpConfig(text)).toThrow(McpConfigError);
    expect(() => parseMcpConfig(text)).toThrow(message);
    try {
      parseMcpConfig(text);
    } catch (err) {
      expect((err as Error).message.split(/(?<=[.!?]) (?=[A-Z])/).length).toBe(1);
    }
  });
});

describe("a live catalog", () => {
  it("adds, updates and removes MCP tools as servers change; the subset cache and the router follow", async () => {
    const builtins = createToolCatalog({ semantic: false, network: false });
    const registry = new ToolRegistry(builtins);
    const grammars = new SubsetCache(registry.grammarTools());
    registry.onChange(() => grammars.setCatalog(registry.grammarTools()));
    const router = new CatalogRouter(registry, (tools) => new ToolRouter(tools));
    const host = new HandHost();
    const notices: string[] = [];
    const catalog = new McpCatalog(host, registry, { notify: (m) => notices.push(m) });

    host.set([server("weather", [tool("getForecast", undefined, { description: "Weather forecast for a city, days ahead." })])]);
    expect(registry.has("mcp:weather:get_forecast")).toBe(true);
    expect(parseGbnf(grammars.get(["mcp:weather:get_forecast"], "dynamic").gbnf)).toBeTruthy();
    const decision = await router.route("what is the weather forecast for Paris");
    expect(decision.tools.map((t) => t.name)).toContain("mcp:weather:get_forecast");

    // A handler calls the server by the tool's own name.
    await registry.get("mcp:weather:get_forecast")!.definition.handler({ q: "Paris" }, {} as never);
    expect(host.calls).toEqual([{ server: "weather", tool: "getForecast", args: { q: "Paris" } }]);

    // tools/list_changed: a new tool arrives, a refused one is left out with a notice naming server, tool, reason.
    const impossible = { type: "object", properties: { n: { type: "integer", minimum: 5, maximum: 1 } }, required: ["n"] };
    const notObject = { type: "string" };
    host.set([server("weather", [tool("getForecast"), tool("getAlerts"), tool("impossible", impossible), tool("bare", notObject)])]);
    expect(registry.names().filter((n) => n.startsWith("mcp:"))).toEqual(["mcp:weather:get_forecast", "mcp:weather:get_alerts"]);
    // The grammar compiler's refusal and the registry's, each named with server, tool and reason.
    expect(notices).toEqual([
      'The tool impossible of the MCP server "weather" was left out: The schema at the root cannot be compiled (schema): no JSON value satisfies this schema.',
      'The tool bare of the MCP server "weather" was left out: Tool "mcp:weather:bare" has args whose JSON Schema is not an object schema; tools take a JSON object of arguments.',
    ]);
    expect(catalog.reports.get("weather")!.map((r) => r.status)).toEqual(["exact", "exact", "refused", "refused"]);

    // A tool switched off, then the server stopping: its tools leave; the grammar cache no longer knows them.
    host.set([server("weather", [tool("getForecast"), tool("getAlerts")], { disabledTools: ["getAlerts"] })]);
    expect(registry.has("mcp:weather:get_alerts")).toBe(false);
    host.set([server("weather", [tool("getForecast")], { state: "failed", reason: "x" })]);
    expect(registry.names().some((n) => n.startsWith("mcp:"))).toBe(false);
    expect(() => grammars.get(["mcp:weather:get_forecast"], "dynamic")).toThrow(/not in the catalog/);
    expect((await router.route("what is the weather forecast for Paris")).tools.map((t) => t.name)).not.toContain("mcp:weather:get_forecast");
    expect(registry.names()).toEqual(builtins.map((t) => t.name));
    catalog.dispose();
  });

  it("reports a local relaxation per JSON pointer and keyword, and registers the tool", () => {
    const registry = new ToolRegistry();
    const host = new HandHost();
    const catalog = new McpCatalog(host, registry);
    host.set([server("s", [tool("tags", { type: "object", properties: { a: { type: "array", items: { type: "string" }, uniqueItems: true }, b: { type: "string" } } })])]);
    expect(registry.has("mcp:s:tags")).toBe(true);
    const [report] = catalog.reports.get("s")!;
    expect(report.status).toBe("relaxed");
    expect(report.details).toEqual(["/properties/a uniqueItems: uniqueItems is not enforced by the grammar"]);
  });

  it("validates draft-07 schemas from servers and leaves a restarting server's tools in place", () => {
    const registry = new ToolRegistry();
    const host = new HandHost();
    new McpCatalog(host, registry);
    const schema = { $schema: "http://json-schema.org/draft-07/schema#", type: "object", properties: { n: { type: "number", exclusiveMinimum: 0 } }, required: ["n"] };
    host.set([server("calc", [tool("sqrt", schema)])]);
    const t = registry.get("mcp:calc:sqrt")!;
    expect(t.validate({ n: 4 })).toBe(true);
    expect(t.validate({ n: 0 })).toBe(false);
    host.set([server("calc", [tool("sqrt", schema)], { state: "failed", restarting: true })]);
    expect(registry.has("mcp:calc:sqrt")).toBe(true);
  });
});
