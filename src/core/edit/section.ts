/** The section of a Markdown note around an offset, or under a named heading: what an edit without a selection works on. */

/** A heading line of the note (outside code fences). */
interface HeadingLine {
  from: number;
  level: number;
  text: string;
}

export interface NoteSection {
  from: number;
  to: number;
  /** The heading's text; null for the part before the first heading. */
  heading: string | null;
}

function headings(note: string): { list: HeadingLine[]; bodyStart: number } {
  const list: HeadingLine[] = [];
  let bodyStart = 0;
  const fm = /^---\r?\n[^]*?\r?\n---[ \t]*(?:\r?\n|$)/.exec(note);
  if (fm) bodyStart = fm[0].length;
  let fence: string | null = null;
  let at = bodyStart;
  while (at < note.length) {
    let end = note.indexOf("\n", at);
    if (end < 0) end = note.length;
    const line = note.slice(at, end).replace(/\r$/, "");
    const fenceMark = /^\s{0,3}(`{3,}|~{3,})/.exec(line);
    if (fenceMark) {
      if (fence === null) fence = fenceMark[1][0];
      else if (fenceMark[1][0] === fence) fence = null;
    } else if (fence === null) {
      const h = /^(#{1,6})[ \t]+(.*?)[ \t#]*$/.exec(line);
      if (h) list.push({ from: at, level: h[1].length, text: h[2] });
    }
    at = end + 1;
  }
  return { list, bodyStart };
}

/** Trailing blank lines stay out of a section, so an edit does not reach into the next one. */
function trimEnd(note: string, from: number, to: number): number {
  while (to > from && /\s/.test(note[to - 1])) to--;
  return to;
}

/** The section holding `offset`: from its heading line to the next heading (any level), or the part before the first. */
export function sectionAt(note: string, offset: number): NoteSection {
  const { list, bodyStart } = headings(note);
  let from = bodyStart;
  let heading: string | null = null;
  let to = note.length;
  for (const h of list) {
    if (h.from <= offset) {
      from = h.from;
      heading = h.text;
    } else {
      to = h.from;
      break;
    }
  }
  return { from, to: trimEnd(note, from, to), heading };
}

/** The section under the heading whose text is `name` (case and surrounding spaces ignored); null when there is none. */
export function sectionByHeading(note: string, name: string): NoteSection | null {
  const wanted = name.replace(/^#+\s*/, "").trim().toLowerCase();
  const found = headings(note).list.find((h) => h.text.trim().toLowerCase() === wanted);
  return found ? sectionAt(note, found.from) : null;
}
