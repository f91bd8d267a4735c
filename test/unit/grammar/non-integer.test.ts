/**
 * Numbers that must not be integers: failing `type: integer` (or `multipleOf: 1`) inside an overlapping
 * oneOf's negated branch is being a number that is not whole. The grammar writes those without an
 * exponent and with at most 15 significant digits, so every text it allows parses to a non-integer.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { GbnfRecognizer, GrammarSampler, compileSchema, type JsonSchema } from "../../../src/core/grammar";
import { canonicalText } from "../../../src/core/grammar/canonical-text";
import { validatorFor } from "./helpers/ajv";
import { seededRandom } from "./helpers/rng";

function exact(schema: JsonSchema) {
  const result = compileSchema(schema);
  if (!result.ok) throw new Error(result.refusal.message);
  expect(result.grammar.relaxations, JSON.stringify(result.grammar.relaxations)).toEqual([]);
  return { gbnf: result.grammar.gbnf, recognizer: new GbnfRecognizer(result.grammar.gbnf) };
}

/** Digits of a plain decimal text from its first integer digit (the point, below 1) to its last non-zero one. */
function significant(text: string): number {
  const [whole, fraction = ""] = text.replace(/^-/, "").split(".");
  return (whole === "0" ? 0 : whole.length) + fraction.replace(/0+$/, "").length;
}

describe("numbers that are not integers", () => {
  const union = { oneOf: [{ type: "integer" }, { type: "number" }] };

  it("compiles oneOf [integer, number] exactly, and every text it samples parses to a non-integer", () => {
    const { gbnf } = exact(union);
    const sampler = new GrammarSampler(gbnf, { random: seededRandom(26) });
    for (let i = 0; i < 2000; i++) {
      const text = sampler.sample();
      const value = JSON.parse(text) as number;
      expect(Number.isInteger(value), text).toBe(false);
      expect(validatorFor(union)(value), text).toBe(true);
    }
  });

  it("accepts every non-integer of up to 15 significant digits and refuses every integer", () => {
    const { recognizer } = exact(union);
    const valid = validatorFor(union);
    fc.assert(
      fc.property(fc.double({ min: -1e14, max: 1e14, noNaN: true }), fc.integer({ min: 0, max: 15 }), (x, digits) => {
        const value = Number(x.toPrecision(Math.max(1, digits)));
        const text = JSON.stringify(value);
        const accepted = recognizer.accepts(text);
        if (Number.isInteger(value)) expect(accepted, text).toBe(false);
        else if (!/e/.test(text) && significant(text) <= 15) expect(accepted, text).toBe(true);
        if (accepted) expect(valid(value), text).toBe(true);
      }),
      { numRuns: 3000, seed: 26 },
    );
    // Past the digits the grammar writes: a decimal that would parse to an integer is refused with them.
    expect(recognizer.accepts("1.0000000000000001")).toBe(false);
    expect(recognizer.accepts("0.30000000000000004")).toBe(false);
    expect(recognizer.accepts("1e-7")).toBe(false);
    expect(recognizer.accepts("1.50")).toBe(true);
  });

  it("compiles a oneOf whose branches overlap but differ on an integer property exactly (Snowplow sp_376's auth)", () => {
    const schema = {
      type: "object",
      properties: {
        auth: {
          oneOf: [
            { type: "object", properties: { accessKeyId: { type: "string" }, secretAccessKey: { type: "string" } }, required: ["accessKeyId", "secretAccessKey"] },
            { type: "object", properties: { roleArn: { type: ["string", "null"], minLength: 20 }, sessionDuration: { type: "integer", minimum: 900 } }, required: ["roleArn", "sessionDuration"] },
            { type: "null" },
          ],
        },
      },
    };
    const { recognizer } = exact(schema);
    const valid = validatorFor(schema);
    const role = "arn:aws:iam::123456789012:role/x";
    const values = [
      { auth: null },
      { auth: { accessKeyId: "a", secretAccessKey: "b" } },
      { auth: { roleArn: role, sessionDuration: 900 } },
      { auth: { roleArn: null, sessionDuration: 3600 } },
      { auth: { accessKeyId: "a", secretAccessKey: "b", roleArn: role, sessionDuration: 900 } },
      { auth: { accessKeyId: "a", secretAccessKey: "b", roleArn: role, sessionDuration: 899 } },
      { auth: { accessKeyId: "a", secretAccessKey: "b", roleArn: role, sessionDuration: 900.5 } },
      { auth: { accessKeyId: "a", secretAccessKey: "b", roleArn: "short", sessionDuration: 900 } },
      { auth: { roleArn: role, sessionDuration: 899 } },
      { auth: {} },
    ];
    let accepted = 0;
    for (const v of values) {
      const ok = canonicalText(recognizer, v) !== null;
      expect(ok, JSON.stringify(v)).toBe(valid(v));
      if (ok) accepted++;
    }
    expect(accepted).toBe(7);
  });

  it("keeps a non-integer beside bounds relaxed with the pointer of its not", () => {
    const result = compileSchema({ type: "number", minimum: 0, not: { type: "integer" } });
    if (!result.ok) throw new Error(result.refusal.message);
    expect(result.grammar.relaxations.map((x) => `${x.pointer} ${x.keyword}`)).toEqual(["/not not"]);
  });
});
