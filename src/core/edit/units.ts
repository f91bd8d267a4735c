/**
 * The quotable units of a region: its sentences and lines, each with its place. A proposal may only quote whole
 * units, so every quoted text is text of the region by construction, and the grammar stays linear in its size.
 */

/** One sentence (or line) of the region: `text` is `region.slice(from, to)`. */
export interface EditUnit {
  /** 0-based, in document order. */
  index: number;
  /** Offset in the region where the unit starts. */
  from: number;
  /** Offset where it ends (exclusive). */
  to: number;
  text: string;
}

/** Units longer than this are split at the last space before it, so no quote is unbounded. */
export const MAX_UNIT_CHARS = 400;

/** A sentence ends after `.`, `!`, `?`, `…` (and closing quotes or brackets) followed by white space. */
const SENTENCE_END = /[.!?…。！？]+["'”’)\]]*(?=\s)/g;

/** Splits a region into units: each line, split again at sentence ends; leading and trailing white space stays outside. */
export function splitUnits(region: string): EditUnit[] {
  const units: EditUnit[] = [];
  let lineStart = 0;
  while (lineStart <= region.length) {
    let lineEnd = region.indexOf("\n", lineStart);
    if (lineEnd < 0) lineEnd = region.length;
    const line = region.slice(lineStart, lineEnd);
    let pieceStart = 0;
    SENTENCE_END.lastIndex = 0;
    for (let m = SENTENCE_END.exec(line); m; m = SENTENCE_END.exec(line)) {
      const end = m.index + m[0].length;
      pushTrimmed(units, region, lineStart + pieceStart, lineStart + end);
      pieceStart = end;
    }
    pushTrimmed(units, region, lineStart + pieceStart, lineEnd);
    lineStart = lineEnd + 1;
  }
  return units;
}

function pushTrimmed(units: EditUnit[], region: string, from: number, to: number): void {
  while (from < to && /\s/.test(region[from])) from++;
  while (to > from && /\s/.test(region[to - 1])) to--;
  while (to - from > MAX_UNIT_CHARS) {
    let cut = region.lastIndexOf(" ", from + MAX_UNIT_CHARS);
    if (cut <= from) cut = from + MAX_UNIT_CHARS;
    // Never split a surrogate pair.
    if (/[\uD800-\uDBFF]/.test(region[cut - 1] ?? "")) cut++;
    pushTrimmed(units, region, from, cut);
    from = cut;
    while (from < to && /\s/.test(region[from])) from++;
  }
  if (to > from) units.push({ index: units.length, from, to, text: region.slice(from, to) });
}
