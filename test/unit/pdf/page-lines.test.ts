import { describe, expect, it } from "vitest";
import { pageLines, type PdfTextItem } from "../../../src/core/pdf/page-lines";

/** A run of text at (x, y) in a 10-point font, 5 units per character. */
function run(str: string, x: number, y: number, hasEOL = false): PdfTextItem {
  return { str, transform: [10, 0, 0, 10, x, y], width: str.length * 5, height: 10, hasEOL };
}

describe("pageLines", () => {
  it("joins the pieces of a word drawn apart without a space, and puts one between words set apart", () => {
    expect(pageLines([run("Gar", 0, 700), run("den", 15, 700), run("soil", 40, 700)])).toBe("Garden soil");
  });

  it("starts a new line where the baseline moves down, and where pdf.js marks a line end", () => {
    expect(pageLines([run("first line", 0, 700), run("second", 0, 686), run("third", 50, 686, true), run("fourth", 100, 686)])).toBe("first line\nsecond third\nfourth");
  });

  it("joins a word hyphenated at a line end when the next line goes on in lower case, and keeps a hyphen before a capital", () => {
    expect(pageLines([run("drip irri-", 0, 700), run("gation works", 0, 686)])).toBe("drip irrigation works");
    expect(pageLines([run("Obsidian-", 0, 700), run("Markdown", 0, 686)])).toBe("Obsidian-\nMarkdown");
  });

  it("makes one letter of a TeX accent drawn before its letter", () => {
    expect(pageLines([run("M\u00b4etro and na\u00a8ive", 0, 700)])).toBe("Métro and naïve");
  });

  it("skips marked-content entries and is empty for a page without text", () => {
    expect(pageLines([{ type: "beginMarkedContent" }, run("text", 0, 700), { type: "endMarkedContent" }])).toBe("text");
    expect(pageLines([])).toBe("");
  });
});
