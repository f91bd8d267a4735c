import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { describe, expect, it } from "vitest";
import { ScriptedEngine, scriptedTokenCount } from "../../../src/engine/scripted";
import { composeHeadless } from "../../../src/node/compose";
import { copyVault, envelope } from "./scripted-helpers";

setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;

function heapMb(): number {
  gc();
  gc();
  return process.memoryUsage().heapUsed / 2 ** 20;
}

describe("a long scripted session", () => {
  it("100 turns stay inside the context window with flat memory", async () => {
    const contextSize = 2048;
    const engine = new ScriptedEngine(
      [envelope([{ name: "vault:read", args: { path: "Projects/Project Alpha.md" } }]), envelope([], "Here is what the project note says, summarized for you in one sentence.")],
      { loop: true, contextSize, keepRequests: 4 },
    );
    const { agent } = await composeHeadless({ vault: copyVault(), engine });
    let heapAt20 = 0;
    let maxMessages = 0;
    for (let turn = 1; turn <= 100; turn++) {
      const r = await agent.runTurn(`read my Project Alpha note, please (turn ${turn})`);
      expect(r.outcome, `turn ${turn}`).toBe("done");
      for (const req of engine.requests.slice(-2)) {
        const prompt = req.messages.reduce((n, m) => n + scriptedTokenCount(m.content), 0);
        expect(prompt + req.maxTokens, `turn ${turn}`).toBeLessThanOrEqual(contextSize);
        expect(req.messages[0].role).toBe("system");
        maxMessages = Math.max(maxMessages, req.messages.length);
      }
      // The current task is always in the prompt.
      expect(engine.requests.at(-1)!.messages.some((m) => m.content.includes(`(turn ${turn})`))).toBe(true);
      if (turn === 20) heapAt20 = heapMb();
    }
    const growth = heapMb() - heapAt20;
    expect(agent.conversation.entries.length).toBe(400);
    expect(engine.peakTokens).toBeLessThanOrEqual(contextSize);
    // Old turns were trimmed: the prompt never carried more than a few turns.
    expect(maxMessages).toBeLessThan(20);
    // 80 more turns of history are ~0.5 MB of text; a per-turn leak of prompts or grammars would be far more.
    expect(growth).toBeLessThan(8);
  });
});
