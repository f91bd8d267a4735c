/** The grammar of what may follow a partial reply: its language is exactly the original's continuations there. */
import { describe, expect, it } from "vitest";
import { GbnfRecognizer, GbnfWalker, GrammarSampler, compileEnvelopeGrammar } from "../../../src/core/grammar";
import { restGrammar } from "../../../src/core/grammar/rest-grammar";
import { syntheticGrammarTools } from "./helpers/catalog";
import { seededRandom } from "./helpers/rng";

const tools = syntheticGrammarTools().slice(0, 12);
const gbnf = compileEnvelopeGrammar(tools, { maxThoughtChars: 40, maxMessageChars: 40, maxToolCalls: 2 }).gbnf;

describe("restGrammar", () => {
  const walker = new GbnfWalker(gbnf);
  const whole = new GbnfRecognizer(gbnf);
  const texts = Array.from({ length: 25 }, (_, i) => new GrammarSampler(gbnf, { random: seededRandom(i + 1) }).sample());

  it("admits every sampled envelope's rest after every cut, and the whole envelope from the start", () => {
    for (const [n, text] of texts.entries()) {
      const chars = [...text];
      const cuts = [0, 1, 12, Math.floor(chars.length / 3), Math.floor(chars.length / 2), chars.length - 2, chars.length - 1].filter((c) => c >= 0 && c < chars.length);
      for (const cut of cuts) {
        const pos = walker.advance(walker.start(), chars.slice(0, cut).join(""));
        expect(pos, `envelope ${n} cut ${cut}`).not.toBeNull();
        const rest = new GbnfRecognizer(restGrammar(pos!));
        expect(rest.accepts(chars.slice(cut).join("")), `envelope ${n} cut ${cut}`).toBe(true);
      }
    }
  });

  it("refuses a rest the original grammar refuses after that prefix", () => {
    for (const text of texts) {
      const chars = [...text];
      const cut = Math.floor(chars.length / 2);
      const pos = walker.advance(walker.start(), chars.slice(0, cut).join(""))!;
      const rest = new GbnfRecognizer(restGrammar(pos));
      for (const bad of [chars.slice(cut).join("") + "}", chars.slice(cut + 1).join("") + "\u0001", "]" + chars.slice(cut).join("")]) {
        expect(rest.accepts(bad)).toBe(whole.accepts(chars.slice(0, cut).join("") + bad));
      }
    }
  });

  it("admits only the end once the reply is one character short of complete", () => {
    const text = texts[0];
    const pos = walker.advance(walker.start(), text.slice(0, -1))!;
    const rest = new GbnfRecognizer(restGrammar(pos));
    expect(rest.accepts(text.slice(-1))).toBe(true);
    expect(rest.acceptsPrefix(text.slice(-1) + " ")).toBe(false);
  });
});
