/**
 * Real-world schema features: every draft's spelling, references anywhere, combinators beside other
 * keywords, exact forms of not/oneOf/dependencies/patternProperties, and the patterns that used to be
 * wrong. Each case agrees with ajv for the schema's own draft (src/node/schema-validator.ts).
 */
import { describe, expect, it } from "vitest";
import { GbnfRecognizer, GrammarRefusal, compileSchemaGrammar, type JsonSchema } from "../../../src/core/grammar";
import { canonicalText } from "../../../src/core/grammar/canonical-text";
import { schemaValidator } from "../../../src/node/schema-validator";

/** Asserts the grammar is exact and agrees with ajv on every value (written in the grammar's key order). */
function agrees(schema: JsonSchema, values: unknown[], options = {}) {
  const compiled = compileSchemaGrammar(schema, options);
  expect(compiled.relaxations, JSON.stringify(compiled.relaxations)).toEqual([]);
  const r = new GbnfRecognizer(compiled.gbnf);
  const validate = schemaValidator(schema);
  for (const v of values) expect(canonicalText(r, v) !== null, `${JSON.stringify(schema)} on ${JSON.stringify(v)}`).toBe(validate(v));
  return compiled;
}

describe("drafts", () => {
  it("reads draft-04 definitions, id and boolean exclusive bounds", () => {
    const schema = {
      $schema: "http://json-schema.org/draft-04/schema#",
      id: "http://example.com/root.json",
      type: "object",
      properties: { n: { $ref: "#/definitions/n" } },
      required: ["n"],
      definitions: { n: { type: "number", minimum: 0, exclusiveMinimum: true, maximum: 1, exclusiveMaximum: false } },
    };
    agrees(schema, [{ n: 0 }, { n: 0.5 }, { n: 1 }, { n: 1.5 }, {}]);
  });

  it("reads draft-07 tuple items with additionalItems", () => {
    const schema = { $schema: "http://json-schema.org/draft-07/schema#", type: "array", items: [{ type: "string" }, { type: "integer" }], additionalItems: false };
    agrees(schema, [["a", 1], ["a"], [], ["a", 1, 2], [1, "a"]]);
    agrees({ $schema: "http://json-schema.org/draft-07/schema#", type: "array", items: [{ type: "string" }], additionalItems: { type: "boolean" }, maxItems: 3 }, [["a", true, false], ["a", 1], ["a"]]);
  });

  it("applies keywords beside $ref in every draft, as ajv does", () => {
    const defs = { definitions: { s: { type: "string" } } };
    agrees({ $schema: "http://json-schema.org/draft-07/schema#", ...defs, $ref: "#/definitions/s", maxLength: 2 }, ["abc", "a", 1]);
    agrees({ $schema: "https://json-schema.org/draft/2020-12/schema", ...defs, $ref: "#/definitions/s", maxLength: 2 }, ["abc", "a", 1]);
  });

  it("resolves $ref through arrays, $id bases, anchors and fragment ids", () => {
    agrees({ type: "object", properties: { a: { anyOf: [{ type: "integer", minimum: 5 }, { type: "null" }] }, b: { $ref: "#/properties/a/anyOf/0" } } }, [{ b: 5 }, { b: 4 }, { a: null, b: 6 }]);
    agrees({ $defs: { x: { $anchor: "thing", type: "boolean" } }, type: "array", items: { $ref: "#thing" } }, [[true], [1]]);
    agrees({ $schema: "http://json-schema.org/draft-07/schema#", definitions: { x: { $id: "#flag", type: "boolean" } }, items: { $ref: "#flag" }, type: "array" }, [[false], ["no"]]);
    agrees({ $id: "https://example.com/a/root.json", $defs: { c: { $id: "child.json", type: "integer" } }, properties: { v: { $ref: "child.json" } }, type: "object" }, [{ v: 1 }, { v: "1" }]);
  });

  it("applies dependencies (both forms) exactly", () => {
    const schema = {
      $schema: "http://json-schema.org/draft-04/schema#",
      type: "object",
      properties: { a: { type: "string" }, b: { type: "string" }, c: { type: "integer" } },
      dependencies: { a: ["b"], c: { properties: { b: { enum: ["x"] } }, required: ["b"] } },
      additionalProperties: false,
    };
    agrees(schema, [{}, { a: "1", b: "2" }, { a: "1" }, { c: 1, b: "x" }, { c: 1, b: "y" }, { c: 1 }, { b: "q" }]);
  });

  it("ignores unknown keywords and annotations", () => {
    const compiled = agrees({ type: "object", javaName: "Thing", self: { vendor: "x", format: "jsonschema" }, "x-kubernetes-preserve-unknown-fields": true, properties: { n: { type: "integer", _format: "int", links: [] } } }, [{ n: 1 }, { n: "1" }]);
    expect(compiled.relaxations).toEqual([]);
  });
});

describe("combinators", () => {
  it("intersects type beside anyOf and oneOf", () => {
    agrees({ type: "string", anyOf: [{ maxLength: 2 }, { pattern: "^x" }] }, ["ab", "xyz", "abc", 1]);
    agrees({ type: ["string", "integer"], oneOf: [{ type: "string" }, { type: "integer", minimum: 10 }] }, ["a", 10, 9, true]);
  });

  it("merges allOf for strings, numbers, arrays and objects", () => {
    agrees({ allOf: [{ type: "string", minLength: 2 }, { maxLength: 3 }] }, ["a", "ab", "abcd"]);
    agrees({ allOf: [{ type: "integer", minimum: 0 }, { maximum: 5 }, { exclusiveMaximum: 5 }] }, [0, 4, 5, -1]);
    agrees({ allOf: [{ type: "array", items: { type: "integer" } }, { maxItems: 2 }] }, [[1, 2], [1, 2, 3], ["a"]]);
    agrees({ allOf: [{ type: "object", properties: { a: { type: "integer" } }, additionalProperties: false }, { properties: { a: { minimum: 3 } }, required: ["a"] }] }, [{ a: 3 }, { a: 2 }, {}, { a: 3, b: 1 }]);
  });

  it("compiles a oneOf of overlapping required sets exactly (each branch with the others negated)", () => {
    const schema = {
      type: "object",
      properties: { radius: { type: "number" }, length: { type: "number" }, width: { type: "number" } },
      oneOf: [{ required: ["radius"] }, { required: ["length", "width"] }],
      additionalProperties: false,
    };
    agrees(schema, [{ radius: 1 }, { length: 1, width: 2 }, { radius: 1, length: 1, width: 2 }, { radius: 1, length: 1 }, {}, { length: 1 }]);
  });

  it("compiles not of a type, of a required key, and not {} exactly", () => {
    agrees({ not: { type: "string" } }, ["a", 1, null, [], {}]);
    agrees({ type: "object", not: { required: ["secret"] } }, [{}, { secret: 1 }, { other: 1 }]);
    agrees({ type: "object", properties: { gone: { not: {} }, kept: { type: "integer" } } }, [{ kept: 1 }, { gone: 1 }, { kept: 1, gone: null }]);
  });
});

describe("object keys", () => {
  it("compiles patternProperties with additionalProperties false exactly, declared names excluded", () => {
    const schema = { type: "object", properties: { type: { not: {} } }, patternProperties: { "^([a-zA-Z0-9_])*$": { type: "integer" } }, additionalProperties: false };
    agrees(schema, [{ a_1: 1 }, { "a-1": 1 }, { a: "x" }, { type: 1 }, {}]);
  });

  it("compiles disjoint prefix patterns and a match-everything pattern", () => {
    agrees({ type: "object", patternProperties: { "^x-": { type: "string" }, "^y-": { type: "integer" } }, additionalProperties: false }, [{ "x-a": "s" }, { "y-a": 1 }, { "x-a": 1 }, { z: 1 }]);
    agrees({ type: "object", properties: { basic: { type: "string" } }, patternProperties: { ".*": { type: "string" } }, required: ["basic"] }, [{ basic: "a", other: "b" }, { basic: "a", other: 1 }, { basic: 1 }]);
  });

  it("enforces propertyNames patterns and min/maxProperties by counting members", () => {
    agrees({ type: "object", propertyNames: { pattern: "^[a-z]+$" }, additionalProperties: { type: "integer" } }, [{ abc: 1 }, { Abc: 1 }, { ab1: 1 }]);
    agrees({ type: "object", properties: { a: { type: "integer" }, b: { type: "integer" }, c: { type: "integer" } }, minProperties: 1, maxProperties: 2, additionalProperties: false }, [
      {},
      { a: 1 },
      { b: 1, c: 2 },
      { a: 1, b: 2, c: 3 },
    ]);
  });
});

describe("patterns", () => {
  it("accepts every string of a pattern with nested quantifiers under the default cap", () => {
    agrees({ type: "string", pattern: "^[a-z]+(?:-[a-z0-9]+)*$" }, ["example-name", "a-b-c-d-e-f", "example", "Example-name", "a--b", "-a"]);
  });

  it("accepts a MIME type with parameters", () => {
    const mime = "^(application|audio|example|image|message|model|multipart|text|video)\\/(?:(prs|vnd|x)\\.)?((?:[a-z\\d][\\w!#$&^.-]+)+)(?:\\s*\\+(ber|cbor|der|fastinfoset|json|wbxml|xml|zip))?(?:\\s*;\\s*([a-zA-Z\\d][\\w!#$&^-]+=[a-zA-Z\\d][\\w!#$&^-]+))*$";
    agrees({ type: "string", pattern: mime }, ["application/json; charset=UTF-8", "text/html", "application/json charset=UTF-8", "foo/bar"]);
  });

  it("names an unbalanced parenthesis as such", () => {
    const compiled = compileSchemaGrammar({ type: "string", pattern: "^(a$" });
    expect(compiled.relaxations[0]).toMatchObject({ keyword: "pattern", pointer: "" });
    expect(compiled.relaxations[0].reason).toMatch(/unbalanced parenthesis/);
    expect(compiled.relaxations[0].reason).not.toMatch(/anchor/);
  });

  it("compiles email, uri, ipv4 and hostname formats within ajv's", () => {
    agrees({ type: "string", format: "email" }, ["john.doe@example.com", "a@b", "no-at-sign", "x@-bad.com"]);
    agrees({ type: "string", format: "uri" }, ["https://example.com/a/b?x=1#f", "urn:isbn:123", "example.com/x", "not a uri"]);
    agrees({ type: "string", format: "ipv4" }, ["192.168.0.1", "256.1.1.1", "1.2.3"]);
  });

  it("relaxes a length bound that the pattern's pieces cannot share exactly, keeping every valid string", () => {
    // Hostname labels repeat under a 253-character total: no grammar without counting is exact, so
    // each piece is bounded on its own (reported) instead of leaving out names of many labels.
    const hostname = compileSchemaGrammar({ type: "string", format: "hostname" });
    expect(hostname.relaxations).toMatchObject([{ keyword: "maxLength", pointer: "" }]);
    const r = new GbnfRecognizer(hostname.gbnf);
    for (const ok of ["example.com", "a.b.c.d.e.f.g.h", `${"a".repeat(63)}.com`]) expect(canonicalText(r, ok), ok).not.toBeNull();
    for (const bad of ["-bad.com", `${"a".repeat(64)}.com`]) expect(canonicalText(r, bad), bad).toBeNull();
    // An email with a maxLength: local part, dots and labels share the 100 characters, which the
    // automaton product with a length counter builds exactly.
    const email = compileSchemaGrammar({ type: "string", format: "email", maxLength: 100 });
    expect(email.relaxations).toEqual([]);
    const e = new GbnfRecognizer(email.gbnf);
    for (const ok of ["john.doe@example.com", "a@b.c.d.example.org", `${"a".repeat(90)}@b.example`]) expect(canonicalText(e, ok), ok).not.toBeNull();
    expect(canonicalText(e, `${"a".repeat(91)}@b.example`)).toBeNull();
    // One unbounded piece under a bound stays exact.
    agrees({ type: "string", pattern: "^x[a-z]*$", maxLength: 5 }, ["x", "xabcd", "xabcde", "y"]);
  });
});

describe("free-form values", () => {
  const nest = (depth: number): unknown => (depth === 0 ? 1 : { k: [nest(depth - 1)] });
  it("accept any JSON up to depth 10 and 256 members by default", () => {
    const r = new GbnfRecognizer(compileSchemaGrammar({ type: "object", properties: { free: {} } }).gbnf);
    expect(r.accepts(JSON.stringify({ free: nest(4) }))).toBe(true);
    expect(r.accepts(JSON.stringify({ free: Object.fromEntries(Array.from({ length: 256 }, (_, i) => [`k${i}`, i])) }))).toBe(true);
    expect(r.accepts(JSON.stringify({ free: Array.from({ length: 257 }, () => null) }))).toBe(false);
    // nest(d) holds 2d containers; 10 levels fit, 11 do not.
    expect(r.accepts(JSON.stringify({ free: { a: [{ b: [{ c: [{ d: [{ e: [1] }] }] }] }] } }))).toBe(true);
    expect(r.accepts(JSON.stringify({ free: { a: [{ b: [{ c: [{ d: [{ e: [[1]] }] }] }] }] } }))).toBe(false);
  });
  it("follow the anyValueDepth and anyValueMembers options", () => {
    const r = new GbnfRecognizer(compileSchemaGrammar(true, { anyValueDepth: 2, anyValueMembers: 3 }).gbnf);
    expect(r.accepts("[[1,2,3]]")).toBe(true);
    expect(r.accepts("[[[1]]]")).toBe(false);
    expect(r.accepts("[1,2,3,4]")).toBe(false);
  });
});

describe("refusals", () => {
  it("refuses an unsatisfiable schema with a sentence naming the pointer", () => {
    expect(() => compileSchemaGrammar({ type: "object", properties: { a: false }, required: ["a"] })).toThrow(GrammarRefusal);
    expect(() => compileSchemaGrammar({ type: "string", minLength: 3, maxLength: 2 })).toThrow(/^The schema at the root cannot be compiled \(schema\): no JSON value satisfies this schema\.$/);
  });
  it("refuses a grammar over the rule budget, naming where it ran out", () => {
    const wide = { type: "object", properties: Object.fromEntries(Array.from({ length: 400 }, (_, i) => [`p${i}`, { type: "integer", minimum: i, maximum: i * 7 + 13 }])) };
    let err: unknown;
    try {
      compileSchemaGrammar(wide, { maxRules: 50 });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(GrammarRefusal);
    expect((err as GrammarRefusal).keyword).toBe("maxRules");
    expect((err as GrammarRefusal).message).toMatch(/^The schema at \/properties\/p\d+ cannot be compiled \(maxRules\): its grammar would exceed 50 rules/);
  });
});
