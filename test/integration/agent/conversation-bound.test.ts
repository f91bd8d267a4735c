import { describe, expect, it } from "vitest";
import { ScriptedEngine } from "../../../src/engine/scripted";
import { composeHeadless } from "../../../src/node/compose";
import { copyVault, envelope } from "./scripted-helpers";

describe("a long conversation's saved size", () => {
  it("stays under conversationMaxBytes, storing each result cut as the model saw it", async () => {
    const engine = new ScriptedEngine([envelope([{ name: "vault:read", args: { path: "Projects/Project Alpha.md" } }]), envelope([], "Summarized.")], { loop: true, keepRequests: 2 });
    const cap = 12_000;
    const { agent } = await composeHeadless({ vault: copyVault(), engine, agentOptions: { resultChars: 300, conversationMaxBytes: cap } });
    for (let turn = 1; turn <= 30; turn++) {
      const r = await agent.runTurn(`read my Project Alpha note (turn ${turn})`);
      expect(r.outcome).toBe("done");
      expect(new TextEncoder().encode(JSON.stringify(agent.conversation.toJSON())).length, `turn ${turn}`).toBeLessThanOrEqual(cap);
      const stored = agent.conversation.entries.find((e) => e.kind === "tool-results" && e.turnId === r.turnId);
      const content = stored?.kind === "tool-results" ? stored.results[0].content : "";
      expect(content).toMatch(/more characters; not shown; ask for less\)$/);
      expect(content).toBe(r.toolResults[0].content);
      expect(engine.requests.at(-1)!.messages.at(-1)!.content).toContain(content);
    }
    expect(agent.conversation.droppedTurns).toBeGreaterThan(0);
    expect(agent.conversation.entries[0].kind).toBe("user");
    expect(agent.conversation.entries.at(-1)!.kind).toBe("assistant");
  });
});
