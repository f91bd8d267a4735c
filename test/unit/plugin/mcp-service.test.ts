/**
 * McpService where child processes cannot run (Obsidian mobile): an enabled stdio server is never started and
 * offers no tools, streamable HTTP servers still run, and the user is told once which local servers stay off.
 * The same configuration on desktop starts both (the control that shows the gate is what keeps stdio off).
 */
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import type { McpServerConfig } from "../../../src/engine/mcp/mcp-config";
import { McpService } from "../../../src/plugin/mcp/mcp-service";
import { DESKTOP_ONLY } from "../../../src/plugin/mobile/mobile-services";
import { DEFAULT_SETTINGS, type VaultAgentSettings } from "../../../src/plugin/settings/settings";

const settings: VaultAgentSettings = {
  ...DEFAULT_SETTINGS,
  mcpConfig: {
    mcpServers: {
      files: { command: "npx", args: ["-y", "some-filesystem-server", "/notes"] },
      remote: { type: "http", url: "http://127.0.0.1:3001/mcp" },
      "old-local": { command: "uvx", args: ["tool"], disabled: true },
    },
  },
};

/** A service whose transports are real SDK servers in memory; `started` lists every server a transport was made for. */
function service(stdioUnavailable: string | null): { mcp: McpService; started: string[]; notices: string[] } {
  const started: string[] = [];
  const notices: string[] = [];
  const transport = (config: McpServerConfig) => {
    started.push(`${config.name}:${config.transport}`);
    const server = new McpServer({ name: config.name, version: "1.0.0" });
    server.registerTool("lookup", { description: "Looks something up.", inputSchema: { q: z.string() } }, () => ({ content: [{ type: "text", text: "ok" }] }));
    const [client, serverSide] = InMemoryTransport.createLinkedPair();
    void server.connect(serverSide);
    return client;
  };
  const mcp = new McpService({ settings: () => settings, connection: { transport }, version: "0.1.0", notice: (m) => notices.push(m), stdioUnavailable });
  return { mcp, started, notices };
}

describe("McpService on a device without child processes", () => {
  it("never starts an enabled stdio server, runs the HTTP one, and says once which local servers stay off", async () => {
    const { mcp, started, notices } = service(DESKTOP_ONLY);
    try {
      expect(mcp.hub.servers().map((s) => s.name)).toEqual(["remote"]);
      await mcp.startAll();
      await mcp.startAll();
      expect(started).toEqual(["remote:http"]);
      expect(mcp.hub.servers()).toMatchObject([{ name: "remote", state: "ready", tools: [{ name: "lookup" }] }]);
      expect(mcp.localOnly).toEqual(["files"]);
      expect(notices).toEqual([
        'MCP server "files" runs a local command (stdio), which needs the desktop app, so it stays off on this device; streamable HTTP servers work here.',
      ]);
      await expect(mcp.hub.callTool("files", "lookup", { q: "x" })).rejects.toThrow(/not configured or is turned off/);
    } finally {
      await mcp.close();
    }
  });

  it("starts the same stdio server on desktop", async () => {
    const { mcp, started, notices } = service(null);
    try {
      await mcp.startAll();
      expect(started.sort()).toEqual(["files:stdio", "remote:http"]);
      expect(mcp.localOnly).toEqual([]);
      expect(notices).toEqual([]);
    } finally {
      await mcp.close();
    }
  });
});
