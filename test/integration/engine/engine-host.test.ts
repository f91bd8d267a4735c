/** The engine host on the generated test model, through the real client and a real child process. */
import { availableParallelism } from "node:os";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { compileSchemaGrammar } from "../../../src/core/grammar";
import { EngineError, type GenerateResult } from "../../../src/core/ports/engine";
import type { EngineClient } from "../../../src/engine/client/engine-client";
import { createNodeEngine } from "../../../src/engine/client/node-launcher";
import type { HostStatus } from "../../../src/engine/client/host-protocol";
import { TEST_MODEL_SHAPE } from "../../../src/node/test-model/test-model";
import { testModelPath } from "../../helpers/test-model";

let engine: EngineClient;
let modelPath: string;

beforeAll(async () => {
  modelPath = await testModelPath();
  engine = createNodeEngine({ model: { path: modelPath, contextSize: 2048 } });
});

afterAll(async () => {
  await engine?.shutdown();
});

const user = (content: string) => [{ role: "user" as const, content }];

describe("engine host", () => {
  it("starts lazily and loads the model with progress, reporting the model's facts", async () => {
    expect(engine.state).toBe("stopped");
    const progress: number[] = [];
    const info = await engine.loadModel({ onProgress: (p) => progress.push(p) });
    expect(engine.state).toBe("loaded");
    expect(progress.length).toBeGreaterThan(0);
    expect(progress.at(-1)).toBe(1);
    expect(info).toMatchObject({
      path: modelPath,
      architecture: "llama",
      quantization: "F16",
      trainedContextLength: TEST_MODEL_SHAPE.contextLength,
      embeddingLength: TEST_MODEL_SHAPE.embeddingLength,
      hasChatTemplate: true,
      contextSize: 2048,
    });
    expect(await engine.modelInfo()).toEqual(info);
  });

  it("chooses a thread count no larger than the available cores", async () => {
    const status = (await engine.request("status", {})) as HostStatus;
    expect(status.threads).toBeGreaterThanOrEqual(1);
    expect(status.threads).toBeLessThanOrEqual(availableParallelism());
    // The test model is tiny: one thread is fastest (measured: the default was ~300x slower).
    expect(status.threads).toBe(1);
  });

  it("generates free text up to maxTokens", async () => {
    const result = await engine.generate({ messages: user("Write anything."), maxTokens: 24, temperature: 0.8, seed: 7 });
    expect(result.tokensOut).toBeGreaterThan(0);
    expect(result.tokensOut).toBeLessThanOrEqual(24);
    expect(result.text.length).toBeGreaterThan(0);
    expect(result.tokensIn).toBeGreaterThan(5);
    expect(["maxTokens", "eos"]).toContain(result.stopReason);
  });

  it("generates output that parses as JSON under a small GBNF grammar", async () => {
    const grammar = [
      'root ::= "{" ws "\\"name\\":" ws str "," ws "\\"count\\":" ws num ws "}"',
      'str ::= "\\"" [a-z ]{1,20} "\\""',
      "num ::= [0-9]{1,4}",
      "ws ::= [ ]{0,2}",
    ].join("\n");
    for (const seed of [1, 2, 3]) {
      const result = await engine.generate({ messages: user("Give JSON."), grammar, maxTokens: 120, seed, temperature: 1 });
      const parsed = JSON.parse(result.text) as { name: string; count: number };
      expect(Object.keys(parsed)).toEqual(["name", "count"]);
      expect(typeof parsed.count).toBe("number");
      expect(result.stopReason).toBe("eos");
    }
  });

  it("keeps every character whole under a grammar: free JSON strings always parse, with no replacement characters", async () => {
    // Byte-fallback tokens could otherwise spell broken UTF-8 that llama.cpp's grammar matcher lets through.
    const { gbnf } = compileSchemaGrammar({
      type: "object",
      properties: { text: { type: "string", maxLength: 120 }, more: { type: "array", items: { type: "string", maxLength: 40 }, maxItems: 4 } },
      required: ["text", "more"],
      additionalProperties: false,
    });
    let characters = 0;
    for (let seed = 1; seed <= 40; seed++) {
      const result = await engine.generate({ messages: user("Write anything."), grammar: gbnf, maxTokens: 400, seed, temperature: 1 });
      const parsed = JSON.parse(result.text) as { text: string; more: string[] };
      expect(result.text).not.toContain("\uFFFD");
      for (const s of [parsed.text, ...parsed.more]) {
        expect(s).not.toContain("\uFFFD");
        characters += s.length;
      }
    }
    expect(characters).toBeGreaterThan(0);
  });

  it("ends before a stop string, reporting stopReason stop", async () => {
    const result = await engine.generate({
      messages: user("Say the words."),
      grammar: 'root ::= "alpha beta gamma delta"',
      stop: [" gamma"],
      maxTokens: 30,
    });
    expect(result.text).toBe("alpha beta");
    expect(result.stopReason).toBe("stop");
  });

  it("samples the same reply for the same seed", async () => {
    const request = { messages: user("Pick words."), maxTokens: 20, temperature: 1, seed: 42 };
    const a = await engine.generate(request);
    const b = await engine.generate(request);
    const c = await engine.generate({ ...request, seed: 43 });
    expect(b.text).toBe(a.text);
    expect(c.text).not.toBe(a.text);
  });

  it("rejects a malformed chat message with a clear sentence", async () => {
    const err = await engine
      .generate({ messages: [{ role: "robot" as "user", content: "hi" }], maxTokens: 5 })
      .catch((e: unknown) => e);
    expect((err as EngineError).message).toBe("Each chat message needs a role (system, user or assistant) and text content.");
  });

  it("streams text chunks before the request completes", async () => {
    const chunks: string[] = [];
    let settled = false;
    let chunksBeforeSettled = 0;
    const pending = engine
      .generate({ messages: user("Stream."), maxTokens: 40, seed: 3, onText: (c) => chunks.push(c) })
      .finally(() => {
        settled = true;
      });
    await new Promise<void>((resolve) => {
      const timer = setInterval(() => {
        if (chunks.length > 0 || settled) {
          chunksBeforeSettled = settled ? 0 : chunks.length;
          clearInterval(timer);
          resolve();
        }
      }, 0);
    });
    const result = await pending;
    expect(chunksBeforeSettled).toBeGreaterThan(0);
    expect(chunks.join("")).toBe(result.text);
  });

  it("aborting ends the stream and settles long before maxTokens", async () => {
    const controller = new AbortController();
    let chunks = 0;
    const result: GenerateResult = await engine.generate({
      messages: user("Go on forever."),
      // Under this grammar the reply cannot end early: only maxTokens or the abort can stop it.
      grammar: "root ::= [a-z ]{1500,1999}",
      maxTokens: 1900,
      seed: 5,
      signal: controller.signal,
      onText: () => {
        if (++chunks === 3) controller.abort();
      },
    });
    expect(result.stopReason).toBe("abort");
    expect(result.tokensOut).toBeLessThan(200);
  });

  it("returns the abort result at once for an already-aborted signal", async () => {
    const result = await engine.generate({ messages: user("x"), maxTokens: 50, signal: AbortSignal.abort() });
    expect(result.stopReason).toBe("abort");
    expect(result.tokensOut).toBe(0);
  });

  it("embeds a batch into vectors of the model's dimension", async () => {
    const vectors = await engine.embed(["a note about gardening", "a recipe for bread", ""]);
    expect(vectors).toHaveLength(3);
    for (const v of vectors) {
      expect(v).toHaveLength(TEST_MODEL_SHAPE.embeddingLength);
      expect(v.every(Number.isFinite)).toBe(true);
    }
    expect(vectors[0]).not.toEqual(vectors[1]);
  });

  it("counts tokens with the model's tokenizer", async () => {
    expect(await engine.countTokens("")).toBe(0);
    // Whole JSON pieces and words are single tokens in the test vocabulary.
    expect(await engine.countTokens('{"thought": "hello world"}')).toBeLessThanOrEqual(8);
    const long = await engine.countTokens("the quick brown fox jumps over the lazy dog ".repeat(20));
    expect(long).toBeGreaterThan(100);
  });

  it("rejects a grammar llama.cpp cannot parse with bad_grammar, and keeps serving", async () => {
    const err = await engine.generate({ messages: user("x"), grammar: "root ::= undefined-rule", maxTokens: 10 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(EngineError);
    expect((err as EngineError).code).toBe("bad_grammar");
    // llama.cpp's own reason, taken from the host's stderr.
    expect((err as EngineError).message).toBe(
      "llama.cpp rejected the grammar (Undefined rule identifier 'undefined-rule'); the GBNF text must be fixed before generating.",
    );
    const after = await engine.generate({ messages: user("still alive?"), maxTokens: 5 });
    expect(after.tokensOut).toBeGreaterThan(0);
  });

  it("reuses the evaluated prefix of a conversation on its next turn", async () => {
    const system = { role: "system" as const, content: "You are a careful assistant for an Obsidian vault. ".repeat(25) };
    const first = await engine.generate({
      messages: [system, { role: "user", content: "List my notes." }],
      maxTokens: 16,
      seed: 11,
      conversationId: "prefix-test",
    });
    // A fresh conversation shares at most the chat template's opening tokens with whatever ran before.
    expect(first.tokensEvaluated).toBeGreaterThan(first.tokensIn - 5);
    const second = await engine.generate({
      messages: [system, { role: "user", content: "List my notes." }, { role: "assistant", content: first.text }, { role: "user", content: "And the tags?" }],
      maxTokens: 16,
      seed: 12,
      conversationId: "prefix-test",
    });
    expect(second.tokensIn).toBeGreaterThan(first.tokensIn);
    // At least the whole first prompt (system + first user message) was reused, not evaluated again.
    expect(second.tokensEvaluated).toBeLessThanOrEqual(second.tokensIn - first.tokensIn + 1);
  });

  it("keeps a conversation's prefix while another conversation takes a turn in between", async () => {
    const system = { role: "system" as const, content: "Notes assistant. ".repeat(60) };
    const a1 = await engine.generate({ messages: [system, { role: "user", content: "A1" }], maxTokens: 4, seed: 1, conversationId: "A" });
    await engine.generate({ messages: [{ role: "user", content: "Another conversation entirely." }], maxTokens: 4, conversationId: "B" });
    const a2 = await engine.generate({
      messages: [system, { role: "user", content: "A1" }, { role: "assistant", content: a1.text }, { role: "user", content: "A2" }],
      maxTokens: 4,
      seed: 2,
      conversationId: "A",
    });
    expect(a2.tokensEvaluated).toBeLessThanOrEqual(a2.tokensIn - a1.tokensIn + 1);
  });

  it("serves several requests in flight at once", async () => {
    const results = await Promise.all([
      engine.generate({ messages: user("one"), maxTokens: 8, conversationId: "c1" }),
      engine.generate({ messages: user("two"), maxTokens: 8, conversationId: "c2" }),
      engine.countTokens("three"),
      engine.embed(["four"]),
    ]);
    expect((results[0] as GenerateResult).tokensOut).toBeGreaterThan(0);
    expect((results[1] as GenerateResult).tokensOut).toBeGreaterThan(0);
  });

  it("answers an unknown operation with a clear error and keeps serving", async () => {
    const err = await engine.request("no.such.op", {}).catch((e: unknown) => e);
    expect((err as EngineError).message).toContain('no operation "no.such.op"');
    expect(await engine.countTokens("ok")).toBeGreaterThan(0);
  });

  it("unloads the model in the running host, and the next request loads it again", async () => {
    const pid = engine.hostPid;
    await engine.unload();
    expect(((await engine.request("status", {})) as HostStatus).loaded).toBe(false);
    expect(engine.hostPid).toBe(pid);
    const again = await engine.generate({ messages: user("Back again?"), maxTokens: 4, seed: 1 });
    expect(again.tokensOut).toBeGreaterThan(0);
    expect(((await engine.request("status", {})) as HostStatus).loaded).toBe(true);
    expect(engine.hostPid).toBe(pid);
  });
});
