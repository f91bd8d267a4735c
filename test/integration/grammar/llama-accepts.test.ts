/** Every grammar the compiler emits is accepted by llama.cpp's own GBNF parser (no model needed). */
import fc from "fast-check";
import { getLlama, type Llama } from "node-llama-cpp";
import { beforeAll, describe, expect, it } from "vitest";
import { GbnfWalker, GrammarSampler, compileEnvelopeGrammar, compileSchema, compileSchemaGrammar, type JsonSchema } from "../../../src/core/grammar";
import { restGrammar } from "../../../src/core/grammar/rest-grammar";
import { hasBenchmark, sampleSchemas } from "../../unit/grammar/helpers/benchmark-schemas";
import { syntheticGrammarTools } from "../../unit/grammar/helpers/catalog";
import { schemaArbitrary } from "../../unit/grammar/helpers/schema-arbitrary";
import { seededRandom } from "../../unit/grammar/helpers/rng";

let llama: Llama;
beforeAll(async () => {
  llama = await getLlama({ gpu: false, build: "never" });
});

async function llamaAccepts(gbnf: string): Promise<void> {
  const grammar = await llama.createGrammar({ grammar: gbnf });
  expect(grammar.grammar).toBe(gbnf);
}

const catalog = syntheticGrammarTools();

describe("llama.cpp accepts every compiled grammar", () => {
  it("accepts the full synthetic catalog envelope, each tool alone, static mode and the empty subset", async () => {
    await llamaAccepts(compileEnvelopeGrammar(catalog).gbnf);
    await llamaAccepts(compileEnvelopeGrammar(catalog, { mode: "static" }).gbnf);
    await llamaAccepts(compileEnvelopeGrammar([]).gbnf);
    for (const tool of catalog) await llamaAccepts(compileEnvelopeGrammar([tool]).gbnf);
  });

  it("accepts the real tool catalog's envelope", async () => {
    const { grammarCatalog } = await import("../../../src/node/commands/grammar");
    const { tools } = await grammarCatalog();
    const compiled = compileEnvelopeGrammar(tools);
    expect(compiled.relaxations).toEqual([]);
    await llamaAccepts(compiled.gbnf);
  });

  it("accepts the rest of the real catalog's envelope after cuts of sampled envelopes (what the llama-server forced-text path sends)", async () => {
    const { grammarCatalog } = await import("../../../src/node/commands/grammar");
    const { tools } = await grammarCatalog();
    const gbnf = compileEnvelopeGrammar(tools).gbnf;
    const walker = new GbnfWalker(gbnf);
    for (let seed = 1; seed <= 6; seed++) {
      const chars = [...new GrammarSampler(gbnf, { random: seededRandom(seed) }).sample()];
      for (const cut of [0, 13, Math.floor(chars.length / 2), chars.length - 1]) {
        await llamaAccepts(restGrammar(walker.advance(walker.start(), chars.slice(0, cut).join(""))!));
      }
    }
  });

  it("accepts grammars with escaped keys, long strings, tricky patterns and relaxations", async () => {
    const schemas: JsonSchema[] = [
      { type: "object", properties: { 'q"k': { type: "string" }, "x\\y": { type: "integer" }, é: { type: "null" }, "\u0001": { type: "boolean" } }, additionalProperties: { type: "number" } },
      { type: "string", maxLength: 9000, minLength: 2500 },
      { type: "string", pattern: '^["\\\\\\]\\[\\-^]{1,30}$' },
      { type: "string", pattern: "^[^\\n]{1,200}\\.canvas$" },
      { type: "string", pattern: "^(?=x)" },
      { type: "object", properties: { gone: { not: {} }, kept: { type: "string", pattern: "^[a-z]+(?:-[a-z0-9]+)*$" } } },
      { type: "string", pattern: "^(https?:\\/\\/)?([\\da-z\\.-]+)\\.([a-z\\.]{2,6})([\\/\\w \\.-]*)*\\/?$" },
      { type: "object", patternProperties: { "^[a-z_]*$": { type: "integer" } }, additionalProperties: false, minProperties: 1, maxProperties: 3 },
      { type: "number", exclusiveMinimum: 0, exclusiveMaximum: 1e-3 },
      { type: "number", minimum: 1234567.1, exclusiveMaximum: 4.1e7 },
      { type: "object", properties: { "\n": { type: "null" }, "😀": { type: "null" }, "\u001f": { type: "null" } }, additionalProperties: { type: "boolean" } },
      { type: "array", items: { type: "integer" }, minItems: 2100, maxItems: 4500 },
      true,
    ];
    for (const s of schemas) await llamaAccepts(compileSchemaGrammar(s).gbnf);
  });

  it("accepts 300 grammars of random schemas", async () => {
    const samples = fc.sample(schemaArbitrary(), { numRuns: 300, seed: 42 });
    for (const s of samples) {
      const result = compileSchema(s);
      if (result.ok) await llamaAccepts(result.grammar.gbnf);
    }
  });

  it.skipIf(!hasBenchmark)("accepts the grammars of real-world schemas (6 per JSONSchemaBench split)", async () => {
    let checked = 0;
    for (const { schema } of sampleSchemas(6)) {
      const result = compileSchema(schema);
      if (!result.ok) continue;
      await llamaAccepts(result.grammar.gbnf);
      checked++;
    }
    expect(checked).toBeGreaterThanOrEqual(55);
  });

  it("rejects a malformed grammar, so the checks above can fail", async () => {
    await expect(llama.createGrammar({ grammar: 'root ::= "a" (' })).rejects.toThrow();
  });
});
