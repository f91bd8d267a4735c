/**
 * A PDF page's text as lines, from pdf.js text items (each a run of glyphs with a position). Items follow the
 * content stream; a new line starts where pdf.js marks one or where the baseline moves by more than half a
 * glyph's height, and a space goes between two runs of one line when the gap between them is wider than a
 * fraction of the font size (PDFs often draw a word in pieces, and rarely draw the spaces between words).
 */

/** The part of a pdf.js text item this uses (`TextItem` in pdf.js's types). */
export interface PdfTextItem {
  str: string;
  /** [a, b, c, d, e, f]: scale and position of the run; e, f are x, y of its baseline start. */
  transform: number[];
  /** Width of the run in page units. */
  width: number;
  /** Height of the run in page units. */
  height: number;
  /** Whether pdf.js saw a line end after this run. */
  hasEOL?: boolean;
}

/** Gap between two runs, as a share of the font size, above which a space is put between them. */
const SPACE_GAP = 0.15;
/** Baseline shift, as a share of the font size, above which the next run is on a new line. */
const LINE_SHIFT = 0.5;

/** The page's text, one line per line, trimmed; "" when it has no text. */
export function pageLines(items: readonly unknown[]): string {
  const lines: string[] = [];
  let line = "";
  let prev: { x: number; y: number; end: number; size: number; vertical: boolean } | null = null;
  const breakLine = () => {
    const clean = line.replace(/[ \t\u00a0]+/g, " ").trim();
    if (clean !== "") lines.push(clean);
    line = "";
    prev = null;
  };
  for (const raw of items) {
    if (!isTextItem(raw)) continue;
    const item = raw;
    const [a, b, , , x, y] = item.transform;
    const size = Math.hypot(a, b) || item.height || 1;
    const vertical = Math.abs(b) > Math.abs(a);
    if (item.str === "") {
      if (item.hasEOL) breakLine();
      continue;
    }
    if (prev !== null) {
      const p: { x: number; y: number; end: number; size: number; vertical: boolean } = prev;
      const along = p.vertical ? y : x;
      const across = p.vertical ? x : y;
      const shift = Math.abs(across - (p.vertical ? p.x : p.y));
      const scale = Math.max(p.size, size);
      if (shift > LINE_SHIFT * scale || along < p.end - scale) breakLine();
      else if (along - p.end > SPACE_GAP * scale && !line.endsWith(" ") && !item.str.startsWith(" ")) line += " ";
    }
    line += item.str;
    const start = vertical ? y : x;
    prev = { x, y, end: start + (vertical ? -item.height : item.width), size, vertical };
    if (vertical) prev.end = start - item.height;
    if (item.hasEOL) breakLine();
  }
  breakLine();
  return joinHyphenated(lines).map(combineAccents).join("\n");
}

/**
 * A word broken at a line end ("exam-" / "ple") joined again, as pdftotext does: the hyphen goes when the next line
 * goes on in lower case, and the rest of that line follows on the joined line.
 */
function joinHyphenated(lines: string[]): string[] {
  const out: string[] = [];
  for (const line of lines) {
    const prev = out.length > 0 ? out[out.length - 1] : "";
    if (/\p{L}[-\u2010]$/u.test(prev) && /^\p{Ll}/u.test(line)) out[out.length - 1] = prev.slice(0, -1) + line;
    else out.push(line);
  }
  return out;
}

/** TeX draws an accent as its own glyph before the letter ("M´etro"): the two become one letter ("Métro"). */
const SPACING_ACCENTS: Record<string, string> = {
  "\u00b4": "\u0301",
  "\u00a8": "\u0308",
  "\u02c6": "\u0302",
  "\u02dc": "\u0303",
  "\u00b8": "\u0327",
  "\u02c7": "\u030c",
  "\u02d8": "\u0306",
  "\u02d9": "\u0307",
  "\u02da": "\u030a",
  "\u02dd": "\u030b",
  "\u00af": "\u0304",
};
const ACCENT_BEFORE_LETTER = /([\u00b4\u00a8\u02c6\u02dc\u00b8\u02c7\u02d8\u02d9\u02da\u02dd\u00af]) ?([A-Za-z\u0131])/g;

function combineAccents(line: string): string {
  if (!/[\u00b4\u00a8\u02c6\u02dc\u00b8\u02c7\u02d8\u02d9\u02da\u02dd\u00af]/.test(line)) return line;
  return line.replace(ACCENT_BEFORE_LETTER, (_, accent: string, letter: string) => `${letter === "\u0131" ? "i" : letter}${SPACING_ACCENTS[accent]}`.normalize("NFC"));
}

function isTextItem(value: unknown): value is PdfTextItem {
  const v = value as Partial<PdfTextItem> | null;
  return typeof v?.str === "string" && Array.isArray(v.transform) && typeof v.width === "number";
}
