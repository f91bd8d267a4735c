/**
 * Number bounds are compared on the parsed double (as ajv does), so a grammar for a ranged number must
 * accept a text exactly when the double it parses to is in range — at fractional boundaries, with
 * exclusive bounds, and where a text just outside the decimal bound still rounds onto it.
 */
import { describe, expect, it } from "vitest";
import { GbnfRecognizer, compileSchemaGrammar } from "../../../src/core/grammar";
import { validatorFor } from "./helpers/ajv";

const PLACES = 16;
const UNIT = 10n ** BigInt(PLACES);

/** A decimal text with at most 16 fraction digits for x / 10^16. */
function text(x: bigint): string {
  const negative = x < 0n;
  const digits = (negative ? -x : x).toString().padStart(PLACES + 1, "0");
  const frac = digits.slice(-PLACES).replace(/0+$/, "");
  const int = digits.slice(0, -PLACES);
  return `${negative ? "-" : ""}${int}${frac ? `.${frac}` : ""}`;
}

/** Texts around b: the double's own digits, then steps of every decimal place on both sides. */
function textsAround(b: number): string[] {
  const base = BigInt(b.toFixed(PLACES).replace(".", ""));
  const out = new Set<string>();
  for (let d = 0; d <= PLACES; d++) {
    const step = 10n ** BigInt(d);
    for (const k of [-3n, -2n, -1n, 0n, 1n, 2n, 3n]) out.add(text(base + k * step));
  }
  // The shortest texts of the neighbouring doubles, where they fit in 16 fraction digits.
  const view = new DataView(new ArrayBuffer(8));
  for (const dir of [-1n, 1n]) {
    view.setFloat64(0, b);
    for (let i = 0; i < 4; i++) {
      view.setBigUint64(0, view.getBigUint64(0) + (b >= 0 ? dir : -dir));
      const s = String(view.getFloat64(0));
      if (!/e/.test(s) && (s.split(".")[1]?.length ?? 0) <= PLACES) out.add(s);
    }
  }
  return [...out].filter((t) => t !== "-0" && Math.abs(Number(t)) < Number(UNIT));
}

const BOUNDS = [0.5, 0.1, 0.3, -0.5, -0.1, 2.675, 4.1, 1234567.1, 0.000123, 9007199254.740993, 1e-7, 0, 7];

describe("number bounds are exact on the parsed double", () => {
  for (const b of BOUNDS) {
    for (const keyword of ["minimum", "exclusiveMinimum", "maximum", "exclusiveMaximum"] as const) {
      it(`${keyword} ${b}: a text is accepted exactly when ajv accepts the number it parses to`, () => {
        const schema = { type: "number", [keyword]: b };
        const compiled = compileSchemaGrammar(schema);
        expect(compiled.relaxations).toEqual([]);
        const r = new GbnfRecognizer(compiled.gbnf);
        const validate = validatorFor(schema);
        const texts = textsAround(b);
        let valid = 0;
        for (const t of texts) {
          const ok = validate(JSON.parse(t));
          if (ok) valid++;
          if (r.accepts(t) !== ok) expect.fail(`${JSON.stringify(schema)}: "${t}" parses to ${Number(t)}, ajv says ${ok}, the grammar ${!ok}`);
        }
        // Both sides of the boundary were exercised.
        expect(valid).toBeGreaterThan(0);
        expect(valid).toBeLessThan(texts.length);
      });
    }
  }

  it("keeps a two-sided range with exclusive fractional bounds exact", () => {
    const schema = { type: "number", exclusiveMinimum: 0.1, exclusiveMaximum: 0.3 };
    const r = new GbnfRecognizer(compileSchemaGrammar(schema).gbnf);
    const validate = validatorFor(schema);
    for (const t of [...textsAround(0.1), ...textsAround(0.3)]) expect(r.accepts(t), t).toBe(validate(JSON.parse(t)));
  });
});
