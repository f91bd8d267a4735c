/**
 * Keeping a proposal valid while the note changes under it: each change is mapped through what changed, and a
 * change whose text was touched is dropped (never applied over what the user wrote). The mapping's shape is
 * CodeMirror's ChangeDesc (mapPos, touchesRange), so the editor passes its transactions' changes as they are; headless
 * callers get one from two texts with textMapping.
 */
import type { EditChange } from "./proposal";
import { wordDiff } from "./word-diff";

/** What changed in a text, as positions: CodeMirror's ChangeDesc satisfies it. */
export interface PositionMapping {
  /** Where a position of the old text is in the new one; `assoc` < 0 keeps it before an insertion there. */
  mapPos(pos: number, assoc?: number): number;
  /** Whether any change touches (or borders) the range of the old text. */
  touchesRange(from: number, to?: number): boolean | "cover";
}

export interface RebaseResult {
  kept: EditChange[];
  /** Changes whose original text was changed meanwhile. */
  dropped: EditChange[];
}

export function rebaseChanges(changes: readonly EditChange[], mapping: PositionMapping): RebaseResult {
  const kept: EditChange[] = [];
  const dropped: EditChange[] = [];
  for (const c of changes) {
    if (mapping.touchesRange(c.from, c.to)) dropped.push(c);
    else kept.push({ ...c, from: mapping.mapPos(c.from, -1), to: mapping.mapPos(c.to, 1) });
  }
  return { kept, dropped };
}

/** One sentence for the changes a rebase dropped; null when none was. */
export function droppedSentence(dropped: number, left: number): string | null {
  if (dropped === 0) return null;
  const what = dropped === 1 ? "1 proposed change no longer applies" : `${dropped} proposed changes no longer apply`;
  return `${what} because the text under ${dropped === 1 ? "it" : "them"} changed, so ${dropped === 1 ? "it was" : "they were"} dropped; ${left === 0 ? "none is left" : `${left} ${left === 1 ? "is" : "are"} still proposed`}.`;
}

/** The mapping from one text to another, from their word-level differences. */
export function textMapping(before: string, after: string): PositionMapping {
  const hunks = wordDiff(before, after);
  return {
    mapPos(pos, assoc = -1) {
      let delta = 0;
      for (const h of hunks) {
        if (h.toA < pos || (h.toA === pos && (h.fromA < pos || assoc >= 0))) delta = h.toB - h.toA;
        else if (h.fromA < pos) return assoc < 0 ? h.fromB : h.toB;
        else break;
      }
      return pos + delta;
    },
    touchesRange(from, to = from) {
      return hunks.some((h) => h.fromA <= to && h.toA >= from);
    },
  };
}
