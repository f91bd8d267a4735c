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
    expect(agrees({ type: "string", not: { minLength: 3 } }, ["ab", "abc", ""])).toBe(2);
    expect(agrees({ not: { type: "number", minimum: 0, maximum: 9 } }, [0, 9, 10, -1, 1.5, "a"])).toBe(3);
  });
});

describe("oneOf over overlapping or untyped branches", () => {
  it("proves string branches disjoint by their patterns and by the listed values", () => {
    expect(agrees({ oneOf: [{ type: "string", pattern: "^[a-z0-9_-]{0,8}$" }, { type: "string", pattern: "\\{\\{.*\\}\\}" }] }, ["ab-1", "{{ x }}", "a{{b}}c", "A", ""])).toBe(4);
    expect(agrees({ oneOf: [{ enum: ["none"] }, { type: "string", pattern: "^[0-9]+[sm]$" }, { type: "string", pattern: "^[0-9]+x$" }] }, ["none", "10s", "3x", "3", "nonex"])).toBe(3);
  });

  it("rejects a value that matches every untyped object branch (a number matches them all)", () => {
    const schema = {
      oneOf: [
        { additionalProperties: false, required: ["a"], properties: { a: { type: "integer" } } },
        { additionalProperties: false, required: ["b"], properties: { b: { type: "integer" } } },
      ],
    };
    expect(agrees(schema, [1, "s", null, { a: 1 }, { b: 1 }, { a: 1, b: 1 }, {}, { a: "x" }])).toBe(2);
  });

  it("negates a closed object inside another closed object by the keys only the other can have", () => {
    const schema = {
      oneOf: [
        { type: "object", additionalProperties: false, properties: { except: { type: "array", items: { type: "string" } } } },
        { type: "object", additionalProperties: false, properties: { only: { type: "array", items: { type: "string" } } } },
      ],
    };
    expect(agrees(schema, [{}, { except: ["a"] }, { only: [] }, { except: [], only: [] }, { except: [1] }, 1])).toBe(2);
  });

  it("negates a branch by a property whose values the other branch can never have", () => {
    const schema = {
      definitions: { event: { type: "string", enum: ["all", "changed"] } },
      oneOf: [{ properties: { events: { type: "array", items: { $ref: "#/definitions/event" } } } }, { properties: { events: { $ref: "#/definitions/event" } } }],
    };
    expect(agrees(schema, [{ events: ["all"] }, { events: "all" }, {}, { events: "other" }, { events: [1] }, 3])).toBe(2);
  });

  it("negates ranges and lengths keyword by keyword", () => {
    expect(agrees({ type: "integer", oneOf: [{ minimum: 5 }, { maximum: 10 }] }, [3, 5, 7, 10, 12])).toBe(2);
    // (Failing "integer" is no option inside the other integer branch.)
    expect(agrees({ oneOf: [{ type: "integer", minimum: 0 }, { type: "integer", maximum: 0 }] }, [-1, 0, 1, 1.5, "a"])).toBe(2);
    expect(agrees({ type: "string", oneOf: [{ minLength: 2 }, { maxLength: 3 }] }, ["a", "ab", "abc", "abcd"])).toBe(2);
    expect(agrees({ type: "array", items: { type: "integer" }, maxItems: 4, oneOf: [{ minItems: 2 }, { maxItems: 2 }] }, [[], [1], [1, 2], [1, 2, 3]])).toBe(3);
  });
});

describe("uniqueItems and patternProperties", () => {
  it("compiles uniqueItems over a short list of values exactly", () => {
    const schema = { type: "array", items: { type: "string", enum: ["a", "b", "c"] }, uniqueItems: true, minItems: 1 };
    expect(agrees(schema, [["a"], ["a", "b"], ["c", "b", "a"], ["a", "a"], [], ["a", "b", "c", "a"], ["d"]])).toBe(3);
    expect(agrees({ type: "array", items: { type: ["boolean", "null"] }, uniqueItems: true }, [[], [true, null], [false, true, null], [true, true], [null, null]])).toBe(3);
    expect(agrees({ type: "array", items: { enum: [{ k: 1, j: 2 }, { j: 2, k: 1 }, 3] }, uniqueItems: true }, [[{ k: 1, j: 2 }, 3], [{ k: 1, j: 2 }, { j: 2, k: 1 }]])).toBe(1);
  });

  it("gives extra keys the schema every pattern and additionalProperties share", () => {
    const value = { type: "object", properties: { url: { type: "string" } }, required: ["url"] };
    const schema = { type: "object", definitions: { v: value }, patternProperties: { "^[a-z]+$": { $ref: "#/definitions/v" } }, additionalProperties: { $ref: "#/definitions/v" } };
    expect(agrees(schema, [{ a: { url: "x" } }, { "A-1": { url: "x" } }, { a: {} }, { "A-1": 1 }, {}])).toBe(3);
  });
});

describe("extra keys beside patternProperties", () => {
  it("gives keys that match no pattern additionalProperties' schema, declared names excluded", () => {
    const schema = { type: "object", properties: { id: { type: "integer" } }, patternProperties: { "^x-": { type: "string" }, "^[0-9]+$": { type: "boolean" } }, additionalProperties: { type: "null" } };
    expect(agrees(schema, [{ "x-a": "s" }, { "12": true }, { other: null }, { id: 1 }, { "x-a": null }, { "12": null }, { other: "s" }, { id: null }, { x: null, "1a": null }])).toBe(5);
  });

  it("reads an unanchored one-class pattern as 'contains a character of the class'", () => {
    const schema = { type: "object", patternProperties: { "[a-z]{1,255}": { type: "string" } } };
    expect(agrees(schema, [{ ab: "s" }, { "1a2": "s" }, { "12": 3 }, { "--": [] }, { ab: 3 }, { "1a2": null }])).toBe(4);
  });

  it("negates a closed branch inside a branch that requires a key the closed one refuses", () => {
    const schema = {
      type: "array",
      items: {
        oneOf: [
          { properties: { firstName: { type: "string" }, age: { type: "integer" } }, required: ["firstName"] },
          { properties: { vehicle: { type: "string" }, price: { type: "integer" } }, additionalProperties: false },
        ],
      },
    };
    expect(agrees(schema, [[{ firstName: "a" }], [{ vehicle: "v", price: 1 }], [{}], [1], [{ firstName: "a", vehicle: "v" }], [{ firstName: 1 }]])).toBe(4);
  });
});

describe("propertyNames", () => {
  it("reads oneOf [listed names, a pattern they all match] as the pattern's keys without the listed ones", () => {
    const schema = { type: "object", additionalProperties: { type: "integer" }, propertyNames: { oneOf: [{ type: "string", enum: ["ab", "cd"] }, { type: "string", pattern: "^[a-z]+$" }] } };
    expect(agrees(schema, [{ xy: 1 }, { ab: 1 }, { cd: 1 }, { abc: 1 }, { A: 1 }, { xy: "s" }, {}])).toBe(3);
  });
});

describe("pattern beside format", () => {
  it("compiles a uri restricted to http(s) exactly", () => {
    expect(agrees({ type: "string", format: "uri", pattern: "^https?://" }, ["https://example.com/a?b#c", "http://x", "https:/x", "ftp://x", "https://a:80/p", "mailto:a@b"])).toBe(3);
  });
});

describe("patternProperties with a pattern outside the simple key forms", () => {
  it("writes extra keys by the pattern itself when no declared name matches it", () => {
    const schema = { type: "object", properties: { root: { type: "string" } }, patternProperties: { "^(/[^/]+)+$": { type: "string" } }, additionalProperties: false };
    expect(agrees(schema, [{ "/a": "x" }, { "/a/b": "y", root: "r" }, { "/": "x" }, { "a/b": "x" }, { "/a//b": "x" }, { "/a": 1 }, { root: "r" }])).toBe(3);
  });
});
