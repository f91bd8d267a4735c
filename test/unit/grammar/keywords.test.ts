/** Each supported JSON Schema keyword, compiled exactly; each unsupported one reported. */
import { describe, expect, it } from "vitest";
import { GbnfRecognizer, compileEnvelopeGrammar, compileSchemaGrammar, type JsonSchema } from "../../../src/core/grammar";
import { validatorFor } from "./helpers/ajv";

function recognizerFor(schema: JsonSchema, options = {}) {
  const compiled = compileSchemaGrammar(schema, options);
  return { compiled, r: new GbnfRecognizer(compiled.gbnf) };
}

/** Asserts the grammar and ajv agree on every text (as JSON text). */
function agreesWithAjv(schema: JsonSchema, texts: string[]) {
  const { compiled, r } = recognizerFor(schema);
  expect(compiled.relaxations).toEqual([]);
  const validate = validatorFor(schema);
  for (const text of texts) {
    let valid = false;
    try {
      valid = validate(JSON.parse(text));
    } catch {
      valid = false;
    }
    expect(r.accepts(text), `${JSON.stringify(schema)} on ${text}`).toBe(valid);
  }
}

describe("integer ranges", () => {
  const ranges: Array<[number, number]> = [
    [0, 0],
    [1, 9],
    [7, 123],
    [-15, -3],
    [-120, 45],
    [50, 2000],
    [99, 1001],
    [-1000, 1000],
  ];
  for (const [lo, hi] of ranges) {
    it(`accepts exactly the integers in [${lo}, ${hi}] with no leading zeros`, () => {
      const { r } = recognizerFor({ type: "integer", minimum: lo, maximum: hi });
      for (let v = lo - 40; v <= hi + 40; v++) expect(r.accepts(String(v)), String(v)).toBe(v >= lo && v <= hi);
      expect(r.accepts("-0")).toBe(false);
      expect(r.accepts(`0${Math.abs(hi)}`)).toBe(false);
      expect(r.accepts(`${hi}.0`)).toBe(false);
    });
  }

  it("applies exclusive bounds, including fractional ones", () => {
    agreesWithAjv({ type: "integer", exclusiveMinimum: -2.5, exclusiveMaximum: 7 }, ["-3", "-2", "0", "6", "7", "8"]);
  });

  it("accepts every safe integer for Zod's int() bounds and nothing longer", () => {
    const { r } = recognizerFor({ type: "integer", minimum: -9007199254740991, maximum: 9007199254740991 });
    expect(r.accepts("9007199254740991")).toBe(true);
    expect(r.accepts("-9007199254740991")).toBe(true);
    expect(r.accepts("9007199254740992")).toBe(false);
    expect(r.accepts("0")).toBe(true);
  });
});

describe("decimal ranges", () => {
  const texts = ["0", "0.5", "0.50", "0.5000001", "0.49999", "1", "9.99", "10", "10.0", "10.000001", "-0.5", "-1", "3.25", "5.", ".5", "-0"];
  it("compiles exclusive decimal bounds exactly at both boundaries", () => {
    agreesWithAjv({ type: "number", exclusiveMinimum: 0.5, exclusiveMaximum: 10 }, texts);
  });
  it("compiles inclusive decimal bounds exactly", () => {
    agreesWithAjv({ type: "number", minimum: 0.5, maximum: 10 }, texts);
  });
  it("compiles negative ranges and ranges across zero", () => {
    agreesWithAjv({ type: "number", minimum: -2.75, maximum: -0.25 }, ["-2.75", "-2.76", "-0.25", "-0.24", "-1", "0", "-3"]);
    agreesWithAjv({ type: "number", minimum: -1.5, maximum: 2.25 }, ["-1.5", "-1.51", "0", "0.0", "2.25", "2.26", "1.999", "-0.001"]);
  });
  it("excludes exponents from ranged numbers but allows them in unbounded ones", () => {
    expect(recognizerFor({ type: "number", minimum: 0, maximum: 100 }).r.accepts("1e1")).toBe(false);
    expect(recognizerFor({ type: "number" }).r.accepts("1e1")).toBe(true);
    expect(recognizerFor({ type: "number" }).r.accepts("-1.5E-7")).toBe(true);
  });
});

describe("strings", () => {
  it("admits every legal JSON escape and no raw control character", () => {
    const { r } = recognizerFor({ type: "string" });
    for (const ok of ['"\\""', '"\\\\"', '"\\/"', '"\\b\\f\\n\\r\\t"', '"\\u0041\\u00e9\\uFFFF"', '"é中😀"', '""']) expect(r.accepts(ok), ok).toBe(true);
    for (const bad of ['"\n"', '"\t"', '"\\x41"', '"\\ud800"', '"\\a"', '"a']) expect(r.accepts(bad), bad).toBe(false);
  });

  it("counts minLength/maxLength in code points, escapes and astral characters included", () => {
    agreesWithAjv({ type: "string", minLength: 2, maxLength: 3 }, ['"a"', '"ab"', '"abc"', '"abcd"', '"😀😀"', '"\\n\\n\\n"', '"😀"', '"é\\u00e9é"']);
  });

  it("expresses lengths above 1999 without a repetition bound of 2000 or more", () => {
    const { compiled, r } = recognizerFor({ type: "string", maxLength: 5000 });
    const bounds = [...compiled.gbnf.matchAll(/\{(\d+)(?:,(\d+))?\}/g)].flatMap((m) => [Number(m[1]), Number(m[2] ?? 0)]);
    expect(Math.max(...bounds)).toBeLessThan(2000);
    expect(r.accepts(JSON.stringify("x".repeat(5000)))).toBe(true);
    expect(r.accepts(JSON.stringify("x".repeat(5001)))).toBe(false);
    expect(r.accepts(JSON.stringify("x".repeat(999)))).toBe(true);
    expect(r.accepts(JSON.stringify("x".repeat(1000)))).toBe(true);
  });

  it("caps an unbounded string at the default and reports the cap", () => {
    const { compiled, r } = recognizerFor({ type: "object", properties: { s: { type: "string" } }, required: ["s"], additionalProperties: false });
    expect(compiled.caps).toContainEqual({ path: "/properties/s", kind: "string", cap: 2000 });
    expect(r.accepts(JSON.stringify({ s: "y".repeat(2000) }))).toBe(true);
    expect(r.accepts(JSON.stringify({ s: "y".repeat(2001) }))).toBe(false);
  });

  it("compiles date with real month lengths and leap years", () => {
    agreesWithAjv({ type: "string", format: "date" }, ['"2024-02-29"', '"2023-02-29"', '"2000-02-29"', '"1900-02-29"', '"2023-04-31"', '"2023-12-31"', '"2023-13-01"', '"2023-00-10"', '"2023-1-01"']);
  });

  it("compiles time and date-time with seconds and a zone", () => {
    agreesWithAjv({ type: "string", format: "time" }, ['"12:30:00Z"', '"23:59:59.123+05:30"', '"24:00:00Z"', '"12:30Z"', '"12:30:00"', '"07:00:00-0800"']);
    agreesWithAjv({ type: "string", format: "date-time" }, ['"2024-02-29T10:00:00Z"', '"2023-02-29T10:00:00Z"', '"2024-01-01t00:00:00z"', '"2024-01-01T00:00:60Z"']);
  });

  it("compiles uuid", () => {
    agreesWithAjv({ type: "string", format: "uuid" }, ['"123e4567-e89b-12d3-a456-426614174000"', '"123E4567-E89B-12D3-A456-426614174000"', '"123e4567e89b12d3a456426614174000"', '"123e4567-e89b-12d3-a456-42661417400"']);
  });

  it("translates a pattern and bounds its quantifiers by minLength/maxLength", () => {
    agreesWithAjv({ type: "string", pattern: "^[a-z]+$", minLength: 3, maxLength: 5 }, ['"ab"', '"abc"', '"abcde"', '"abcdef"', '"ABC"', '"ab1"']);
    agreesWithAjv({ type: "string", pattern: "^(ab|c)*d?$", maxLength: 4 }, ['""', '"ab"', '"abcd"', '"cccc"', '"ccccc"', '"abab"', '"ababd"', '"d"', '"a"']);
    agreesWithAjv({ type: "string", pattern: '^"\\\\[^"]$' }, ['"\\"\\\\x"', '"\\"\\\\\\""', '"x"']);
  });

  it("treats an unanchored pattern as a search anywhere in the string", () => {
    agreesWithAjv({ type: "string", pattern: "ab", maxLength: 6 }, ['"ab"', '"xxab"', '"abyy"', '"xabx"', '"a b"', '"xxxxab"', '"xxxxxab"']);
  });

  it("relaxes an untranslatable pattern to a plain string and reports it", () => {
    const { compiled, r } = recognizerFor({ type: "string", pattern: "^(?=a)\\w+$", maxLength: 8 });
    expect(compiled.relaxations).toHaveLength(1);
    expect(compiled.relaxations[0]).toMatchObject({ keyword: "pattern", pointer: "" });
    expect(compiled.relaxations[0].reason).toMatch(/lookaround/);
    expect(r.accepts('"anything"')).toBe(true);
    expect(r.accepts('"too long for it"')).toBe(false);
  });

  it("enforces a Zod format pattern that lies within the format", () => {
    const zodUuid = "^([0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[1-8][0-9a-fA-F]{3}-[89abAB][0-9a-fA-F]{3}-[0-9a-fA-F]{12}|00000000-0000-0000-0000-000000000000|ffffffff-ffff-ffff-ffff-ffffffffffff)$";
    agreesWithAjv({ type: "string", format: "uuid", pattern: zodUuid }, ['"123e4567-e89b-12d3-a456-426614174000"', '"123e4567-e89b-92d3-a456-426614174000"', '"00000000-0000-0000-0000-000000000000"']);
  });
});

describe("enum, const, type arrays, null", () => {
  it("accepts exactly the enum values, escaped", () => {
    agreesWithAjv({ enum: ["a", 'q"uote', "é", 1, null, true] }, ['"a"', '"q\\"uote"', '"é"', "1", "null", "true", '"b"', "2", "false"]);
  });
  it("filters enum values by the declared type", () => {
    agreesWithAjv({ type: "string", enum: ["x", 1] }, ['"x"', "1"]);
  });
  it("accepts const", () => {
    agreesWithAjv({ const: { k: [1, 2] } }, ['{"k":[1,2]}', '{"k":[2,1]}']);
  });
  it("accepts each type of a type array, nullable included", () => {
    agreesWithAjv({ type: ["string", "null"], maxLength: 2 }, ['"ab"', '"abc"', "null", "0"]);
    agreesWithAjv({ type: ["integer", "boolean"], minimum: 3 }, ["3", "2", "true", "null"]);
  });
});

describe("objects", () => {
  const schema = {
    type: "object",
    properties: { b: { type: "integer" }, a: { type: "string", maxLength: 3 }, c: { type: "boolean" } },
    required: ["a"],
    additionalProperties: false,
  };
  it("writes required keys first, then optional ones in a stable order, with correct commas", () => {
    agreesWithAjv(schema, ['{"a":"x"}', '{"a":"x","b":1}', '{"a":"x","c":true}', '{"a":"x","b":1,"c":false}', "{}", '{"b":1}', '{"a":"x",}', '{"a":"x","d":1}']);
    const { r } = recognizerFor(schema);
    // Fixed order is part of the grammar's determinism: optional keys may not precede required ones.
    expect(r.accepts('{"b":1,"a":"x"}')).toBe(false);
  });

  it("allows extra keys that never collide with declared names when additionalProperties is a schema", () => {
    const s = { type: "object", properties: { name: { type: "string", maxLength: 3 } }, additionalProperties: { type: "integer", minimum: 0, maximum: 9 } };
    agreesWithAjv(s, ['{"name":"x","n":1}', '{"name":"x","nam":2,"names":3}', '{"n":1}', '{"name":"x","extra":"s"}', "{}"]);
    const { r } = recognizerFor(s);
    expect(r.accepts('{"name":"x","name":1}')).toBe(false);
    expect(r.accepts('{"n":1,"name":"x"}')).toBe(false);
  });

  it("accepts a required key that is not declared, valued by additionalProperties", () => {
    agreesWithAjv({ type: "object", required: ["k"], additionalProperties: { type: "boolean" } }, ['{"k":true}', '{"k":1}', "{}"]);
  });

  it("escapes quotes, backslashes and non-ASCII in keys", () => {
    agreesWithAjv({ type: "object", properties: { 'q"k': { type: "null" }, "x\\y": { type: "null" }, é: { type: "null" } }, required: ['q"k', "x\\y", "é"], additionalProperties: false }, [
      '{"q\\"k":null,"x\\\\y":null,"é":null}',
      '{"q\\"k":null,"x\\\\y":null}',
    ]);
  });
});

describe("keys with control and non-ASCII characters", () => {
  const keys = ["\n", "\u0001", "\u001f", "\u007f", "\u2028", "😀", "é", 'a"b', "\\", "/", "\t"];
  const properties = Object.fromEntries(keys.map((k) => [k, { type: "null" }]));
  const all = Object.fromEntries(keys.map((k) => [k, null]));
  const firstThree = { "\n": null, "\u0001": null, "\u001f": null };
  it("writes declared keys as JSON.stringify does and rejects other keys when additionalProperties is false", () => {
    const schema = { type: "object", properties, required: keys.slice(0, 3), additionalProperties: false };
    const texts = [all, firstThree, { ...firstThree, "\u000b": null }, { "\n": null }].map((v) => JSON.stringify(v));
    agreesWithAjv(schema, texts);
    expect(compileSchemaGrammar(schema).gbnf).not.toMatch(/[^\x20-\x7e\n]/);
  });
  it("admits extra keys with control characters, astral and non-ASCII characters, never a declared one", () => {
    const schema = { type: "object", properties, required: keys.slice(0, 3), additionalProperties: { type: "integer", minimum: 0, maximum: 3 } };
    const extras = ["\u000b", "\u0000", "\b", "😀😀", "\u2029", "é!", "\n\n", "\\x", "ab"];
    agreesWithAjv(schema, [
      ...extras.map((k) => JSON.stringify({ ...firstThree, [k]: 2 })),
      ...extras.map((k) => JSON.stringify({ ...firstThree, [k]: 9 })),
      JSON.stringify({ ...firstThree, "😀": 1 }),
    ]);
    const { r } = recognizerFor(schema);
    // A declared name may not come back as an extra key in another spelling.
    expect(r.accepts('{"\\n":null,"\\u0001":null,"\\u001f":null,"\\u000a":1}')).toBe(false);
    expect(r.accepts('{"\\n":null,"\\u0001":null,"\\u001f":null,"\\u001F":1}')).toBe(false);
  });
});

describe("arrays", () => {
  it("enforces items, minItems and maxItems", () => {
    agreesWithAjv({ type: "array", items: { type: "integer", minimum: 0, maximum: 5 }, minItems: 1, maxItems: 3 }, ["[]", "[1]", "[1,2,3]", "[1,2,3,4]", "[6]", "[1,]"]);
  });
  it("enforces prefixItems with items false", () => {
    agreesWithAjv({ type: "array", prefixItems: [{ type: "string", maxLength: 2 }, { type: "integer" }], items: false, minItems: 1 }, ['["a"]', '["a",1]', '["a",1,2]', "[]", "[1]"]);
  });
  it("caps an unbounded array and reports the cap", () => {
    const { compiled, r } = recognizerFor({ type: "array", items: { type: "null" } }, { maxItems: 3 });
    expect(compiled.caps).toContainEqual({ path: "", kind: "array", cap: 3 });
    expect(r.accepts("[null,null,null]")).toBe(true);
    expect(r.accepts("[null,null,null,null]")).toBe(false);
  });
});

describe("anyOf, oneOf, allOf, $ref", () => {
  it("alternates anyOf branches", () => {
    agreesWithAjv({ anyOf: [{ type: "integer", minimum: 5 }, { type: "string", maxLength: 1 }] }, ["5", "4", '"a"', '"ab"']);
  });
  it("compiles a discriminated oneOf whose branches cannot overlap", () => {
    agreesWithAjv(
      {
        oneOf: [
          { type: "object", properties: { k: { const: "a" } }, required: ["k"], additionalProperties: false },
          { type: "object", properties: { k: { const: "b" }, v: { type: "number" } }, required: ["k", "v"], additionalProperties: false },
        ],
      },
      ['{"k":"a"}', '{"k":"b","v":1}', '{"k":"b"}', '{"k":"c"}'],
    );
  });
  it("reports a oneOf whose branches may overlap instead of compiling it as anyOf", () => {
    const { compiled } = recognizerFor({ oneOf: [{ type: "integer", multipleOf: 3 }, { type: "integer", multipleOf: 5 }] });
    expect(compiled.relaxations[0]).toMatchObject({ keyword: "oneOf", pointer: "" });
  });
  it("merges allOf over object schemas", () => {
    agreesWithAjv(
      { allOf: [{ type: "object", properties: { a: { type: "integer" } }, required: ["a"] }, { type: "object", properties: { b: { type: "boolean" } } }] },
      ['{"a":1}', '{"a":1,"b":true}', '{"b":true}', "{}", '{"a":"x"}', '{"a":1,"b":2}'],
    );
    // A key one part closes off is dropped from the merge.
    agreesWithAjv(
      { allOf: [{ type: "object", properties: { a: { type: "integer" } } }, { type: "object", properties: { b: { type: "boolean" } }, additionalProperties: false }] },
      ['{"b":true}', '{"a":1}', "{}", '{"a":1,"b":true}'],
    );
  });
  it("unrolls recursive $refs to the configured depth", () => {
    const list = {
      $defs: { node: { type: "object", properties: { v: { type: "integer" }, next: { $ref: "#/$defs/node" } }, required: ["v"], additionalProperties: false } },
      $ref: "#/$defs/node",
    };
    const { compiled, r } = recognizerFor(list, { recursionDepth: 3 });
    expect(compiled.relaxations).toEqual([]);
    expect(Number.isFinite(compiled.maxBytes)).toBe(true);
    expect(r.accepts('{"v":1,"next":{"v":2,"next":{"v":3}}}')).toBe(true);
    expect(r.accepts('{"v":1,"next":{"v":2,"next":{"v":3,"next":{"v":4}}}}')).toBe(false);
    const nested = (depth: number): unknown => (depth === 1 ? { v: depth } : { v: depth, next: nested(depth - 1) });
    for (const depth of [1, 2, 5]) {
      const unrolled = recognizerFor(list, { recursionDepth: depth }).r;
      expect(unrolled.accepts(JSON.stringify(nested(depth))), `depth ${depth}`).toBe(true);
      expect(unrolled.accepts(JSON.stringify(nested(depth + 1))), `depth ${depth} + 1`).toBe(false);
    }
  });
});

describe("local relaxations and caps", () => {
  for (const [keyword, schema, valid] of [
    ["not", { type: "string", not: { pattern: "^x", maxLength: 3 } }, "ab"],
    ["multipleOf", { type: "number", multipleOf: 0.5 }, 1.5],
    ["uniqueItems", { type: "array", items: { type: "integer" }, uniqueItems: true }, [1, 2]],
    ["format", { type: "string", format: "regex" }, "^a+$"],
    ["patternProperties", { type: "object", patternProperties: { "^x": { type: "integer" }, "^xy": { type: "string" } } }, { x1: 1 }],
    ["contains", { type: "array", contains: { type: "integer" } }, [1]],
    ["if", { type: "string", if: { pattern: "^a" }, then: { maxLength: 2 } }, "ab"],
    ["$ref", { $ref: "https://example.com/other.json" }, { any: "thing" }],
  ] as const) {
    it(`relaxes only the subschema that uses ${keyword}, reports its pointer, and keeps the rest exact`, () => {
      const args = { type: "object", properties: { p: schema, q: { type: "integer", minimum: 0, maximum: 3 } }, required: ["p", "q"], additionalProperties: false };
      const compiled = compileEnvelopeGrammar([{ name: "odd:tool", schema: args }]);
      expect(compiled.relaxations).toHaveLength(1);
      expect(compiled.relaxations[0]).toMatchObject({ tool: "odd:tool", keyword });
      expect(compiled.relaxations[0].pointer).toMatch(/^\/properties\/p/);
      const r = new GbnfRecognizer(compiled.gbnf);
      const env = (args: unknown) => JSON.stringify({ thought: "", status: "Task", message_to_user: null, tool_calls: [{ name: "odd:tool", args }] });
      expect(r.accepts(env({ p: valid, q: 2 }))).toBe(true);
      // Everything outside the relaxed subschema is still enforced.
      expect(r.accepts(env({ p: valid, q: 4 }))).toBe(false);
      expect(r.accepts(env({ p: valid }))).toBe(false);
      expect(r.accepts(env({ p: valid, q: 2, extra: 1 }))).toBe(false);
    });
  }

  it("ignores annotations (description, title, default, examples)", () => {
    const { compiled } = recognizerFor({ type: "integer", description: "d", title: "t", default: 1, examples: [1], minimum: 0, maximum: 3 });
    expect(compiled.relaxations).toEqual([]);
  });

  it("never emits a chain of optional copies of the same element", () => {
    const { compiled } = recognizerFor({ type: "array", items: { type: "string", maxLength: 40 }, maxItems: 30 });
    expect(compiled.gbnf).not.toMatch(/(\S+)\? \1\?/);
  });
});
