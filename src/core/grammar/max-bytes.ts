/** The longest UTF-8 text a grammar accepts, computed on the model (Infinity when unbounded or recursive). */
import type { GbnfExpr, GbnfGrammar } from "./gbnf-ast";

function utf8Width(cp: number): number {
  return cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
}

/** Text of ASCII characters only, one byte each. */
const ASCII = /^[^\u0080-\uffff]*$/;

function utf8Length(text: string): number {
  if (ASCII.test(text)) return text.length;
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      // A surrogate pair is one 4-byte code point.
      n += 4;
      i++;
    } else n += 3;
  }
  return n;
}

/** What one computation keeps: the grammar, each rule's length once known, the rules being computed. */
interface Walk {
  grammar: GbnfGrammar;
  memo: Map<string, number>;
  visiting: Set<string>;
}

// Plain functions over a state record rather than closures made per call: a closure's optimized code
// is lost once the closure is collected, and every compile would start it cold again.
export function maxBytesOf(grammar: GbnfGrammar): number {
  return ruleBytes({ grammar, memo: new Map(), visiting: new Set() }, grammar.root);
}

function ruleBytes(w: Walk, name: string): number {
  const known = w.memo.get(name);
  if (known !== undefined) return known;
  // A rule reached again while computing itself is recursive: its language is unbounded.
  if (w.visiting.has(name)) return Infinity;
  const body = w.grammar.rules.get(name);
  if (!body) return 0;
  w.visiting.add(name);
  const n = exprBytes(w, body);
  w.visiting.delete(name);
  w.memo.set(name, n);
  return n;
}

function exprBytes(w: Walk, e: GbnfExpr): number {
  switch (e.kind) {
    case "literal":
      return utf8Length(e.text);
    case "class": {
      if (e.negated) return 4;
      let m = 0;
      for (const [, b] of e.ranges) m = Math.max(m, utf8Width(b));
      return m;
    }
    case "any":
      return 4;
    case "ref":
      return ruleBytes(w, e.name);
    case "seq": {
      let s = 0;
      for (const i of e.items) s += exprBytes(w, i);
      return s;
    }
    case "alt": {
      let m = 0;
      for (const o of e.options) m = Math.max(m, exprBytes(w, o));
      return m;
    }
    case "repeat": {
      const one = exprBytes(w, e.item);
      return one === 0 ? 0 : one * e.max;
    }
  }
}
