import { describe, expect, it } from "vitest";
import { hybridSearch } from "../../../src/core/memory/hybrid";
import type { MemorySearch } from "../../../src/core/protocol/tool";

/** A MemorySearch whose two rankings are given. */
function rankings(text: string[], semantic: [string, number][] | null): MemorySearch {
  return {
    textSearch: (_q, limit) => Promise.resolve(text.slice(0, limit).map((path, i) => ({ path, score: 10 - i, snippet: `snippet of ${path}` }))),
    semanticSearch: semantic
      ? (_q, limit) => Promise.resolve(semantic.slice(0, limit).map(([path, score]) => ({ path, score, heading: "H", text: `chunk of ${path}` })))
      : null,
  };
}

describe("hybrid memory search", () => {
  it("puts a note both rankings find first, and keeps notes only one of them finds", async () => {
    const hits = await hybridSearch(rankings(["Tags.md", "FAQ.md", "Glossary.md"], [["Labels.md", 0.8], ["Tags.md", 0.7], ["Tags.md", 0.6]]), "q", 4);
    expect(hits.map((h) => h.path)).toEqual(["Tags.md", "Labels.md", "FAQ.md", "Glossary.md"]);
    // The semantic chunk is the passage of a note the vectors found; its later chunks add nothing.
    expect(hits[0]).toMatchObject({ text: "chunk of Tags.md", heading: "H" });
    expect(hits[2]).toMatchObject({ text: "snippet of FAQ.md" });
  });

  it("leaves out semantic hits under the floor and is the full-text ranking without vectors", async () => {
    const floored = await hybridSearch(rankings(["A.md"], [["B.md", 0.1]]), "q", 5, undefined, 0.3);
    expect(floored.map((h) => h.path)).toEqual(["A.md"]);
    const textOnly = await hybridSearch(rankings(["A.md", "B.md"], null), "q", 1);
    expect(textOnly).toEqual([{ path: "A.md", score: 10, text: "snippet of A.md" }]);
  });
});
