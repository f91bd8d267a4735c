/** fast-check arbitraries for JSON Schemas from the subset the compiler claims to compile exactly. */
import fc from "fast-check";

type Schema = Record<string, unknown>;

/** Strings that stress escaping: quotes, backslashes, controls, unicode, astral characters. */
export const TRICKY_STRINGS = ["a", "b c", 'q"uote', "back\\slash", "new\nline", "tab\t", "é", "中文", "😀", "", "a/b", "\u0001", "x_y-z", "Ω≈ç"];
const KEYS = ["path", "name", "count", "a", "b", "kind", "value", "é", "q\"k", "sp ace", "with/slash", "x\\y", "日本", "nested_key"];

export const PATTERNS: string[] = [
  "^[a-z]{2,5}$",
  "^\\d{3}-\\d{4}$",
  "^(foo|bar)+$",
  "^[A-Z][a-z]*$",
  "abc",
  "^x",
  "y$",
  "^[^\"\\\\]{1,8}$",
  "^\\w+@\\w+\\.com$",
  "^.{0,3}$",
  "^(a|bb|ccc){1,3}$",
  "^[\\u00e9\\u4e2d]+$",
  "^#?[A-Za-z0-9_/-]{1,16}$",
  "^\\s*\\S+$",
  "^[^\\n]{1,10}\\.md$",
  "^(?:[01]\\d|2[0-3]):[0-5]\\d$",
];

const smallInt = fc.integer({ min: -50, max: 50 });
const decimal = fc.tuple(fc.integer({ min: -5000, max: 5000 }), fc.integer({ min: 0, max: 2 })).map(([m, d]) => m / 10 ** d);

const stringSchema: fc.Arbitrary<Schema> = fc.oneof(
  fc.record({ type: fc.constant("string") }),
  fc.tuple(fc.integer({ min: 0, max: 6 }), fc.integer({ min: 0, max: 12 })).map(([a, b]) => ({ type: "string", minLength: Math.min(a, b), maxLength: Math.max(a, b) })),
  fc.integer({ min: 0, max: 5 }).map((n) => ({ type: "string", minLength: n })),
  fc.constantFrom("date", "time", "date-time", "uuid").map((format) => ({ type: "string", format })),
  fc.tuple(fc.constantFrom(...PATTERNS), fc.option(fc.integer({ min: 0, max: 3 })), fc.option(fc.integer({ min: 4, max: 20 }))).map(([pattern, min, max]) => {
    const s: Schema = { type: "string", pattern };
    if (min !== null) s.minLength = min;
    if (max !== null) s.maxLength = max;
    return s;
  }),
  fc.uniqueArray(fc.constantFrom(...TRICKY_STRINGS), { minLength: 1, maxLength: 4 }).map((values) => ({ type: "string", enum: values })),
);

const integerSchema: fc.Arbitrary<Schema> = fc.oneof(
  fc.constant({ type: "integer" }),
  fc.tuple(smallInt, fc.integer({ min: 0, max: 3000 })).map(([lo, span]) => ({ type: "integer", minimum: lo, maximum: lo + span })),
  fc.tuple(smallInt, fc.integer({ min: 2, max: 300 })).map(([lo, span]) => ({ type: "integer", exclusiveMinimum: lo, exclusiveMaximum: lo + span })),
  smallInt.map((lo) => ({ type: "integer", minimum: lo })),
  smallInt.map((hi) => ({ type: "integer", maximum: hi })),
  fc.constant({ type: "integer", minimum: -9007199254740991, maximum: 9007199254740991 }),
  fc.tuple(fc.integer({ min: -100000, max: 0 }), fc.integer({ min: 0, max: 100000 })).map(([lo, hi]) => ({ type: "integer", minimum: lo, maximum: hi })),
);

const numberSchema: fc.Arbitrary<Schema> = fc.oneof(
  fc.constant({ type: "number" }),
  fc.tuple(decimal, decimal).map(([a, b]) => ({ type: "number", minimum: Math.min(a, b), maximum: Math.max(a, b) })),
  fc.tuple(decimal, decimal.filter((d) => d !== 0)).map(([a, b]) => ({ type: "number", exclusiveMinimum: Math.min(a, a + Math.abs(b)), exclusiveMaximum: a + Math.abs(b) })),
  decimal.map((lo) => ({ type: "number", minimum: lo })),
  decimal.map((hi) => ({ type: "number", exclusiveMaximum: hi })),
  fc.constant({ type: "number", minimum: 0, maximum: 1 }),
  fc.constant({ type: "number", exclusiveMinimum: 0 }),
);

const scalarConst = fc.oneof(fc.constantFrom(...TRICKY_STRINGS), smallInt, fc.boolean(), fc.constant(null), decimal);

const leaf: fc.Arbitrary<Schema | boolean> = fc.oneof(
  { weight: 4, arbitrary: stringSchema },
  { weight: 3, arbitrary: integerSchema },
  { weight: 3, arbitrary: numberSchema },
  { weight: 1, arbitrary: fc.constant({ type: "boolean" }) },
  { weight: 1, arbitrary: fc.constant({ type: "null" }) },
  { weight: 1, arbitrary: scalarConst.map((c) => ({ const: c })) },
  { weight: 1, arbitrary: fc.uniqueArray(scalarConst, { minLength: 1, maxLength: 4, selector: (v) => JSON.stringify(v) }).map((e) => ({ enum: e })) },
  { weight: 1, arbitrary: fc.constantFrom<Schema | boolean>({}, true, { description: "anything" }) },
  { weight: 1, arbitrary: fc.constant({ type: ["string", "null"], maxLength: 5 }) },
  { weight: 1, arbitrary: fc.constant({ type: ["integer", "boolean"], minimum: 0, maximum: 9 }) },
  {
    weight: 1,
    arbitrary: fc.uniqueArray(fc.oneof(fc.constantFrom(...TRICKY_STRINGS), fc.boolean(), fc.constant(null)), { minLength: 1, maxLength: 3, selector: (v) => JSON.stringify(v) }).map((values) => ({ type: ["string", "boolean", "null"], maxLength: 4, not: { enum: values } })),
  },
);

/** Value schemas for a case of an if/then/else: within the declared property's types (no draw for one case breaks another's caps). */
const scalarCase: fc.Arbitrary<Schema> = fc.oneof(
  integerSchema,
  fc.constantFrom<Schema>({ type: "boolean" }, { type: "null" }, { const: 0 }, { const: true }, { const: null }, { enum: [1, 2, false] }),
);

function objectOf(child: fc.Arbitrary<Schema | boolean>): fc.Arbitrary<Schema> {
  return fc
    .tuple(
      fc.uniqueArray(fc.constantFrom(...KEYS), { minLength: 0, maxLength: 5 }),
      fc.array(child, { minLength: 5, maxLength: 5 }),
      fc.array(fc.boolean(), { minLength: 5, maxLength: 5 }),
      fc.oneof(fc.constant<unknown>(false), fc.constant<unknown>(false), fc.constant<unknown>(undefined), fc.constant<unknown>(true), fc.constant<unknown>({ type: "integer", minimum: 0, maximum: 9 })),
    )
    .map(([keys, values, req, additional]) => {
      const properties: Schema = {};
      keys.forEach((k, i) => (properties[k] = values[i]));
      const s: Schema = { type: "object", properties, required: keys.filter((_, i) => req[i]) };
      if (additional !== undefined) s.additionalProperties = additional;
      return s;
    });
}

function arrayOf(child: fc.Arbitrary<Schema | boolean>): fc.Arbitrary<Schema> {
  return fc.oneof(
    fc.tuple(child, fc.integer({ min: 0, max: 2 }), fc.option(fc.integer({ min: 2, max: 5 }))).map(([items, min, max]) => {
      const s: Schema = { type: "array", items, minItems: min };
      if (max !== null) s.maxItems = max;
      return s;
    }),
    fc.tuple(fc.array(child, { minLength: 1, maxLength: 3 }), fc.integer({ min: 0, max: 3 })).map(([prefixItems, min]) => ({
      type: "array",
      prefixItems,
      items: false,
      minItems: Math.min(min, prefixItems.length),
    })),
  );
}

/** Schemas nesting up to `depth` levels, drawing from every supported keyword. */
export function schemaArbitrary(depth = 3): fc.Arbitrary<Schema | boolean> {
  const { node } = fc.letrec<{ node: Schema | boolean }>((tie) => ({
    node: fc.oneof(
      { depthSize: "small", maxDepth: depth, withCrossShrink: true },
      { weight: 5, arbitrary: leaf },
      { weight: 3, arbitrary: objectOf(tie("node")) },
      { weight: 2, arbitrary: arrayOf(tie("node")) },
      { weight: 1, arbitrary: fc.tuple(tie("node"), tie("node")).map(([a, b]) => ({ anyOf: [a, b] })) },
      { weight: 1, arbitrary: tie("node").map((a) => ({ anyOf: [a, { type: "null" }] })) },
      {
        weight: 1,
        arbitrary: fc.tuple(tie("node"), tie("node")).map(([a, b]) => ({
          oneOf: [
            { type: "object", properties: { kind: { const: "first" }, data: a }, required: ["kind", "data"], additionalProperties: false },
            { type: "object", properties: { kind: { const: "second" }, data: b }, required: ["kind"], additionalProperties: false },
          ],
        })),
      },
      {
        weight: 1,
        // Discriminating ifs on an optional enum property (cases per value, absent, other); each case constrains its own member.
        arbitrary: fc.tuple(scalarCase, scalarCase, fc.boolean()).map(([a, b, requireKind]) => ({
          type: "object",
          properties: { kind: { enum: ["a", "b", "c"] }, x: { type: ["integer", "boolean", "null"] }, y: { type: ["integer", "boolean", "null"] } },
          required: requireKind ? ["kind"] : [],
          allOf: [
            { if: { properties: { kind: { const: "a" } } }, then: { properties: { x: a } } },
            { if: { properties: { kind: { enum: ["b", "c"] } }, required: ["kind"] }, then: { required: ["x"] }, else: { properties: { y: b } } },
          ],
        })),
      },
      {
        weight: 1,
        // An if on a plain string property (its other values need a string rule without the tested ones).
        // (The enum branch makes draws hit the tested values half the time.)
        arbitrary: fc.tuple(scalarCase, scalarCase).map(([a, b]) => ({
          type: "object",
          properties: { kind: { anyOf: [{ enum: ["a", "é"] }, { type: "string", maxLength: 3 }] }, v: { type: ["integer", "boolean", "null"] } },
          required: ["kind"],
          if: { properties: { kind: { enum: ["a", "é"] } } },
          then: { properties: { v: a } },
          else: { properties: { v: b }, required: ["v"] },
        })),
      },
      { weight: 1, arbitrary: tie("node").map((b) => ({ if: { type: "string" }, then: { maxLength: 2 }, else: b })) },
      {
        weight: 1,
        arbitrary: fc.tuple(tie("node"), tie("node")).map(([a, b]) => ({
          allOf: [
            { type: "object", properties: { left: a }, required: ["left"] },
            { type: "object", properties: { right: b } },
          ],
        })),
      },
    ),
  }));
  // $refs point at the document root's $defs, so they are generated at the root only.
  return fc.oneof(
    { weight: 8, arbitrary: node },
    {
      weight: 1,
      arbitrary: node.map((value) => ({
        $defs: { node: { type: "object", properties: { value, next: { $ref: "#/$defs/node" } }, required: ["value"], additionalProperties: false } },
        $ref: "#/$defs/node",
      })),
    },
    {
      weight: 1,
      arbitrary: node.map((item) => ({
        $defs: { item },
        type: "object",
        properties: { first: { $ref: "#/$defs/item" }, rest: { type: "array", items: { $ref: "#/$defs/item" }, maxItems: 2 } },
        required: ["first"],
        additionalProperties: false,
      })),
    },
  );
}
