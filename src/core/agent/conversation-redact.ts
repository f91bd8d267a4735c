/**
 * Dropping a staged memory leaves no trace in the conversation: the fact's text is taken out of the history it
 * reached (the memory:save call that staged it, the raw reply, tool results, and later turn blocks whose prefetch
 * quoted it). What the user typed stays as typed: it is their message, removed only with the conversation.
 */
import type { StagedMemory } from "../protocol/staged-memory";
import type { Conversation, ConversationEntry } from "./conversation";

/** What a dropped fact's text becomes in the history. */
export const DROPPED_TEXT = "[dropped memory]";

function replaceAll(text: string, needles: readonly string[]): string {
  let out = text;
  for (const n of needles) if (n) out = out.split(n).join(DROPPED_TEXT);
  return out;
}

/** Strings in a JSON-like value with the needles replaced. */
function scrub(value: unknown, needles: readonly string[]): unknown {
  if (typeof value === "string") return replaceAll(value, needles);
  if (Array.isArray(value)) return value.map((v) => scrub(v, needles));
  if (value && typeof value === "object") return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, scrub(v, needles)]));
  return value;
}

function scrubEntry(entry: ConversationEntry, needles: readonly string[], escaped: readonly string[]): void {
  switch (entry.kind) {
    case "user":
      if (entry.turnBlock) entry.turnBlock = replaceAll(entry.turnBlock, needles);
      break;
    case "assistant":
      entry.envelope = scrub(entry.envelope, needles) as typeof entry.envelope;
      // The raw reply is JSON text: the fact appears there escaped.
      if (entry.text) entry.text = replaceAll(replaceAll(entry.text, escaped), needles);
      break;
    case "tool-results":
      for (const r of entry.results) r.content = replaceAll(r.content, needles);
      break;
  }
}

/** Takes dropped facts' texts (and titles, inside the calls that staged them) out of the conversation's history. */
export function redactDropped(conversation: Conversation, dropped: readonly StagedMemory[]): void {
  const texts = dropped.flatMap((m) => [m.content, m.original ?? ""]).filter((t) => t.length >= 3);
  const titles = dropped.map((m) => m.title ?? "").filter((t) => t.length >= 3);
  if (texts.length === 0) return;
  // Longest first, so a fact that contains another is replaced whole.
  const needles = [...new Set(texts)].sort((a, b) => b.length - a.length);
  const escaped = needles.map((t) => JSON.stringify(t).slice(1, -1)).filter((t, i) => t !== needles[i]);
  for (const entry of conversation.entries as ConversationEntry[]) {
    scrubEntry(entry, needles, escaped);
    if (entry.kind === "assistant" && titles.length) {
      for (const call of entry.envelope.tool_calls) {
        const args = call.args as Record<string, unknown> | undefined;
        if (call.name === "memory:save" && args && typeof args.title === "string" && titles.includes(args.title)) args.title = DROPPED_TEXT;
      }
      if (entry.text) entry.text = replaceAll(entry.text, titles.map((t) => JSON.stringify(t).slice(1, -1)));
    }
  }
}
