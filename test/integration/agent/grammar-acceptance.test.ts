import { describe, expect, it } from "vitest";
import { ScriptedEngine } from "../../../src/engine/scripted";
import { createNodeEngine } from "../../../src/engine/client/node-launcher";
import { composeHeadless } from "../../../src/node/compose";
import { testModelPath } from "../../helpers/test-model";
import { copyVault } from "./scripted-helpers";

describe("the grammars the headless agent sends to a real model", () => {
  it("are all accepted by llama.cpp: every single tool, no tools, the full catalog, and the static forms", async () => {
    // Composed as for a real model (an injected engine is not the test model), so the real-model caps apply.
    const { grammars, registry } = await composeHeadless({ vault: copyVault(), engine: new ScriptedEngine([]), memory: false });
    const engine = createNodeEngine({ model: { path: await testModelPath(), contextSize: 2048, threads: 1 } });
    const rejected: string[] = [];
    const subsets: [string, string[], "dynamic" | "static"][] = [
      ["none", [], "dynamic"],
      ["all", registry.names(), "dynamic"],
      ...registry.names().map((n): [string, string[], "dynamic"] => [n, [n], "dynamic"]),
      ...registry.names().map((n): [string, string[], "static"] => [`${n} (static)`, [n], "static"]),
    ];
    try {
      for (const [label, names, mode] of subsets) {
        try {
          const r = await engine.generate({ messages: [{ role: "user", content: "hi" }], grammar: grammars.get(names, mode).gbnf, maxTokens: 2, seed: 1 });
          expect(r.tokensOut).toBeGreaterThan(0);
        } catch (err) {
          rejected.push(`${label}: ${(err as Error).message.slice(0, 80)}`);
        }
      }
    } finally {
      await engine.shutdown();
    }
    expect(rejected).toEqual([]);
  });
});
