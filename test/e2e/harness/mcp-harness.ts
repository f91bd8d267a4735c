/**
 * MCP servers for the browser harness: real SDK servers (McpServer) joined to the plugin's real SDK client by the
 * SDK's in-memory transport, since a browser cannot spawn processes. One server's command "does not exist".
 */
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { z } from "zod";
import type { McpServerConfig } from "../../../src/engine/mcp/mcp-config";

/** What the harness vault's settings hold: Claude-Desktop form. */
export const HARNESS_MCP_CONFIG = {
  mcpServers: {
    weather: { command: "weather-mcp" },
    files: { command: "files-mcp", args: ["/home/me/Sync"] },
    broken: { command: "no-such-mcp-server" },
  },
};

/** Files the "files" server holds (the delete tool removes from here). */
export const harnessFiles = new Set(["old-notes.txt", "budget-2025.csv", "trip-photos.zip"]);

function weather(): McpServer {
  const server = new McpServer({ name: "weather", version: "1.0.0" });
  server.registerTool(
    "get_forecast",
    {
      title: "Weather forecast",
      description: "Weather forecast for a city, up to seven days ahead.",
      inputSchema: { city: z.string().describe("City name"), days: z.number().int().min(1).max(7).describe("Days ahead") },
      annotations: { readOnlyHint: true },
    },
    ({ city, days }) => ({ content: [{ type: "text", text: `${city}: sunny, 24 °C, light wind for the next ${days} days.` }] }),
  );
  server.registerTool(
    "get_radar_image",
    { description: "Rain radar image of a region.", inputSchema: { region: z.string() }, annotations: { readOnlyHint: true } },
    () => ({ content: [{ type: "image", data: btoa("x".repeat(12 * 1024)), mimeType: "image/png" }] }),
  );
  return server;
}

function files(): McpServer {
  const server = new McpServer({ name: "files", version: "1.0.0" });
  server.registerTool(
    "list_files",
    { description: "Lists the files in the synced folder.", inputSchema: {}, annotations: { readOnlyHint: true } },
    () => ({ content: [{ type: "text", text: [...harnessFiles].join("\n") }] }),
  );
  server.registerTool(
    "delete_file",
    { description: "Deletes a file from the synced folder.", inputSchema: { path: z.string() }, annotations: { destructiveHint: true } },
    ({ path }) => {
      if (!harnessFiles.delete(path)) return { isError: true, content: [{ type: "text", text: `No file named ${path}.` }] };
      return { content: [{ type: "text", text: `Deleted ${path}.` }] };
    },
  );
  return server;
}

/** The transport the plugin's MCP client gets for a configured server. */
export function harnessMcpTransport(config: McpServerConfig): Transport {
  if (config.name === "weather" || config.name === "files") {
    const [client, server] = InMemoryTransport.createLinkedPair();
    void (config.name === "weather" ? weather() : files()).connect(server);
    return client;
  }
  // Any other command does not exist here, as spawn would report it.
  const missing = Object.assign(new Error(`spawn ${config.command ?? ""} ENOENT`), { code: "ENOENT" });
  return { start: () => Promise.reject(missing), send: async () => undefined, close: async () => undefined };
}
