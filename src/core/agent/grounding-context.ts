/**
 * The notes in a conversation's context (read in it, attached, or the active note), which a round's grammar grounds
 * `heading` and `find` in, and which an edit must come from: recorded when seen, read again as they are now before
 * each round.
 */
import type { GroundingContext } from "../ports/agent";
import type { ToolDefinition } from "../protocol/tool";
import { resolveToolPath } from "../gatekeeper/grounding-policy";
import { MAX_GROUNDED_NOTES } from "../grammar/vault-grounding";
import type { TurnLoopInput } from "./turn";

/** Marks a note as seen now, with the text the agent saw (the most recent moves last). */
export function noteSeen(input: TurnLoopInput, path: string, text: string): void {
  input.conversation.notesSeen.delete(path);
  input.conversation.notesSeen.set(path, text);
}

/** At a turn's start: the attached notes and the active note are in context. */
export async function seeTurnNotes(input: TurnLoopInput): Promise<void> {
  if (!input.deps.vaultPaths) return;
  for (const a of input.attachments) noteSeen(input, a.path, a.text);
  const active = input.deps.toolContext.workspace?.activeNote();
  if (active && !input.attachments.some((a) => a.path === active.path)) {
    const text = await input.deps.toolContext.vault.read(active.path).catch(() => null);
    if (text !== null) noteSeen(input, active.path, text);
  }
}

/** The notes in context as they are now, most recent first; undefined when path args are not grounded. */
export async function groundingContext(input: TurnLoopInput): Promise<GroundingContext | undefined> {
  const { deps, conversation } = input;
  const paths = deps.vaultPaths;
  if (!paths?.ready || !input.options.grammar) return undefined;
  // Only tools with a heading or find arg read the notes in context.
  if (!deps.tools.list().some((t) => t.definition.noteArgs)) return { notes: [] };
  const notes: GroundingContext["notes"] = [];
  for (const path of [...conversation.notesSeen.keys()].reverse()) {
    if (notes.length >= MAX_GROUNDED_NOTES) break;
    if (!paths.has(path)) continue;
    const text = await deps.toolContext.vault.read(path).catch(() => null);
    if (text === null) continue;
    const meta = await deps.toolContext.vault.metadata(path).catch(() => null);
    notes.push({ path, text, headings: meta?.headings.map((h) => h.text) ?? [], keys: Object.keys(meta?.frontmatter ?? {}) });
  }
  return { notes };
}

/** The vault path a tool call's `path` arg reaches (resolved against the vault's paths when it can be). */
export function callNotePath(input: TurnLoopInput, value: unknown): string | null {
  if (typeof value !== "string" || value === "") return null;
  const paths = input.deps.vaultPaths;
  const resolved = paths ? resolveToolPath(paths, value) : null;
  if (resolved) return resolved;
  const name = value.split("/").pop() ?? value;
  return /\.(?:[A-Za-z0-9]{1,5}|canvas)$/.test(name) ? value : `${value}.md`;
}

/** After a call of a tool that reads or edits one note ran: the note, as it is now, is what the agent has seen. */
export async function afterNoteCall(input: TurnLoopInput, def: ToolDefinition, args: Record<string, unknown>): Promise<void> {
  if (!input.deps.vaultPaths || !def.noteArgs) return;
  const path = callNotePath(input, args.path);
  if (!path) return;
  const text = await input.deps.toolContext.vault.read(path).catch(() => null);
  if (text !== null) noteSeen(input, path, text);
}
