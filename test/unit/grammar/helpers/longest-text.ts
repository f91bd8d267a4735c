/**
 * The longest text (in UTF-8 bytes) of a non-recursive grammar, built as a real derivation: every
 * repetition at its maximum, every alternation's longest option, every class's widest character.
 * Measured with Buffer.byteLength, independently of the compiler's own maxBytes computation, so a
 * test can check that maxBytes is reached by a text the grammar accepts and never undercounts it.
 */
import type { GbnfExpr, GbnfGrammar } from "../../../../src/core/grammar";

const isSurrogate = (cp: number) => cp >= 0xd800 && cp <= 0xdfff;
const bytes = (s: string) => Buffer.byteLength(s, "utf8");

/** The widest code point a class matches (prefers 4-byte, then 3, 2, 1). */
function widestChar(ranges: Array<[number, number]>, negated: boolean): string | null {
  const inside = (cp: number) => ranges.some(([a, b]) => cp >= a && cp <= b);
  const ok = (cp: number) => inside(cp) !== negated && !isSurrogate(cp);
  // Candidate code points: the top of every width band and every range edge.
  const candidates = [0x10ffff, 0x1f600, 0x10000, 0xfffd, 0xffff, 0x4e2d, 0x800, 0x7ff, 0xe9, 0x80, 0x7f, 0x7e, 0x41, 0x20];
  for (const [a, b] of ranges) candidates.push(a, b, a - 1, b + 1);
  let best: number | null = null;
  const width = (cp: number) => (cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4);
  for (const cp of candidates) {
    if (cp < 0 || cp > 0x10ffff || !ok(cp)) continue;
    if (best === null || width(cp) > width(best)) best = cp;
  }
  return best === null ? null : String.fromCodePoint(best);
}

export function longestText(grammar: GbnfGrammar): string {
  const memo = new Map<string, string>();
  const rule = (name: string, depth: number): string => {
    const known = memo.get(name);
    if (known !== undefined) return known;
    if (depth > 500) throw new Error("The grammar is recursive; it has no longest text.");
    const body = grammar.rules.get(name);
    if (!body) throw new Error(`The grammar has no rule "${name}".`);
    const text = expr(body, depth + 1);
    memo.set(name, text);
    return text;
  };
  const expr = (e: GbnfExpr, depth: number): string => {
    switch (e.kind) {
      case "literal":
        return e.text;
      case "class": {
        const c = widestChar(e.ranges, e.negated);
        if (c === null) throw new Error("A class matches nothing.");
        return c;
      }
      case "any":
        return "\u{10ffff}";
      case "ref":
        return rule(e.name, depth);
      case "seq":
        return e.items.map((i) => expr(i, depth)).join("");
      case "alt": {
        let best = "";
        let first = true;
        for (const o of e.options) {
          const t = expr(o, depth);
          if (first || bytes(t) > bytes(best)) best = t;
          first = false;
        }
        return best;
      }
      case "repeat": {
        if (e.max === Infinity) throw new Error("The grammar has an unbounded repetition.");
        return expr(e.item, depth).repeat(e.max);
      }
    }
  };
  return rule(grammar.root, 0);
}

/** Every repetition bound in the grammar (to check they are finite and below llama.cpp's 2000). */
export function repetitionBounds(grammar: GbnfGrammar): number[] {
  const out: number[] = [];
  const visit = (e: GbnfExpr): void => {
    if (e.kind === "seq") e.items.forEach(visit);
    else if (e.kind === "alt") e.options.forEach(visit);
    else if (e.kind === "repeat") {
      out.push(e.min, e.max);
      visit(e.item);
    }
  };
  for (const body of grammar.rules.values()) visit(body);
  return out;
}
