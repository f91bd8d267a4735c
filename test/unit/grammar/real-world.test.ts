/**
 * The schemas that used to crash or run away (a pattern that overflowed the stack, two schemas that
 * did not finish in 30 s), and the whole shared sample: each compiles or is refused with a sentence,
 * within the grammar budgets. Sizes are asserted; wall time only as a generous guard (shared machine).
 */
import { describe, expect, it } from "vitest";
import { DEFAULT_GRAMMAR_OPTIONS, GbnfRecognizer, GrammarRefusal, compileSchema } from "../../../src/core/grammar";
import { canonicalText } from "../../../src/core/grammar/canonical-text";
import { benchmarkRecord, hasBenchmark, sampleSchemas } from "./helpers/benchmark-schemas";

const REGRESSIONS = ["Github_medium/o42580", "Github_ultra/o13934", "Github_ultra/o69209"];

describe.skipIf(!hasBenchmark)("real-world schemas", () => {
  for (const id of REGRESSIONS) {
    it(`compiles ${id} within the rule and size budgets`, () => {
      const record = benchmarkRecord(id);
      const started = performance.now();
      const result = compileSchema(record.schema);
      const ms = performance.now() - started;
      expect(result.ok, result.ok ? "" : result.refusal.message).toBe(true);
      if (!result.ok) return;
      const rules = result.grammar.gbnf.split("\n").filter((l) => l.includes(" ::= ")).length;
      expect(rules).toBeLessThanOrEqual(DEFAULT_GRAMMAR_OPTIONS.maxRules + 1);
      expect(result.grammar.gbnf.length).toBeLessThanOrEqual(DEFAULT_GRAMMAR_OPTIONS.maxGrammarBytes);
      expect(Number.isFinite(result.grammar.maxBytes)).toBe(true);
      // Was: a stack overflow, or over 30 s. A guard, not a benchmark (see bench schemas for ms).
      expect(ms).toBeLessThan(30_000);
      const r = new GbnfRecognizer(result.grammar.gbnf);
      for (const t of record.tests ?? []) {
        if (result.grammar.relaxations.length === 0) expect(canonicalText(r, t.data) !== null, `${id} ${JSON.stringify(t.data).slice(0, 200)}`).toBe(t.valid);
      }
    });
  }

  it("compiles o42580's pattern exactly and accepts its valid instances", () => {
    const result = compileSchema(benchmarkRecord("Github_medium/o42580").schema);
    expect(result.ok && result.grammar.relaxations).toEqual([]);
  });

  it("compiles or refuses every sample schema with one sentence, never throwing anything else", () => {
    let refused = 0;
    let compiled = 0;
    for (const { id, schema } of sampleSchemas(12)) {
      const result = compileSchema(schema);
      if (result.ok) {
        compiled++;
        expect(result.grammar.gbnf.length, id).toBeLessThanOrEqual(DEFAULT_GRAMMAR_OPTIONS.maxGrammarBytes);
      } else {
        refused++;
        expect(result.refusal).toBeInstanceOf(GrammarRefusal);
        expect(result.refusal.message).toMatch(/^The schema at .+ cannot be compiled \(.+\): .+\.$/);
      }
    }
    expect(compiled + refused).toBe(120);
    expect(refused).toBeLessThanOrEqual(2);
  });
});
