import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { unifiedDiff } from "../../../src/tools/line-diff";
import { formatDate, resolveDay } from "../../../src/tools/date-format";
import { appendText, findSection } from "../../../src/tools/sections";
import { cleanPath, notePath } from "../../../src/tools/note-path";

/** Applies a unified diff produced by unifiedDiff to the old text. */
function applyDiff(before: string, diff: string): string {
  if (diff === "") return before;
  const old = before.split("\n");
  const out: string[] = [];
  let pos = 0;
  const lines = diff.split("\n").slice(2);
  for (let i = 0; i < lines.length; i++) {
    const m = /^@@ -(\d+),(\d+) \+\d+,\d+ @@$/.exec(lines[i]);
    if (m) {
      const start = Number(m[2]) === 0 ? Number(m[1]) : Number(m[1]) - 1;
      while (pos < start) out.push(old[pos++]);
      continue;
    }
    const kind = lines[i][0];
    if (kind === " ") out.push(old[pos++]);
    else if (kind === "-") pos++;
    else if (kind === "+") out.push(lines[i].slice(1));
  }
  while (pos < old.length) out.push(old[pos++]);
  return out.join("\n");
}

describe("unifiedDiff", () => {
  it("shows a one-line change with context", () => {
    const diff = unifiedDiff("a\nb\nc\nd\ne\nf\ng\nh", "a\nb\nc\nd\nE\nf\ng\nh", "x.md");
    expect(diff).toBe("--- a/x.md\n+++ b/x.md\n@@ -2,7 +2,7 @@\n b\n c\n d\n-e\n+E\n f\n g\n h");
  });

  it("is a patch that turns the old text into the new one (property)", () => {
    const text = fc.array(fc.constantFrom("a", "b", "c", "", "# h", "- [ ] t"), { maxLength: 30 }).map((l) => l.join("\n"));
    fc.assert(fc.property(text, text, (a, b) => applyDiff(a, unifiedDiff(a, b, "p.md")) === b), { numRuns: 300 });
  });
});

describe("dates", () => {
  it("formats moment tokens used for daily notes", () => {
    const d = new Date(2026, 0, 3, 7, 5, 9);
    expect(formatDate(d, "YYYY-MM-DD")).toBe("2026-01-03");
    expect(formatDate(d, "dddd, MMMM Do YYYY [at] HH:mm:ss")).toBe("Saturday, January 3rd 2026 at 07:05:09");
    expect(formatDate(d, "gggg-[W]ww")).toBe("2026-W01");
    expect(formatDate(new Date(2026, 0, 1), "gggg-[W]ww")).toBe("2026-W01");
    expect(formatDate(new Date(2027, 0, 1), "gggg-[W]ww")).toBe("2026-W53");
  });

  it("reads relative days and rejects impossible dates", () => {
    const now = new Date(2026, 2, 1, 23, 59);
    expect(formatDate(resolveDay("yesterday", now)!, "YYYY-MM-DD")).toBe("2026-02-28");
    expect(formatDate(resolveDay("-7", now)!, "YYYY-MM-DD")).toBe("2026-02-22");
    expect(resolveDay("2026-02-30", now)).toBeNull();
    expect(resolveDay("soon", now)).toBeNull();
  });
});

describe("sections and paths", () => {
  it("finds a section up to the next heading of the same level", () => {
    const text = "# A\n## B\nb1\n### C\nc\n## D\nd";
    expect(findSection(text, "## b")).toMatchObject({ headingLine: 1, end: 5 });
    expect(appendText(text, "new", "C")).toBe("# A\n## B\nb1\n### C\nc\nnew\n## D\nd");
  });

  it("cleans model-written paths", () => {
    expect(notePath(" /Projects\\Alpha ")).toBe("Projects/Alpha.md");
    expect(notePath("[[Projects/Alpha|A]]")).toBe("Projects/Alpha.md");
    expect(notePath("./img.png")).toBe("img.png");
    expect(cleanPath("a//b/")).toBe("a/b");
  });
});
