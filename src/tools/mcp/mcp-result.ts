/**
 * A `tools/call` result as the model reads it: text and structured content as text, images, audio and other binary
 * content summarized ("[image, 12 KB]"), and `isError` turned into a refusal the recovery loop corrects.
 */
import { ToolRefusal } from "../../core/gatekeeper/refusal";
import type { ToolResult } from "../../core/protocol/tool";
import type { McpCallResult, McpContent } from "../../core/ports/mcp";

/** Characters of one result kept before the turn loop cuts it to its own result budget. */
const MAX_RESULT_CHARS = 20_000;

/** Decoded size of base64 text. */
export function base64Bytes(data: string): number {
  const clean = data.replace(/\s+/g, "");
  const padding = clean.endsWith("==") ? 2 : clean.endsWith("=") ? 1 : 0;
  return Math.max(0, Math.floor((clean.length * 3) / 4) - padding);
}

function size(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/** One content piece as text. */
export function contentText(piece: McpContent): string {
  const p = piece as Record<string, unknown>;
  switch (piece.type) {
    case "text":
      return typeof p.text === "string" ? p.text : "";
    case "image":
    case "audio":
      return `[${piece.type}, ${size(base64Bytes(typeof p.data === "string" ? p.data : ""))}${typeof p.mimeType === "string" ? `, ${p.mimeType}` : ""}]`;
    case "resource": {
      const r = (p.resource ?? {}) as { uri?: string; mimeType?: string; text?: string; blob?: string };
      if (typeof r.text === "string") return `[resource ${r.uri ?? ""}]\n${r.text}`;
      return `[binary resource ${r.uri ?? ""}, ${size(base64Bytes(r.blob ?? ""))}${r.mimeType ? `, ${r.mimeType}` : ""}]`;
    }
    case "resource_link":
      return `[link ${typeof p.name === "string" ? `${p.name} ` : ""}${typeof p.uri === "string" ? p.uri : ""}]`;
    default:
      return `[${piece.type} content]`;
  }
}

/** The result for the model; throws a ToolRefusal (code tool_error) for an `isError` result. */
export function mcpResult(result: McpCallResult, where: { server: string; tool: string; name: string }): ToolResult {
  const parts = (result.content ?? []).map(contentText).filter((t) => t !== "");
  if (result.structuredContent !== undefined) {
    const json = JSON.stringify(result.structuredContent);
    // Servers often send the structured value as text too; say it once.
    const said = parts.join("\n");
    if (!parts.some((t) => t.trim() === json || safeEqualJson(t, result.structuredContent)) && !leaves(result.structuredContent).every((v) => said.includes(v))) parts.push(json);
  }
  let text = parts.join("\n");
  if (text.length > MAX_RESULT_CHARS) text = `${text.slice(0, MAX_RESULT_CHARS)}\n[…${text.length - MAX_RESULT_CHARS} more characters not shown]`;
  if (result.isError) {
    const said = text.trim() || "no details";
    throw new ToolRefusal(
      "tool_error",
      `MCP server "${where.server}" reported an error from ${where.tool}: ${said.slice(0, 600)}${/[.!?]$/.test(said) ? "" : "."} Correct the arguments or choose another tool.`,
      where.name,
    );
  }
  return { content: text || "(the tool returned nothing)", data: result, ...(parts.length === 0 ? { empty: true } : {}) };
}

function safeEqualJson(text: string, value: unknown): boolean {
  try {
    return JSON.stringify(JSON.parse(text)) === JSON.stringify(value);
  } catch {
    return false;
  }
}

/** The scalar values in a JSON value, as text (what a text rendering of it would show). */
function leaves(value: unknown, out: string[] = []): string[] {
  if (value === null || value === undefined) return out;
  if (typeof value === "object") {
    for (const v of Array.isArray(value) ? value : Object.values(value as Record<string, unknown>)) leaves(v, out);
  } else if (typeof value === "string" || typeof value === "number" || typeof value === "boolean") {
    out.push(String(value));
  }
  return out;
}
