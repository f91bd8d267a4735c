/**
 * The growing layout's promise, checked against each family's real chat template: the tokens a turn's
 * sequence holds after its reply (the prompt, then the reply's tokens) are a prefix of the next prompt —
 * after the host puts the reply's own tokens back where its text re-tokenizes differently — so the next
 * round evaluates only what is new. That holds for templates that drop a part of past replies too (Qwen3 leaves the
 * empty think span out of them): the formats render past replies with the lead their generation prompt had.
 */
import { getLlama, type ChatHistoryItem, type LlamaModel, type Token } from "node-llama-cpp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ConversationEntry } from "../../../src/core/agent/conversation";
import { entryMessage, fixedSystemPrompt, turnBlock } from "../../../src/core/agent/prompt";
import type { ChatMessage } from "../../../src/core/ports/engine";
import { ChatFormats } from "../../../src/host/chat-formats";
import { alignToEvaluated } from "../../../src/host/evaluated-prefix";
import { loadLlamaRuntime } from "../../../src/host/llama-runtime";
import { FAMILY_IDS } from "../../../src/node/test-model/families";
import { testedFamilies } from "../../helpers/families";
import { familyModelPath } from "../../helpers/test-model";
import { createToolCatalog } from "../../../src/tools/index";
import { ToolRegistry } from "../../../src/tools/registry";

const registry = new ToolRegistry(createToolCatalog());
const tools = ["vault:read", "vault:list"].map((n) => registry.get(n)!);
const reply = (message: string | null, calls: unknown[] = []) =>
  JSON.stringify({ thought: "Look at the note first.", status: calls.length ? "Task" : "Idle", message_to_user: message, tool_calls: calls });

/** Two turns as the agent stores them: a tool round, then answers. */
function conversation(): ConversationEntry[][] {
  const block = (today: string) => turnBlock({ tools, memories: "[Inbox.md] Renew car insurance", today });
  const call = { name: "vault:read", args: { path: "Inbox.md" } };
  const text1 = reply(null, [call]);
  return [
    [
      { kind: "user", turnId: "t1", at: 0, content: "What is in my Inbox?", turnBlock: block("2026-12-01") },
      { kind: "assistant", turnId: "t1", at: 0, envelope: JSON.parse(text1), text: text1 },
      { kind: "tool-results", turnId: "t1", at: 0, results: [{ callId: "r1c0", name: "vault:read", ok: true, content: "- Renew car insurance" }] },
      { kind: "assistant", turnId: "t1", at: 0, envelope: JSON.parse(reply("Renew the car insurance.")) },
    ],
    [
      { kind: "user", turnId: "t2", at: 0, content: "Und die Projekte?", turnBlock: block("2026-12-02") },
      { kind: "assistant", turnId: "t2", at: 0, envelope: JSON.parse(reply("Alpha und Beta.")) },
    ],
  ];
}

function history(messages: ChatMessage[]): ChatHistoryItem[] {
  const items: ChatHistoryItem[] = messages.map((m) => (m.role === "assistant" ? { type: "model", response: [m.content] } : { type: m.role, text: m.content }));
  items.push({ type: "model", response: [] });
  return items;
}

const tested = testedFamilies();

describe.each(FAMILY_IDS)("the %s template", (family) => {
  // Each family's model is generated once per machine (minutes for the large vocabularies): the families npm test
  // runs by default, all seven in CI, as in the other family tests.
  if (!tested.includes(family)) {
    it.skip(`runs with VAULT_AGENT_FAMILIES=all or =${family}`, () => {});
    return;
  }
  let model: LlamaModel;
  let formats: ChatFormats;

  beforeAll(async () => {
    await loadLlamaRuntime();
    model = await (await getLlama({ gpu: false, build: "never" })).loadModel({ modelPath: familyModelPath(family), vocabOnly: true });
    formats = new ChatFormats(model);
  });
  afterAll(async () => {
    await model?.dispose();
  });

  it("gives every round a prompt that extends what the previous round's sequence holds", () => {
    const system: ChatMessage = { role: "system", content: fixedSystemPrompt() };
    const entries = conversation().flat();
    // Each round: the prompt up to an assistant entry, then that reply as the model's tokens.
    let held: Token[] | undefined;
    let rounds = 0;
    for (let i = 0; i < entries.length; i++) {
      if (entries[i].kind !== "assistant") continue;
      const prompt = formats.promptTokens(history([system, ...entries.slice(0, i).map(entryMessage)]), formats.grammar);
      let next = prompt;
      if (held) {
        next = alignToEvaluated(model, held, prompt);
        expect(model.detokenize(next, true)).toBe(model.detokenize(prompt, true));
        // Templates that drop a part of past replies (Qwen3's empty think span) get it back from the formats (pastReplyLead).
        expect(next.slice(0, held.length), `round ${rounds + 1} of ${family}`).toEqual(held);
      }
      const replyText = entryMessage(entries[i]).content;
      held = [...next, ...model.tokenize(replyText, false, "trimLeadingSpace")];
      rounds++;
    }
    expect(rounds).toBe(3);
  });

  it("writes a past reply's lead only where the template leaves it out (Qwen3's empty think span)", () => {
    if (family === "qwen3" || family === "qwen3.5") expect(formats.pastReplyLead).toBe("<think>\n\n</think>\n\n");
    else if (!formats.thinkingModel) expect(formats.pastReplyLead).toBeNull();
  });
});
