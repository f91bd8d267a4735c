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
});
