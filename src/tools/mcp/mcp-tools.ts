/**
 * MCP tools as registered tools: `mcp:<server>:<tool>` with the server's description for the router and its
 * `inputSchema` compiled by the grammar compiler. Each tool's compilation is reported (exact, relaxed with the places,
 * or refused with the reason: a refused tool is left out and the others work).
 */
import * as z from "zod";
import { compileSchema, type GrammarOptions } from "../../core/grammar";
import type { JsonSchema } from "../../core/protocol/registry";
import type { ToolDefinition, ToolEffect } from "../../core/protocol/tool";
import { defineTool } from "../define-tool";
import { ToolRegistry } from "../registry";
import type { McpToolHost, McpToolInfo } from "../../core/ports/mcp";
import { outsideData } from "../outside-data";
import { mcpResult } from "./mcp-result";
import { mcpToolName, namePart, uniqueParts } from "./mcp-tool-name";

/** How one tool's schema compiled. */
export interface McpToolReport {
  server: string;
  /** The tool's name on the server. */
  tool: string;
  /** The registered name. */
  name: string;
  /** "exact": the grammar admits exactly the schema's values; "relaxed": looser in the places listed; "refused": left out. */
  status: "exact" | "relaxed" | "refused";
  /** Relaxed: `pointer keyword: what was done`; refused: the one reason. */
  details: string[];
  effect: ToolEffect;
  /** The server marks the tool destructive. */
  destructive: boolean;
}

/** Characters of a server's description kept for the prompt and the router (some servers send pages). */
const MAX_DESCRIPTION = 400;

/** The effect policy: effectful unless the server says `readOnlyHint: true`; destructive unless it says otherwise. */
export function mcpEffect(tool: McpToolInfo): { effect: ToolEffect; destructive: boolean } {
  const a = tool.annotations ?? {};
  if (a.readOnlyHint === true) return { effect: "read", destructive: false };
  // MCP's default for destructiveHint is true when the tool is not read-only.
  const destructive = a.destructiveHint !== false;
  return { effect: destructive ? "destructive" : "write", destructive };
}

function shortDescription(tool: McpToolInfo, server: string): string {
  const text = (tool.description ?? tool.title ?? tool.annotations?.title ?? "").replace(/\s+/g, " ").trim();
  if (!text) return `The ${tool.name} tool of the MCP server ${server}.`;
  if (text.length <= MAX_DESCRIPTION) return text;
  const cut = text.slice(0, MAX_DESCRIPTION);
  const sentence = cut.lastIndexOf(". ");
  return sentence > 80 ? cut.slice(0, sentence + 1) : `${cut}…`;
}

/** Servers may omit `type: "object"` on a schema with properties; the registry needs it stated. */
function argsSchema(schema: JsonSchema | undefined): JsonSchema {
  const s = schema && typeof schema === "object" ? { ...schema } : {};
  if (s.type === undefined) s.type = "object";
  return s;
}

/**
 * How one tool's schema compiles on its own: the places the grammar is looser than the schema (`pointer keyword:
 * what it enforces instead`), or the compiler's refusal sentence (the tool is then left out).
 */
function compileDetails(schema: JsonSchema, options: GrammarOptions): { refused: string } | { relaxed: string[] } {
  const result = compileSchema(schema, options);
  if (!result.ok) return { refused: result.refusal.message };
  return { relaxed: result.grammar.relaxations.map((r) => `${r.pointer || "/"} ${r.keyword}: ${r.reason}`) };
}

export interface McpToolsInput {
  server: string;
  /** The server's part of the names (unique among servers). */
  serverPart: string;
  tools: readonly McpToolInfo[];
  /** Tools (by server name) the user turned off: neither registered nor reported as refused. */
  disabled?: readonly string[];
  host: McpToolHost;
  grammarOptions?: GrammarOptions;
}

/** Definitions for one server's tools, and how each compiled. */
export function mcpToolDefinitions(input: McpToolsInput): { definitions: ToolDefinition[]; reports: McpToolReport[] } {
  const { server, serverPart, host } = input;
  const parts = uniqueParts(input.tools.map((t) => t.name));
  const disabled = new Set(input.disabled ?? []);
  const definitions: ToolDefinition[] = [];
  const reports: McpToolReport[] = [];
  // A scratch registry runs the same checks (name, object schema, ajv compiles) the real one will.
  const scratch = new ToolRegistry();
  for (const tool of input.tools) {
    if (disabled.has(tool.name)) continue;
    const name = mcpToolName(serverPart, parts.get(tool.name) ?? namePart(tool.name));
    const { effect, destructive } = mcpEffect(tool);
    const schema = argsSchema(tool.inputSchema);
    const title = tool.title ?? tool.annotations?.title;
    const definition = defineTool({
      name,
      family: `mcp:${serverPart}`,
      description: shortDescription(tool, server),
      routingHints: [title, tool.name.replace(/[-_]+/g, " ").replace(/([a-z])([A-Z])/g, "$1 $2").toLowerCase(), `${server} ${tool.name}`].filter(
        (h): h is string => typeof h === "string" && h.length > 0,
      ),
      args: z.looseObject({}),
      inputSchema: schema,
      effect,
      origin: { kind: "mcp", server, tool: tool.name },
      async preview(args) {
        return {
          summary: `Run ${title ?? tool.name} on the MCP server "${server}"${destructive ? " (the server marks it destructive)" : ""}; what it changes outside the vault cannot be undone here`,
          preview: JSON.stringify(args, null, 2),
          previewKind: "text",
        };
      },
      async handler(args, ctx) {
        const result = await host.callTool(server, tool.name, args, { signal: ctx.signal });
        const answer = mcpResult(result, { server, tool: tool.name, name });
        return { ...answer, content: outsideData(`the MCP server “${server}”, tool ${tool.name}`, answer.content) };
      },
    });
    const report: McpToolReport = { server, tool: tool.name, name, status: "exact", details: [], effect, destructive };
    try {
      scratch.update([definition]);
      const compiled = compileDetails(schema, input.grammarOptions ?? {});
      if ("refused" in compiled) {
        report.status = "refused";
        report.details = [compiled.refused];
      } else {
        report.details = compiled.relaxed;
        report.status = report.details.length ? "relaxed" : "exact";
        definitions.push(definition);
      }
    } catch (err) {
      report.status = "refused";
      report.details = [err instanceof Error ? err.message : String(err)];
    }
    reports.push(report);
  }
  return { definitions, reports };
}

/** The notice for a refused tool: names the server, the tool and the reason. */
export function refusedNotice(report: McpToolReport): string {
  return `The tool ${report.tool} of the MCP server "${report.server}" was left out: ${report.details[0] ?? "its schema could not be compiled"}`;
}
