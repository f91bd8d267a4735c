/**
 * Property tests over random schemas from the supported subset: completeness (valid instances are
 * accepted by the recognizer), soundness (random walks of the grammar are JSON that ajv validates),
 * and rejection of invalid instances.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { GbnfRecognizer, compileSchemaGrammar, parseGbnf, type JsonSchema } from "../../../src/core/grammar";
import { GrammarSampler } from "../../../src/core/grammar/sampler";
import { validatorFor } from "./helpers/ajv";
import { InstanceGenerator } from "./helpers/instances";
import { seededRandom } from "./helpers/rng";
import { schemaArbitrary } from "./helpers/schema-arbitrary";

const CAPS = { maxStringChars: 24, maxItems: 4, maxKeys: 3, recursionDepth: 2 };
const RUNS = Number(process.env.GRAMMAR_PROPERTY_RUNS ?? 2000);
const INSTANCES = 50;
const WALKS = 20;

function describeFailure(schema: JsonSchema, text: string): string {
  return `schema ${JSON.stringify(schema)}\ntext ${JSON.stringify(text)}`;
}

describe("compiled schema grammars (property tests)", () => {
  it(`are complete and sound for ${RUNS} random schemas of the supported subset`, () => {
    let schemas = 0;
    let instances = 0;
    let walks = 0;
    fc.assert(
      fc.property(schemaArbitrary(), fc.integer(), (schema, seed) => {
        const compiled = compileSchemaGrammar(schema, CAPS);
        expect(compiled.fallbacks, JSON.stringify(schema)).toEqual([]);
        const grammar = parseGbnf(compiled.gbnf);
        const recognizer = new GbnfRecognizer(grammar);
        const validate = validatorFor(schema);
        const random = seededRandom(seed);
        const generator = new InstanceGenerator(schema, CAPS, random);
        let valid = 0;
        for (let attempt = 0; attempt < 600 && valid < INSTANCES; attempt++) {
          const value = generator.next();
          if (value === undefined || !validate(value)) continue;
          valid++;
          const text = JSON.stringify(value);
          if (!recognizer.accepts(text)) expect.fail(`valid instance rejected\n${describeFailure(schema, text)}\n${compiled.gbnf}`);
        }
        expect(valid, `too few valid instances generated for ${JSON.stringify(schema)}`).toBeGreaterThanOrEqual(INSTANCES);
        const sampler = new GrammarSampler(grammar, { random });
        for (let w = 0; w < WALKS; w++) {
          const text = sampler.sample();
          expect(Buffer.byteLength(text, "utf8")).toBeLessThanOrEqual(compiled.maxBytes);
          let value: unknown;
          try {
            value = JSON.parse(text);
          } catch {
            expect.fail(`grammar produced text JSON.parse rejects\n${describeFailure(schema, text)}`);
          }
          if (!validate(value)) expect.fail(`grammar produced an invalid value\n${describeFailure(schema, text)}\n${compiled.gbnf}`);
        }
        schemas++;
        instances += valid;
        walks += WALKS;
      }),
      { numRuns: RUNS },
    );
    expect(schemas).toBe(RUNS);
    console.log(`grammar properties: ${schemas} schemas, ${instances} valid instances accepted, ${walks} walks validated`);
  });
});
