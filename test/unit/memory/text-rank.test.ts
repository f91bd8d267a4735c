import { describe, expect, it } from "vitest";
import { TextIndex } from "../../../src/core/memory/text-index";

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
});
