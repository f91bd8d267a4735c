/**
 * Combinators compiled exactly where they used to be relaxed: each case asserts no relaxation and
 * agreement with ajv (for the schema's draft) on accepted and rejected values, written in the
 * grammar's key order.
 */
import { describe, expect, it } from "vitest";
import { GbnfRecognizer, compileSchemaGrammar, type JsonSchema } from "../../../src/core/grammar";
import { canonicalText } from "../../../src/core/grammar/canonical-text";
import { schemaValidator } from "../../../src/node/schema-validator";

/** Asserts the grammar is exact and agrees with ajv on every value; returns how many it accepted. */
function agrees(schema: JsonSchema, values: unknown[], options = {}): number {
  const compiled = compileSchemaGrammar(schema, options);
  expect(compiled.relaxations, JSON.stringify(compiled.relaxations)).toEqual([]);
  const r = new GbnfRecognizer(compiled.gbnf);
  const validate = schemaValidator(schema);
  let accepted = 0;
  for (const v of values) {
    const ok = canonicalText(r, v) !== null;
    expect(ok, `${JSON.stringify(schema)} on ${JSON.stringify(v)}`).toBe(validate(v));
    if (ok) accepted++;
  }
  return accepted;
}

describe("oneOf disjointness", () => {
  it("keeps a oneOf exact where a declared property also matches a pattern with the same oneOf", () => {
    const union = () => ({ oneOf: [{ $ref: "#/definitions/content" }, { $ref: "#/definitions/reference" }] });
    const schema = {
      definitions: {
        content: { type: "object", required: ["type", "version"], properties: { type: { type: "string" }, version: { type: "string" } } },
        reference: { type: "object", additionalProperties: false, required: ["type"], properties: { type: { enum: ["reference"] }, id: { type: "string" } } },
      },
      type: "object",
      properties: { basic: union() },
      patternProperties: { ".*": union() },
    };
    const accepted = agrees(schema, [
      { basic: { type: "story", version: "1" } },
      { basic: { type: "reference", id: "x" } },
      { basic: { type: "reference", version: "1" } },
      { basic: { type: "reference", id: "x", version: "1" } },
      { basic: {} },
      { other: { type: "reference" } },
      { other: { version: "1" } },
    ]);
    expect(accepted).toBe(5);
  });
});

describe("if/then/else", () => {
  it("compiles ifs that test one property against constants as one case per value", () => {
    const schema = {
      type: "object",
      properties: { type: { type: "string", enum: ["a", "b"] } },
      allOf: [
        { if: { properties: { type: { const: "a" } } }, then: { properties: { x: { type: "integer" } }, required: ["x"] } },
        { if: { properties: { type: { const: "b" } } }, then: { properties: { y: { type: "string" } } }, else: { properties: { y: false } } },
      ],
    };
    const accepted = agrees(schema, [
      { type: "a", x: 1 },
      { type: "a" },
      { type: "a", x: "s" },
      { type: "b", y: "s" },
      { type: "b", y: 1 },
      { type: "b" },
      { type: "a", x: 1, y: "s" },
      {},
      { x: 1 },
      { x: 1, y: "s" },
      { type: "c", x: 1 },
      "a",
    ]);
    expect(accepted).toBe(5);
  });

  it("compiles an anyOf of constant tests on a plain string, leaving the other values to the else", () => {
    const schema = {
      type: "object",
      required: ["kind"],
      properties: { kind: { type: "string", maxLength: 8 }, v: { type: "integer" } },
      allOf: [
        { if: { anyOf: [{ properties: { kind: { const: "m" } } }, { properties: { kind: { const: "p" } } }] }, then: { required: ["v"] } },
        { if: { properties: { kind: { const: "s" } } }, then: { properties: { v: false } }, else: { properties: { v: { minimum: 0 } } } },
      ],
    };
    const accepted = agrees(schema, [
      { kind: "m", v: 1 },
      { kind: "m" },
      { kind: "p", v: 2 },
      { kind: "p", v: -2 },
      { kind: "s" },
      { kind: "s", v: 1 },
      { kind: "other" },
      { kind: "other", v: 1 },
      { kind: "other", v: -1 },
      { kind: "mm", v: 0 },
      { kind: "" },
      { kind: "toolongvalue" },
    ]);
    expect(accepted).toBe(7);
  });

  it("compiles any other if whose negation is exact as (if and then) or (not if and else)", () => {
    const schema = {
      type: "object",
      properties: { a: { type: "integer" }, b: { type: "integer" }, c: { type: "integer" } },
      if: { required: ["a"] },
      then: { required: ["b"] },
      else: { required: ["c"] },
    };
    const accepted = agrees(schema, [{ a: 1, b: 2 }, { a: 1 }, { a: 1, c: 3 }, { c: 3 }, { b: 2 }, {}, { a: 1, b: 2, c: 3 }]);
    expect(accepted).toBe(3);
    expect(agrees({ if: { type: "string" }, then: { maxLength: 2 } }, ["ab", "abc", 123, null, ["abc"]])).toBe(4);
  });
});

describe("not", () => {
  it("leaves the listed strings, booleans and null out of a not {enum}", () => {
    expect(agrees({ type: "string", maxLength: 3, not: { enum: ["a", 'b"c', "ab\n"] } }, ["a", 'b"c', "ab\n", "ab", "", "abcd", "b", 'b"', "ab\t"])).toBe(5);
    expect(agrees({ type: ["boolean", "string", "null"], not: { enum: [true, "x", null] } }, [true, false, "x", "y", null, 1])).toBe(2);
    expect(agrees({ type: "object", properties: { k: { not: { const: "none" } } } }, [{ k: "none" }, { k: "some" }, { k: 1 }, { k: [] }, {}])).toBe(4);
  });
});
