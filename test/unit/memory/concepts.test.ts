import { describe, expect, it } from "vitest";
import { conceptTerms, isConceptTerm } from "../../../src/core/memory/concepts";
import { TextIndex } from "../../../src/core/memory/text-index";

describe("concept terms for memory search", () => {
  it("gives a tag question and a page named with another word for tags the same concept", () => {
    expect(conceptTerms("hoe gebruik ik tags")).toContain("=tag");
    expect(conceptTerms("Labels")).toContain("=tag");
    expect(conceptTerms("як використовувати теги")).toContain("=tag");
    expect(conceptTerms("Мітки")).toContain("=tag");
  });

  it("reads a link to the current note, in several languages, as a backlink", () => {
    for (const q of ["which notes link to the current note", "welche Notizen auf die aktuelle Notiz verlinken", "qué notas enlazan a la nota actual", "które notatki linkują do bieżącej notatki"]) {
      expect(conceptTerms(q), q).toContain("=backlink");
    }
    expect(conceptTerms("Backlinks")).toEqual(expect.arrayContaining(["=backlink", "=link"]));
    expect(conceptTerms("Linki zwrotne")).toContain("=backlink");
  });

  it("does not read a link alone as a backlink", () => {
    expect(conceptTerms("Internal links")).toEqual(["=link"]);
  });

  it("reads today, in any language, as the daily note", () => {
    for (const q of ["create today's note", "une note pour aujourd'hui", "notatkę na dzisiaj", "нотатку на сьогодні", "今天的笔记"]) expect(conceptTerms(q), q).toContain("=daily");
    expect(conceptTerms("Daily notes")).toContain("=daily");
  });

  it("pairs a phone and a computer with devices", () => {
    expect(conceptTerms("sync between my phone and my computer")).toEqual(expect.arrayContaining(["=sync", "=device"]));
    expect(conceptTerms("Sync your notes across devices")).toEqual(expect.arrayContaining(["=sync", "=device"]));
  });

  it("leaves out what a question asks to do (create, find) and the helper concepts", () => {
    const terms = conceptTerms("find and create a note in the current folder");
    expect(terms).toContain("=folder");
    for (const t of ["=create", "=find", "=current", "=back"]) expect(terms).not.toContain(t);
  });

  it("marks concept terms apart from words", () => {
    expect(isConceptTerm("=tag")).toBe(true);
    expect(isConceptTerm("tag")).toBe(false);
  });
});

describe("text index with concepts", () => {
  it("finds a page through a concept its question shares but none of its words", () => {
    const index = new TextIndex();
    index.set("Labels.md", "Gebruik ze om notities te groeperen.", "a");
    index.set("Notities importeren.md", "Importeer notities uit andere apps en orden ze.", "b");
    index.set("Notities beheren.md", "Notities maken, hernoemen en ordenen.", "c");
    const hits = index.search("hoe gebruik ik tags om mijn notities te ordenen", 3);
    expect(hits[0].path).toBe("Labels.md");
    // Concept terms are no words of the note: a snippet does not look for them.
    for (const h of hits) expect(h.terms.some(isConceptTerm)).toBe(false);
  });
});
