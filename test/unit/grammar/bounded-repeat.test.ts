/**
 * Long repetitions (maxLength, minItems above 1999) are rewritten because llama.cpp refuses a bound
 * of 2000 or more. The rewrite must keep the language (every count in [min, max], nothing else) and
 * stay unambiguous: each count has exactly one derivation, so llama.cpp never keeps two parses alive.
 */
import { describe, expect, it } from "vitest";
import { boundedRepeat } from "../../../src/core/grammar/bounded-repeat";
import { lit, type GbnfExpr } from "../../../src/core/grammar/gbnf-ast";

const ITEM = lit("x");
const isItem = (e: GbnfExpr) => e.kind === "literal" && e.text === "x";

/** derivations[n] = number of parse trees of "x" repeated n times (saturated at 2), for n ≤ limit. */
function derivations(e: GbnfExpr, limit: number): number[] {
  const zero = () => new Array<number>(limit + 1).fill(0);
  const sat = (v: number) => Math.min(v, 2);
  const conv = (a: number[], b: number[]) => {
    const out = zero();
    const nz = a.flatMap((v, i) => (v ? [i] : []));
    for (const i of nz) for (let j = 0; i + j <= limit; j++) if (b[j]) out[i + j] = sat(out[i + j] + a[i] * b[j]);
    return out;
  };
  switch (e.kind) {
    case "literal": {
      if (!isItem(e)) throw new Error(`unexpected literal ${e.text}`);
      const out = zero();
      out[1] = 1;
      return out;
    }
    case "seq":
      return e.items.reduce((acc, i) => conv(acc, derivations(i, limit)), [1, ...zero().slice(1)]);
    case "alt":
      return e.options.map((o) => derivations(o, limit)).reduce((a, b) => a.map((v, i) => sat(v + b[i])));
    case "repeat": {
      const out = zero();
      if (isItem(e.item)) {
        for (let n = e.min; n <= Math.min(e.max, limit); n++) out[n] = 1;
        return out;
      }
      if (e.max > 1) throw new Error("only optional groups of composite items are expected");
      const once = derivations(e.item, limit);
      return out.map((_, n) => sat((e.min === 0 && n === 0 ? 1 : 0) + once[n]));
    }
    default:
      throw new Error(`unexpected ${e.kind}`);
  }
}

function bounds(e: GbnfExpr): number[] {
  if (e.kind === "seq") return e.items.flatMap(bounds);
  if (e.kind === "alt") return e.options.flatMap(bounds);
  if (e.kind === "repeat") return [e.min, e.max === Infinity ? 0 : e.max, ...bounds(e.item)];
  return [];
}

describe("boundedRepeat", () => {
  const cases: Array<[number, number]> = [
    [0, 1999],
    [0, 2000],
    [0, 2001],
    [0, 2007],
    [0, 2008],
    [0, 5000],
    [1, 2000],
    [1999, 4000],
    [2500, 9000],
    [3000, 3000],
    [2000, Infinity],
  ];
  for (const [min, max] of cases) {
    it(`expresses x{${min},${max}} with every bound below 2000, each count derived exactly once`, () => {
      const e = boundedRepeat(ITEM, min, max);
      expect(Math.max(0, ...bounds(e))).toBeLessThan(2000);
      const limit = (max === Infinity ? min + 1500 : max) + 2;
      const d = derivations(e, limit);
      for (let n = 0; n <= limit; n++) {
        if (d[n] !== (n >= min && n <= max ? 1 : 0)) expect.fail(`x{${min},${max}}: ${n} copies have ${d[n]} derivations`);
      }
    });
  }

  it("detects an ambiguous expansion, so the checks above can fail", () => {
    const ambiguous: GbnfExpr = { kind: "seq", items: [boundedRepeat(ITEM, 0, 3), boundedRepeat(ITEM, 0, 3)] };
    expect(derivations(ambiguous, 8)[2]).toBe(2);
  });
});
