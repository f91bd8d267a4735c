/**
 * The shape of every write tool: compute the note's new text from its current text, show that as a
 * diff (or as the content of a new note) for confirmation, then write it with compare-and-swap
 * against the very text the preview was computed from. If the user edits the note while the
 * confirmation is open, the write is refused as a conflict instead of overwriting their edit.
 */
import type { ToolContext, ToolPreview, ToolResult } from "../core/protocol/tool";
import { VaultError } from "../core/ports/vault";
import { diffStats, unifiedDiff } from "./line-diff";
import { ToolError } from "./tool-error";
import { wikilink } from "../core/text/wikilink";

/** One planned change to one note. */
export interface NoteChange {
  path: string;
  /** The text the plan was computed from; null when the note does not exist yet. */
  before: string | null;
  after: string;
}

/** Texts seen at preview time, keyed by the args object the gatekeeper passes to both preview and handler. */
const seenAtPreview = new WeakMap<object, string | null>();

export async function readOrNull(ctx: ToolContext, path: string): Promise<string | null> {
  try {
    return await ctx.vault.read(path);
  } catch (err) {
    if (err instanceof VaultError && err.code === "not_found") return null;
    throw err;
  }
}

/** Builds the confirmation preview and remembers what it was computed from. */
export function previewOf(args: object, change: NoteChange, verb: string): ToolPreview {
  seenAtPreview.set(args, change.before);
  if (change.before === null) {
    return { summary: `Create ${change.path} (${change.after.split("\n").length} lines)`, preview: change.after, previewKind: "content" };
  }
  const { added, removed } = diffStats(change.before, change.after);
  const parts = [added ? `+${added}` : "", removed ? `-${removed}` : ""].filter(Boolean).join(" ");
  return { summary: `${verb} ${change.path}${parts ? ` (${parts} lines)` : " (no change)"}`, preview: unifiedDiff(change.before, change.after, change.path), previewKind: "diff" };
}

/** The text to plan against: what the preview saw if there was one, else the note now. */
export async function baseText(args: object, ctx: ToolContext, path: string): Promise<string | null> {
  if (seenAtPreview.has(args)) return seenAtPreview.get(args) ?? null;
  return readOrNull(ctx, path);
}

/** Writes a planned change atomically; a concurrent edit becomes a ToolError "conflict". */
export async function applyChange(ctx: ToolContext, change: NoteChange): Promise<void> {
  try {
    if (change.before === null) await ctx.vault.create(change.path, change.after);
    else await ctx.vault.process(change.path, () => change.after, change.before);
  } catch (err) {
    if (err instanceof VaultError && (err.code === "conflict" || err.code === "exists" || err.code === "not_found")) {
      throw new ToolError(`${change.path} changed while this edit was waiting (${err.code === "conflict" ? "edited" : err.code === "exists" ? "created" : "deleted"} by someone else); nothing was written. Read it again and redo the edit.`, "conflict");
    }
    throw err;
  }
}

/** A short result after a write. */
export function changeResult(change: NoteChange, what: string): ToolResult {
  const stats = change.before === null ? { added: change.after.split("\n").length, removed: 0 } : diffStats(change.before, change.after);
  return { content: `${what} ${wikilink(change.path)} (+${stats.added} -${stats.removed} lines).`, data: { path: change.path, created: change.before === null, ...stats } };
}
