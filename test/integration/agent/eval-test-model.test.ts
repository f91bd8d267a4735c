import { describe, expect, it } from "vitest";
import { createNodeEngine } from "../../../src/engine/client/node-launcher";
import { formatTable, runEval } from "../../../src/node/eval/run-eval";
import { EVAL_SUITE } from "../../../src/node/eval/suite";
import { testModelPath } from "../../helpers/test-model";

describe("eval on the random-weight test model", () => {
  it("runs all four configurations to completion with 100% valid envelopes under every grammar", async () => {
    const engine = createNodeEngine({ model: { path: await testModelPath(), contextSize: 4096, threads: 1 } });
    try {
      // A spread of cases: reads, writes, chat only.
      const cases = [EVAL_SUITE[0], EVAL_SUITE[20], EVAL_SUITE[60], EVAL_SUITE[120], EVAL_SUITE.at(-1)!, EVAL_SUITE.at(-4)!];
      const rows = await runEval({
        engine,
        cases,
        freeMaxTokens: 48,
        grammarOptions: { maxThoughtChars: 16, maxMessageChars: 24, maxStringChars: 16, maxToolCalls: 1, maxItems: 2, maxKeys: 2, recursionDepth: 1, anyValueDepth: 1, anyValueMembers: 2 },
        clamp: { maxString: 16, maxItems: 2 },
        seed: 1,
        temperature: 0.8,
      });
      expect(rows.map((r) => r.config)).toEqual(["prompt only", "full-catalog grammar", "router + grammar", "router + grammar + recovery"]);
      for (const r of rows) {
        expect(r.cases).toBe(cases.length);
        expect(r.generations).toBeGreaterThanOrEqual(cases.length);
        if (r.config !== "prompt only") expect(r.valid_json_pct, r.config).toBe(100);
        if (r.config !== "prompt only") expect(r.mixed_tool_hybrids, r.config).toBe(0);
        if (r.config !== "prompt only") expect(r.utf8_valid_pct, r.config).toBe(100);
      }
      expect(formatTable(rows)).toMatch(/router \+ grammar \+ recovery\s+100/);
    } finally {
      await engine.shutdown();
    }
  });
});
