/**
 * A pattern beside minLength/maxLength compiles to exactly "matches the pattern and has length
 * min..max" (the automaton product of string-automaton.ts), on the recognizer: generated patterns of
 * the regex subset × length bounds, and the real-world shapes that used to be relaxed or wrong.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { GbnfRecognizer, GrammarSampler, compileSchema, type JsonSchema } from "../../../src/core/grammar";
import { seededRandom } from "./helpers/rng";

/** The strings a string schema's grammar accepts are JSON texts; the recognizer reads them so. Null when no string qualifies. */
function compiledOrEmpty(schema: JsonSchema) {
  const r = compileSchema(schema);
  if (!r.ok) {
    expect(r.refusal.message).toContain("no JSON value satisfies");
    return null;
  }
  return { grammar: r.grammar, recognizer: new GbnfRecognizer(r.grammar.gbnf) };
}

function compiled(schema: JsonSchema) {
  const c = compiledOrEmpty(schema);
  if (!c) throw new Error("no string qualifies");
  return c;
}

const length = (s: string) => [...s].length;

/** A random pattern of the regex subset over a small alphabet (so short strings cover it). */
const atom = fc.constantFrom("a", "b", "-", "\\.", "[ab]", "[a-]", "[^a]", "\\d", ".");
const piece: fc.Arbitrary<string> = fc.letrec<{ piece: string }>((tie) => ({
  piece: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    atom,
    fc.tuple(atom, fc.constantFrom("?", "*", "+", "{1,3}", "{2}", "{0,2}")).map(([a, q]) => a + q),
    fc.tuple(fc.array(tie("piece"), { minLength: 1, maxLength: 3 }), fc.constantFrom("", "?", "*", "+", "{1,2}")).map(([items, q]) => `(${items.join("")})${q}`),
    fc.tuple(tie("piece"), tie("piece")).map(([a, b]) => `(?:${a}|${b})`),
  ),
})).piece;
const pattern = fc.tuple(fc.boolean(), fc.array(piece, { minLength: 1, maxLength: 4 }), fc.boolean()).map(([start, items, end]) => `${start ? "^" : ""}${items.join("")}${end ? "$" : ""}`);
const bounds = fc.tuple(fc.nat(6), fc.option(fc.nat(10), { nil: undefined })).map(([lo, span]) => ({ minLength: lo, maxLength: span === undefined ? undefined : lo + span }));

/** Every string over the alphabet up to this length: the oracle for short strings. */
const ALPHABET = ["a", "b", "-", ".", "1"];
function allStrings(maxLength: number): string[] {
  const out = [""];
  let layer = [""];
  for (let n = 1; n <= maxLength; n++) {
    layer = layer.flatMap((s) => ALPHABET.map((c) => s + c));
    out.push(...layer);
  }
  return out;
}
const SHORT = allStrings(3);

describe("pattern beside length bounds", () => {
  it("accepts exactly the strings that match the pattern and the bounds (generated patterns × bounds)", { timeout: 300_000 }, () => {
    let tried = 0;
    let exact = 0;
    fc.assert(
      fc.property(pattern, bounds, fc.integer(), (source, { minLength, maxLength }, seed) => {
        const re = new RegExp(source, "u");
        const schema: JsonSchema = { type: "string", pattern: source, minLength, ...(maxLength === undefined ? {} : { maxLength }) };
        const within = (s: string) => re.test(s) && length(s) >= minLength && (maxLength === undefined || length(s) <= maxLength);
        const matches = fc.sample(fc.stringMatching(re, { size: "small" }), { numRuns: 30, seed });
        const c = compiledOrEmpty(schema);
        if (!c) {
          // Refused as empty: then no string qualifies.
          for (const s of [...SHORT, ...matches]) expect(within(s), `${source} ${minLength}..${maxLength} on ${JSON.stringify(s)}`).toBe(false);
          return;
        }
        const { grammar, recognizer } = c;
        tried++;
        if (grammar.relaxations.length) {
          // Past the automaton's budget (only under the default cap): reported, and still every valid string.
          expect(maxLength, source).toBeUndefined();
          expect(grammar.relaxations.map((r) => r.keyword)).toEqual(["minLength"]);
          for (const s of [...SHORT, ...matches].filter(within)) expect(recognizer.accepts(JSON.stringify(s)), `${source} on ${JSON.stringify(s)}`).toBe(true);
          return;
        }
        exact++;
        // Short strings: accepted exactly when they match (both directions).
        for (const s of SHORT) expect(recognizer.accepts(JSON.stringify(s)), `${source} ${minLength}..${maxLength} on ${JSON.stringify(s)}`).toBe(within(s));
        // Sampled matches within the bounds (any length) are accepted.
        for (const s of matches.filter(within)) expect(recognizer.accepts(JSON.stringify(s)), `${source} ${minLength}..${maxLength} on ${JSON.stringify(s)}`).toBe(true);
        // Walks of the grammar match the pattern and the bounds.
        const sampler = new GrammarSampler(grammar.gbnf, { random: seededRandom(seed) });
        for (let i = 0; i < 20; i++) {
          const text = JSON.parse(sampler.sample()) as string;
          expect(within(text), `${source} ${minLength}..${maxLength} walked ${JSON.stringify(text)}`).toBe(true);
        }
      }),
      { numRuns: 150, seed: 26 },
    );
    expect(exact / tried).toBeGreaterThan(0.9);
  });

  it("keeps every Prometheus duration a minimum length allows, and only those", () => {
    const { grammar, recognizer } = compiled({ type: "string", minLength: 1, pattern: "^([0-9]+y)?([0-9]+w)?([0-9]+d)?([0-9]+h)?([0-9]+m)?([0-9]+s)?([0-9]+ms)?$" });
    expect(grammar.relaxations).toEqual([]);
    for (const ok of ["1m", "5s", "1h30m", "1y", "250ms", "1y2w3d4h5m6s7ms", "10d12h"]) expect(recognizer.accepts(JSON.stringify(ok)), ok).toBe(true);
    for (const bad of ["", "m", "1", "1m1h", "5x", "1ms5s"]) expect(recognizer.accepts(JSON.stringify(bad)), bad).toBe(false);
  });

  const shapes: Array<{ name: string; pattern: string; sample: (n: number) => string; bad: string }> = [
    { name: "dotted identifiers", pattern: "^[a-z][a-z0-9_]*(\\.[a-z][a-z0-9_]*)*$", sample: (n) => dotted(n, "."), bad: "a..b" },
    { name: "dashed slugs", pattern: "^[a-z0-9]+(?:-[a-z0-9]+)*$", sample: (n) => dotted(n, "-"), bad: "a--b" },
    { name: "emails", pattern: "^[a-zA-Z0-9._%+-]+@[a-zA-Z0-9.-]+\\.[a-zA-Z]{2,}$", sample: (n) => `${"u".repeat(Math.max(1, n - 6))}@ex.io`.slice(-Math.max(6, n)), bad: "a@b" },
  ];
  for (const shape of shapes) {
    it(`compiles ${shape.name} with maxLength 1..200 exactly, and the limit is the string's`, () => {
      const re = new RegExp(shape.pattern, "u");
      for (const max of [1, 2, 3, 5, 8, 13, 30, 64, 100, 128, 200]) {
        const c = compiledOrEmpty({ type: "string", pattern: shape.pattern, maxLength: max });
        if (!c) {
          // Only emails can be too short to exist (a@b.cd has 6 characters).
          expect(shape.name === "emails" && max < 6, `${shape.name} ${max}`).toBe(true);
          continue;
        }
        const { grammar, recognizer } = c;
        expect(grammar.relaxations, `${shape.name} ${max}`).toEqual([]);
        for (const n of [max - 1, max, max + 1]) {
          const s = shape.sample(n);
          if (!re.test(s) || length(s) !== n) continue;
          expect(recognizer.accepts(JSON.stringify(s)), `${shape.name} max ${max}: ${s}`).toBe(n <= max);
        }
        expect(recognizer.accepts(JSON.stringify(shape.bad))).toBe(false);
      }
    });
  }
});

/** A valid identifier or slug of exactly n characters (segments of 3 joined by `sep`). */
function dotted(n: number, sep: string): string {
  let s = "a";
  while (s.length < n) s += s.length % 4 === 3 ? sep : "b";
  if (s.endsWith(sep)) s = s.slice(0, -1) + "c";
  return s.slice(0, n);
}
