/**
 * Negated string keywords and oneOf branches told apart by a required key, compiled exactly: a
 * `not {pattern}`, a `not {enum}` beside a pattern, punctuation escaped in a pattern, and a oneOf
 * whose branches differ in what a required key may hold.
 */
import { describe, expect, it } from "vitest";
import { GbnfRecognizer, compileSchema, type JsonSchema } from "../../../src/core/grammar";

function exact(schema: JsonSchema): GbnfRecognizer {
  const r = compileSchema(schema);
  if (!r.ok) throw new Error(r.refusal.message);
  expect(r.grammar.relaxations).toEqual([]);
  return new GbnfRecognizer(r.grammar.gbnf);
}

describe("negated strings", () => {
  it("leaves out the strings a not {pattern} matches (a name that is not only punctuation)", () => {
    const g = exact({ type: "string", minLength: 1, not: { pattern: "^[\\.\\,\\*\\\\\\-\\s\\{\\}\\(\\)]+$" } });
    for (const ok of ["Ada", "a.", "-x-", "J. Smith"]) expect(g.accepts(JSON.stringify(ok)), ok).toBe(true);
    for (const bad of ["", ".", "--", "{ }", "*,*"]) expect(g.accepts(JSON.stringify(bad)), bad).toBe(false);
  });

  it("leaves listed strings out of a pattern's strings", () => {
    const g = exact({ type: "string", pattern: "^[a-z]+$", not: { enum: ["null", "none"] } });
    for (const ok of ["nul", "nonex", "abc"]) expect(g.accepts(JSON.stringify(ok)), ok).toBe(true);
    for (const bad of ["null", "none", "", "A"]) expect(g.accepts(JSON.stringify(bad)), bad).toBe(false);
  });

  it("reads an escaped comma as a comma, as the pattern check's fallback does", () => {
    const g = exact({ type: "string", pattern: "^[a-z\\,]+$" });
    expect(g.accepts(JSON.stringify("a,b"))).toBe(true);
    expect(g.accepts(JSON.stringify("a\\b"))).toBe(false);
  });
});

describe("oneOf told apart by a required key", () => {
  it("compiles branches exactly when one requires a key whose value the other's additionalProperties refuses", () => {
    const g = exact({
      type: "array",
      maxItems: 4,
      items: {
        oneOf: [
          { type: "object", required: ["type", "url"], properties: { type: { enum: ["composer", "vcs"] }, url: { type: "string", maxLength: 20 } }, additionalProperties: false },
          { type: "object", additionalProperties: { type: "boolean", enum: [false] }, minProperties: 1, maxProperties: 1 },
        ],
      },
    });
    expect(g.accepts('[{"type":"vcs","url":"x"},{"packagist.org":false}]')).toBe(true);
    expect(g.accepts('[{"type":false}]')).toBe(true);
    expect(g.accepts('[{"type":"vcs"}]')).toBe(false);
  });
});
