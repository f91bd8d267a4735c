import { describe, expect, it } from "vitest";
import type { Engine, GenerateResult } from "../../../src/core/ports/engine";
import { createNodeEngine } from "../../../src/engine/client/node-launcher";
import { runSelfCheck } from "../../../src/plugin/models/self-check";
import { testModelPath } from "../../helpers/test-model";

describe("model self-check", () => {
  it("passes on a model that loads and generates the one-token grammar reply", async () => {
    const engine = createNodeEngine({ model: { path: await testModelPath(), contextSize: 1024, threads: 1 } });
    try {
      const result = await runSelfCheck(engine);
      expect(result.detail).toMatch(/^Self-check passed with the ChatML chat format in \d+\.\d s\.$/);
      expect(result.ok).toBe(true);
    } finally {
      await engine.shutdown();
    }
  });

  it("fails with a sentence when the model file cannot load", async () => {
    const engine = createNodeEngine({ model: { path: "/nonexistent/model.gguf" } });
    try {
      const result = await runSelfCheck(engine);
      expect(result.ok).toBe(false);
      expect(result.detail).toContain("does not exist");
    } finally {
      await engine.shutdown();
    }
  });

  it("fails when the reply does not end where the grammar does", async () => {
    const reply: GenerateResult = { text: "{", tokensIn: 3, tokensOut: 1, promptEvalMs: 1, generateMs: 1, stopReason: "maxTokens" };
    const engine = { modelInfo: async () => ({ path: "", name: "m", architecture: "llama", fileSizeBytes: 1, hasChatTemplate: true }), generate: async () => reply } as unknown as Engine;
    expect(await runSelfCheck(engine)).toEqual({ ok: false, detail: 'Self-check failed: the one-token grammar reply was "{" (maxTokens) instead of "{".' });
  });
});
