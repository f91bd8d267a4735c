/**
 * An edit proposal: the model's reply read against its region, turned into word-level changes of the note. Changes
 * are computed against the region's original text, so each applies by construction; applying a chosen subset is
 * plain splicing from the end.
 */
import { splitUnits, type EditUnit } from "./units";
import { wordDiff } from "./word-diff";

/** Where the edit happens: `note.slice(from, to)` is the region. */
export interface EditTarget {
  /** The whole note's text. */
  note: string;
  from: number;
  to: number;
}

/** One change the user accepts or rejects: `note.slice(from, to)` becomes `insert`. */
export interface EditChange {
  /** 1-based, in document order (the CLI's `--apply 1,3`). */
  id: number;
  /** Offsets in the note. */
  from: number;
  to: number;
  /** The original text it replaces (`note.slice(from, to)`; empty for a pure insertion). */
  deleted: string;
  insert: string;
}

/** What the model replied, read. */
export type EditReply = { edits: { find: string; replace: string }[] } | { rewrite: string };

export interface EditProposal {
  target: EditTarget;
  /** The region as the model would leave it. */
  proposed: string;
  changes: EditChange[];
}

/** A reply that is not what the grammar allows (only a model run without the grammar can produce one). */
export class EditReplyError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "EditReplyError";
  }
}

/** Reads a reply's JSON; throws EditReplyError with a sentence when it is not an edit proposal. */
export function parseEditReply(text: string): EditReply {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new EditReplyError("The model's reply is not complete JSON (it may have run out of tokens), so no change was proposed.");
  }
  const v = value as Record<string, unknown>;
  if (typeof v?.rewrite === "string") return { rewrite: v.rewrite };
  if (Array.isArray(v?.edits) && v.edits.every((e: unknown) => typeof (e as { find?: unknown })?.find === "string" && typeof (e as { replace?: unknown })?.replace === "string")) {
    return { edits: v.edits as { find: string; replace: string }[] };
  }
  throw new EditReplyError("The model's reply is neither a list of edits nor a rewrite, so no change was proposed.");
}

/**
 * The region with the reply's edits made: each `find` is located at the first unit at or after the previous edit's
 * unit whose text it is (the grammar allows only such quotes). Throws EditReplyError for a quote that is not a unit
 * there (a reply made without the grammar).
 */
export function applyReply(region: string, units: EditUnit[], reply: EditReply): string {
  if ("rewrite" in reply) return reply.rewrite;
  let out = "";
  let at = 0;
  let unit = 0;
  for (const edit of reply.edits) {
    while (unit < units.length && units[unit].text !== edit.find) unit++;
    if (unit >= units.length) throw new EditReplyError(`The text "${edit.find.slice(0, 60)}" is not a sentence of the text to edit at that place, so the reply cannot apply.`);
    const u = units[unit++];
    out += region.slice(at, u.from) + edit.replace;
    at = u.to;
  }
  return out + region.slice(at);
}

/** The word-level changes that turn the region into `proposed`, as changes of the note. */
export function changesBetween(target: EditTarget, proposed: string): EditChange[] {
  const region = target.note.slice(target.from, target.to);
  return wordDiff(region, proposed).map((h, i) => ({
    id: i + 1,
    from: target.from + h.fromA,
    to: target.from + h.toA,
    deleted: region.slice(h.fromA, h.toA),
    insert: proposed.slice(h.fromB, h.toB),
  }));
}

/** A proposal from a complete reply. */
export function proposalFromReply(target: EditTarget, replyText: string, units = splitUnits(target.note.slice(target.from, target.to))): EditProposal {
  const region = target.note.slice(target.from, target.to);
  const proposed = applyReply(region, units, parseEditReply(replyText));
  return { target, proposed, changes: changesBetween(target, proposed) };
}

/** The note with the chosen changes made (by id); the others left as they were. */
export function applyChanges(note: string, changes: readonly EditChange[], chosen: ReadonlySet<number> | "all"): string {
  const picked = changes.filter((c) => chosen === "all" || chosen.has(c.id)).sort((a, b) => b.from - a.from);
  let out = note;
  for (const c of picked) {
    if (out.slice(c.from, c.to) !== c.deleted) throw new Error(`Change ${c.id} no longer matches the note.`);
    out = out.slice(0, c.from) + c.insert + out.slice(c.to);
  }
  return out;
}
