import { describe, expect, it } from "vitest";
import type { Engine, GenerateResult } from "../../../src/core/ports/engine";
import { alignedTable, RecordingEngine } from "../../../src/node/eval/recording-engine";

const ENVELOPE = '{"thought":"\uFFFD","status":"Idle","message_to_user":"hi","tool_calls":[]}';

function engineReplying(utf8Valid: boolean): Engine {
  const result: GenerateResult = { text: ENVELOPE, tokensIn: 1, tokensOut: 1, promptEvalMs: 0, generateMs: 0, stopReason: "eos", utf8Valid };
  return { generate: () => Promise.resolve(result), embed: () => Promise.resolve([]), countTokens: () => Promise.resolve(0), modelInfo: () => Promise.reject(new Error("unused")) };
}

describe("the evals' recording engine", () => {
  it("never counts a reply whose bytes were broken UTF-8 as an envelope, though its decoded text parses", async () => {
    for (const utf8Valid of [true, false]) {
      const engine = new RecordingEngine(engineReplying(utf8Valid));
      await engine.generate({ messages: [], maxTokens: 1 });
      expect(engine.envelopes().map((e) => e.ok)).toEqual([utf8Valid]);
      engine.clear();
      expect(engine.envelopes()).toEqual([]);
    }
  });

  it("aligns tables: first column left, the rest right", () => {
    expect(alignedTable(["a", "bb"], [["xyz", "1"]])).toBe("a    bb\n---  --\nxyz   1");
  });
});
