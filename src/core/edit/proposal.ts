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
 * The region with the reply's edits made. Each `find` is one of the region's units (the grammar allows nothing else);
 * it is placed at the first unit with that text after the previous edit's, else the first one not yet edited, else
 * (a unit quoted twice) it replaces that unit's earlier replacement. So every reply of the grammar applies, in any
 * order. Throws EditReplyError for a quote that is no unit (a reply made without the grammar).
 */
export function applyReply(region: string, units: EditUnit[], reply: EditReply): string {
  if ("rewrite" in reply) return reply.rewrite;
  const replaced = placeEdits(units, reply.edits);
  let out = "";
  let at = 0;
  for (const u of units) {
    const replacement = replaced.get(u.index);
    if (replacement === undefined) continue;
    out += region.slice(at, u.from) + replacement;
    at = u.to;
  }
  return out + region.slice(at);
}

/** Which unit each edit replaces (unit index → its new text); see applyReply. */
function placeEdits(units: EditUnit[], edits: { find: string; replace: string }[]): Map<number, string> {
  const byText = new Map<string, EditUnit[]>();
  for (const u of units) byText.set(u.text, [...(byText.get(u.text) ?? []), u]);
  const replaced = new Map<number, string>();
  let last = -1;
  for (const edit of edits) {
    const candidates = byText.get(edit.find);
    if (!candidates) throw new EditReplyError(`The text "${edit.find.slice(0, 60)}" is not a sentence or line of the text to edit, so the reply cannot apply.`);
    const unit =
      candidates.find((u) => u.index > last && !replaced.has(u.index)) ?? candidates.find((u) => !replaced.has(u.index)) ?? candidates[candidates.length - 1];
    replaced.set(unit.index, edit.replace);
    last = unit.index;
  }
  return replaced;
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
  const reply = parseEditReply(replyText);
  const proposed = applyReply(region, units, reply);
  return { target, proposed, changes: "edits" in reply ? unitChanges(target, units, placeEdits(units, reply.edits)) : changesBetween(target, proposed) };
}

/** The changes of edits, each unit compared with its replacement alone: the work grows with the edits, not the note. */
export function unitChanges(target: EditTarget, units: EditUnit[], replaced: Map<number, string>): EditChange[] {
  const changes: EditChange[] = [];
  for (const u of units) {
    const replacement = replaced.get(u.index);
    if (replacement === undefined) continue;
    const at = target.from + u.from;
    for (const h of wordDiff(u.text, replacement)) {
      changes.push({ id: changes.length + 1, from: at + h.fromA, to: at + h.toA, deleted: u.text.slice(h.fromA, h.toA), insert: replacement.slice(h.fromB, h.toB) });
    }
  }
  return changes;
}

/** The proposal of a reply read so far (the streaming preview): the completed edits, each unit diffed alone. */
export function editsProposal(target: EditTarget, units: EditUnit[], edits: { find: string; replace: string }[]): EditProposal {
  const region = target.note.slice(target.from, target.to);
  return { target, proposed: applyReply(region, units, { edits }), changes: unitChanges(target, units, placeEdits(units, edits)) };
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
