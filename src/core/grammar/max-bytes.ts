/** The longest UTF-8 text a grammar accepts, computed on the model (Infinity when unbounded or recursive). */
import type { GbnfExpr, GbnfGrammar } from "./gbnf-ast";

function utf8Width(cp: number): number {
  return cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
}

function utf8Length(text: string): number {
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

export function maxBytesOf(grammar: GbnfGrammar): number {
  const memo = new Map<string, number>();
  const visiting = new Set<string>();
  const ruleBytes = (name: string): number => {
    const known = memo.get(name);
    if (known !== undefined) return known;
    // A rule reached again while computing itself is recursive: its language is unbounded.
    if (visiting.has(name)) return Infinity;
    const body = grammar.rules.get(name);
    if (!body) return 0;
    visiting.add(name);
    const n = exprBytes(body);
    visiting.delete(name);
    memo.set(name, n);
    return n;
  };
  const exprBytes = (e: GbnfExpr): number => {
    switch (e.kind) {
      case "literal":
        return utf8Length(e.text);
      case "class":
        if (e.negated) return 4;
        return e.ranges.reduce((m, [, b]) => Math.max(m, utf8Width(b)), 0);
      case "any":
        return 4;
      case "ref":
        return ruleBytes(e.name);
      case "seq":
        return e.items.reduce((s, i) => s + exprBytes(i), 0);
      case "alt":
        return e.options.reduce((m, o) => Math.max(m, exprBytes(o)), 0);
      case "repeat": {
        const one = exprBytes(e.item);
        return one === 0 ? 0 : one * e.max;
      }
    }
  };
  return ruleBytes(grammar.root);
}
