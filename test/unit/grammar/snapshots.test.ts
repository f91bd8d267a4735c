/** Snapshot tests of the grammar for representative tools (a change in output is a reviewed change). */
import { describe, expect, it } from "vitest";
import { compileEnvelopeGrammar } from "../../../src/core/grammar";
import { syntheticGrammarTools } from "./helpers/catalog";

const catalog = syntheticGrammarTools();
const representative = ["vault:read", "note:insert-table", "frontmatter:set", "daily:open", "canvas:add-card", "memory:forget", "search:properties"];

describe("grammar snapshots", () => {
  for (const name of representative) {
    it(`compiles ${name} to the reviewed grammar`, () => {
      const compiled = compileEnvelopeGrammar(catalog.filter((t) => t.name === name), { maxThoughtChars: 200, maxMessageChars: 200, maxToolCalls: 2 });
      expect(compiled.relaxations).toEqual([]);
      expect(compiled.gbnf).toMatchSnapshot();
      expect(compiled.maxBytes).toMatchSnapshot();
    });
  }
  it("compiles the empty subset to the reviewed grammar", () => {
    expect(compileEnvelopeGrammar([]).gbnf).toMatchSnapshot();
  });
});
