import { describe, expect, it } from "vitest";
import { SubsetCache } from "../../../src/core/grammar";
import { ScriptedEngine, ScriptViolation } from "../../../src/engine/scripted";
import { ToolRegistry } from "../../../src/tools/registry";
import { localTools } from "./local-tools";

const grammar = new SubsetCache(new ToolRegistry(localTools).grammarTools()).get(["notes:read"], "dynamic").gbnf;
const ok = '{"thought":"t","status":"Task","message_to_user":null,"tool_calls":[{"name":"notes:read","args":{"path":"a.md"}}]}';
const msgs = [{ role: "user" as const, content: "hi" }];

describe("scripted engine", () => {
  it("streams an allowed reply in chunks", async () => {
    const chunks: string[] = [];
    const engine = new ScriptedEngine([ok], { chunkChars: 10 });
    const r = await engine.generate({ messages: msgs, grammar, maxTokens: 500, onText: (c) => chunks.push(c) });
    expect(r).toMatchObject({ text: ok, stopReason: "eos" });
    expect(chunks.join("")).toBe(ok);
    expect(chunks.length).toBe(Math.ceil(ok.length / 10));
  });

  it("fails a reply the grammar would not allow", async () => {
    const engine = new ScriptedEngine([ok.replace("notes:read", "notes:append")]);
    await expect(engine.generate({ messages: msgs, grammar, maxTokens: 500 })).rejects.toThrow(ScriptViolation);
  });

  it("fails a reply longer than maxTokens, and a request past the end of the script", async () => {
    const engine = new ScriptedEngine([ok]);
    await expect(engine.generate({ messages: msgs, grammar, maxTokens: 5 })).rejects.toThrow(/maxTokens is 5/);
    await expect(engine.generate({ messages: msgs, grammar, maxTokens: 500 })).rejects.toThrow(/asked for reply 2/);
  });

  it("stops mid-stream on abort with the partial text", async () => {
    const controller = new AbortController();
    const engine = new ScriptedEngine([ok], { chunkChars: 4, onChunk: (soFar) => soFar.length >= 12 && controller.abort() });
    const r = await engine.generate({ messages: msgs, grammar, maxTokens: 500, signal: controller.signal });
    expect(r.stopReason).toBe("abort");
    expect(r.text).toBe(ok.slice(0, 12));
  });
});
