/**
 * Reuse measured by the engine's own meter (node-llama-cpp's token meter on the sequence), through the real client
 * and host on generated family models: an attention model with a template that rewrites past replies (Qwen3) and a
 * hybrid recurrent one (Qwen3.5, Gated DeltaNet layers between attention layers), whose state cannot be cut back to an
 * earlier token and is restored from checkpoints instead. A round, the turn after a cancelled one and the turn after a
 * restart each evaluate only what the sequence did not hold; when no checkpoint can serve, the figure says the whole
 * prompt was read again.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { compileSchemaGrammar } from "../../../src/core/grammar";
import type { ChatMessage } from "../../../src/core/ports/engine";
import type { EngineClient } from "../../../src/engine/client/engine-client";
import type { HostStatus, OpResults } from "../../../src/engine/client/host-protocol";
import { createNodeEngine } from "../../../src/engine/client/node-launcher";
import { FAMILY_IDS, type FamilyId } from "../../../src/node/test-model/families";
import { testedFamilies } from "../../helpers/families";
import { familyModelPath } from "../../helpers/test-model";

type Reply = OpResults["generate"];

const root = mkdtempSync(join(tmpdir(), "meter-reuse-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let engines: EngineClient[] = [];
afterEach(async () => {
  await Promise.all(engines.map((e) => e.shutdown()));
  engines = [];
});

const { gbnf } = compileSchemaGrammar({
  type: "object",
  properties: { thought: { type: "string", maxLength: 60 } },
  required: ["thought"],
  additionalProperties: false,
});
const system: ChatMessage = { role: "system", content: "You keep the user's notes in order and answer in one short JSON object. ".repeat(12) };
/** What the agent stores for a turn that was stopped before its reply ended. */
const PLACEHOLDER = '{"thought":"","status":"Idle","message_to_user":null,"tool_calls":[]}';

function engineFor(family: FamilyId, dir: string, checkpointBytes?: number): EngineClient {
  const engine = createNodeEngine({
    model: { path: familyModelPath(family), contextSize: 2048, threads: 1, states: { dir, saveDelayMs: 0 }, ...(checkpointBytes ? { checkpointBytes } : {}) },
  });
  engines.push(engine);
  return engine;
}

async function ask(engine: EngineClient, messages: ChatMessage[], id: string, seed: number, signal?: AbortSignal, onText?: () => void): Promise<Reply> {
  return (await engine.generate({ messages, grammar: gbnf, maxTokens: 120, temperature: 1, seed, conversationId: id, signal, onText }));
}

/** Prompt tokens no earlier prompt or reply held: this prompt less the last one and its reply. */
const newTokens = (now: Reply, before: Reply): number => now.tokensIn - before.tokensIn - before.tokensOut;

const tested = testedFamilies();
const families = FAMILY_IDS.filter((f) => f === "qwen3" || f === "qwen3.5");

describe.each(families)("reuse on %s, by the engine's meter", (family) => {
  if (!tested.includes(family)) {
    it.skip(`runs with VAULT_AGENT_FAMILIES=all or =${family}`, () => {});
    return;
  }
  const hybrid = family !== "qwen3";

  it("evaluates only a round's new tokens, the previous reply and its template markers reused", async () => {
    const engine = engineFor(family, join(root, `${family}-rounds`));
    let messages: ChatMessage[] = [system, { role: "user", content: "List the notes about the garden." }];
    let before = await ask(engine, messages, "rounds", 1);
    for (let round = 2; round <= 3; round++) {
      messages = [...messages, { role: "assistant", content: before.text }, { role: "user", content: `And question ${round}?` }];
      const now = await ask(engine, messages, "rounds", round);
      // The sequence held the last prompt and the reply's tokens (all but its last, sampled and never evaluated).
      expect(now.tokensHeld).toBeGreaterThanOrEqual(before.tokensIn + before.tokensOut - 2);
      expect(now.tokensEvaluated, `round ${round}`).toBeLessThanOrEqual(newTokens(now, before) + 2);
      expect(now.tokensEvaluated).toBeGreaterThanOrEqual(newTokens(now, before));
      // What the meter counted: the evaluated prompt tokens and the reply fed back (less its unevaluated end), nothing else.
      expect(now.tokensMetered).toBeGreaterThan(now.tokensEvaluated);
      expect(now.tokensMetered).toBeLessThanOrEqual(now.tokensEvaluated + now.tokensOut);
      before = now;
    }
    const status = (await engine.request("status", {})) as HostStatus;
    if (hybrid) {
      expect(before.checkpointBytes).toBeGreaterThan(0);
      expect(status.checkpoints!.bytes).toBeGreaterThan(0);
      expect(status.checkpoints!.bytes).toBeLessThanOrEqual(status.checkpoints!.maxBytes);
    } else {
      expect(status.checkpoints).toBeUndefined();
    }
  });

  it("goes on from the prompt after a cancelled reply, and after a restart from the restored state", async () => {
    const dir = join(root, `${family}-cancel`);
    const engine = engineFor(family, dir);
    let messages: ChatMessage[] = [system, { role: "user", content: "What is in my Inbox note?" }];
    const first = await ask(engine, messages, "cancel", 1);
    messages = [...messages, { role: "assistant", content: first.text }, { role: "user", content: "Search my notes for lentils." }];
    const controller = new AbortController();
    let chunks = 0;
    const cancelled = await ask(engine, messages, "cancel", 2, controller.signal, () => {
      if (++chunks === 3) controller.abort();
    });
    expect(cancelled.stopReason).toBe("abort");
    messages = [...messages, { role: "assistant", content: PLACEHOLDER }, { role: "user", content: "Thanks! How are you today?" }];
    const next = await ask(engine, messages, "cancel", 3);
    // The cancelled reply's tokens were cut back: the prompt before it is held, the placeholder and the message are new.
    expect(next.tokensHeld).toBeGreaterThanOrEqual(cancelled.tokensIn - 1);
    expect(next.tokensEvaluated).toBeLessThanOrEqual(next.tokensIn - cancelled.tokensIn + 2);
    await engine.shutdown();

    const after = engineFor(family, dir);
    messages = [...messages, { role: "assistant", content: next.text }, { role: "user", content: "Open my Home note." }];
    const restarted = await ask(after, messages, "cancel", 4);
    expect(restarted.restoredTokens).toBeGreaterThanOrEqual(next.tokensIn + next.tokensOut - 2);
    expect(restarted.tokensEvaluated).toBeLessThanOrEqual(restarted.tokensIn - restarted.restoredTokens! + 2);
  });

  it("after a restart, reads only what follows the system text when the prompt leaves the restored state", async () => {
    const dir = join(root, `${family}-restart-rewrite`);
    const before = engineFor(family, dir);
    const first = await ask(before, [system, { role: "user", content: "List the notes about the garden." }], "restart-rewrite", 1);
    await before.shutdown();
    const after = engineFor(family, dir);
    // The first message rewritten (as a trim rewrites what follows the system text): the restored state holds a prefix only.
    const rewritten: ChatMessage[] = [system, { role: "user", content: "List the notes about the orchard." }, { role: "assistant", content: first.text }, { role: "user", content: "And the tags?" }];
    const second = await ask(after, rewritten, "restart-rewrite", 2);
    expect(second.restoredTokens).toBeGreaterThan(first.tokensIn);
    const systemTokens = await after.countTokens(system.content);
    expect(second.tokensEvaluated).toBeLessThanOrEqual(second.tokensIn - systemTokens + 8);
  });

  it("after a restart, a second trim reads only what follows the system message the first trim left", async () => {
    // A trim appends the earlier turns' summaries to the system message and drops those turns: the prompt leaves the
    // sequence inside the system message. The first trim's system message was saved as a system state; after a restart
    // the second trim starts from it instead of reading the whole prompt (no checkpoint exists after a restore).
    const dir = join(root, `${family}-restart-trim`);
    const before = engineFor(family, dir);
    const first = await ask(before, [system, { role: "user", content: "List the notes about the garden." }], "restart-trim", 1);
    const trimmedOnce: ChatMessage = { role: "system", content: `${system.content}\n\nEarlier in this conversation:\n- The user asked for the notes about the garden.` };
    const messages: ChatMessage[] = [trimmedOnce, { role: "user", content: "Search my notes for lentils." }];
    const second = await ask(before, messages, "restart-trim", 2);
    expect(first.tokensOut).toBeGreaterThan(0);
    await before.shutdown();
    const after = engineFor(family, dir);
    const trimmedTwice: ChatMessage = { role: "system", content: `${trimmedOnce.content}\n- The user searched for lentils.` };
    const third = await ask(after, [trimmedTwice, { role: "assistant", content: second.text }, { role: "user", content: "Open my Home note." }], "restart-trim", 3);
    expect(third.restoredTokens).toBeGreaterThan(second.tokensIn);
    const systemTokens = await after.countTokens(trimmedOnce.content);
    if (hybrid) expect(third.tokensEvaluated).toBeLessThanOrEqual(third.tokensIn - systemTokens + 8);
    else expect(third.tokensEvaluated).toBeLessThanOrEqual(third.tokensIn - third.tokensHeld! + 1);
  });

  it("reports a prompt read again in full when no checkpoint can serve where it leaves the sequence", async () => {
    // A bound that keeps one checkpoint per sequence: the newest (before the last prompt token) is past where a
    // rewritten first message diverges, so a hybrid model evaluates the whole prompt again inside the erase.
    const engine = engineFor(family, join(root, `${family}-rewrite`), 2);
    const messages: ChatMessage[] = [system, { role: "user", content: "List the notes about the garden." }];
    const first = await ask(engine, messages, "rewrite", 1);
    const rewritten: ChatMessage[] = [system, { role: "user", content: "List the notes about the orchard." }, { role: "assistant", content: first.text }, { role: "user", content: "And the tags?" }];
    const second = await ask(engine, rewritten, "rewrite", 2);
    expect(second.tokensHeld).toBeGreaterThan(50);
    if (hybrid) expect(second.tokensEvaluated).toBeGreaterThanOrEqual(second.tokensIn - 1);
    else expect(second.tokensEvaluated).toBeLessThanOrEqual(second.tokensIn - second.tokensHeld! + 1);
  });
});
