import { describe, expect, it } from "vitest";
import { explainRefusal, parseReplayLines, ReplayEngine, ReplayFormatError } from "../../../src/engine/replay";
import { GbnfRecognizer, SubsetCache } from "../../../src/core/grammar";
import { createToolCatalog } from "../../../src/tools/index";
import { ToolRegistry } from "../../../src/tools/registry";

const registry = new ToolRegistry(createToolCatalog({ semantic: false, network: false }));
const grammars = new SubsetCache(registry.grammarTools(), {});
const gbnf = grammars.get(["vault:read", "vault:list"], "dynamic").gbnf;
const reply = (calls: unknown[]) => JSON.stringify({ thought: "t", status: "Task", message_to_user: null, tool_calls: calls });

describe("the replay format and the replay engine's refusals", () => {
  it("reads reply lines in order and skips transcript event lines", () => {
    const text = [JSON.stringify({ type: "turn-start", message: "x" }), JSON.stringify({ reply: "a" }), "", JSON.stringify({ reply: "b" })].join("\n");
    expect(parseReplayLines(text)).toEqual(["a", "b"]);
    expect(() => parseReplayLines("{oops")).toThrow(ReplayFormatError);
    expect(() => parseReplayLines(JSON.stringify({ text: "a" }))).toThrow('Line 1 of the replay file has no "reply" string.');
  });

  it("names a tool the grammar does not offer, and arguments it does not allow", () => {
    const recognizer = new GbnfRecognizer(gbnf);
    expect(recognizer.accepts(reply([{ name: "vault:read", args: { path: "A.md" } }]))).toBe(true);
    expect(explainRefusal(recognizer, reply([{ name: "vault:delete", args: { path: "A.md" } }]), 2)).toMatchObject({ reply: 2, toolNotOffered: "vault:delete" });
    const badArgs = explainRefusal(recognizer, reply([{ name: "vault:read", args: { file: "A.md" } }]), 1);
    expect(badArgs.toolNotOffered).toBeUndefined();
    expect(badArgs.reason).toContain("gives vault:read arguments that this round's grammar does not allow");
    expect(explainRefusal(recognizer, "{not json", 3).reason).toContain("is not JSON");
  });

  it("serves replies in order, refuses one its request's grammar rejects, and says when it runs out", async () => {
    const ok = reply([{ name: "vault:list", args: {} }]);
    const engine = new ReplayEngine([ok, reply([{ name: "vault:write", args: { path: "A.md", content: "x" } }])]);
    const request = { messages: [{ role: "user" as const, content: "hi" }], grammar: gbnf, maxTokens: 1000 };
    expect((await engine.generate(request)).text).toBe(ok);
    await expect(engine.generate(request)).rejects.toThrow("calls vault:write, which this round does not offer");
    expect(engine.refusals).toHaveLength(1);
    await expect(engine.generate(request)).rejects.toThrow("The replay has 2 replies but the agent asked for reply 3.");
    expect(engine.ranOut).toBe(true);
  });
});
