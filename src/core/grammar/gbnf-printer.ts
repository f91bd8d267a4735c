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

function printRepeat(item: string, min: number, max: number): string {
  if (min === 0 && max === 1) return `${item}?`;
  if (min === 0 && max === Infinity) return `${item}*`;
  if (min === 1 && max === Infinity) return `${item}+`;
  if (max === Infinity) return `${item}{${min},}`;
  if (min === max) return `${item}{${min}}`;
  return `${item}{${min},${max}}`;
}

/** Prints one expression; `atom` asks for parentheses around anything that is not a single element. */
export function printExpr(e: GbnfExpr, atom = false): string {
  return printUncached(e, atom);
}

function printUncached(e: GbnfExpr, atom: boolean): string {
  switch (e.kind) {
    case "literal":
      return printLiteral(e.text);
    case "class":
      return printClass(e.negated, e.ranges);
    case "any":
      return ".";
    case "ref":
      return e.name;
    case "seq": {
      const items = e.items;
      if (items.length === 0) return atom ? '""' : "";
      let body = printUncached(items[0], items[0].kind === "alt");
      for (let k = 1; k < items.length; k++) body += " " + printUncached(items[k], items[k].kind === "alt");
      return atom && items.length > 1 ? `(${body})` : body;
    }
    case "alt": {
      let body = "";
      for (let k = 0; k < e.options.length; k++) {
        const o = e.options[k];
        if (k > 0) body += " | ";
        body += o.kind === "seq" && o.items.length === 0 ? '""' : printUncached(o, false);
      }
      return atom ? `(${body})` : body;
    }
    case "repeat":
      return printRepeat(printUncached(e.item, true), e.min, e.max);
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
