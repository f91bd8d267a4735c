/** Reads an MCP configuration file (`{"mcpServers": {...}}`) for the CLI; problems are one sentence. */
import { existsSync, readFileSync } from "node:fs";
import { basename } from "node:path";
import { McpConfigError, parseMcpConfig, type McpServerConfig } from "../engine/mcp/mcp-config";

export function readMcpConfigFile(path: string): McpServerConfig[] {
  if (!existsSync(path)) throw new McpConfigError(`The MCP configuration file ${path} does not exist.`);
  return parseMcpConfig(readFileSync(path, "utf8"), `The MCP configuration ${basename(path)}`);
}
