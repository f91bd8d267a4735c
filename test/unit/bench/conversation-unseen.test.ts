/** The conversation bench's "new tokens": what a prompt holds past the previous prompt and its reply, by position. */
import { describe, expect, it } from "vitest";
import type { ChatMessage } from "../../../src/core/ports/engine";
import { unseenText } from "../../../src/node/bench/conversation";

const sys: ChatMessage = { role: "system", content: "rules" };
const u1: ChatMessage = { role: "user", content: "first question" };
const a1: ChatMessage = { role: "assistant", content: "{\"reply\":1}" };
const results: ChatMessage = { role: "user", content: "results: nothing found" };

describe("unseenText", () => {
  it("counts the messages after the run both prompts share", () => {
    const u2: ChatMessage = { role: "user", content: "second question" };
    expect(unseenText([sys, u1, a1], [sys, u1, a1, results, u2])).toBe("results: nothing found\nsecond question");
  });

  it("counts a message again when it repeats earlier content at a new position", () => {
    // The same result text as an earlier round is still new tokens at the end of the prompt.
    expect(unseenText([sys, u1, a1, results, a1], [sys, u1, a1, results, a1, results])).toBe("results: nothing found");
  });

  it("counts a rewritten system message and everything after a changed message", () => {
    const sys2: ChatMessage = { role: "system", content: "rules and this turn's tools" };
    expect(unseenText([sys, u1, a1], [sys2, u1, a1, results])).toBe("rules and this turn's tools\nresults: nothing found");
    const trimmed: ChatMessage = { role: "user", content: "later question" };
    expect(unseenText([sys, u1, a1], [sys, trimmed])).toBe("later question");
  });
});
