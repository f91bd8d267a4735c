/**
 * One line per turn that left the prompt, so the model still knows what happened earlier in a long
 * conversation: what the user asked, which tools ran (and how many were refused), what was answered.
 */
import type { ConversationEntry } from "./conversation";

const ASK_CHARS = 80;
const REPLY_CHARS = 100;

function shorten(text: string, max: number): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length <= max ? flat : `${flat.slice(0, max - 1)}…`;
}

/** The summary line of one turn's entries (its user message first). */
export function summarizeTurn(entries: readonly ConversationEntry[]): string {
  const user = entries.find((e) => e.kind === "user");
  const calls = new Map<string, number>();
  let refused = 0;
  let reply: string | null = null;
  for (const e of entries) {
    if (e.kind === "tool-results") {
      for (const r of e.results) {
        calls.set(r.name, (calls.get(r.name) ?? 0) + 1);
        if (!r.ok) refused++;
      }
    } else if (e.kind === "assistant" && !e.placeholder && e.envelope.message_to_user) {
      reply = e.envelope.message_to_user;
    }
  }
  const parts = [`User: "${shorten(user?.kind === "user" ? user.content : "", ASK_CHARS)}"`];
  if (calls.size > 0) {
    const list = [...calls].map(([name, n]) => (n > 1 ? `${name} ×${n}` : name)).join(", ");
    parts.push(`tools: ${list}${refused > 0 ? ` (${refused} refused)` : ""}`);
  }
  parts.push(reply === null ? "no reply" : `replied: "${shorten(reply, REPLY_CHARS)}"`);
  return parts.join(" → ");
}
