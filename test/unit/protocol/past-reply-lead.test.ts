/**
 * The past-reply lead, found from two renders of Qwen3.5's template as llama-server renders it with thinking off, put
 * back before past replies, and the prompt parts a llama-server slot is sent so each prompt extends what it holds.
 */
import { describe, expect, it } from "vitest";
import { LEAD_PROBE_REPLY, pastReplyLead, withPastReplyLeads } from "../../../src/core/protocol/past-reply-lead";
import type { ChatMessage } from "../../../src/core/ports/engine";
import { HeldPrompts, withText } from "../../../src/engine/server/server-prompts";

const LEAD = "<think>\n\n</think>\n\n";
// Qwen3.5's template with enable_thinking false: the generation prompt opens and closes an empty think span; a past
// reply before the last user message is written without it.
const open = `<|im_start|>user\na<|im_end|>\n<|im_start|>assistant\n${LEAD}`;
const past = `<|im_start|>user\na<|im_end|>\n<|im_start|>assistant\n${LEAD_PROBE_REPLY}<|im_end|>\n<|im_start|>user\nb<|im_end|>\n<|im_start|>assistant\n${LEAD}`;

describe("past-reply lead", () => {
  it("is what the generation prompt puts before a reply that the template leaves out of a past one", () => {
    expect(pastReplyLead(open, past)).toBe(LEAD);
  });

  it("is none when the two renders do not line up (a template that rewrites what came before)", () => {
    expect(pastReplyLead(`<s>${open}`, past)).toBeNull();
    expect(pastReplyLead(open, "no reply here")).toBeNull();
  });

  it("goes back before every past reply, so the continuation extends the prompt", () => {
    const messages: ChatMessage[] = [
      { role: "user", content: "a" },
      { role: "assistant", content: LEAD_PROBE_REPLY },
      { role: "user", content: "b" },
    ];
    const led = withPastReplyLeads(past, messages, LEAD);
    expect(led.startsWith(open)).toBe(true);
    expect(led).toBe(`${open}${LEAD_PROBE_REPLY}<|im_end|>\n<|im_start|>user\nb<|im_end|>\n<|im_start|>assistant\n${LEAD}`);
  });

  it("is not doubled where the template kept it (a reply after the last user message) and leaves a trailing reply alone", () => {
    const kept = `${open}{"thought":"y"}<|im_end|>\n<|im_start|>user\nc<|im_end|>\n`;
    const messages: ChatMessage[] = [
      { role: "user", content: "a" },
      { role: "assistant", content: '{"thought":"y"}' },
      { role: "user", content: "c" },
    ];
    expect(withPastReplyLeads(kept, messages, LEAD)).toBe(kept);
    const trailing = `<|im_start|>user\na<|im_end|>\n<|im_start|>assistant\n{"tho`;
    expect(withPastReplyLeads(trailing, [{ role: "user", content: "a" }, { role: "assistant", content: '{"tho' }], LEAD)).toBe(trailing);
  });
});

describe("held prompts of a llama-server slot", () => {
  it("sends the longest prefix the slot holds by its parts (a reply by its sampled ids) and the rest as text", () => {
    const held = new HeldPrompts();
    expect(held.parts(0, "c", "P1")).toBe("P1");
    held.after(0, "c", { text: "P1", parts: "P1" }, { text: "R1", tokenIds: [7, 8] });
    expect(held.parts(0, "c", "P1R1 next")).toEqual(["P1", 7, 8, " next"]);
    // A stopped reply was replaced by the agent: the prompt before it is still held.
    expect(held.parts(0, "c", "P1 other")).toBe("P1 other");
    // Another conversation on the slot, or text that leaves every prefix: plain text.
    expect(held.parts(0, "d", "P1R1 next")).toBe("P1R1 next");
    expect(held.parts(0, "c", "Q")).toBe("Q");
  });

  it("joins a reply without ids to the prompt's last text, as the forced-text path sends it", () => {
    const held = new HeldPrompts();
    held.after(1, "c", { text: "P1R1 next", parts: ["P1", 7, 8, " next"] }, { text: "R2" });
    expect(held.parts(1, "c", "P1R1 nextR2 more")).toEqual(["P1", 7, 8, " nextR2", " more"]);
    expect(withText("P", "R")).toBe("PR");
    expect(withText(["P", 1], "R")).toEqual(["P", 1, "R"]);
  });
});
