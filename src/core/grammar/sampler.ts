/**
 * Random texts from a grammar's language (a random walk over the rules). Tests use it to check
 * soundness: every walk must be JSON the schema validates. Grammars must be non-recursive, which
 * every compiled grammar is.
 */
import type { GbnfExpr, GbnfGrammar } from "./gbnf-ast";
import { parseGbnf } from "./gbnf-parser";

/** Code points tried for negated classes and `.`: edges, escapes-relevant ASCII, and non-ASCII. */
const CANDIDATES = [
  0x20, 0x21, 0x22, 0x23, 0x2f, 0x30, 0x39, 0x41, 0x5a, 0x5c, 0x5f, 0x61, 0x7a, 0x7e, 0x7f, 0x80, 0xa0, 0xe9, 0x3b1, 0x4e2d,
  0x2028, 0xfeff, 0xffff, 0x1f600, 0x10ffff, 0x09, 0x0a, 0x00, 0x1f,
];

export interface SamplerOptions {
  /** Random number in [0, 1); defaults to Math.random. */
  random?: () => number;
  /** Chance of choosing a repetition count near the minimum rather than anywhere in range (default 0.7). */
  shortBias?: number;
}

export class GrammarSampler {
  private readonly grammar: GbnfGrammar;
  private readonly random: () => number;
  private readonly shortBias: number;

  constructor(grammar: GbnfGrammar | string, options: SamplerOptions = {}) {
    this.grammar = typeof grammar === "string" ? parseGbnf(grammar) : grammar;
    this.random = options.random ?? Math.random;
    this.shortBias = options.shortBias ?? 0.7;
  }

  /** One random text of the language. */
  sample(): string {
    const out: string[] = [];
    this.walk({ kind: "ref", name: this.grammar.root }, out, 0);
    return out.join("");
  }

  private int(lo: number, hi: number): number {
    return lo + Math.floor(this.random() * (hi - lo + 1));
  }

  private count(min: number, max: number): number {
    const r = this.random();
    const top = max === Infinity ? min + 8 : max;
    if (r < this.shortBias) return this.int(min, Math.min(top, min + 3));
    if (r < this.shortBias + 0.05) return top;
    return this.int(min, top);
  }

  private walk(e: GbnfExpr, out: string[], depth: number): void {
    if (depth > 200) throw new Error("The grammar is too deep (or recursive) to sample.");
    switch (e.kind) {
      case "literal":
        out.push(e.text);
        return;
      case "class":
        out.push(String.fromCodePoint(this.pickChar(e.ranges, e.negated)));
        return;
      case "any":
        out.push(String.fromCodePoint(this.pickChar([], true)));
        return;
      case "ref": {
        const body = this.grammar.rules.get(e.name);
        if (!body) throw new Error(`The grammar has no rule "${e.name}".`);
        this.walk(body, out, depth + 1);
        return;
      }
      case "seq":
        for (const i of e.items) this.walk(i, out, depth);
        return;
      case "alt":
        this.walk(e.options[this.int(0, e.options.length - 1)], out, depth);
        return;
      case "repeat": {
        const n = this.count(e.min, e.max);
        for (let k = 0; k < n; k++) this.walk(e.item, out, depth);
        return;
      }
    }
  }

  private pickChar(ranges: Array<[number, number]>, negated: boolean): number {
    const inside = (cp: number) => ranges.some(([a, b]) => cp >= a && cp <= b);
    const ok = (cp: number) => inside(cp) !== negated && !(cp >= 0xd800 && cp <= 0xdfff);
    if (!negated) {
      for (let tries = 0; tries < 20; tries++) {
        const [a, b] = ranges[this.int(0, ranges.length - 1)];
        const r = this.random();
        const cp = r < 0.2 ? a : r < 0.4 ? b : this.int(a, b);
        if (ok(cp)) return cp;
      }
    } else {
      for (let tries = 0; tries < 40; tries++) {
        const r = this.random();
        const cp = r < 0.5 ? this.int(0x20, 0x7e) : r < 0.8 ? CANDIDATES[this.int(0, CANDIDATES.length - 1)] : this.int(0, 0x10ffff);
        if (ok(cp)) return cp;
      }
    }
    for (let cp = 0; cp <= 0x10ffff; cp++) if (ok(cp)) return cp;
    throw new Error("A character class in the grammar matches nothing.");
  }
}
