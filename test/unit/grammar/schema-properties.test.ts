/**
 * Property tests over random schemas from the supported subset: completeness (valid instances are
 * accepted by the recognizer), soundness (random walks of the grammar are JSON that ajv validates),
 * and rejection of invalid instances.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { GbnfRecognizer, compileSchema, parseGbnf, type JsonSchema } from "../../../src/core/grammar";
import { GrammarSampler } from "../../../src/core/grammar/sampler";
import { canonicalText } from "../../../src/core/grammar/canonical-text";
import { validatorFor } from "./helpers/ajv";
import { InstanceGenerator } from "./helpers/instances";
import { seededRandom } from "./helpers/rng";
import { schemaArbitrary } from "./helpers/schema-arbitrary";
import { longestText, repetitionBounds } from "./helpers/longest-text";
import { scaled } from "../../helpers/scale";

const CAPS = { maxStringChars: 24, maxItems: 4, maxKeys: 3, recursionDepth: 2, anyValueDepth: 2, anyValueMembers: 3 };
const RUNS = Number(process.env.GRAMMAR_PROPERTY_RUNS ?? scaled(2000, 800));
// A fixed seed keeps runs reproducible; GRAMMAR_PROPERTY_SEED=<n> explores others (fast-check prints a failing seed).
const SEED = Number(process.env.GRAMMAR_PROPERTY_SEED ?? 20261201);
const INSTANCES = 50;
const WALKS = 20;

/**
 * The schema as the caps read it: an object whose keys are all extra keys holds at most maxKeys of them. A value
 * drawn for one anyOf branch may be valid only through a free-form branch with more keys than the caps give it;
 * the grammar rightly leaves such a value out, so completeness is checked against this schema.
 */
function withKeyCaps(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(withKeyCaps);
  if (!schema || typeof schema !== "object") return schema;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(schema)) out[k] = k === "const" || k === "enum" ? v : withKeyCaps(v);
  const objectLike = out.type === "object" || "properties" in out || "additionalProperties" in out;
  const declared = out.properties && typeof out.properties === "object" ? Object.keys(out.properties).length : 0;
  if (objectLike && declared === 0 && out.additionalProperties !== false && !("patternProperties" in out)) {
    out.maxProperties = Math.min(CAPS.maxKeys, typeof out.maxProperties === "number" ? out.maxProperties : Infinity);
  }
  return out;
}

function describeFailure(schema: JsonSchema, text: string): string {
  return `schema ${JSON.stringify(schema)}\ntext ${JSON.stringify(text)}`;
}

describe("compiled schema grammars (property tests)", () => {
  it(`are complete and sound for ${RUNS} random schemas of the supported subset`, () => {
    let schemas = 0;
    let instances = 0;
    let walks = 0;
    let unsatisfiable = 0;
    fc.assert(
      fc.property(schemaArbitrary(), fc.integer(), (schema, seed) => {
        const result = compileSchema(schema, CAPS);
        const validate = validatorFor(schema);
        const validateCapped = validatorFor(withKeyCaps(schema) as JsonSchema);
        const random = seededRandom(seed);
        const generator = new InstanceGenerator(schema, CAPS, random);
        if (!result.ok) {
          expect(result.refusal.keyword, result.refusal.message).toBe("schema");
          // Reported as unsatisfiable: then no candidate may validate either.
          for (let attempt = 0; attempt < 100; attempt++) {
            const value = generator.next();
            if (value !== undefined) expect(validate(value), `unsatisfiable? ${JSON.stringify(schema)} ${JSON.stringify(value)}`).toBe(false);
          }
          unsatisfiable++;
          return;
        }
        const compiled = result.grammar;
        expect(compiled.relaxations, JSON.stringify(schema)).toEqual([]);
        const grammar = parseGbnf(compiled.gbnf);
        const recognizer = new GbnfRecognizer(grammar);
        // Finite, llama.cpp-safe bounds, and maxBytes is exactly the longest text the grammar accepts.
        expect(Number.isFinite(compiled.maxBytes)).toBe(true);
        expect(Math.max(0, ...repetitionBounds(grammar))).toBeLessThan(2000);
        const longest = longestText(grammar);
        // (The recognizer re-checks the derivation where that is cheap; the longest texts reach 180,000 characters.)
        if (longest.length <= 4000 && !recognizer.accepts(longest)) expect.fail(`longest derivation rejected\n${describeFailure(schema, longest)}`);
        expect(Buffer.byteLength(longest, "utf8"), JSON.stringify(schema)).toBe(compiled.maxBytes);
        if (!validate(JSON.parse(longest))) expect.fail(`the longest text is an invalid value\n${describeFailure(schema, longest)}`);
        let valid = 0;
        for (let attempt = 0; attempt < 2000 && valid < INSTANCES; attempt++) {
          const value = generator.next();
          if (value === undefined || !validate(value) || !validateCapped(value)) continue;
          valid++;
          // Written in the grammar's key order (a case of an if/then/else may require a key the rest leaves optional, which moves it first).
          const text = JSON.stringify(value);
          if (!recognizer.accepts(text) && canonicalText(recognizer, value) === null) expect.fail(`valid instance rejected\n${describeFailure(schema, text)}\n${compiled.gbnf}`);
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
      { numRuns: RUNS, seed: SEED },
    );
    expect(schemas + unsatisfiable).toBe(RUNS);
    // Unsatisfiable draws are rare; almost every run checks a real grammar.
    expect(unsatisfiable).toBeLessThan(RUNS * 0.05);
    console.log(`grammar properties: ${schemas} schemas, ${instances} valid instances accepted, ${walks} walks validated, ${unsatisfiable} unsatisfiable`);
    // 2,000 schemas: about 45 s on an idle 2-core machine, over 250 s when it is shared; the limit is a hang guard only.
  }, 600_000);

  it("reject invalid instances: wrong key, wrong type, out-of-range integer, extra key, missing required key", () => {
    let rejected = 0;
    fc.assert(
      fc.property(schemaArbitrary(2), schemaArbitrary(2), integerBounds, fc.integer(), (a, b, bounds, seed) => {
        const schema = {
          type: "object",
          properties: { a, b, n: { type: "integer", minimum: bounds[0], maximum: bounds[1] } },
          required: ["a", "n"],
          additionalProperties: false,
        };
        const result = compileSchema(schema, CAPS);
        if (!result.ok || result.grammar.relaxations.length) return;
        const compiled = result.grammar;
        const recognizer = new GbnfRecognizer(compiled.gbnf);
        const validate = validatorFor(schema);
        const generator = new InstanceGenerator(schema, CAPS, seededRandom(seed));
        for (let attempt = 0; attempt < 200; attempt++) {
          const value = generator.next() as Record<string, unknown> | undefined;
          if (value === undefined || !validate(value)) continue;
          const mutants: Array<Record<string, unknown>> = [
            { ...value, zz_extra: 1 },
            Object.fromEntries(Object.entries(value).filter(([k]) => k !== "a")),
            Object.fromEntries(Object.entries(value).map(([k, v]) => [k === "a" ? "A" : k, v])),
            { ...value, n: bounds[1] + 1 },
            { ...value, n: bounds[0] - 1 },
            { ...value, n: "1" },
            ...[123, "str", true, null, [], {}, 1.5].map((wrong) => ({ ...value, a: wrong })),
          ];
          for (const mutant of mutants) {
            if (validate(mutant)) continue;
            const text = JSON.stringify(mutant);
            if (recognizer.accepts(text)) expect.fail(`invalid instance accepted\n${describeFailure(schema, text)}`);
            rejected++;
          }
          return;
        }
      }),
      { numRuns: Math.max(100, RUNS / 4), seed: SEED },
    );
    expect(rejected).toBeGreaterThan(RUNS / 4);
  });
});

const integerBounds = fc.tuple(fc.integer({ min: -1000, max: 1000 }), fc.integer({ min: 0, max: 5000 })).map(([lo, span]) => [lo, lo + span] as [number, number]);
