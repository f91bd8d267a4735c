/**
 * Markdown sections: a heading and everything up to the next heading of the same or a higher level.
 * Used to read one part of a long note and to append under a heading.
 */

export interface Section {
  /** 0-based line of the heading. */
  headingLine: number;
  level: number;
  text: string;
  /** 0-based line after the section's last line. */
  end: number;
}

const HEADING = /^(#{1,6})[ \t]+(.*?)[ \t#]*$/;

/** Every heading, skipping fenced code blocks. */
export function headingsOf(text: string): { line: number; level: number; text: string }[] {
  const out: { line: number; level: number; text: string }[] = [];
  let fence = false;
  text.split("\n").forEach((raw, line) => {
    const l = raw.replace(/\r$/, "");
    if (/^\s*(```|~~~)/.test(l)) fence = !fence;
    if (fence) return;
    const m = HEADING.exec(l);
    if (m) out.push({ line, level: m[1].length, text: m[2].trim() });
  });
  return out;
}

/** The section under the heading (matched without `#`s, case-insensitively); null when absent. */
export function findSection(text: string, heading: string): Section | null {
  const wanted = normalize(heading);
  const heads = headingsOf(text);
  const idx = heads.findIndex((h) => normalize(h.text) === wanted);
  if (idx < 0) return null;
  const h = heads[idx];
  const next = heads.slice(idx + 1).find((x) => x.level <= h.level);
  return { headingLine: h.line, level: h.level, text: h.text, end: next ? next.line : text.split("\n").length };
}

function normalize(heading: string): string {
  return heading.replace(/^#+\s*/, "").trim().toLowerCase();
}

/** Appends `content` at the end of the note, or at the end of a heading's section (creating the heading when absent). */
export function appendText(text: string, content: string, heading?: string): string {
  const addition = content.replace(/\n+$/, "");
  if (!heading) {
    if (text === "") return `${addition}\n`;
    return `${text.replace(/\n*$/, "\n")}${addition}\n`;
  }
  const section = findSection(text, heading);
  if (!section) {
    const title = heading.replace(/^#+\s*/, "").trim();
    const base = text === "" ? "" : `${text.replace(/\n*$/, "\n")}\n`;
    return `${base}## ${title}\n${addition}\n`;
  }
  const lines = text.split("\n");
  let insertAt = section.end;
  // Keep blank lines that separate this section from the next one after the new text.
  while (insertAt > section.headingLine + 1 && lines[insertAt - 1].trim() === "") insertAt--;
  lines.splice(insertAt, 0, ...addition.split("\n"));
  return lines.join("\n");
}
