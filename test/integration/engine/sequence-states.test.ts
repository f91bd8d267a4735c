/**
 * Saved sequence states through the real client and host processes on generated test models: a
 * conversation continues after a host restart evaluating only its new tokens; a state from another
 * model or a truncated one is refused with one sentence; a new conversation starts with the system
 * prompt evaluated; the folder stays under its bound.
 */
import { mkdtempSync, readdirSync, rmSync, statSync, truncateSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { compileSchemaGrammar } from "../../../src/core/grammar";
import type { ChatMessage } from "../../../src/core/ports/engine";
import type { EngineClient } from "../../../src/engine/client/engine-client";
import { createNodeEngine } from "../../../src/engine/client/node-launcher";
import { testModelPath } from "../../helpers/test-model";

const root = mkdtempSync(join(tmpdir(), "sequence-states-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let engines: EngineClient[] = [];
afterEach(async () => {
  await Promise.all(engines.map((e) => e.shutdown()));
  engines = [];
});

const { gbnf } = compileSchemaGrammar({
  type: "object",
  properties: { thought: { type: "string", maxLength: 80 } },
  required: ["thought"],
  additionalProperties: false,
});
const system: ChatMessage = { role: "system", content: "You keep the user's notes in order. ".repeat(20) };

function engineFor(model: string, dir: string, maxBytes?: number): EngineClient {
  const engine = createNodeEngine({ model: { path: model, contextSize: 2048, threads: 1, states: { dir, saveDelayMs: 0, ...(maxBytes ? { maxBytes } : {}) } } });
  engines.push(engine);
  return engine;
}

/** One turn and its continuation's messages. */
async function firstTurn(engine: EngineClient, id: string): Promise<{ next: ChatMessage[]; produced: number }> {
  const messages: ChatMessage[] = [system, { role: "user", content: "List the notes about the garden." }];
  const first = await engine.generate({ messages, grammar: gbnf, maxTokens: 200, seed: 3, temperature: 1, conversationId: id });
  expect(first.stopReason).toBe("eos");
  return { next: [...messages, { role: "assistant", content: first.text }, { role: "user", content: "And the tags?" }], produced: first.tokensIn + first.tokensOut };
}

describe("saved sequence states", () => {
  it("continues a conversation after a host restart evaluating only the new message", async () => {
    const model = await testModelPath();
    const dir = join(root, "restart");
    const before = engineFor(model, dir);
    const { next, produced } = await firstTurn(before, "conv-1");
    await before.shutdown();

    const after = engineFor(model, dir);
    const second = await after.generate({ messages: next, grammar: gbnf, maxTokens: 200, seed: 4, conversationId: "conv-1" });
    expect(second.stateNotice).toBeUndefined();
    // The restored state holds the system prompt, the first message and the model's own reply tokens
    // (all but the last ones, sampled when the grammar completed and never evaluated).
    expect(second.restoredTokens).toBeGreaterThanOrEqual(produced - 2);
    expect(second.tokensEvaluated).toBe(second.tokensIn - second.restoredTokens!);
  });

  it("reuses the evaluated reply within a session although its text re-tokenizes differently", async () => {
    const model = await testModelPath();
    const engine = engineFor(model, join(root, "session"));
    const { next, produced } = await firstTurn(engine, "conv-2");
    const second = await engine.generate({ messages: next, grammar: gbnf, maxTokens: 200, seed: 4, conversationId: "conv-2" });
    expect(second.tokensEvaluated).toBeLessThanOrEqual(second.tokensIn - produced + 2);
  });

  it("refuses a state saved by another model with one sentence and evaluates the conversation from its text", async () => {
    const dir = join(root, "other-model");
    const a = engineFor(await testModelPath({ seed: 1 }), dir);
    const { next } = await firstTurn(a, "conv-3");
    await a.shutdown();
    const b = engineFor(await testModelPath({ seed: 2 }), dir);
    const second = await b.generate({ messages: next, grammar: gbnf, maxTokens: 200, seed: 4, conversationId: "conv-3" });
    expect(second.stateNotice).toBe(
      "The saved state of this conversation was made for another model, context size or prompt format; it was discarded and the conversation is read again from its text.",
    );
    expect(second.restoredTokens).toBeUndefined();
    expect(second.stopReason).toBe("eos");
    // Only the system prompt (evaluated once for this model) is reused; the rest is read from the text.
    const systemTokens = await b.countTokens(system.content);
    expect(second.tokensEvaluated).toBeGreaterThanOrEqual(second.tokensIn - systemTokens - 12);
  });

  it("refuses a truncated state file with one sentence", async () => {
    const model = await testModelPath();
    const dir = join(root, "truncated");
    const a = engineFor(model, dir);
    const { next } = await firstTurn(a, "conv-4");
    await a.shutdown();
    const biggest = readdirSync(dir).filter((n) => n.endsWith(".state")).map((n) => join(dir, n)).sort((x, y) => statSync(y).size - statSync(x).size)[0];
    truncateSync(biggest, Math.floor(statSync(biggest).size / 2));
    const b = engineFor(model, dir);
    const second = await b.generate({ messages: next, grammar: gbnf, maxTokens: 200, seed: 4, conversationId: "conv-4" });
    expect(second.stateNotice).toMatch(/^The saved state of this conversation is incomplete \(\d+ of \d+ bytes\); it was discarded/);
    expect(second.stopReason).toBe("eos");
  });

  it("starts a new conversation with the system prompt's saved state", async () => {
    const model = await testModelPath();
    const dir = join(root, "system");
    const a = engineFor(model, dir);
    await firstTurn(a, "conv-5");
    await a.shutdown();
    const b = engineFor(model, dir);
    const fresh = await b.generate({ messages: [system, { role: "user", content: "Hello there." }], grammar: gbnf, maxTokens: 200, seed: 5, conversationId: "conv-6" });
    const systemTokens = await b.countTokens(system.content);
    expect(fresh.restoredTokens).toBeUndefined();
    expect(fresh.tokensIn - fresh.tokensEvaluated).toBeGreaterThanOrEqual(systemTokens);
  });

  it("keeps the state folder under its bound, removing the least recently used states first", async () => {
    const model = await testModelPath();
    const dir = join(root, "bound");
    const bound = 400 * 1024;
    const engine = engineFor(model, dir, bound);
    for (let i = 0; i < 6; i++) await firstTurn(engine, `bound-${i}`);
    await engine.shutdown();
    const states = readdirSync(dir).filter((n) => n.endsWith(".state"));
    const total = states.reduce((s, n) => s + statSync(join(dir, n)).size, 0);
    expect(total).toBeLessThanOrEqual(bound);
    expect(states.length).toBeLessThan(7);
    expect(states.length).toBeGreaterThan(0);
  });
});
