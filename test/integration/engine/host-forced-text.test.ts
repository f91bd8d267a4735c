/** The engine host's generate op under a grammar: forced-text generation by default, llama.cpp's grammar alone on request. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GbnfRecognizer, compileEnvelopeGrammar } from "../../../src/core/grammar";
import type { GenerateRequest } from "../../../src/core/ports/engine";
import type { EngineClient } from "../../../src/engine/client/engine-client";
import { createNodeEngine } from "../../../src/engine/client/node-launcher";
import { testModelPath } from "../../helpers/test-model";

let engine: EngineClient;
beforeAll(async () => {
  engine = createNodeEngine({ model: { path: await testModelPath(), contextSize: 2048 } });
});
afterAll(async () => {
  await engine?.shutdown();
});

const tools = [{ name: "vault:read", schema: { type: "object", properties: { path: { type: "string", maxLength: 32 } }, required: ["path"], additionalProperties: false } }];
const gbnf = compileEnvelopeGrammar(tools, { maxThoughtChars: 64, maxMessageChars: 64, maxToolCalls: 2 }).gbnf;
const recognizer = new GbnfRecognizer(gbnf);
const messages = [{ role: "user" as const, content: "Read my note about bees." }];

describe("engine host generation under a grammar", () => {
  it("jumps over forced text: fewer tokens sampled than produced, the stream equals the reply, the envelope is in the language", async () => {
    for (const seed of [1, 2, 3]) {
      let streamed = "";
      const result = await engine.generate({ messages, grammar: gbnf, maxTokens: 600, temperature: 1, seed, onText: (t) => (streamed += t) });
      expect(result.stopReason).toBe("eos");
      expect(recognizer.accepts(result.text)).toBe(true);
      expect(streamed).toBe(result.text);
      expect(result.tokensSampled).toBeGreaterThan(0);
      expect(result.tokensSampled).toBeLessThan(result.tokensOut);
      expect(result.tokensIn).toBeGreaterThan(5);
    }
  });

  it("generates through llama.cpp's grammar alone when jumpForward is false, from the same rendered prompt", async () => {
    const request = { messages, grammar: gbnf, maxTokens: 600, temperature: 1, seed: 4, jumpForward: false } as GenerateRequest;
    const result = await engine.generate(request);
    expect(recognizer.accepts(result.text)).toBe(true);
    expect(result.tokensSampled).toBeUndefined();
    const jumping = await engine.generate({ messages, grammar: gbnf, maxTokens: 600, temperature: 1, seed: 4 });
    expect(jumping.tokensIn).toBe(result.tokensIn);
  });

  it("reports a cut at maxTokens as maxTokens, forced tokens counted", async () => {
    const result = await engine.generate({ messages, grammar: gbnf, maxTokens: 6, temperature: 1, seed: 5 });
    expect(result.stopReason).toBe("maxTokens");
    expect(result.tokensOut).toBeLessThanOrEqual(6);
    expect(recognizer.acceptsPrefix(result.text)).toBe(true);
  });

  it("renders the prompt as the chat path does: a follow-up turn reuses the evaluated prefix", async () => {
    const first = await engine.generate({ messages, grammar: gbnf, maxTokens: 600, temperature: 1, seed: 6, conversationId: "c1" });
    const next = [...messages, { role: "assistant" as const, content: first.text }, { role: "user" as const, content: "And the other one." }];
    const second = await engine.generate({ messages: next, grammar: gbnf, maxTokens: 600, temperature: 1, seed: 7, conversationId: "c1" });
    expect(second.tokensEvaluated).toBeLessThan(second.tokensIn - first.tokensIn);
    expect(recognizer.accepts(second.text)).toBe(true);
  });
});
