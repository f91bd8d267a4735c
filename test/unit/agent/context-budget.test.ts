import { describe, expect, it } from "vitest";
import { ContextFullError, budgetPrompt } from "../../../src/core/agent/context-budget";
import { Conversation, type ConversationEntry } from "../../../src/core/agent/conversation";
import { TokenCounter } from "../../../src/core/agent/token-counter";
import { ScriptedEngine } from "../../../src/engine/scripted";

const counter = new TokenCounter(new ScriptedEngine([]));
const env = (msg: string) => ({ thought: "", status: "Idle" as const, message_to_user: msg, tool_calls: [] });

function turn(id: string, words: number): ConversationEntry[] {
  return [
    { kind: "user", turnId: id, at: 0, content: `question ${id} ` + "word ".repeat(words) },
    { kind: "assistant", turnId: id, at: 0, envelope: env(`answer ${id}`) },
  ];
}

describe("context budget", () => {
  it("keeps everything when it fits and caps generation at the wanted tokens", async () => {
    const r = await budgetPrompt({ system: "sys", history: turn("a", 10), current: turn("now", 5).slice(0, 1), contextSize: 4096, marginTokens: 64, boundTokens: 300, reserveTokens: 1024, minTokens: 32, counter });
    expect(r.messages.map((m) => m.role)).toEqual(["system", "user", "assistant", "user"]);
    expect(r.maxTokens).toBe(300);
    expect(r.dropped).toBe(0);
  });

  it("gives the reply min(grammar bound, what the counted prompt leaves) but trims history only for the reserve", async () => {
    const history = [...turn("old", 200), ...turn("new", 20)];
    const current = turn("now", 5).slice(0, 1);
    // A grammar bound far above the context: nothing is trimmed for it, the reply gets all that is left.
    const big = await budgetPrompt({ system: "sys", history, current, contextSize: 2048, marginTokens: 16, boundTokens: 500_000, reserveTokens: 256, minTokens: 32, counter });
    expect(big.dropped).toBe(0);
    const counted = (await Promise.all(big.messages.map((m) => counter.count(m.content)))).reduce((a, b) => a + b, 0) + 6 * big.messages.length;
    expect(big.promptTokens).toBe(counted);
    expect(big.maxTokens).toBe(2048 - 16 - counted);
    // A small grammar bound caps the reply even though the context has more room.
    const small = await budgetPrompt({ system: "sys", history, current, contextSize: 2048, marginTokens: 16, boundTokens: 120, reserveTokens: 1024, minTokens: 32, counter });
    expect(small.maxTokens).toBe(120);
    expect(small.dropped).toBe(0);
    // A reserve that does not fit next to the history trims old turns for it, whole turns at a time.
    const tight = await budgetPrompt({ system: "sys", history, current, contextSize: 2048, marginTokens: 16, boundTokens: 500_000, reserveTokens: 1900, minTokens: 32, counter });
    expect(tight.dropped % 2).toBe(0);
    expect(tight.dropped).toBeGreaterThanOrEqual(2);
    expect(tight.trim?.summaries).toHaveLength(tight.dropped / 2);
    expect(tight.maxTokens).toBeGreaterThanOrEqual(1900);
  });

  it("drops the oldest turns first and keeps the system prompt and the current task", async () => {
    const history = [...turn("old", 200), ...turn("mid", 200), ...turn("new", 20)];
    const current = turn("now", 5).slice(0, 1);
    const r = await budgetPrompt({ system: "sys", history, current, contextSize: 700, marginTokens: 16, boundTokens: 256, reserveTokens: 256, minTokens: 32, counter });
    const text = r.messages.slice(1).map((m) => m.content).join("\n");
    expect(text).not.toContain("question old");
    expect(text).toContain("question now");
    // Oldest first: the step (down to half the context) summarizes old, then mid, and anything still replayed is newer.
    expect(r.trim!.summaries[0]).toContain("question old");
    expect(r.trim!.summaries[1]).toContain("question mid");
    // What left is one summary line per turn in the system message, and the step to record in the conversation.
    expect(r.messages[0].content).toMatch(/^sys\nEarlier in this conversation:\n- User: "question old word/);
    expect(r.trim).toEqual({ throughTurnId: expect.any(String), summaries: expect.arrayContaining([expect.stringContaining('replied: "answer old"')]) });
    expect(r.promptTokens + r.maxTokens).toBeLessThanOrEqual(700 - 16);
  });

  it("inside the current turn drops older rounds before the latest results, then shortens those", async () => {
    const user: ConversationEntry = { kind: "user", turnId: "t", at: 0, content: "task" };
    const round = (i: number, size: number): ConversationEntry[] => [
      { kind: "assistant", turnId: "t", at: 0, envelope: { ...env(""), tool_calls: [{ name: "x:y", args: {} }] } },
      { kind: "tool-results", turnId: "t", at: 0, results: [{ callId: `r${i}c0`, name: "x:y", ok: true, content: `result ${i} ` + "z".repeat(size) }] },
    ];
    const current = [user, ...round(1, 2000), ...round(2, 4000)];
    const r = await budgetPrompt({ system: "sys", history: [], current, contextSize: 900, marginTokens: 16, boundTokens: 200, reserveTokens: 200, minTokens: 32, counter });
    const text = r.messages.map((m) => m.content).join("\n");
    expect(text).not.toContain("result 1");
    expect(text).toContain("result 2");
    expect(text).toContain("results cut to fit the context");
    expect(text).toContain("task");
    expect(r.promptTokens + r.maxTokens).toBeLessThanOrEqual(900 - 16);
  });

  it("refuses with a sentence when even the task alone does not fit", async () => {
    const current = turn("now", 3000).slice(0, 1);
    await expect(budgetPrompt({ system: "sys", history: [], current, contextSize: 512, marginTokens: 16, boundTokens: 200, reserveTokens: 200, minTokens: 32, counter })).rejects.toThrow(ContextFullError);
    await expect(budgetPrompt({ system: "sys", history: [], current, contextSize: 512, marginTokens: 16, boundTokens: 200, reserveTokens: 200, minTokens: 32, counter })).rejects.toThrow(/shorten the message/);
  });

  it("trims in large steps: over 200 turns the replayed history changes at few turns, never overflows, one summary per dropped turn", async () => {
    const conversation = new Conversation();
    const contextSize = 2048;
    let cuts = 0;
    let previousFirst: string | undefined;
    for (let i = 0; i < 200; i++) {
      const [user, reply] = turn(`t${i}`, 20 + (i % 7) * 10);
      const prompt = await budgetPrompt({
        system: "sys", history: conversation.entries, current: [user], contextSize, marginTokens: 16, boundTokens: 200, reserveTokens: 200, minTokens: 32, counter,
        trimmedThrough: conversation.trim?.throughTurnId, summaries: conversation.trim?.summaries,
      });
      expect(prompt.promptTokens + prompt.maxTokens).toBeLessThanOrEqual(contextSize - 16);
      if (prompt.trim) {
        conversation.recordTrim(prompt.trim.throughTurnId, prompt.trim.summaries);
        cuts++;
      }
      // Between trims the replayed history starts with the same message: the evaluated prefix stays valid.
      const first = prompt.messages[1].content;
      if (!prompt.trim && previousFirst !== undefined && conversation.entries.length > 0) expect(first).toBe(previousFirst);
      previousFirst = first;
      conversation.append(user);
      conversation.append(reply);
    }
    const dropped = conversation.trim!.summaries.length;
    expect(cuts).toBeGreaterThan(0);
    // Each step frees about half the context, so a step comes every few turns, not every turn.
    expect(cuts).toBeLessThan(200 / 4);
    const keptFrom = conversation.entries.findIndex((e) => e.turnId === conversation.trim!.throughTurnId);
    expect(dropped).toBe(keptFrom / 2 + 1);
    expect(Conversation.fromJSON(JSON.parse(JSON.stringify(conversation.toJSON()))).trim).toEqual(conversation.trim);
  });
});
