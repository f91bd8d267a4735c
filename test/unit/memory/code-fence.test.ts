import { describe, expect, it } from "vitest";
import { CodeFence } from "../../../src/core/memory/code-fence";
import { parseNote } from "../../../src/core/memory/note-parser";

describe("code fences", () => {
  it("covers a block from its opening to its closing line, and nothing after", () => {
    const fence = new CodeFence();
    const lines = ["text", "```js", "# not a heading", "```", "# heading"];
    expect(lines.map((l) => fence.covers(l))).toEqual([false, true, true, true, false]);
  });

  it("closes only on the same character repeated at least as often (a longer fence can hold a shorter one)", () => {
    const fence = new CodeFence();
    const lines = ["````md", "```", "~~~", "```", "````", "after"];
    expect(lines.map((l) => fence.covers(l))).toEqual([true, true, true, true, true, false]);
  });

  it("keeps headings, tags and tasks inside code out of a note's metadata", () => {
    const meta = parseNote("# Real\n````\n```\n# Fake\n- [ ] fake task #faketag\n```\n````\n- [ ] real task #realtag\n");
    expect(meta.headings.map((h) => h.text)).toEqual(["Real"]);
    expect(meta.tasks.map((t) => t.text)).toEqual(["real task #realtag"]);
  });
});
