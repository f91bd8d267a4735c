/** The real client over streamable HTTP, against server-everything served on 127.0.0.1 by a child process. */
import { spawn, type ChildProcess } from "node:child_process";
import { createRequire } from "node:module";
import { fileURLToPath, pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_MCP_TIMEOUT_SECONDS, type McpServerConfig } from "../../../src/engine/mcp/mcp-config";
import { McpHub } from "../../../src/engine/mcp/mcp-hub";
import { McpCatalog } from "../../../src/tools/mcp/mcp-catalog";
import { ToolRegistry } from "../../../src/tools/registry";
import { nodeFetch } from "../../../src/plugin/mcp/node-fetch";

const fixture = fileURLToPath(new URL("../../fixtures/mcp/everything-http.ts", import.meta.url));
const tsx = pathToFileURL(createRequire(import.meta.url).resolve("tsx")).href;
let child: ChildProcess;
let url = "";

beforeAll(async () => {
  child = spawn(process.execPath, ["--import", tsx, fixture], { stdio: ["ignore", "pipe", "pipe"] });
  url = await new Promise<string>((resolve, reject) => {
    let out = "";
    child.stdout!.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      const m = /listening (\d+)/.exec(out);
      if (m) resolve(`http://127.0.0.1:${m[1]}/mcp`);
    });
    child.once("exit", (code) => reject(new Error(`the HTTP fixture exited with ${code}`)));
  });
});
afterAll(() => {
  child?.kill("SIGTERM");
});

const http = (over: Partial<McpServerConfig> = {}): McpServerConfig => ({
  name: "everything-http",
  enabled: true,
  transport: "http",
  url,
  headers: { "x-test": "1" },
  disabledTools: [],
  timeoutSeconds: DEFAULT_MCP_TIMEOUT_SECONDS,
  ...over,
});

describe("MCP over streamable HTTP (127.0.0.1)", () => {
  it("lists and compiles the tools, calls one, and stops the session", async () => {
    const hub = new McpHub([http()], { clientInfo: { name: "test", version: "0" } });
    const registry = new ToolRegistry();
    const catalog = new McpCatalog(hub, registry);
    await hub.startAll();
    expect(hub.servers()[0]).toMatchObject({ state: "ready" });
    expect(registry.has("mcp:everything-http:get-sum")).toBe(true);
    expect(catalog.reports.get("everything-http")!.filter((r) => r.status === "refused")).toEqual([]);
    const result = await registry.get("mcp:everything-http:get-sum")!.definition.handler({ a: 20, b: 22 }, {} as never);
    expect(result.content).toContain("42");
    catalog.dispose();
    await hub.close();
    expect(hub.servers()[0].state).toBe("stopped");
  });

  it("works the same through the plugin's Node-HTTP fetch (the renderer's fetch would apply CORS)", async () => {
    const hub = new McpHub([http()], { clientInfo: { name: "test", version: "0" }, fetch: nodeFetch });
    const registry = new ToolRegistry();
    const catalog = new McpCatalog(hub, registry);
    await hub.startAll();
    expect(hub.servers()[0]).toMatchObject({ state: "ready" });
    const result = await registry.get("mcp:everything-http:echo")!.definition.handler({ message: "over node http" }, {} as never);
    expect(result.content).toContain("over node http");
    catalog.dispose();
    await hub.close();
  });

  it("an address where nothing listens fails with one sentence naming the server and the address", async () => {
    const dead = "http://127.0.0.1:9/mcp";
    const hub = new McpHub([http({ name: "nowhere", url: dead })], { clientInfo: { name: "test", version: "0" }, startTimeoutMs: 10_000 });
    await hub.startAll();
    const view = hub.servers()[0];
    expect(view.state).toBe("failed");
    expect(view.reason).toMatch(/^MCP server "nowhere" could not be reached at http:\/\/127\.0\.0\.1:9\/mcp: .+\.$/);
    await hub.close();
  });
});
