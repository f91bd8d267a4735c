import { describe, expect, it } from "vitest";
import type { AgentEvent } from "../../../src/core/agent/events";
import { Conversation } from "../../../src/core/agent/conversation";
import { Transcript, summarize } from "../../../src/plugin/chat/transcript";

const T = "t1";
const feed = (t: Transcript, events: AgentEvent[]) => events.map((e) => t.apply(e));

describe("chat transcript built from agent events", () => {
  it("grows one answer per round from message deltas and ends streaming at turn end", () => {
    const t = new Transcript(() => 1000);
    feed(t, [
      { type: "turn-start", turnId: T, message: "hi", at: 0 },
      { type: "thought-delta", turnId: T, round: 1, text: "greet" },
      { type: "message-delta", turnId: T, round: 1, text: "Hel" },
      { type: "message-delta", turnId: T, round: 1, text: "lo" },
    ]);
    expect(t.items).toEqual([{ kind: "assistant", id: "t1:1", thought: "greet", text: "Hello", streaming: true }]);
    t.apply({ type: "turn-end", turnId: T, outcome: "done", message: "Hello", rounds: 1, tokensIn: 1, tokensOut: 1, ms: 1 });
    expect(t.items[0]).toMatchObject({ streaming: false });
  });

  it("tracks a tool call through confirmation to its result, once per call id", () => {
    let now = 1000;
    const t = new Transcript(() => now);
    const request = { tool: "vault:write", effect: "write" as const, summary: "Create A.md", preview: "text", previewKind: "content" as const, args: {} };
    feed(t, [
      { type: "tool-call", turnId: T, round: 1, callId: "r1c0", name: "vault:write", args: { path: "A.md" } },
      { type: "tool-call", turnId: T, round: 1, callId: "r1c0", name: "vault:write", args: { path: "A.md", content: "x" } },
      { type: "confirm-asked", turnId: T, callId: "r1c0", request },
    ]);
    expect(t.items).toHaveLength(1);
    expect(t.awaiting?.confirm).toEqual(request);
    t.apply({ type: "confirm-answered", turnId: T, callId: "r1c0", decision: "approve" });
    now = 1250;
    t.apply({ type: "tool-result", turnId: T, callId: "r1c0", name: "vault:write", ok: true, content: "Created A.md" });
    expect(t.items[0]).toMatchObject({ status: "ok", decision: "approve", summary: "Created A.md", startedAt: 1000, endedAt: 1250, args: { path: "A.md", content: "x" } });
    expect(t.awaiting).toBeUndefined();
  });

  it("marks a denied call, drops empty rounds and adds a Stopped notice after an abort", () => {
    const t = new Transcript();
    feed(t, [
      { type: "thought-delta", turnId: T, round: 1, text: "" },
      { type: "tool-call", turnId: T, round: 1, callId: "r1c0", name: "vault:delete", args: {} },
      { type: "tool-result", turnId: T, callId: "r1c0", name: "vault:delete", ok: false, content: "", error: { code: "denied_by_user", message: "The user said no." } },
      { type: "tool-call", turnId: T, round: 2, callId: "r2c0", name: "vault:read", args: {} },
      { type: "turn-end", turnId: T, outcome: "aborted", message: null, rounds: 2, tokensIn: 0, tokensOut: 0, ms: 5 },
    ]);
    expect(t.items.map((i) => i.kind)).toEqual(["tool", "tool", "notice"]);
    expect(t.items[0]).toMatchObject({ status: "denied", summary: "The user said no." });
    expect(t.items[1]).toMatchObject({ status: "stopped" });
    expect(t.items[2]).toMatchObject({ tone: "stopped", text: "Stopped." });
  });

  it("shows a turn-ending error as a failed notice and ignores recoverable ones", () => {
    const t = new Transcript();
    t.apply({ type: "error", turnId: T, code: "bad_envelope", message: "retrying", recoverable: true });
    t.apply({ type: "error", turnId: T, code: "engine_failed", message: "The engine stopped.", recoverable: false });
    expect(t.items).toEqual([expect.objectContaining({ kind: "notice", tone: "failed", text: "The engine stopped." })]);
  });

  it("rebuilds a saved conversation: messages, tool cards with their results, stopped turns", () => {
    const c = new Conversation();
    c.append({ kind: "user", turnId: "a", at: 1, content: "read A", attachments: [{ path: "A.md", text: "x" }] });
    c.append({ kind: "assistant", turnId: "a", at: 2, envelope: { thought: "read it", status: "Task", message_to_user: null, tool_calls: [{ name: "vault:read", args: { path: "A.md" } }] } });
    c.append({ kind: "tool-results", turnId: "a", at: 3, results: [{ callId: "r1c0", name: "vault:read", ok: true, content: "A's text" }] });
    c.append({ kind: "assistant", turnId: "a", at: 4, envelope: { thought: "", status: "Idle", message_to_user: "It says x.", tool_calls: [] } });
    const t = Transcript.fromConversation(c.toJSON());
    expect(t.items.map((i) => i.kind)).toEqual(["user", "assistant", "tool", "assistant"]);
    expect(t.items[0]).toMatchObject({ text: "read A", attachments: ["A.md"] });
    expect(t.items[2]).toMatchObject({ name: "vault:read", status: "ok", summary: "A's text" });
    expect(t.items[3]).toMatchObject({ text: "It says x.", streaming: false });
  });

  it("summarizes a long result to its first non-blank lines", () => {
    expect(summarize("a\n\n\nb\nc\nd\ne")).toBe("a\nb\nc\nd…");
    expect(summarize("short")).toBe("short");
    expect(summarize("x".repeat(400))).toHaveLength(281);
  });
});
