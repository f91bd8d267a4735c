/** The GBNF parser and recognizer on handwritten grammars covering every construct. */
import { describe, expect, it } from "vitest";
import { GbnfParseError, GbnfRecognizer, parseGbnf } from "../../../src/core/grammar";
import { printGbnf } from "../../../src/core/grammar/gbnf-printer";

const grammar = `
# comments and blank lines are ignored
root ::= greeting ( ", " name )? tail
greeting ::= "hi" | "hello" |
   "hey"
name ::= [A-Z] [a-z]{1,5}
tail ::= "!"* "." | digits
digits ::= [0-9]+ ("e" [\\x2D+]? [0-9]{2})? ([^a-z\\n] | "\\u00e9"){0,2}
`;

describe("GBNF recognizer", () => {
  const r = new GbnfRecognizer(grammar);

  it("accepts sentences of the language and rejects others", () => {
    for (const ok of ["hi.", "hello, Bob!!.", "hey, Alice1", "hi12e-05", "hi7é#", "hi, Ab."]) expect(r.accepts(ok), ok).toBe(true);
    for (const bad of ["hi", "hi, bob.", "hi, Abcdefg.", "hi1e5", "hi1éé#", "yo.", "hi..", ""]) expect(r.accepts(bad), bad).toBe(false);
  });

  it("tells whether a prefix can still be completed", () => {
    expect(r.acceptsPrefix("")).toBe(true);
    expect(r.acceptsPrefix("hel")).toBe(true);
    expect(r.acceptsPrefix("hello, B")).toBe(true);
    expect(r.acceptsPrefix("hello, b")).toBe(false);
    expect(r.acceptsPrefix("hi.")).toBe(true);
    expect(r.acceptsPrefix("hi.x")).toBe(false);
  });

  it("handles {m}, {m,} and nested optional groups", () => {
    const g = new GbnfRecognizer('root ::= "a"{3} "b"{2,} ("c" ("d")?)?');
    expect(g.accepts("aaabb")).toBe(true);
    expect(g.accepts("aaabbbbbcd")).toBe(true);
    expect(g.accepts("aabb")).toBe(false);
    expect(g.accepts("aaab")).toBe(false);
    expect(g.accepts("aaabbd")).toBe(false);
  });

  it("terminates on repetitions of rules that can match nothing", () => {
    const g = new GbnfRecognizer('root ::= ("a"?)* "b"');
    expect(g.accepts("aaab")).toBe(true);
    expect(g.accepts("b")).toBe(true);
    expect(g.accepts("c")).toBe(false);
  });

  it("reports a left-recursive grammar instead of looping", () => {
    const g = new GbnfRecognizer('root ::= root "a" | "b"');
    expect(() => g.accepts("baa")).toThrow(/left-recursive/);
  });

  it("matches any character with . and astral characters as one code point", () => {
    const g = new GbnfRecognizer("root ::= . [^x]");
    expect(g.accepts("😀😀")).toBe(true);
    expect(g.accepts("ax")).toBe(false);
  });

  it("round-trips through the printer", () => {
    const printed = printGbnf(parseGbnf(grammar));
    const again = new GbnfRecognizer(printed);
    for (const s of ["hello, Bob!!.", "hi7é#", "hi"]) expect(again.accepts(s)).toBe(r.accepts(s));
  });
});

describe("GBNF parser errors", () => {
  it("names the line and column of a syntax error", () => {
    expect(() => parseGbnf('root ::= "a"\nx ::= [a-')).toThrow(GbnfParseError);
    expect(() => parseGbnf('root ::= "a"\nx ::= [a-')).toThrow(/line 2/);
  });
  it("rejects an undefined rule, a missing root and a duplicate rule", () => {
    expect(() => parseGbnf("root ::= missing")).toThrow(/"missing" is used but never defined/);
    expect(() => parseGbnf('start ::= "a"')).toThrow(/no "root" rule/);
    expect(() => parseGbnf('root ::= "a"\nroot ::= "b"')).toThrow(/defined twice/);
  });
  it("rejects inverted repetition bounds and unknown escapes", () => {
    expect(() => parseGbnf('root ::= "a"{3,2}')).toThrow(/below its minimum/);
    expect(() => parseGbnf('root ::= "\\q"')).toThrow(/unknown escape/);
  });
});
