/**
 * The llama-server engine's forced-text path against a real llama-server: the grammar's forced text goes out as part
 * of the prompt, and each `/completion` continues under the grammar of what may follow. The reply must be in the
 * original grammar's language, capped at maxTokens, and a cancelled turn must settle as an abort.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseEnvelope } from "../../../src/core/agent/envelope-parse";
import { GbnfRecognizer, SubsetCache } from "../../../src/core/grammar";
import { LlamaServerEngine } from "../../../src/engine/server/llama-server-engine";
import { serverSplitCharacterTokens } from "../../../src/host/server-token-ban";
import type { ForcedTextReply } from "../../../src/engine/server/forced-text-completion";
import { clampTools } from "../../../src/app/clamp-schema";
import { TEST_MODEL_CLAMP, TEST_MODEL_GRAMMAR } from "../../../src/node/compose";
import { createToolCatalog } from "../../../src/tools/index";
import { ToolRegistry } from "../../../src/tools/registry";
import { requireLlamaServer, startLlamaServer, type RunningServer } from "../../helpers/llama-server";
import { testModelPath } from "../../helpers/test-model";

const bin = requireLlamaServer("the forced-text path tests");

function envelopeGrammar(tools: string[]): string {
  const registry = new ToolRegistry(createToolCatalog({ semantic: false, network: false }));
  return new SubsetCache(clampTools(registry.grammarTools(), TEST_MODEL_CLAMP), TEST_MODEL_GRAMMAR).get(tools).gbnf;
}

describe.skipIf(!bin)("llama-server engine, forced text as prompt (real llama-server)", () => {
  let server: RunningServer;
  let engine: LlamaServerEngine;

  beforeAll(async () => {
    server = await startLlamaServer(bin!, await testModelPath(), ["-c", "4096", "-np", "1"]);
    // As the engine host makes it: the split-character ban keeps llama.cpp's byte-level grammar on whole characters.
    engine = new LlamaServerEngine({ kind: "llama-server", url: server.url, forcedText: true }, { splitCharacterTokens: serverSplitCharacterTokens });
    await engine.connect();
  }, 240_000);
  afterAll(async () => server?.stop());

  it("answers with envelopes in the grammar's language, in several requests", async () => {
    const grammar = envelopeGrammar(["vault:read", "vault:list", "vault:write"]);
    const recognizer = new GbnfRecognizer(grammar);
    for (const seed of [1, 2, 3]) {
      const streamed: string[] = [];
      const reply = (await engine.generate({ messages: [{ role: "user", content: "Read my inbox." }], grammar, maxTokens: 1500, seed, onText: (t) => streamed.push(t) })) as ForcedTextReply;
      expect(reply.stopReason).toBe("eos");
      expect(recognizer.accepts(reply.text)).toBe(true);
      expect(parseEnvelope(reply.text).ok).toBe(true);
      expect(streamed.join("")).toBe(reply.text);
      // apply-template, tokenize, then at least the thought and one more stretch of sampling.
      expect(reply.requests).toBeGreaterThanOrEqual(4);
      expect(reply.forcedChars).toBeGreaterThanOrEqual('{"thought":"","status":"'.length);
      // Counted as the reply was sent back in the prompt: sampled text by the ids it was sampled as (under a grammar
      // these may split text the tokenizer would join), forced text as the server tokenizes it.
      const canonical = await engine.countTokens(reply.text);
      expect(reply.tokensOut).toBeGreaterThanOrEqual(canonical - 2);
      expect(reply.tokensOut).toBeLessThanOrEqual(canonical * 2);
    }
  }, 300_000);

  it("stops at maxTokens without going over", async () => {
    const grammar = envelopeGrammar(["vault:read"]);
    const reply = await engine.generate({ messages: [{ role: "user", content: "Write a long thought." }], grammar, maxTokens: 20, seed: 4 });
    expect(reply.stopReason).toBe("maxTokens");
    expect(reply.tokensOut).toBeLessThanOrEqual(20);
    expect(new GbnfRecognizer(grammar).acceptsPrefix(reply.text)).toBe(true);
  }, 120_000);

  it("a cancelled turn settles as an abort with a prefix of the language", async () => {
    const grammar = envelopeGrammar(["vault:read"]);
    const stop = new AbortController();
    let pieces = 0;
    const reply = await engine.generate({
      messages: [{ role: "user", content: "Read my inbox." }],
      grammar,
      maxTokens: 1500,
      seed: 5,
      signal: stop.signal,
      // The first piece is the forced opening; the third is well into sampling.
      onText: () => void (++pieces === 3 && stop.abort()),
    });
    expect(reply.stopReason).toBe("abort");
    expect(new GbnfRecognizer(grammar).acceptsPrefix(reply.text)).toBe(true);
    // The slot is free again: the next turn answers.
    const next = await engine.generate({ messages: [{ role: "user", content: "Read my inbox." }], grammar, maxTokens: 1500, seed: 6 });
    expect(parseEnvelope(next.text).ok).toBe(true);
  }, 180_000);
});
