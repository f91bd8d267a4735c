import { describe, expect, it } from "vitest";
import { canonicalJson } from "../../../src/core/agent/loop-guard";
import { Conversation, type ConversationEntry } from "../../../src/core/agent/conversation";

function turn(n: number, resultText: string): ConversationEntry[] {
  const turnId = `t${n}`;
  const envelope = { thought: "", status: "Task" as const, message_to_user: null, tool_calls: [{ name: "vault:read", args: { path: `N${n}.md` } }] };
  return [
    { kind: "user", turnId, at: n, content: `read note ${n}` },
    { kind: "assistant", turnId, at: n, envelope },
    { kind: "tool-results", turnId, at: n, results: [{ callId: "r1c0", name: "vault:read", ok: true, content: resultText }] },
    { kind: "assistant", turnId, at: n, envelope: { ...envelope, status: "Idle", message_to_user: "done", tool_calls: [] } },
  ];
}

const bytes = (c: Conversation): number => new TextEncoder().encode(JSON.stringify(c.toJSON())).length;

describe("the conversation file bound", () => {
  it("removes the oldest whole turns until the saved JSON fits, and counts them", () => {
    const c = new Conversation();
    for (let n = 1; n <= 40; n++) for (const e of turn(n, "é".repeat(1000))) c.append(e);
    const before = bytes(c);
    expect(before).toBeGreaterThan(80_000);
    const dropped = c.keepWithin(20_000);
    expect(bytes(c)).toBeLessThanOrEqual(20_000);
    // Whole turns only, oldest first: what is left starts with a user message and ends with turn 40.
    expect(c.entries[0].kind).toBe("user");
    expect(c.entries.length % 4).toBe(0);
    expect(c.entries.at(-1)!.turnId).toBe("t40");
    expect(c.entries[0].turnId).toBe(`t${dropped + 1}`);
    expect(c.droppedTurns).toBe(dropped);
    // One turn more would not have fitted (the cut is not larger than needed).
    expect(bytes(c) + 4 * 2000).toBeGreaterThan(20_000);
    const restored = Conversation.fromJSON(JSON.stringify(c.toJSON()));
    expect(restored.droppedTurns).toBe(dropped);
    expect(restored.entries).toHaveLength(c.entries.length);
  });

  it("a conversation under the cap is left alone, and the newest turn stays even when it alone is over", () => {
    const c = new Conversation();
    for (const e of turn(1, "x".repeat(100))) c.append(e);
    expect(c.keepWithin(1_000_000)).toBe(0);
    expect(c.toJSON().droppedTurns).toBeUndefined();
    for (const e of turn(2, "x".repeat(5000))) c.append(e);
    expect(c.keepWithin(1000)).toBe(1);
    expect(c.entries.map((e) => e.turnId)).toEqual(["t2", "t2", "t2", "t2"]);
  });
});

describe("canonical JSON of call arguments", () => {
  it("sorts keys at every depth, so argument order does not hide a repeated call", () => {
    expect(canonicalJson({ b: 1, a: { d: [2, { z: 1, y: 2 }], c: "x" } })).toBe('{"a":{"c":"x","d":[2,{"y":2,"z":1}]},"b":1}');
    expect(canonicalJson({ path: "A.md", content: "x" })).toBe(canonicalJson({ content: "x", path: "A.md" }));
  });
});
