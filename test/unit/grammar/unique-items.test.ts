/**
 * uniqueItems over a finite item domain compiles to exactly "distinct values within minItems..maxItems"
 * (unique-arrays.ts), on the recognizer: generated finite item schemas × bounds, checked against ajv
 * (the gatekeeper's validator) on unique arrays and on arrays with a repeated value; and the cases
 * whose domain is unbounded or too large stay relaxed with their pointer.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { GbnfRecognizer, compileSchema, compileSchemaGrammar, type JsonSchema } from "../../../src/core/grammar";
import { validatorFor } from "./helpers/ajv";

/** A scalar a finite item domain may hold. */
const scalar = fc.oneof(
  fc.constantFrom("a", "b", "ab", "é", 'q"uote', "", "1"),
  fc.integer({ min: -3, max: 12 }),
  fc.constantFrom(true, false, null, 1.5),
);

/** An items schema whose language is a small finite set, written in the forms real schemas use. */
const finiteItems: fc.Arbitrary<Record<string, unknown>> = fc.letrec<{ items: Record<string, unknown> }>((tie) => ({
  items: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    fc.array(scalar, { minLength: 1, maxLength: 6 }).map((values) => ({ enum: values })),
    scalar.map((value) => ({ const: value })),
    fc.constantFrom<Record<string, unknown>>({ type: "boolean" }, { type: ["boolean", "null"] }, { type: "null" }),
    fc.tuple(fc.integer({ min: -2, max: 5 }), fc.integer({ min: 0, max: 5 }), fc.boolean()).map(([lo, width, exclusive]) =>
      exclusive ? { type: "integer", exclusiveMinimum: lo - 1, maximum: lo + width } : { type: "integer", minimum: lo, maximum: lo + width },
    ),
    fc.tuple(fc.array(scalar, { minLength: 1, maxLength: 5 }), fc.constantFrom("string", "integer")).map(([values, type]) => ({ type, enum: values })),
    fc.array(tie("items"), { minLength: 1, maxLength: 3 }).map((parts) => ({ anyOf: parts })),
    fc.array(tie("items"), { minLength: 1, maxLength: 3 }).map((parts) => ({ oneOf: parts })),
    fc.tuple(tie("items"), fc.constantFrom<Record<string, unknown>>({ type: "integer" }, { not: { const: 1 } }, { type: ["string", "boolean"] })).map(([a, b]) => ({ allOf: [a, b] })),
  ),
})).items;

/** Every value an items schema allows, drawn from the scalars the generator writes. */
function domainOf(items: JsonSchema): unknown[] {
  const ok = validatorFor(items);
  const pool: unknown[] = ["a", "b", "ab", "é", 'q"uote', "", "1", true, false, null, 1.5];
  for (let i = -3; i <= 12; i++) pool.push(i);
  return pool.filter((v) => ok(v));
}

const accepts = (r: GbnfRecognizer, v: unknown) => r.accepts(JSON.stringify(v));

describe("uniqueItems over a finite domain", () => {
  it("accepts exactly the arrays of distinct allowed values within minItems..maxItems", () => {
    fc.assert(
      fc.property(
        finiteItems,
        fc.nat({ max: 4 }),
        fc.option(fc.nat({ max: 6 }), { nil: undefined }),
        fc.array(fc.nat(), { maxLength: 12 }),
        (items, minItems, maxItems, picks) => {
          const schema: Record<string, unknown> = { type: "array", items, uniqueItems: true, minItems };
          if (maxItems !== undefined) schema.maxItems = maxItems;
          const valid = validatorFor(schema);
          const domain = domainOf(items);
          const result = compileSchema(schema);
          if (!result.ok) {
            // Refused only when no array qualifies: fewer distinct values than minItems.
            expect(result.refusal.message, JSON.stringify(schema)).toContain("no JSON value satisfies");
            expect(domain.length < minItems || (maxItems !== undefined && maxItems < minItems), JSON.stringify(schema)).toBe(true);
            return;
          }
          // Up to 8 values always fit the automaton's budget (2^8 sets); past it the array may be relaxed.
          const relaxed = result.grammar.relaxations.length > 0;
          if (domain.length <= 8) expect(result.grammar.relaxations, JSON.stringify(schema)).toEqual([]);
          else if (relaxed) expect(result.grammar.relaxations.map((x) => x.keyword)).toContain("uniqueItems");
          const r = new GbnfRecognizer(result.grammar.gbnf);
          // Every distinct arrangement of up to 7 values read from the picks, and the same with one repeated.
          const order = [...new Set(picks.map((p) => (domain.length ? p % domain.length : 0)))].slice(0, 7);
          const distinct = order.map((i) => domain[i]);
          for (let len = 0; len <= distinct.length; len++) {
            const value = distinct.slice(0, len);
            expect(accepts(r, value), `${JSON.stringify(schema)} on ${JSON.stringify(value)}`).toBe(valid(value));
            if (relaxed) continue;
            if (len > 0) {
              const repeated = [...value, value[len - 1]];
              expect(valid(repeated)).toBe(false);
              if (!relaxed) expect(accepts(r, repeated), `${JSON.stringify(schema)} on ${JSON.stringify(repeated)}`).toBe(false);
            }
          }
          // A value outside the domain is refused in any position.
          expect(accepts(r, [...distinct.slice(0, 1), "outside"])).toBe(valid([...distinct.slice(0, 1), "outside"]));
        },
      ),
      { numRuns: 300, seed: 26 },
    );
  });

  it("accepts every distinct array of the bounds and no other, enumerated for a 5-value enum", () => {
    const values = ["x", "y", 3, true, null];
    const schema = { type: "array", items: { enum: values }, uniqueItems: true, minItems: 1, maxItems: 3 };
    const compiled = compileSchemaGrammar(schema);
    expect(compiled.relaxations).toEqual([]);
    const r = new GbnfRecognizer(compiled.gbnf);
    const valid = validatorFor(schema);
    let accepted = 0;
    // Every sequence of 0..4 values over the 5 (with repeats): 1 + 5 + 25 + 125 + 625.
    const walk = (prefix: unknown[]) => {
      const ok = accepts(r, prefix);
      expect(ok, JSON.stringify(prefix)).toBe(valid(prefix));
      if (ok) accepted++;
      if (prefix.length < 4) for (const v of values) walk([...prefix, v]);
    };
    walk([]);
    expect(accepted).toBe(5 + 20 + 60);
  });

  it("compiles an enum of 40 values with maxItems 2 exactly, and one of 40 without maxItems as relaxed", () => {
    const values = Array.from({ length: 40 }, (_, i) => `v${i}`);
    const bounded = compileSchemaGrammar({ type: "array", items: { type: "string", enum: values }, uniqueItems: true, maxItems: 2 });
    expect(bounded.relaxations).toEqual([]);
    const r = new GbnfRecognizer(bounded.gbnf);
    expect(accepts(r, ["v3", "v39"])).toBe(true);
    expect(accepts(r, ["v39", "v39"])).toBe(false);
    expect(accepts(r, ["v1", "v2", "v3"])).toBe(false);
    const open = compileSchemaGrammar({ type: "array", items: { type: "string", enum: values }, uniqueItems: true });
    expect(open.relaxations.map((x) => `${x.pointer} ${x.keyword}`)).toEqual([" uniqueItems"]);
  });

  it("treats uniqueItems with maxItems 1 as exact for any items", () => {
    const compiled = compileSchemaGrammar({ type: "array", items: { type: "string" }, uniqueItems: true, maxItems: 1 });
    expect(compiled.relaxations).toEqual([]);
    const r = new GbnfRecognizer(compiled.gbnf);
    expect(accepts(r, [])).toBe(true);
    expect(accepts(r, ["a"])).toBe(true);
    expect(accepts(r, ["a", "b"])).toBe(false);
  });

  it("keeps uniqueItems relaxed where the item domain is unbounded (strings, a string or an enum)", () => {
    for (const items of [{ type: "string" }, { anyOf: [{ type: "string" }, { enum: ["tabs", "history"] }] }, { type: "integer", minimum: 0 }, { type: "number", minimum: 0, maximum: 1 }]) {
      const compiled = compileSchemaGrammar({ type: "object", properties: { list: { type: "array", items, uniqueItems: true } } });
      expect(compiled.relaxations.map((x) => `${x.pointer} ${x.keyword}`)).toEqual(["/properties/list uniqueItems"]);
    }
  });
});
