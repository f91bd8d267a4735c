/** The grammar walker: forced text, small choices and completeness, checked against the recognizer. */
import { describe, expect, it } from "vitest";
import { GbnfRecognizer, GbnfWalker, compileEnvelopeGrammar } from "../../../src/core/grammar";

const tools = [
  { name: "vault:read", schema: { type: "object", properties: { path: { type: "string" } }, required: ["path"], additionalProperties: false } },
  { name: "vault:list", schema: { type: "object", properties: { folder: { type: "string" } }, required: ["folder"], additionalProperties: false } },
];
const gbnf = compileEnvelopeGrammar(tools, { maxThoughtChars: 8, maxMessageChars: 8, maxToolCalls: 1 }).gbnf;

describe("GbnfWalker", () => {
  const walker = new GbnfWalker(gbnf);
  const at = (text: string) => {
    const pos = walker.advance(walker.start(), text);
    if (!pos) throw new Error(`rejected: ${text}`);
    return pos;
  };

  it("forces the envelope's opening up to the thought's first character", () => {
    expect(walker.forcedText(walker.start()).text).toBe('{"thought":"');
  });

  it("forces the keys and quotes between values, and nothing inside free text", () => {
    expect(walker.forcedText(at('{"thought":"hi')).text).toBe("");
    expect(walker.forcedText(at('{"thought":"hi"')).text).toBe(',"status":"');
    expect(walker.forcedText(at('{"thought":"hi","status":"T')).text).toBe('ask","message_to_user":');
  });

  it("forces the closing quote once a string reaches its length cap", () => {
    expect(walker.forcedText(at('{"thought":"12345678')).text).toBe('","status":"');
  });

  it("forces the rest of a tool name once its prefix is unique, then the args' required key", () => {
    const pos = at('{"thought":"","status":"Task","message_to_user":null,"tool_calls":[{"name":"vault:r');
    expect(walker.forcedText(pos).text).toBe('ead","args":{"path":"');
  });

  it("lists the few characters a choice admits, and none for free text", () => {
    expect(walker.nextChars(at('{"thought":"hi","status":"'), 64)).toEqual(["I", "P", "R", "T"].map((c) => c.codePointAt(0)));
    expect(walker.nextChars(at('{"thought":"hi","status":"Idle","message_to_user":'), 64)).toEqual(['"', "n"].map((c) => c.codePointAt(0)));
    expect(walker.nextChars(at('{"thought":"hi'), 64)).toBeNull();
  });

  it("knows when the sentence is complete and nothing may follow", () => {
    const text = '{"thought":"","status":"Idle","message_to_user":null,"tool_calls":[]}';
    expect(new GbnfRecognizer(gbnf).accepts(text)).toBe(true);
    expect(walker.complete(at(text))).toBe(true);
    expect(walker.complete(at(text.slice(0, -1)))).toBe(false);
    expect(walker.forcedText(at(text.slice(0, -1))).text).toBe("}");
    expect(walker.advance(at(text), " ")).toBeNull();
  });

  it("gives equal positions equal keys and different positions different keys", () => {
    expect(walker.key(at('{"thought":"ab'))).toBe(walker.key(at('{"thought":"cd')));
    expect(walker.key(at('{"thought":"ab'))).not.toBe(walker.key(at('{"thought":"abc')));
    expect(walker.key(at('{"thought":"hi","status":"'))).toBe(walker.key(at('{"thought":"yo","status":"')));
  });

  it("agrees with the recognizer on what text it accepts", () => {
    const recognizer = new GbnfRecognizer(gbnf);
    for (const text of ['{"thought":"a"', '{"thought":"a\\n","status":"Reflect"', '{"thought":"123456789', '{"thought":1', '{"thought":"x","status":"Tas"']) {
      expect(walker.advance(walker.start(), text) !== null).toBe(recognizer.acceptsPrefix(text));
    }
  });

  describe("keys that look a bounded distance ahead", () => {
    const HORIZON = 32;

    it("key a bounded repetition's counts by their distance to the bounds: a bounded number of keys however wide the bounds", () => {
      const rep = new GbnfWalker("root ::= [a-z ]{1500,1999}");
      const keys = new Set<string>();
      let pos = rep.start();
      const early = rep.key(pos, HORIZON);
      for (let k = 0; k < 1999; k++) {
        const key = rep.key(pos, HORIZON);
        // Far from both bounds every count looks alike within the horizon.
        if (k < 1500 - HORIZON - 1) expect(key).toBe(early);
        keys.add(key);
        pos = rep.step(pos, 0x61);
      }
      // One key for the long middle, then one per count near each bound.
      expect(keys.size).toBeLessThanOrEqual(2 * (HORIZON + 2) + 1);
      expect(rep.canonicalStacks(HORIZON)).toBeLessThanOrEqual(4 * (HORIZON + 2));
      // Exact keys (no horizon) still tell every count apart.
      expect(rep.key(rep.advance(rep.start(), "ab")!)).not.toBe(rep.key(rep.advance(rep.start(), "abc")!));
    });

    it("give positions equal keys only when no text within the horizon tells them apart", () => {
      const g = 'root ::= ("ab" | "c"){2,12} "x" [0-9]{5,9} ("y" | "z"{0,3})';
      const w = new GbnfWalker(g);
      const h = 3;
      const alphabet = ["a", "b", "c", "x", "y", "z", "0", "1"];
      const continuations = [""];
      for (let n = 0; n < h; n++) for (const c of [...continuations]) if (c.length === n) for (const a of alphabet) continuations.push(c + a);
      // Every reachable position of up to 24 characters, found breadth first.
      const positions: Array<{ text: string; key: string }> = [];
      let frontier = [""];
      for (let depth = 0; depth <= 24 && frontier.length > 0; depth++) {
        const next: string[] = [];
        for (const text of frontier) {
          const pos = w.advance(w.start(), text)!;
          positions.push({ text, key: w.key(pos, h) });
          for (const a of alphabet) if (w.advance(pos, a) && next.length < 40) next.push(text + a);
        }
        frontier = next;
      }
      // What each continuation does from a position, by the recognizer: 2 complete, 1 viable, 0 rejected.
      const recognizer = new GbnfRecognizer(g);
      const signature = (text: string) => {
        const state = recognizer.advance(recognizer.begin(), text)!;
        return continuations.map((c) => {
          const after = recognizer.advance(state, c);
          return after === null ? 0 : after.accepted ? 2 : 1;
        }).join("");
      };
      const byKey = new Map<string, { text: string; signature: string }>();
      let shared = 0;
      for (const { text, key } of positions) {
        const sig = signature(text);
        const seen = byKey.get(key);
        if (!seen) byKey.set(key, { text, signature: sig });
        else {
          shared++;
          expect(sig, `"${text}" and "${seen.text}" share a key`).toBe(seen.signature);
        }
      }
      // The horizon does merge counts (otherwise this test checks nothing).
      expect(shared).toBeGreaterThan(20);
      expect(byKey.size).toBeLessThan(positions.length);
    });

    it("keep exact counts for a repetition whose item can be empty", () => {
      const w = new GbnfWalker('root ::= ("a" | ""){0,50} "b"');
      const a5 = w.advance(w.start(), "aaaaa")!;
      const a6 = w.advance(w.start(), "aaaaaa")!;
      expect(w.key(a5, 2)).not.toBe(w.key(a6, 2));
    });
  });
});
