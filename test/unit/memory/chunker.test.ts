import { describe, expect, it } from "vitest";
import { chunkNote } from "../../../src/core/memory/chunker";
import { contentHash } from "../../../src/core/memory/content-hash";

const NOTE = `---
tags: [project]
---
Intro line before any heading.

# Alpha
Alpha body.

## Tasks
- [ ] one
- [ ] two

## Empty

### Nested under empty
Nested text.

# Beta
Beta body.
`;

describe("chunkNote", () => {
  it("makes one chunk per heading section with heading paths, skipping frontmatter", () => {
    const chunks = chunkNote("Projects/Alpha.md", NOTE);
    expect(chunks.map((c) => c.heading)).toEqual(["", "Alpha", "Alpha > Tasks", "Alpha > Empty > Nested under empty", "Beta"]);
    expect(chunks[0].text).toBe("Intro line before any heading.");
    expect(chunks.some((c) => c.text.includes("tags:"))).toBe(false);
    expect(chunks[2].text).toBe("## Tasks\n- [ ] one\n- [ ] two");
    // A heading without text of its own travels with the next section.
    expect(chunks[3].text).toBe("## Empty\n\n### Nested under empty\nNested text.");
    expect(chunks[1].embedText).toBe("Alpha > Alpha\n# Alpha\nAlpha body.");
    expect(chunks[2].line).toBe(8);
  });

  it("keeps the hashes of untouched sections when one section changes", () => {
    const before = chunkNote("A.md", NOTE);
    const after = chunkNote("A.md", NOTE.replace("Beta body.", "Beta body, edited."));
    expect(after).toHaveLength(before.length);
    const changed = after.filter((c, i) => c.hash !== before[i].hash);
    expect(changed.map((c) => c.heading)).toEqual(["Beta"]);
  });

  it("keys chunks by what is embedded: a folder move keeps every hash, a new note name changes them", () => {
    const here = chunkNote("Projects/A.md", NOTE);
    const moved = chunkNote("Archive/2026/A.md", NOTE);
    const renamed = chunkNote("Projects/B.md", NOTE);
    expect(moved.map((c) => c.hash)).toEqual(here.map((c) => c.hash));
    expect(moved.map((c) => c.path)).toEqual(here.map(() => "Archive/2026/A.md"));
    // The note name is part of each chunk's embedded context, so a renamed file is new text.
    for (let i = 0; i < here.length; i++) expect(renamed[i].hash).not.toBe(here[i].hash);
  });

  it("gives repeated headings with different text different hashes", () => {
    const a = chunkNote("A.md", "# Log\nx\n# Log\ny\n");
    expect(new Set(a.map((c) => c.hash)).size).toBe(2);
  });

  it("splits long sections within the size limit, overlapping consecutive parts", () => {
    const paragraph = (n: number) => `Paragraph ${n} ` + "word ".repeat(60).trim() + ".";
    const body = "# Long\n" + Array.from({ length: 20 }, (_, i) => paragraph(i)).join("\n\n");
    const chunks = chunkNote("Long.md", body, { maxChars: 800, overlapChars: 100 });
    expect(chunks.length).toBeGreaterThan(5);
    for (const c of chunks) expect(c.text.length).toBeLessThanOrEqual(800);
    for (let i = 1; i < chunks.length; i++) {
      const tail = chunks[i - 1].text.slice(-40);
      expect(chunks[i].text.slice(0, 160)).toContain(tail.slice(tail.indexOf(" ") + 1, tail.indexOf(" ") + 20));
    }
    const joined = chunks.map((c) => c.text).join(" ");
    for (let i = 0; i < 20; i++) expect(joined).toContain(`Paragraph ${i} `);
  });

  it("ignores headings inside code blocks", () => {
    const chunks = chunkNote("C.md", "# Real\n```\n# not a heading\n```\n");
    expect(chunks.map((c) => c.heading)).toEqual(["Real"]);
  });
});

describe("contentHash", () => {
  it("is stable, 16 hex digits, and differs for a one-character change", () => {
    expect(contentHash("hello")).toMatch(/^[0-9a-f]{16}$/);
    expect(contentHash("hello")).toBe(contentHash("hello"));
    expect(contentHash("hello")).not.toBe(contentHash("hellp"));
    expect(contentHash("hello", 1)).not.toBe(contentHash("hello"));
  });
});
