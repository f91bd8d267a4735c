/**
 * Values sampled through the engine host (the real path, with its token bans) on the random-weight
 * test model at temperature 1, under the grammars of 20 real-world schemas (2 per JSONSchemaBench
 * split, the first whose grammar is exact): every value must be valid by ajv for the schema's draft.
 */
import { afterAll, describe, expect, it } from "vitest";
import { createNodeEngine } from "../../../src/engine/client/node-launcher";
import { sampleValues, samplingGrammar } from "../../../src/node/sample-values";
import { schemaValidator } from "../../../src/node/schema-validator";
import { testModelPath } from "../../helpers/test-model";
import { hasBenchmark, sampleSchemas } from "../../unit/grammar/helpers/benchmark-schemas";
import { scaled } from "../../helpers/scale";

const PER_SPLIT = 2;
const VALUES = scaled(20, 8);

function pick() {
  const chosen: Array<{ id: string; schema: Parameters<typeof samplingGrammar>[0]; grammar: ReturnType<typeof samplingGrammar>; validate: (v: unknown) => boolean }> = [];
  const perSplit = new Map<string, number>();
  for (const { id, schema } of sampleSchemas()) {
    const split = id.slice(0, id.indexOf("/"));
    if ((perSplit.get(split) ?? 0) >= PER_SPLIT) continue;
    let grammar;
    let validate;
    try {
      grammar = samplingGrammar(schema, true);
      validate = schemaValidator(schema);
    } catch {
      continue;
    }
    // Exact grammars only (a relaxed one may legitimately produce values the gatekeeper corrects), of a size llama.cpp parses quickly.
    if (grammar.relaxations.length || grammar.gbnf.length > 60_000) continue;
    perSplit.set(split, (perSplit.get(split) ?? 0) + 1);
    chosen.push({ id, schema, grammar, validate });
  }
  return chosen;
}

let shutdown: (() => Promise<void>) | undefined;
afterAll(async () => {
  await shutdown?.();
});

describe.skipIf(!hasBenchmark)("sampling real-world schemas through the host", () => {
  it(`yields ${VALUES} values for each of 20 sample schemas at temperature 1, all valid by ajv`, { timeout: 1_500_000 }, async () => {
    const chosen = pick();
    expect(chosen.length).toBe(20);
    const engine = createNodeEngine({ model: { path: await testModelPath(), contextSize: 4096, threads: 1 } });
    shutdown = () => engine.shutdown();
    const failures: string[] = [];
    let values = 0;
    for (const c of chosen) {
      const sampled = await sampleValues(engine, c.schema, c.grammar, c.validate, { n: VALUES, seed: 7, temperature: 1 });
      values += sampled.length;
      for (const v of sampled) if (!v.valid || v.stopReason !== "eos") failures.push(`${c.id} (${v.stopReason}): ${v.text.slice(0, 200)}`);
    }
    console.log(`sampled ${values} values for ${chosen.length} schemas (${chosen.map((c) => c.id).join(", ")}), ${failures.length} failures`);
    expect(failures).toEqual([]);
    expect(values).toBe(20 * VALUES);
  });
});
