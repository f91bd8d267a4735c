import { describe, expect, it } from "vitest";
import { compileEnvelopeGrammar } from "../../../src/core/grammar";
import { ScriptedEngine } from "../../../src/engine/scripted";
import { createNodeEngine } from "../../../src/engine/client/node-launcher";
import { composeHeadless } from "../../../src/node/compose";
import { createToolCatalog } from "../../../src/tools/index";
import { ToolRegistry } from "../../../src/tools/registry";
import { testModelPath } from "../../helpers/test-model";
import { copyVault } from "./scripted-helpers";

describe("the grammars the headless agent sends to a real model", () => {
  it("are the compiler's defaults over the real catalog, unclamped, and llama.cpp accepts every one of them", async () => {
    // Composed as for a real model (an injected engine is not the test model), so no test-model caps apply; without
    // grounding, whose vault-made rules (paths, tags) grounded-calls tests check on their own.
    const { grammars, registry } = await composeHeadless({ vault: copyVault(), engine: new ScriptedEngine([]), memory: false, grounding: false });
    const whole = new ToolRegistry(createToolCatalog());
    const defaults = compileEnvelopeGrammar(whole.grammarTools());
    // The full schemas (a 20,000-character note body) go in as they are: bounds past 1999 are the compiler's job.
    expect(grammars.get(registry.names(), "dynamic").gbnf).toBe(compileEnvelopeGrammar(registry.grammarTools()).gbnf);
    expect(defaults.maxBytes).toBeGreaterThan(20_000);
    const engine = createNodeEngine({ model: { path: await testModelPath(), contextSize: 2048, threads: 1 } });
    const rejected: string[] = [];
    const subsets: [string, string][] = [
      ["whole catalog (semantic and web tools too), default options", defaults.gbnf],
      ["whole catalog, static", compileEnvelopeGrammar(whole.grammarTools(), { mode: "static" }).gbnf],
      ["none", grammars.get([], "dynamic").gbnf],
      ["all", grammars.get(registry.names(), "dynamic").gbnf],
      ...registry.names().map((n): [string, string] => [n, grammars.get([n], "dynamic").gbnf]),
      ...registry.names().map((n): [string, string] => [`${n} (static)`, grammars.get([n], "static").gbnf]),
    ];
    try {
      for (const [label, gbnf] of subsets) {
        try {
          const r = await engine.generate({ messages: [{ role: "user", content: "hi" }], grammar: gbnf, maxTokens: 2, seed: 1 });
          expect(r.tokensOut).toBeGreaterThan(0);
        } catch (err) {
          rejected.push(`${label}: ${(err as Error).message.slice(0, 80)}`);
        }
      }
      // The check can fail: llama.cpp refuses a repetition of more than 2000 (node-llama-cpp 3.21.1's also refused
      // exactly 2000, 3.22.1's accepts it; an upper bound past 2000 silently becomes unbounded in both, so only a
      // minimum past it is refused by both). The compiler's bounds stop at 1999.
      await expect(engine.generate({ messages: [{ role: "user", content: "hi" }], grammar: 'root ::= "a"{2001}', maxTokens: 2 })).rejects.toThrow();
    } finally {
      await engine.shutdown();
    }
    expect(rejected).toEqual([]);
  });
});
