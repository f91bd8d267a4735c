/**
 * Supervision of MCP connections with the real SDK: `tools/list_changed` from a live SDK server updates the catalog,
 * a call past its timeout is cancelled with one sentence, and stopping a server takes its tools away.
 */
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { DEFAULT_MCP_TIMEOUT_SECONDS, type McpServerConfig } from "../../../src/engine/mcp/mcp-config";
import { McpHub } from "../../../src/engine/mcp/mcp-hub";
import { McpCatalog } from "../../../src/tools/mcp/mcp-catalog";
import { ToolRegistry } from "../../../src/tools/registry";
import { realServers } from "../../helpers/mcp-servers";
import { createRequire } from "node:module";
import { fileURLToPath, pathToFileURL } from "node:url";

const tsx = pathToFileURL(createRequire(import.meta.url).resolve("tsx")).href;
const crashing = fileURLToPath(new URL("../../fixtures/mcp/crashing-server.ts", import.meta.url));

const until = async (what: () => boolean, ms = 10_000): Promise<void> => {
  for (const end = Date.now() + ms; !what(); ) {
    if (Date.now() > end) throw new Error("timed out waiting");
    await new Promise((r) => setTimeout(r, 20));
  }
};

describe("MCP supervision", () => {
  it("a server that adds and removes tools at run time (tools/list_changed) updates the registry", async () => {
    const server = new McpServer({ name: "live", version: "1.0.0" });
    server.registerTool("first", { description: "The first tool.", inputSchema: { q: z.string() } }, () => ({ content: [{ type: "text", text: "1" }] }));
    const config: McpServerConfig = { name: "live", enabled: true, transport: "stdio", command: "unused", disabledTools: [], timeoutSeconds: DEFAULT_MCP_TIMEOUT_SECONDS };
    const hub = new McpHub([config], {
      clientInfo: { name: "test", version: "0" },
      transport: () => {
        const [client, serverSide] = InMemoryTransport.createLinkedPair();
        void server.connect(serverSide);
        return client;
      },
    });
    const registry = new ToolRegistry();
    const changes: string[][] = [];
    registry.onChange((c) => changes.push([...c.added.map((n) => `+${n}`), ...c.removed.map((n) => `-${n}`)]));
    new McpCatalog(hub, registry);
    await hub.startAll();
    expect(registry.names()).toEqual(["mcp:live:first"]);
    const second = server.registerTool("secondTool", { description: "Added later.", inputSchema: { n: z.number() } }, () => ({ content: [] }));
    await until(() => registry.has("mcp:live:second_tool"));
    second.remove();
    await until(() => !registry.has("mcp:live:second_tool"));
    expect(registry.names()).toEqual(["mcp:live:first"]);
    await hub.close();
    expect(registry.names()).toEqual([]);
    expect(changes.flat()).toContain("+mcp:live:second_tool");
    expect(changes.flat()).toContain("-mcp:live:second_tool");
  });

  it("a call past the server's timeout is cancelled with one sentence", async () => {
    const everything = { ...realServers().configs[0], timeoutSeconds: 1 };
    const hub = new McpHub([everything], { clientInfo: { name: "test", version: "0" } });
    try {
      await hub.startAll();
      const started = Date.now();
      await expect(hub.callTool("everything", "trigger-long-running-operation", { duration: 20, steps: 20 })).rejects.toThrow(
        /^Tool trigger-long-running-operation on MCP server "everything" did not answer within 1 s; the call was cancelled\.$/,
      );
      expect(Date.now() - started).toBeLessThan(10_000);
      // The connection survives a timeout: the next call works.
      const sum = await hub.callTool("everything", "get-sum", { a: 1, b: 1 });
      expect(JSON.stringify(sum.content)).toContain("2");
    } finally {
      await hub.close();
    }
  });

  it("a server that keeps crashing is restarted with backoff, then left failed with one sentence", async () => {
    const config: McpServerConfig = {
      name: "crashing",
      enabled: true,
      transport: "stdio",
      command: process.execPath,
      args: ["--import", tsx, crashing],
      disabledTools: [],
      timeoutSeconds: DEFAULT_MCP_TIMEOUT_SECONDS,
    };
    const hub = new McpHub([config], { clientInfo: { name: "test", version: "0" }, backoffMs: [100, 200], maxRestarts: 2 });
    const states: string[] = [];
    hub.onChange(() => {
      const v = hub.servers()[0];
      const last = `${v.state}${v.restarting ? "+restarting" : ""}`;
      if (states.at(-1) !== last) states.push(last);
    });
    try {
      await hub.startAll();
      await until(() => hub.servers()[0].state === "failed" && !hub.servers()[0].restarting, 60_000);
      const view = hub.servers()[0];
      expect(view.reason).toBe('MCP server "crashing" stopped unexpectedly (it said: crashing on purpose); it failed 3 times in a row, so turn it off and on again in the settings to retry.');
      // Started, crashed and came back twice (each restart after its backoff), then gave up.
      expect(states.filter((s) => s === "ready")).toHaveLength(3);
      expect(states.filter((s) => s === "failed+restarting")).toHaveLength(2);
    } finally {
      await hub.close();
    }
  });
});
