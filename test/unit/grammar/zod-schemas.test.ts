/** Real Zod 4 output: format patterns enforced exactly, and every catalog tool's args grammar sound. */
import { z } from "zod";
import { describe, expect, it } from "vitest";
import { GbnfRecognizer, GrammarSampler, compileSchemaGrammar, type JsonSchema } from "../../../src/core/grammar";
import { validatorFor } from "./helpers/ajv";
import { syntheticGrammarTools } from "./helpers/catalog";
import { seededRandom } from "./helpers/rng";

/** Random walks of the schema's grammar: every one must be JSON that ajv validates. */
function walksValidate(schema: JsonSchema, walks: number, seed = 1): void {
  const compiled = compileSchemaGrammar(schema);
  expect(compiled.relaxations).toEqual([]);
  const validate = validatorFor(schema);
  const sampler = new GrammarSampler(compiled.gbnf, { random: seededRandom(seed) });
  for (let i = 0; i < walks; i++) {
    const text = sampler.sample();
    expect(validate(JSON.parse(text)), text).toBe(true);
  }
}

describe("Zod format schemas", () => {
  const cases: Array<[string, z.ZodType, string[], string[]]> = [
    ["z.iso.date()", z.iso.date(), ["2024-02-29", "1999-12-31", "0000-02-29"], ["2023-02-29", "2024-13-01", "24-01-01"]],
    ["z.iso.datetime()", z.iso.datetime(), ["2024-02-29T23:59:59Z", "2024-01-01T00:00:00.123Z"], ["2024-01-01T00:00Z", "2024-01-01T00:00:00+01:00"]],
    ["z.iso.datetime({ offset: true })", z.iso.datetime({ offset: true }), ["2024-01-01T00:00:00+01:00", "2024-01-01T00:00:00Z"], ["2024-01-01T00:00:00+1:00"]],
    ["z.uuid()", z.uuid(), ["123e4567-e89b-12d3-a456-426614174000", "00000000-0000-0000-0000-000000000000"], ["123e4567-e89b-02d3-a456-426614174000"]],
  ];
  for (const [name, type, valid, invalid] of cases) {
    it(`compiles ${name} (format and pattern together) exactly: sound walks, valid accepted, invalid rejected`, () => {
      const schema = z.toJSONSchema(type) as Record<string, unknown>;
      walksValidate(schema, 300);
      const r = new GbnfRecognizer(compileSchemaGrammar(schema).gbnf);
      const validate = validatorFor(schema);
      for (const v of valid) {
        expect(validate(v), v).toBe(true);
        expect(r.accepts(JSON.stringify(v)), v).toBe(true);
      }
      for (const v of invalid) {
        expect(validate(v), v).toBe(false);
        expect(r.accepts(JSON.stringify(v)), v).toBe(false);
      }
    });
  }
});

describe("synthetic catalog args", () => {
  it("compiles every tool without a relaxation, and random walks of each validate", () => {
    for (const [i, tool] of syntheticGrammarTools().entries()) walksValidate(tool.schema, 40, i + 1);
  });
});
