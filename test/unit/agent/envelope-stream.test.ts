import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseEnvelope } from "../../../src/core/agent/envelope-parse";
import { EnvelopeStream } from "../../../src/core/agent/envelope-stream";
import { ENVELOPE_STATUSES, type Envelope, type EnvelopeToolCall } from "../../../src/core/protocol/envelope";

function feed(text: string, cuts: number[]) {
  const got = { thought: "", message: "", calls: [] as EnvelopeToolCall[], deltas: 0 };
  const s = new EnvelopeStream({
    thought: (d) => ((got.thought += d), got.deltas++),
    message: (d) => ((got.message += d), got.deltas++),
    toolCall: (c) => got.calls.push(c),
  });
  let prev = 0;
  for (const c of [...cuts.filter((x) => x > 0 && x < text.length)].sort((a, b) => a - b).concat(text.length)) {
    s.push(text.slice(prev, c));
    prev = c;
  }
  return got;
}

const envelopeArb: fc.Arbitrary<Envelope> = fc.record({
  thought: fc.string({ unit: "grapheme", maxLength: 40 }),
  status: fc.constantFrom(...ENVELOPE_STATUSES),
  message_to_user: fc.option(fc.string({ unit: "grapheme", maxLength: 40 }), { nil: null }),
  tool_calls: fc.array(
    fc.record({ name: fc.constantFrom("vault:read", "tasks:add"), args: fc.dictionary(fc.string({ maxLength: 5 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 3 }) }),
    { maxLength: 3 },
  ),
});

describe("incremental envelope parser", () => {
  it("streams thought and message text as it arrives, decoding escapes", () => {
    const text = JSON.stringify({ thought: 'a "quoted"\nline \u00e9 😀', status: "Task", message_to_user: "hi\tthere", tool_calls: [] });
    const got = feed(text, [3, 14, 15, 16, 30, 31, 50]);
    expect(got.thought).toBe('a "quoted"\nline é 😀');
    expect(got.message).toBe("hi\tthere");
    expect(got.deltas).toBeGreaterThan(2);
  });

  it("reports each tool call when its object closes, before the envelope ends", () => {
    const env = { thought: "t", status: "Task", message_to_user: null, tool_calls: [{ name: "vault:read", args: { path: "a}{.md", n: [1, { x: "]" }] } }] };
    const text = JSON.stringify(env);
    const calls: EnvelopeToolCall[] = [];
    const s = new EnvelopeStream({ toolCall: (c) => calls.push(c) });
    const end = text.lastIndexOf("]");
    s.push(text.slice(0, end));
    expect(calls).toEqual(env.tool_calls);
  });

  it("agrees with the full parse for any envelope cut anywhere (property)", () => {
    fc.assert(
      fc.property(envelopeArb, fc.array(fc.nat(400), { maxLength: 12 }), (env, cuts) => {
        const text = JSON.stringify(env);
        const parsed = parseEnvelope(text);
        expect(parsed.ok).toBe(true);
        const got = feed(text, cuts);
        expect(got.thought).toBe(env.thought);
        expect(got.message).toBe(env.message_to_user ?? "");
        // Compare with what the text carries: JSON has no -0, so the generated value may differ in sign only.
        expect(got.calls).toEqual((JSON.parse(text) as { tool_calls: unknown }).tool_calls);
      }),
      { numRuns: 300 },
    );
  });
});

describe("envelope parse", () => {
  it("refuses wrong key order, extra keys and wrong types with a sentence", () => {
    expect(parseEnvelope('{"status":"Task","thought":"","message_to_user":null,"tool_calls":[]}')).toMatchObject({ ok: false, reason: /in this order/ });
    expect(parseEnvelope('{"thought":"","status":"Busy","message_to_user":null,"tool_calls":[]}')).toMatchObject({ ok: false, reason: /"status"/ });
    expect(parseEnvelope('{"thought":"","status":"Task","message_to_user":null,"tool_calls":[{"name":"x"}]}')).toMatchObject({ ok: false, reason: /"args" object/ });
    expect(parseEnvelope("{not json")).toMatchObject({ ok: false, reason: /not valid JSON/ });
  });
});
