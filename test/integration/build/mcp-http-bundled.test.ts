/**
 * The MCP client as main.js bundles it (the build's plugins: no ajv, the SDK's OAuth client a stub) over streamable
 * HTTP against server-everything on 127.0.0.1: it connects with the configured headers, lists and calls tools, and a
 * server that answers 401 (it wants OAuth, which the plugin does not do) fails with one sentence, as with the real SDK.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import esbuild from "esbuild";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { McpHub as McpHubType } from "../../../src/engine/mcp/mcp-hub";
import type { McpCatalog as McpCatalogType } from "../../../src/tools/mcp/mcp-catalog";
import type { ToolRegistry as ToolRegistryType } from "../../../src/tools/registry";
import { DEFAULT_MCP_TIMEOUT_SECONDS, type McpServerConfig } from "../../../src/engine/mcp/mcp-config";
import { repoRoot } from "../../helpers/host-bundle";

const fixture = fileURLToPath(new URL("../../fixtures/mcp/everything-http.ts", import.meta.url));
const require = createRequire(import.meta.url);
const tsx = pathToFileURL(require.resolve("tsx")).href;

interface Bundled {
  McpHub: typeof McpHubType;
  McpCatalog: typeof McpCatalogType;
  ToolRegistry: typeof ToolRegistryType;
}

let dir: string;
let bundled: Bundled;
let code = "";
let child: ChildProcess;
let url = "";
let refusing: Server;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "mcp-bundled-"));
  // @ts-expect-error -- the build script is plain JavaScript.
  const { mainOptions } = (await import("../../../esbuild.config.mjs")) as { mainOptions: (host: string) => esbuild.BuildOptions };
  const outfile = join(dir, "mcp.cjs");
  const src = (p: string) => JSON.stringify(join(repoRoot, p));
  await esbuild.build({
    stdin: {
      contents: [
        `export { McpHub } from ${src("src/engine/mcp/mcp-hub.ts")};`,
        `export { McpCatalog } from ${src("src/tools/mcp/mcp-catalog.ts")};`,
        `export { ToolRegistry } from ${src("src/tools/registry.ts")};`,
      ].join("\n"),
      resolveDir: repoRoot,
      loader: "ts",
    },
    bundle: true,
    platform: "node",
    format: "cjs",
    target: "node18",
    plugins: mainOptions("").plugins,
    define: mainOptions("").define,
    outfile,
    logLevel: "silent",
  });
  code = readFileSync(outfile, "utf8");
  bundled = require(outfile) as Bundled;
  child = spawn(process.execPath, ["--import", tsx, fixture], { stdio: ["ignore", "pipe", "pipe"] });
  url = await new Promise<string>((resolve, reject) => {
    let out = "";
    child.stdout!.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      const m = /listening (\d+)/.exec(out);
      if (m) resolve(`http://127.0.0.1:${m[1]}/mcp`);
    });
    child.once("exit", (exit) => reject(new Error(`the HTTP fixture exited with ${exit}`)));
  });
  refusing = createServer((_req, res) => res.writeHead(401, { "www-authenticate": 'Bearer resource_metadata="http://127.0.0.1:9/x"' }).end());
  await new Promise<void>((resolve) => refusing.listen(0, "127.0.0.1", resolve));
}, 120_000);

afterAll(() => {
  child?.kill("SIGTERM");
  refusing?.close();
  rmSync(dir, { recursive: true, force: true });
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

describe("the MCP client as main.js bundles it, over streamable HTTP (127.0.0.1)", () => {
  it("carries the OAuth stub, lists and calls a tool, and stops the session", async () => {
    expect(code).toContain("OAuth is not part of the plugin");
    expect(code).not.toContain("code_challenge");
    const hub = new bundled.McpHub([http()], { clientInfo: { name: "test", version: "0" } });
    const registry = new bundled.ToolRegistry();
    const catalog = new bundled.McpCatalog(hub, registry);
    await hub.startAll();
    expect(hub.servers()[0]).toMatchObject({ state: "ready" });
    const result = await registry.get("mcp:everything-http:get-sum")!.definition.handler({ a: 20, b: 22 }, {} as never);
    expect(result.content).toContain("42");
    catalog.dispose();
    await hub.close();
    expect(hub.servers()[0].state).toBe("stopped");
  });

  it("a server that wants OAuth (401) fails with one sentence naming the server", async () => {
    const address = `http://127.0.0.1:${(refusing.address() as AddressInfo).port}/mcp`;
    const hub = new bundled.McpHub([http({ name: "locked", url: address })], { clientInfo: { name: "test", version: "0" }, startTimeoutMs: 10_000 });
    await hub.startAll();
    const view = hub.servers()[0];
    expect(view.state).toBe("failed");
    expect(view.reason).toMatch(/^MCP server "locked" .+\.$/);
    expect(view.reason).not.toContain("OAuth is not part");
    await hub.close();
  });
});
