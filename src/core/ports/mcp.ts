/**
 * What the MCP tool adapters need of the MCP client (src/engine/mcp implements it): the servers with their state
 * and tool lists, change events, and tool calls that honour cancellation.
 */
import type { JsonSchema } from "./json-schema";

/** Where a server is in its life. */
export type McpServerState = "stopped" | "starting" | "ready" | "failed";

/** A tool as the server lists it (`tools/list`). */
export interface McpToolInfo {
  name: string;
  title?: string;
  description?: string;
  inputSchema: JsonSchema;
  annotations?: {
    title?: string;
    readOnlyHint?: boolean;
    destructiveHint?: boolean;
    idempotentHint?: boolean;
    openWorldHint?: boolean;
  };
}

/** One server as the adapters and the settings see it. */
export interface McpServerView {
  /** The configured name. */
  name: string;
  enabled: boolean;
  state: McpServerState;
  /** Why it failed (one sentence), when `state` is "failed". */
  reason?: string;
  /** True while a restart after a crash is scheduled (its tools stay offered; a call waits for the restart). */
  restarting?: boolean;
  /** Its tools once ready (the last list it sent). */
  tools: McpToolInfo[];
  /** Tool names the user turned off. */
  disabledTools: string[];
}

/** One piece of a tool result (the MCP content types the adapters read). */
export type McpContent =
  | { type: "text"; text: string }
  | { type: "image"; data: string; mimeType: string }
  | { type: "audio"; data: string; mimeType: string }
  | { type: "resource"; resource: { uri: string; mimeType?: string; text?: string; blob?: string } }
  | { type: "resource_link"; uri: string; name?: string; mimeType?: string }
  | { type: string; [key: string]: unknown };

/** A `tools/call` result. */
export interface McpCallResult {
  content?: McpContent[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}

export interface McpToolHost {
  servers(): McpServerView[];
  /** Called after any server's state or tool list changed; returns the function that stops listening. */
  onChange(listener: () => void): () => void;
  /** Calls a tool (starting the server when needed); aborting sends cancellation to the server. */
  callTool(server: string, tool: string, args: Record<string, unknown>, options?: { signal?: AbortSignal }): Promise<McpCallResult>;
}
