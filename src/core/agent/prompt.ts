/**
 * Prompt assembly: a compact system prompt that describes the envelope and only the offered tools, and
 * the chat messages that replay a conversation's entries.
 */
import type { ChatMessage } from "../protocol/messages";
import type { RegisteredTool, JsonSchema } from "../protocol/registry";
import type { ConversationEntry, StoredToolResult } from "./conversation";

/** `{path: string, page?: integer, mode: "a"|"b"}` from a JSON Schema object. */
export function describeArgs(schema: JsonSchema): string {
  const props = (schema.properties ?? {}) as Record<string, Record<string, unknown>>;
  const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
  const parts = Object.entries(props).map(([key, prop]) => `${key}${required.has(key) ? "" : "?"}: ${describeType(prop)}`);
  return `{${parts.join(", ")}}`;
}

function describeType(prop: Record<string, unknown>): string {
  if (Array.isArray(prop.enum)) return prop.enum.map((v) => JSON.stringify(v)).join("|");
  if (prop.const !== undefined) return JSON.stringify(prop.const);
  if (Array.isArray(prop.anyOf)) return (prop.anyOf as Record<string, unknown>[]).map(describeType).join("|");
  if (prop.type === "array") return `${describeType((prop.items ?? {}) as Record<string, unknown>)}[]`;
  if (prop.type === "object") return "object";
  if (Array.isArray(prop.type)) return prop.type.join("|");
  return typeof prop.type === "string" ? prop.type : "any";
}

export interface SystemPromptInput {
  /** Offered tools (empty: chat only). */
  tools: RegisteredTool[];
  /** Prefetched memories (already budgeted), or "". */
  memories: string;
  /** Extra instructions. */
  instructions?: string;
  /** Today's date for relative dates ("today's daily note"). */
  today: string;
}

export function systemPrompt(input: SystemPromptInput): string {
  const lines = [
    "You are Vault Agent, an assistant inside the user's Obsidian vault of Markdown notes.",
    'Reply with exactly one JSON object: {"thought": string, "status": "Task"|"Reflect"|"Idle"|"Process", "message_to_user": string|null, "tool_calls": [{"name": tool, "args": {...}}]}.',
    'Use "Task" while calling tools, "Reflect" to check results with read tools, "Idle" when done (no tool calls). Paths are relative to the vault root, like "Projects/Alpha.md".',
    `Today is ${input.today}.`,
  ];
  if (input.tools.length === 0) {
    lines.push("No tools are available for this message: answer in message_to_user with an empty tool_calls list.");
  } else {
    lines.push("Tools you may call now:");
    for (const t of input.tools) lines.push(`- ${t.definition.name} ${describeArgs(t.schema)}: ${t.definition.description}`);
  }
  if (input.memories) lines.push("Relevant notes from memory:", input.memories);
  if (input.instructions) lines.push(input.instructions);
  return lines.join("\n");
}

/** The user message text, with attached notes after it. */
export function userText(entry: Extract<ConversationEntry, { kind: "user" }>): string {
  if (!entry.attachments?.length) return entry.content;
  const parts = [entry.content];
  for (const a of entry.attachments) parts.push(`\n[Attached note ${a.path}]\n${a.text}`);
  return parts.join("\n");
}

/** How tool results travel to the model: as a user message, so every chat template accepts them. */
export function resultsText(results: readonly StoredToolResult[], correction?: string): string {
  const lines = ["Tool results:"];
  for (const r of results) lines.push(`[${r.name}] ${r.ok ? "ok" : "refused"}:\n${r.content}`);
  if (correction) lines.push(`Correction: ${correction}`);
  return lines.join("\n");
}

/** The chat message one entry becomes. */
export function entryMessage(entry: ConversationEntry): ChatMessage {
  switch (entry.kind) {
    case "user":
      return { role: "user", content: userText(entry) };
    case "assistant":
      return { role: "assistant", content: JSON.stringify(entry.envelope) };
    case "tool-results":
      return { role: "user", content: resultsText(entry.results, entry.correction) };
  }
}
