/**
 * Prompt assembly. The "growing" layout (default) keeps the evaluated prefix of a conversation valid
 * from turn to turn: the system message is the same for every turn (envelope rules, persona, the
 * user's instructions), and what changes per turn — the offered tools with their argument summaries,
 * the prefetched memories, today's date — is the turn block, stored on the turn's user entry and sent
 * in that user message, so a past turn replays byte for byte. The "previous" layout (everything in
 * the system message, rebuilt per round) stays for side-by-side benchmarks.
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

/** Where the per-turn parts of the prompt travel (see the file comment). */
export type PromptLayout = "growing" | "previous";

const ENVELOPE_RULES = [
  "You are Vault Agent, an assistant inside the user's Obsidian vault of Markdown notes.",
  'Reply with exactly one JSON object: {"thought": string, "status": "Task"|"Reflect"|"Idle"|"Process", "message_to_user": string|null, "tool_calls": [{"name": tool, "args": {...}}]}.',
  'Use "Task" while calling tools, "Reflect" to check results with read tools, "Idle" when done (no tool calls). Paths are relative to the vault root, like "Projects/Alpha.md".',
];

function toolLines(tools: readonly RegisteredTool[]): string[] {
  if (tools.length === 0) return ["No tools are available for this message: answer in message_to_user with an empty tool_calls list."];
  return ["Tools you may call now:", ...tools.map((t) => `- ${t.definition.name} ${describeArgs(t.schema)}: ${t.definition.description}`)];
}

/** The previous layout's system prompt: rules, date, offered tools, memories and instructions, rebuilt every round. */
export function systemPrompt(input: SystemPromptInput): string {
  const lines = [...ENVELOPE_RULES, `Today is ${input.today}.`, ...toolLines(input.tools)];
  if (input.memories) lines.push("Relevant notes from memory:", input.memories);
  if (input.instructions) lines.push(input.instructions);
  return lines.join("\n");
}

/** The growing layout's system prompt: the same for every turn of a conversation (its evaluated state is kept per model). */
export function fixedSystemPrompt(instructions?: string): string {
  const lines = [...ENVELOPE_RULES, "Each user message starts with a turn block: today's date, the tools you may call for it and relevant notes from memory."];
  if (instructions) lines.push(instructions);
  return lines.join("\n");
}

/** What a turn block holds. */
export interface TurnBlockInput {
  /** Offered tools (empty: chat only). */
  tools: readonly RegisteredTool[];
  /** Prefetched memories (already budgeted), or "". */
  memories: string;
  /** Today's date. */
  today: string;
}

/** The per-turn part of the growing layout, sent before the user's message (the request stays nearest the reply). */
export function turnBlock(input: TurnBlockInput): string {
  const lines = [`Today is ${input.today}.`, ...toolLines(input.tools)];
  if (input.memories) lines.push("Relevant notes from memory:", input.memories);
  return lines.join("\n");
}

/** Summaries of turns that left the prompt, for the system message; the newest lines that fit `maxChars`. */
export function earlierTurnsText(summaries: readonly string[], maxChars: number): string {
  if (summaries.length === 0) return "";
  const kept: string[] = [];
  let used = 0;
  for (let i = summaries.length - 1; i >= 0; i--) {
    const line = `- ${summaries[i]}`;
    if (used + line.length + 1 > maxChars && kept.length > 0) break;
    kept.unshift(line);
    used += line.length + 1;
  }
  const left = summaries.length - kept.length;
  const head = left > 0 ? `Earlier in this conversation (${left} older turns not listed):` : "Earlier in this conversation:";
  return [head, ...kept].join("\n");
}

/** The user message text as sent: the turn block (growing layout), the message, attached notes, a correction. */
export function userText(entry: Extract<ConversationEntry, { kind: "user" }>): string {
  const parts = entry.turnBlock === undefined ? [entry.content] : [entry.turnBlock, `Message: ${entry.content}`];
  for (const a of entry.attachments ?? []) parts.push(`\n[Attached note ${a.path}]\n${a.text}`);
  if (entry.correction) parts.push(`Correction: ${entry.correction}`);
  return parts.join("\n");
}

/** How tool results travel to the model: as a user message, so every chat template accepts them. */
export function resultsText(results: readonly StoredToolResult[], correction?: string, offered?: string): string {
  const lines = ["Tool results:"];
  for (const r of results) lines.push(`[${r.name}] ${r.ok ? "ok" : "refused"}:\n${r.content}`);
  if (correction) lines.push(`Correction: ${correction}`);
  if (offered) lines.push(offered);
  return lines.join("\n");
}

/**
 * Tools a later round adds to the turn's offer, announced after the newest results (never in the turn block, which
 * was already sent: the evaluated prefix only grows).
 */
export function addedToolsText(tools: readonly RegisteredTool[]): string {
  return ["You may now also call:", ...tools.map((t) => `- ${t.definition.name} ${describeArgs(t.schema)}: ${t.definition.description}`)].join("\n");
}

/** The chat message one entry becomes. */
export function entryMessage(entry: ConversationEntry): ChatMessage {
  switch (entry.kind) {
    case "user":
      return { role: "user", content: userText(entry) };
    case "assistant":
      // The reply exactly as generated, so its tokens match what the engine's sequence holds.
      return { role: "assistant", content: entry.text ?? JSON.stringify(entry.envelope) };
    case "tool-results":
      return { role: "user", content: resultsText(entry.results, entry.correction, entry.offered) };
  }
}
