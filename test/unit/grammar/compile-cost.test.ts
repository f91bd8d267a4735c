/**
 * What keeps a compile's work and grammar bounded, asserted on deterministic counters (rules, GBNF
 * bytes, compile steps) rather than time: equal subschemas compile once, long objects stay linear,
 * unions and dependencies past the alternatives limit are given up on without exponential retries,
 * and canonical text finds the grammar's key order without a search over orders.
 */
import { describe, expect, it } from "vitest";
import { GbnfRecognizer, compileSchema, compileSchemaGrammar, type JsonSchema } from "../../../src/core/grammar";
import { canonicalText } from "../../../src/core/grammar/canonical-text";
import { schemaValidator } from "../../../src/node/schema-validator";

const ruleCount = (gbnf: string) => gbnf.split("\n").filter((l) => l.includes(" ::= ")).length;
const names = (n: number, prefix = "p") => Array.from({ length: n }, (_, i) => `${prefix}${String(i).padStart(3, "0")}`);

describe("compile cost", () => {
  it("compiles a subschema once however often it is written alike (a $ref beside type, inline copies)", () => {
    const big = { type: "object", properties: Object.fromEntries(names(30, "f").map((k) => [k, { type: "string", maxLength: 20 }])) };
    const withUses = (n: number): JsonSchema => ({
      type: "object",
      properties: Object.fromEntries(names(n).map((k) => [k, { type: "object", $ref: "#/definitions/big", description: `use ${k}` }])),
      definitions: { big },
    });
    const one = compileSchemaGrammar(withUses(1));
    const many = compileSchemaGrammar(withUses(40));
    // Each further use costs its member in the root object, not another copy of the 30-member object.
    const copies = (g: string) => g.split('\\"f029\\":').length;
    expect(copies(many.gbnf)).toBe(copies(one.gbnf));
    expect(ruleCount(many.gbnf) - ruleCount(one.gbnf)).toBeLessThan(40 * 2);
    expect(many.gbnf.length - one.gbnf.length).toBeLessThan(40 * 300);
    const r = new GbnfRecognizer(many.gbnf);
    expect(canonicalText(r, { p000: { f001: "a" }, p039: { f029: "b" } })).not.toBeNull();
    expect(canonicalText(r, { p000: { f001: "a".repeat(21) } })).toBeNull();
  });

  it("reports a relaxation at every place a shared subschema is used", () => {
    const list = { type: "array", items: { type: "string" }, uniqueItems: true };
    const compiled = compileSchemaGrammar({ type: "object", properties: { a: list, b: { ...list }, c: { type: "object", properties: { d: { ...list } } } } });
    expect(compiled.relaxations.map((x) => `${x.pointer} ${x.keyword}`).sort()).toEqual(["/properties/a uniqueItems", "/properties/b uniqueItems", "/properties/c/properties/d uniqueItems"]);
  });

  it("keeps a long object's grammar linear in its members", () => {
    const keys = names(150);
    const schema: JsonSchema = { type: "object", properties: Object.fromEntries(keys.map((k) => [k, { type: "integer", minimum: 0, maximum: 9 }])), additionalProperties: false };
    const compiled = compileSchemaGrammar(schema);
    // Inlining every member tail was quadratic: about 150 * 150 / 2 optional members, over 200 KB.
    expect(compiled.gbnf.length).toBeLessThan(150 * 200);
    const r = new GbnfRecognizer(compiled.gbnf);
    const validate = schemaValidator(schema);
    const values = [{}, { p149: 1 }, { p000: 0, p100: 5, p149: 9 }, Object.fromEntries(keys.map((k) => [k, 3])), { p000: 10 }, { q: 1 }];
    for (const v of values) expect(canonicalText(r, v) !== null, JSON.stringify(v).slice(0, 80)).toBe(validate(v));
  });

  it("gives up the dependencies past the alternatives limit at once, within a small step budget", () => {
    const deps = names(30, "d");
    const schema: JsonSchema = {
      type: "object",
      properties: { kind: { enum: ["a", "b"] }, ...Object.fromEntries(deps.map((k) => [k, { type: "boolean" }])) },
      dependencies: Object.fromEntries(deps.map((k) => [k, { properties: { kind: { const: "a" } } }])),
    };
    // Distributing 30 dependencies is 2^30 alternatives; retrying one give-up at a time was exponential.
    const result = compileSchema(schema, { maxSteps: 5000 });
    expect(result.ok, result.ok ? "" : result.refusal.message).toBe(true);
    if (!result.ok) return;
    const given = result.grammar.relaxations.filter((x) => x.keyword === "dependentSchemas");
    expect(given).toHaveLength(30 - 6);
    // The six distributed dependencies stay exact: d000 needs kind "a".
    const r = new GbnfRecognizer(result.grammar.gbnf);
    expect(canonicalText(r, { kind: "a", d000: true })).not.toBeNull();
    expect(canonicalText(r, { kind: "b", d000: true })).toBeNull();
  });

  it("refuses a schema past the step budget with one sentence naming where it ran out", () => {
    const wide: JsonSchema = { type: "object", properties: Object.fromEntries(names(50).map((k) => [k, { type: "object", properties: { [k]: { type: "string" } } }])) };
    const result = compileSchema(wide, { maxSteps: 20 });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.refusal.keyword).toBe("steps");
    expect(result.refusal.message).toMatch(/^The schema at \/properties\/p\d+.* cannot be compiled \(steps\): .+\.$/);
  });
});

describe("canonical text", () => {
  it("writes a value whose keys are in another order than the grammar's without searching orders", () => {
    // Declared members come first (in declaration order), extra keys after them; the value lists its
    // two declared keys last and 60 others first, so trying keys in the value's order leads nowhere.
    const schema: JsonSchema = { type: "object", properties: { first: { type: "string" }, second: { type: "string" } }, additionalProperties: { type: "integer" }, maxProperties: 100 };
    const r = new GbnfRecognizer(compileSchemaGrammar(schema, { maxKeys: 64 }).gbnf);
    const value: Record<string, unknown> = {};
    for (const k of names(60, "x")) value[k] = 1;
    value.second = "b";
    value.first = "a";
    const text = canonicalText(r, value);
    expect(text).not.toBeNull();
    expect(text!.startsWith('{"first":"a","second":"b","x000":1')).toBe(true);
    expect(JSON.parse(text!)).toEqual(value);
  });
});

describe("completeness on the sample's misses", () => {
  it("lets keys that match no pattern take additionalProperties (not leave them out)", () => {
    const schema: JsonSchema = { type: "object", properties: { default: { type: "integer" } }, patternProperties: { "^[a-zA-Z0-9_]*$": { type: "integer" } }, required: ["default"] };
    const compiled = compileSchemaGrammar(schema);
    expect(compiled.relaxations).toEqual([]);
    const r = new GbnfRecognizer(compiled.gbnf);
    const validate = schemaValidator(schema);
    const values = [{ default: 1, "edition-1": { any: ["thing"] } }, { default: 1, abc: 2, "x.y": "s", "": 3 }, { default: 1, abc: "s" }, { default: "s" }, { "edition-1": 1 }];
    for (const v of values) expect(canonicalText(r, v) !== null, JSON.stringify(v)).toBe(validate(v));
  });

  it("never lets a key outside the pattern spell a declared name again", () => {
    // "Default" matches no lower-case pattern, so keys outside the pattern are not offered at all.
    const compiled = compileSchemaGrammar({ type: "object", properties: { Default: { type: "integer" } }, patternProperties: { "^[a-z]+$": { type: "integer" } } });
    const r = new GbnfRecognizer(compiled.gbnf);
    expect(canonicalText(r, { Default: 1, abc: 2 })).not.toBeNull();
    expect(canonicalText(r, { Default: "s" })).toBeNull();
    expect(canonicalText(r, { Default: 1, abc: "s" })).toBeNull();
  });
});
