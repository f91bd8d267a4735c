/** Prints the grammar model as GBNF text that llama.cpp parses. */
import type { GbnfExpr, GbnfGrammar } from "./gbnf-ast";

function hex(cp: number, width: number): string {
  return cp.toString(16).toUpperCase().padStart(width, "0");
}

/** An escape llama.cpp's parser reads back as exactly this code point. */
function escapeCodePoint(cp: number): string {
  if (cp <= 0xff) return `\\x${hex(cp, 2)}`;
  if (cp <= 0xffff) return `\\u${hex(cp, 4)}`;
  return `\\U${hex(cp, 8)}`;
}

/** Printable ASCII passes through; quotes, backslashes, controls and non-ASCII are escaped, so the file stays ASCII. */
function literalChar(cp: number): string {
  if (cp === 0x22) return '\\"';
  if (cp === 0x5c) return "\\\\";
  if (cp >= 0x20 && cp < 0x7f) return String.fromCodePoint(cp);
  return escapeCodePoint(cp);
}

function classChar(cp: number): string {
  if (cp === 0x5d || cp === 0x5c || cp === 0x5e || cp === 0x2d || cp === 0x5b) return escapeCodePoint(cp);
  return literalChar(cp);
}

/** Text whose every character prints as itself (printable ASCII other than quote and backslash). */
const PLAIN = /^[\x20\x21\x23-\x5b\x5d-\x7e]*$/;

export function printLiteral(text: string): string {
  if (PLAIN.test(text)) return `"${text}"`;
  let out = '"';
  for (const ch of text) out += literalChar(ch.codePointAt(0)!);
  return out + '"';
}

function printClass(negated: boolean, ranges: Array<[number, number]>): string {
  let out = negated ? "[^" : "[";
  for (const [a, b] of ranges) out += a === b ? classChar(a) : `${classChar(a)}-${classChar(b)}`;
  return out + "]";
}

/** What follows a repeated item: `?`, `*`, `+` or a `{min,max}` count. */
function repeatSuffix(min: number, max: number): string {
  if (min === 0 && max === 1) return "?";
  if (min === 0 && max === Infinity) return "*";
  if (min === 1 && max === Infinity) return "+";
  if (max === Infinity) return `{${min},}`;
  if (min === max) return `{${min}}`;
  return `{${min},${max}}`;
}

/** Prints one expression; `atom` asks for parentheses around anything that is not a single element. */
export function printExpr(e: GbnfExpr, atom = false): string {
  const out: string[] = [];
  emit(e, atom, out);
  return out.join("");
}

/** Appends the pieces of one expression's text (joined once at the end: no string is built twice). */
function emit(e: GbnfExpr, atom: boolean, out: string[]): void {
  switch (e.kind) {
    case "literal":
      if (PLAIN.test(e.text)) out.push('"', e.text, '"');
      else out.push(printLiteral(e.text));
      return;
    case "class":
      out.push(printClass(e.negated, e.ranges));
      return;
    case "any":
      out.push(".");
      return;
    case "ref":
      out.push(e.name);
      return;
    case "seq": {
      const items = e.items;
      if (items.length === 0) {
        if (atom) out.push('""');
        return;
      }
      const group = atom && items.length > 1;
      if (group) out.push("(");
      for (let k = 0; k < items.length; k++) {
        if (k > 0) out.push(" ");
        emit(items[k], items[k].kind === "alt", out);
      }
      if (group) out.push(")");
      return;
    }
    case "alt": {
      if (atom) out.push("(");
      for (let k = 0; k < e.options.length; k++) {
        const o = e.options[k];
        if (k > 0) out.push(" | ");
        if (o.kind === "seq" && o.items.length === 0) out.push('""');
        else emit(o, false, out);
      }
      if (atom) out.push(")");
      return;
    }
    case "repeat":
      emit(e.item, true, out);
      out.push(repeatSuffix(e.min, e.max));
      return;
  }
}

/** The whole grammar, root first, one rule per line. */
export function printGbnf(grammar: GbnfGrammar): string {
  const lines: string[] = [];
  const root = grammar.rules.get(grammar.root);
  if (root) lines.push(`${grammar.root} ::= ${printExpr(root) || '""'}`);
  for (const [name, body] of grammar.rules) {
    if (name !== grammar.root) lines.push(`${name} ::= ${printExpr(body) || '""'}`);
  }
  return lines.join("\n") + "\n";
}
