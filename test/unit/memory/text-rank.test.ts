import { describe, expect, it } from "vitest";
import { TextIndex } from "../../../src/core/memory/text-index";
import { rankTop, type RankIndex, type RankQuery } from "../../../src/core/memory/text-rank";
import { languageMark } from "../../../src/core/memory/analysis";

function index(notes: Record<string, string>): TextIndex {
  const ix = new TextIndex();
  for (const [path, text] of Object.entries(notes)) ix.set(path, text, "h");
  return ix;
}

/** Text in a language, long enough for its function words to tell which. */
const spanish = (words: string) => `Esta es una página de la ayuda. ${words} Para que lo uses con tus notas, y también con las de otros.`;
const german = (words: string) => `Dies ist eine Seite der Hilfe. ${words} Damit du es mit deinen Notizen und auch mit den anderen verwendest.`;

describe("text ranking (text-rank.ts)", () => {
  it("counts a question word once per field: a page with many words it begins does not outrank the page titled with it", () => {
    const ix = index({
      "Tags.md": "# Tags\n\nA tag groups notes.",
      // "benutzer", "benutzern", "benutzeroberfläche"…: all begin "benutz", and summed they outweighed a title.
      "Guide.md": `# Guide\n\n${Array.from({ length: 8 }, () => "benutzer benutzern benutzeroberfläche benutzerdefiniert benutzerkonto benutzername").join(" ")} tags`,
    });
    expect(ix.search("benutze tags", 2).map((h) => h.path)[0]).toBe("Tags.md");
  });

  it("puts the note in the question's language first among notes that match it alike", () => {
    const notes: Record<string, string> = {};
    // A vault of two languages, each with enough notes for word weights of its own.
    for (let i = 0; i < 24; i++) {
      notes[`es/Página ${i}.md`] = spanish(`Tema ${i} de la lista, con notas y enlaces.`);
      notes[`de/Seite ${i}.md`] = german(`Thema ${i} der Liste, mit Notizen und Links.`);
    }
    notes["es/Callout.md"] = spanish("Un callout es un recuadro: escribe [!note] en la primera línea de una cita.");
    notes["de/Callout.md"] = german("Ein Callout ist ein Kasten: schreibe [!note] in die erste Zeile eines Zitats.");
    const ix = index(notes);
    expect(ix.search("cómo creo un callout", 1)[0].path).toBe("es/Callout.md");
    expect(ix.search("wie erstelle ich einen Callout", 1)[0].path).toBe("de/Callout.md");
  });

  it("weighs a word by how rare it is in the question's language: a word in every Dutch note counts little next to the subject", () => {
    const notes: Record<string, string> = {};
    // "notities" and "ordenen" are in every Dutch note (common in Dutch) but in one note of four overall.
    for (let i = 0; i < 24; i++) {
      notes[`nl/Notities ${i}.md`] = `Dit is een pagina over het ordenen van de notities van het team, en hoe je die met de anderen deelt ${i}.`;
      for (const l of ["en", "fr", "it"]) notes[`${l}/Page ${i}.md`] = `${l === "en" ? "This is a page of the help about the team" : l === "fr" ? "Ceci est une page de l'aide sur l'équipe" : "Questa è una pagina della guida sul gruppo"} ${i}.`;
    }
    notes["nl/Labels.md"] = "Met tags en labels orden je de notities van het team: een tag is een woord met een hekje, zoals je ziet.";
    const ix = index(notes);
    expect(ix.search("hoe gebruik ik tags om mijn notities te ordenen", 1)[0].path).toBe("nl/Labels.md");
  });

  it("searches a long word by its stem too, even when many notes write it as asked", () => {
    const notes: Record<string, string> = {};
    // "notatek" is in three notes: not rare, yet "Notatki" is found by its stem ("notat").
    for (let i = 0; i < 3; i++) notes[`Lista ${i}.md`] = `Lista notatek numer ${i}.`;
    notes["Notatki.md"] = "# Notatki\n\nJak pisać.";
    const ix = index(notes);
    expect(ix.search("notatek", 10).map((h) => h.path)).toContain("Notatki.md");
  });

  it("finds the page that names the subject in its own language's word before pages of other languages titled with the question's word", () => {
    const notes: Record<string, string> = {};
    for (let i = 0; i < 24; i++) {
      notes[`es/Página ${i}.md`] = spanish(`Tema ${i} de la lista, con notas y enlaces.`);
      notes[`de/Seite ${i}.md`] = german(`Thema ${i} der Liste, mit Notizen und Links.`);
      notes[`en/Page ${i}.md`] = `This is a page of the help about topic ${i}, with notes and links for you and the others in the team.`;
    }
    // "Destacados" is Spanish for callouts (a concept of its title); the page writes "callout" once, in its CSS.
    notes["es/Destacados.md"] = spanish("Usa los recuadros para incluir contenido: escribe [!note] en la primera línea de una cita. Con CSS: `.callout { color: red }`.");
    notes["en/Callouts.md"] = "Use callouts to include extra content: write [!note] on the first line of a quote. In CSS: `.callout { color: red }`, for your notes and the others.";
    notes["de/Callouts.md"] = german("Mit Callouts fügst du Inhalte ein: schreibe [!note] in die erste Zeile eines Zitats.");
    const ix = index(notes);
    expect(ix.search("cómo creo un callout de advertencia", 1)[0].path).toBe("es/Destacados.md");
  });

  it("lets a question word's near spellings match words only: the concept the word names still counts", () => {
    const notes: Record<string, string> = {};
    for (let i = 0; i < 24; i++) {
      notes[`nl/Pagina ${i}.md`] = `Dit is een pagina van de hulp over onderwerp ${i}, met notities en links voor jou en de anderen in het team.`;
      notes[`en/Page ${i}.md`] = `This is a page of the help about topic ${i}, with notes and links for you and the others in the team.`;
    }
    // "Bijschriften" is Dutch for callouts: the concept "=callout" is one letter from the word "callout".
    notes["nl/Bijschriften.md"] = "Met bijschriften voeg je inhoud toe: schrijf [!note] op de eerste regel van een citaat, en in CSS `.callout { color: red }` voor de anderen.";
    notes["en/Callouts.md"] = "Use callouts to include extra content: write [!note] on the first line of a quote. In CSS: `.callout { color: red }`, for your notes and the others.";
    const ix = index(notes);
    expect(ix.search("hoe maak ik een callout met een waarschuwing", 1)[0].path).toBe("nl/Bijschriften.md");
  });

  it("after notes are added, replaced and removed, ranks exactly as when the whole index is counted again", () => {
    const vault = new FakeIndex();
    const en = (i: number, extra = "") => [[`page ${i}`], ["help", languageMark("en")], `this is a page about notes and links ${extra}`.split(" "), []];
    const de = (i: number, extra = "") => [[`seite ${i}`], ["hilfe", languageMark("de")], `dies ist eine seite über notizen und links ${extra}`.split(" "), []];
    for (let i = 0; i < 25; i++) vault.add(`en/${i}`, en(i));
    // 21 German notes: enough for word weights of their own, until two go.
    for (let i = 0; i < 21; i++) vault.add(`de/${i}`, de(i, i % 3 === 0 ? "links links" : ""));
    const queries: RankQuery[] = [
      { words: [{ term: "links", prefix: false, fuzzy: 0 }, { term: "notizen", prefix: true, fuzzy: 0 }], languageTerms: [languageMark("de")], boosts: [5, 2, 1, 4] },
      { words: [{ term: "notes", prefix: true, fuzzy: 0, stem: "not" }, { term: "page", prefix: false, fuzzy: 0 }], languageTerms: [languageMark("en")], boosts: [5, 2, 1, 4] },
      { words: [{ term: "seite", prefix: false, fuzzy: 0 }, { term: "zebra", prefix: false, fuzzy: 0 }], languageTerms: [], boosts: [5, 2, 1, 4] },
    ];
    const check = () => {
      const view = vault.view();
      for (const q of queries) expect(rankTop(view, q, 5, (d) => vault.idOf(d))).toEqual(rankTop(vault.view(true), q, 5, (d) => vault.idOf(d)));
    };
    check();
    // A replaced note is discarded (its postings stay behind, as minisearch leaves them) and added under a new short id.
    vault.discard("de/3");
    vault.add("de/3", de(3, "zebra"));
    check();
    vault.add("en/new", en(99, "zebra links"));
    check();
    // Two German notes fewer: 19, too few for word weights of their own.
    vault.discard("de/4");
    vault.discard("de/5");
    check();
    vault.add("de/4", de(4));
    check();
    // A language no note had before.
    vault.add("fr/1", [["page"], ["aide", languageMark("fr")], ["notes", "links"], []]);
    check();
  });

  it("ranks right after a ranking that failed midway", () => {
    const vault = new FakeIndex();
    for (let i = 0; i < 30; i++) vault.add(`n/${i}`, [[`note ${i}`], [], (i % 2 ? "garden tomato" : "garden bread").split(" "), []]);
    const query: RankQuery = { words: [{ term: "garden", prefix: false, fuzzy: 0 }, { term: "tomato", prefix: false, fuzzy: 0 }], languageTerms: [], boosts: [5, 2, 1, 4] };
    const expected = rankTop(vault.view(true), query, 5, (d) => vault.idOf(d));
    const view = vault.view();
    // The word's longer terms cannot be read after its own term was scored: the ranking stops halfway through the word.
    const failing: RankIndex = { ...view, index: { ...view.index, atPrefix: (prefix) => (prefix === "garden" ? fail() : view.index.atPrefix(prefix)) } };
    expect(() => rankTop(failing, { ...query, words: [{ term: "garden", prefix: true, fuzzy: 0 }] }, 5, (d) => vault.idOf(d))).toThrow("terms unreadable");
    expect(rankTop(view, query, 5, (d) => vault.idOf(d))).toEqual(expected);
  });
});

function fail(): never {
  throw new Error("terms unreadable");
}

/** A tiny index as the ranking reads it, kept as minisearch keeps its own: discarded notes' postings stay. */
class FakeIndex {
  private readonly terms = new Map<string, Map<number, Map<number, number>>>();
  private readonly ids = new Map<number, string>();
  private readonly lengths = new Map<number, number[]>();
  private next = 0;
  /** The term map: the same object for every view, as the engine's. */
  private readonly index: RankIndex["index"] = {
    get: (term) => this.terms.get(term),
    atPrefix: (prefix) => [...this.terms].filter(([t]) => t.startsWith(prefix)).sort(([a], [b]) => (a < b ? -1 : 1)),
    fuzzyGet: () => new Map(),
  };

  add(id: string, fields: string[][]): void {
    const d = this.next++;
    this.ids.set(d, id);
    this.lengths.set(d, fields.map((f) => f.length));
    fields.forEach((words, f) => {
      for (const w of words) {
        const data = this.terms.get(w) ?? new Map<number, Map<number, number>>();
        this.terms.set(w, data);
        const postings = data.get(f) ?? new Map<number, number>();
        data.set(f, postings);
        postings.set(d, (postings.get(d) ?? 0) + 1);
      }
    });
  }

  discard(id: string): void {
    for (const [d, other] of this.ids) {
      if (other !== id) continue;
      this.ids.delete(d);
      this.lengths.delete(d);
    }
  }

  idOf(d: number): string {
    return this.ids.get(d) ?? "";
  }

  /** The index now; `fresh`: behind a term map never seen, so the ranking counts everything again. */
  view(fresh = false): RankIndex {
    const F = 4;
    const sums = new Array<number>(F).fill(0);
    for (const l of this.lengths.values()) l.forEach((n, f) => (sums[f] += n));
    const index = this.index;
    return {
      index: fresh ? { get: (t) => index.get(t), atPrefix: (p) => index.atPrefix(p), fuzzyGet: (t, k) => index.fuzzyGet(t, k) } : index,
      documentIds: new Map(this.ids),
      fieldLength: new Map(this.lengths),
      avgFieldLength: sums.map((s) => s / Math.max(1, this.lengths.size)),
      documentCount: this.ids.size,
      nextId: this.next,
      eachPosting: (postings, fn) => postings.forEach((tf, d) => fn(d, tf)),
    };
  }
}
