/**
 * multipleOf with a whole step: `type: number, multipleOf: 1` is compiled as integers, and a whole step
 * between two bounds with few multiples as the list of them; both exact, checked against ajv on every
 * integer and some fractions near the bounds. Other steps stay relaxed with their pointer.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { GbnfRecognizer, compileSchema } from "../../../src/core/grammar";
import { validatorFor } from "./helpers/ajv";

describe("multipleOf with a whole step", () => {
  it("accepts exactly the multiples within the bounds, as ajv does", () => {
    fc.assert(
      fc.property(
        fc.constantFrom("number", "integer"),
        fc.constantFrom(1, 2, 3, 5, 7, 10, 25),
        fc.option(fc.integer({ min: -60, max: 60 }), { nil: undefined }),
        fc.option(fc.integer({ min: 0, max: 120 }), { nil: undefined }),
        fc.boolean(),
        (type, step, low, width, exclusive) => {
          const schema: Record<string, unknown> = { type, multipleOf: step };
          if (low !== undefined) schema[exclusive ? "exclusiveMinimum" : "minimum"] = low;
          if (width !== undefined) schema.maximum = (low ?? 0) + width;
          const valid = validatorFor(schema);
          const result = compileSchema(schema);
          const values: number[] = [];
          for (let v = -200; v <= 200; v++) values.push(v);
          values.push(0.5, 1.5, -2.5, 10.25, 1e-7);
          if (!result.ok) {
            expect(result.refusal.message).toContain("no JSON value satisfies");
            expect(values.filter((v) => valid(v))).toEqual([]);
            return;
          }
          const bounded = low !== undefined && width !== undefined;
          const exact = step === 1 || bounded;
          expect(result.grammar.relaxations.length === 0, JSON.stringify(schema)).toBe(exact);
          if (!exact) expect(result.grammar.relaxations.map((x) => x.keyword)).toEqual(["multipleOf"]);
          const r = new GbnfRecognizer(result.grammar.gbnf);
          for (const v of values) {
            const accepted = r.accepts(JSON.stringify(v));
            if (exact) expect(accepted, `${JSON.stringify(schema)} on ${v}`).toBe(valid(v));
            else if (valid(v)) expect(accepted, `${JSON.stringify(schema)} on ${v}`).toBe(true);
          }
        },
      ),
      { numRuns: 200, seed: 26 },
    );
  });

  it("compiles the real `type: number, multipleOf: 1, minimum: 0` counters exactly", () => {
    const result = compileSchema({ type: "object", properties: { head: { type: "number", multipleOf: 1, minimum: 0 } } });
    if (!result.ok) throw new Error(result.refusal.message);
    expect(result.grammar.relaxations).toEqual([]);
    const r = new GbnfRecognizer(result.grammar.gbnf);
    expect(r.accepts('{"head":3}')).toBe(true);
    expect(r.accepts('{"head":3.5}')).toBe(false);
    expect(r.accepts('{"head":-1}')).toBe(false);
  });

  it("keeps a fractional step relaxed (ajv's division in doubles decides it)", () => {
    const result = compileSchema({ type: "object", properties: { api_version: { type: "number", multipleOf: 0.1 } } });
    if (!result.ok) throw new Error(result.refusal.message);
    expect(result.grammar.relaxations.map((x) => `${x.pointer} ${x.keyword}`)).toEqual(["/properties/api_version multipleOf"]);
  });
});
