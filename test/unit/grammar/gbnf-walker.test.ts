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
});
