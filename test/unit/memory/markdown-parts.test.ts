import { describe, expect, it } from "vitest";
import { parseYaml, setFrontmatterKey, splitFrontmatter, stringifyYaml, withFrontmatter } from "../../../src/core/memory/frontmatter";
import { resolveLinkpath, rewriteLinks, shortestLinktext } from "../../../src/core/memory/links";
import { parseNote } from "../../../src/core/memory/note-parser";

describe("frontmatter", () => {
  it("parses scalars, quoted strings, flow and block lists, nested maps and block text", () => {
    const yaml = [
      "title: \"Alpha: the plan\"",
      "count: 3",
      "ratio: 0.5",
      "zip: 01234",
      "done: false",
      "empty:",
      "aliases: [One, 'Two, three']",
      "tags:",
      "  - a",
      "  - b/c",
      "author:",
      "  name: Ada",
      "  year: 1843",
      "notes: |",
      "  line one",
      "  line two",
      "url: https://example.com/x # comment",
    ].join("\n");
    expect(parseYaml(yaml)).toEqual({
      title: "Alpha: the plan",
      count: 3,
      ratio: 0.5,
      zip: "01234",
      done: false,
      empty: null,
      aliases: ["One", "Two, three"],
      tags: ["a", "b/c"],
      author: { name: "Ada", year: 1843 },
      notes: "line one\nline two",
      url: "https://example.com/x",
    });
  });

  it("round-trips what it writes", () => {
    const data = { title: "A: b", n: 2, flag: true, list: ["x", "y z"], nested: { k: "v" }, numberish: "42" };
    expect(parseYaml(stringifyYaml(data))).toEqual(data);
  });

  it("sets one key without touching the other lines", () => {
    const text = "---\ntitle:   Spaced   \ntags: [a, b]\nstatus: draft\n---\nBody\n";
    expect(setFrontmatterKey(text, "status", "done")).toBe("---\ntitle:   Spaced   \ntags: [a, b]\nstatus: done\n---\nBody\n");
    expect(setFrontmatterKey(text, "tags", ["c"])).toBe("---\ntitle:   Spaced   \ntags:\n  - c\nstatus: draft\n---\nBody\n");
    expect(setFrontmatterKey(text, "status", undefined)).toBe("---\ntitle:   Spaced   \ntags: [a, b]\n---\nBody\n");
    expect(setFrontmatterKey("Body\n", "rating", 4)).toBe("---\nrating: 4\n---\nBody\n");
  });

  it("treats a note without a closing fence as having no frontmatter", () => {
    expect(splitFrontmatter("---\ntitle: x\nno end").yaml).toBeNull();
    expect(withFrontmatter("---\na: 1\n---\nbody", {})).toBe("body");
  });
});

describe("note parser", () => {
  it("reads tags but not headings, numbers, URLs' anchors or inline code as tags", () => {
    const note = parseNote("# Title\nText #real and #nested/tag, not #123 or `#code` or [x](https://a.b/#frag).\n");
    expect(note.tags).toEqual(["#real", "#nested/tag"]);
  });

  it("reads embeds, aliases, headings in links and markdown links with spaces", () => {
    const note = parseNote("![[pic.png]] [[Note#Part|shown]] [md](<My Note.md>) [web](https://x.y)");
    expect(note.links).toEqual([
      { target: "pic.png", line: 0, embed: true },
      { target: "Note", line: 0, embed: false, display: "shown", subpath: "Part" },
      { target: "My Note.md", line: 0, embed: false, display: "md" },
    ]);
  });
});

describe("links", () => {
  const paths = ["Home.md", "Projects/Alpha.md", "Archive/Alpha.md", "People/Ada.md", "Attachments/pic.png", "Projects/Plan.md"];

  it("resolves like Obsidian: exact path, same folder first, then the shortest path", () => {
    expect(resolveLinkpath("Projects/Alpha", "Home.md", paths)).toBe("Projects/Alpha.md");
    expect(resolveLinkpath("Alpha", "Archive/Old.md", paths)).toBe("Archive/Alpha.md");
    expect(resolveLinkpath("Ada", "Home.md", paths)).toBe("People/Ada.md");
    expect(resolveLinkpath("pic.png", "Home.md", paths)).toBe("Attachments/pic.png");
    expect(resolveLinkpath("ada", "Home.md", paths)).toBe("People/Ada.md");
    expect(resolveLinkpath("Nope", "Home.md", paths)).toBeNull();
  });

  it("writes the bare name when it is unique, else the path", () => {
    expect(shortestLinktext("People/Ada.md", paths)).toBe("Ada");
    expect(shortestLinktext("Projects/Alpha.md", paths)).toBe("Projects/Alpha");
  });

  it("rewrites only links that pointed at the moved note", () => {
    const before = [...paths];
    const after = before.map((p) => (p === "Projects/Plan.md" ? "Projects/Roadmap.md" : p));
    const text = "[[Plan]] [[Plan#Q1|the plan]] ![[Plan]] [[Ada]] [p](Projects/Plan.md#Q2) `[[Plan]]`";
    const result = rewriteLinks(text, "Home.md", "Projects/Plan.md", "Projects/Roadmap.md", before, after);
    expect(result.text).toBe("[[Roadmap]] [[Roadmap#Q1|the plan]] ![[Roadmap]] [[Ada]] [p](Projects/Roadmap.md#Q2) `[[Plan]]`");
    expect(result.changed).toBe(4);
  });
});
