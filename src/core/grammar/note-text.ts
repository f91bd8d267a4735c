/**
 * The texts a `find` argument may take from one note, as GBNF: any run of whole tokens within a line (a token is a
 * word or a run of punctuation; a run starts and ends at a token, the whitespace between tokens exact), or one to
 * three whole consecutive lines.
 * Every admitted text occurs in the note exactly as written, so a grounded edit cannot miss. The grammar is linear in
 * the note: one rule per token (the whitespace before it and its text, then optionally the next token's rule), and a start rule that
 * is a prefix tree over the first tokens, so generation stays deterministic character by character.
 */
import { alt, lit, opt, ref, seq, type GbnfExpr } from "./gbnf-ast";
import { printExpr } from "./gbnf-printer";
import { literalChoice, type LiteralBranch } from "./literal-choice";
import { jsonContent, utf8Bytes } from "./vault-paths";

/** Rule names of note texts start with this. */
export const NOTE_TEXT_RULE_PREFIX = "vnt-";
/** A word (letters, digits, marks, underscore), a run of whitespace, or a run of other characters (punctuation). */
const TOKENS = /[\p{L}\p{N}\p{M}_]+|\s+|[^\p{L}\p{N}\p{M}_\s]+/gu;
/** Lines spanned by a whole-line run. */
const MAX_RUN_LINES = 3;
/** Notes longer than this (characters) are not grounded: their grammar would be too large. */
export const MAX_GROUNDED_NOTE_CHARS = 200_000;

/** GBNF rules admitting the texts a `find` may take from `text`, at most `maxChars` long; null when there are none. */
export function noteTextRules(text: string, name: string, maxChars: number): { root: string; text: string; maxBytes: number } | null {
  if (text.length > MAX_GROUNDED_NOTE_CHARS) return null;
  const lines = text.split("\n");
  const out: string[] = [];
  const starts: LiteralBranch[] = [];
  let maxBytes = 0;
  let count = 0;
  lines.forEach((line, i) => {
    if (line.length > maxChars || line.trim() === "") return;
    // Tokens (words, punctuation runs) with the whitespace before each: one rule per token, `ws token next?`.
    const tokens: { ws: string; tok: string }[] = [];
    let ws = "";
    for (const t of line.match(TOKENS) ?? []) {
      if (t.trim() === "") ws = t;
      else {
        tokens.push({ ws, tok: t });
        ws = "";
      }
    }
    const names = tokens.map(() => `${NOTE_TEXT_RULE_PREFIX}${name}-${(count++).toString(36)}`);
    tokens.forEach((t, k) => {
      const next = k + 1 < tokens.length ? opt(ref(names[k + 1])) : lit("");
      if (k > 0) out.push(`${names[k]} ::= ${printExpr(seq(lit(jsonContent(t.ws + t.tok)), next))}`);
      // A text starts at any token (never at whitespace); trailing whitespace of the line is left out.
      starts.push({ text: jsonContent(t.tok), then: next });
    });
    // Whole lines, one to three, within maxChars.
    let run = line;
    const more: string[] = [];
    for (let j = i + 1; j < Math.min(lines.length, i + MAX_RUN_LINES); j++) {
      if (run.length + 1 + lines[j].length > maxChars) break;
      run += "\n" + lines[j];
      more.push(jsonContent("\n" + lines[j]));
    }
    // The longest text starting in this line is the line itself or its longest run.
    maxBytes = Math.max(maxBytes, utf8Bytes(jsonContent(run)));
    let tail: GbnfExpr = lit("");
    for (let m = more.length - 1; m >= 0; m--) tail = opt(seq(lit(more[m]), tail));
    starts.push({ text: jsonContent(line), then: tail });
  });
  if (starts.length === 0) return null;
  const root = `${NOTE_TEXT_RULE_PREFIX}${name}`;
  out.unshift(`${root} ::= ${printExpr(alt(literalChoice(starts)))}`);
  return { root, text: out.join("\n") + "\n", maxBytes };
}
