import { describe, expect, it } from "vitest";
import { analyze, SIGNAL } from "../../../src/core/router/analyze";
import { parseCatalog } from "../../../src/core/router/catalog";
import { CONCEPT } from "../../../src/core/router/related";
import { stem } from "../../../src/core/router/stem";
import { ToolRouter } from "../../../src/core/router/tool-router";
import { defaultRouter } from "../../../src/node/eval/router-eval";

const terms = (text: string) => analyze(text).terms;
const concepts = (text: string) => terms(text).filter((t) => t.startsWith(CONCEPT));

/** A small foreign catalog whose descriptions share no word with the requests below. */
const catalog = parseCatalog([
  { name: "currency_exchange.convert", description: "Convert an amount from a base currency to a target currency." },
  { name: "get_stock_price", description: "Current price of a stock by its ticker symbol." },
  { name: "set_volume", description: "Set the global volume for all audio playback." },
  { name: "play_song", description: "Play the requested song from the library." },
  { name: "historic_leader_search", description: "Retrieve information about a historical leader given a location and date.", parameters: { type: "object", properties: { location: { type: "string" }, date: { type: "integer" } } } },
  { name: "find_card_in_deck", description: "Find a card of a given rank in France's favourite deck." },
  { name: "cmd_controller.execute", description: "Executes a command in the operating system." },
  { name: "software_versions", description: "Check which software is installed and its version number." },
  { name: "weather.get_by_coordinates_date", description: "Historical weather data by coordinates and date.", parameters: { type: "object", properties: { coordinates: { type: "string" }, date: { type: "string" } } } },
  { name: "wind_farm.potential", description: "Potential energy of a wind farm at a location." },
  { name: "sendHttpRequest", description: "Send a request to the Httpbin API for testing." },
  { name: "send_email", description: "Send an email message to a recipient." },
  { name: "predict_disease", description: "Predict the chance of a disease from symptoms." },
  { name: "linear_regression", description: "Applies linear regression to make a prediction." },
]);
const router = new ToolRouter(catalog);
const rank = (q: string, name: string) => router.rankText(q, 20).findIndex((t) => t.name === name);

describe("related words (concept terms)", () => {
  it("gives related words one concept term, in messages and tool cards alike", () => {
    expect(concepts("dollars")).toEqual(concepts("currency"));
    expect(concepts("tunes")).toEqual(concepts("music"));
    expect(concepts("loud")).toEqual(concepts("volume"));
    expect(concepts("king")).toEqual(concepts("leader"));
    expect(concepts("上海的天气")).toEqual(concepts("weather"));
    expect(concepts("the")).toEqual([]);
  });

  it("routes a request to a tool it shares no word with, through related words", () => {
    expect(rank("How many Canadian dollars can I get for 500 US dollars?", "currency_exchange.convert")).toBe(0);
    expect(rank("the music is too loud, turn it down", "set_volume")).toBeLessThan(2);
  });

  it("keeps a word's truncation right after it, before its concepts (routing hints pair them)", () => {
    const t = terms("currencies");
    expect(t[0]).toBe(stem("currencies"));
    expect(t[1].startsWith("~")).toBe(true);
    expect(t.slice(2).every((x) => x.startsWith(CONCEPT))).toBe(true);
  });
});

describe("value signals", () => {
  it("reads a year on its own as a date, but not a number inside a longer one", () => {
    expect(concepts("Who was the King of France in 1510?")).toEqual(expect.arrayContaining([CONCEPT + "year", CONCEPT + "date"]));
    expect(concepts("version 1510.2 of the tool")).not.toContain(CONCEPT + "year");
    expect(concepts("call 15105550100")).not.toContain(CONCEPT + "year");
    expect(rank("Who was the King of France in 1510?", "historic_leader_search")).toBe(0);
  });

  it("reads English dates written with the month's name as dates", () => {
    for (const d of ["on December 13, 2019", "the 5th of march 2023", "from April 14th", "13 Dec"]) {
      expect(analyze(d).signals.has(SIGNAL.date), d).toBe(true);
      expect(concepts(d), d).toContain(CONCEPT + "date");
    }
    expect(analyze("march on").signals.has(SIGNAL.date)).toBe(false);
    expect(rank("What is the wind speed at 46.603354,1.8883340 on December 13, 2019?", "weather.get_by_coordinates_date")).toBe(0);
  });

  it("reads a coordinate pair, an amount of money and a command-line option", () => {
    expect(concepts("at 37.8651 N, 119.5383 W")).toContain(CONCEPT + "coordinate");
    expect(concepts("I have €100 left")).toContain(CONCEPT + "currency");
    expect(concepts("run docker --version")).toContain(CONCEPT + "execute");
    expect(concepts("a well - known fact")).not.toContain(CONCEPT + "execute");
    expect(rank("check whether docker is installed using docker --version", "cmd_controller.execute")).toBeLessThan(2);
  });

  it("keeps a URL's host name as words", () => {
    const t = terms("send a POST request to https://www.httpbin.org/post");
    expect(t).toContain(SIGNAL.url);
    expect(t).toContain("httpbin");
    expect(t).not.toContain("www");
    expect(rank("send a POST request to https://httpbin.org/post", "sendHttpRequest")).toBe(0);
  });
});

describe("related words across languages", () => {
  const files = new ToolRouter(
    parseCatalog([
      { name: "delete_file", description: "Delete a file from the workspace." },
      { name: "create_file", description: "Create a file with the given content." },
      { name: "read_file", description: "Read a file and return its content." },
      { name: "rename_file", description: "Rename a file." },
      { name: "search_files", description: "Search the files by keyword." },
    ]),
  );
  const first = (q: string) => files.rankText(q, 1)[0]?.name;

  it("gives inflected forms of other languages the English word's concept (prefix members)", () => {
    for (const w of ["Lösche", "löschen", "supprime", "borra", "usuń", "удали", "sil"]) expect(concepts(w), w).toEqual(concepts("delete"));
    for (const w of ["erstelle", "créer", "utwórz", "создай", "oluştur"]) expect(concepts(w), w).toContain(CONCEPT + "create");
    expect(concepts("删除这个文件")).toEqual(concepts("delete"));
    // Function words give no term of their own, but the topic words ("about", "über", "про", "について") give a concept.
    for (const w of ["über", "sobre", "про", "hakkında", "について"]) expect(concepts(w), w).toEqual(concepts("about"));
    expect(terms("über").filter((t) => !t.startsWith(CONCEPT))).toEqual([]);
    expect(concepts("söylemiştim")).toEqual(concepts("told"));
    expect(concepts("parlé")).toEqual(concepts("mentioned"));
    // A prefix member matches the start of a word only.
    expect(concepts("kassieren")).toEqual([]);
  });

  it("routes requests in other languages over an English catalog", () => {
    expect(first("Lösche die Datei Entwurf")).toBe("delete_file");
    expect(first("Crée un fichier pour le budget")).toBe("create_file");
    expect(first("Переименуй файл")).toBe("rename_file");
    expect(first("Busca la palabra presupuesto")).toBe("search_files");
    expect(first("打开这个文件读一下")).toBe("read_file");
  });
});

describe("misspelt words", () => {
  const builtIn = defaultRouter();

  it("reads a word no card has, one letter away from one that a card has, as that word", () => {
    const d = builtIn.routeText("serach my notes for the budget");
    expect(d.unsure).toBe(false);
    expect(d.tools[0]?.name).toBe("vault:search");
    expect(rank("check the wether in Paris", "weather.get_by_coordinates_date")).toBeLessThan(3);
  });

  it("leaves short words and inflections the truncation already meets alone", () => {
    // "Lisa" is one letter from "list", but a name: short words are never corrected.
    expect(builtIn.routeText("who painted the Mona Lisa?").chatOnly).toBe(true);
  });
});

describe("German typed without umlauts", () => {
  const builtIn = defaultRouter();

  it("reads 'oe', 'ae', 'ue' in a word no card has as the umlaut the cards were written with", () => {
    const d = builtIn.routeText("Loesche die Notiz Entwurf");
    expect(d.unsure).toBe(false);
    expect(d.tools[0]?.name).toBe("vault:delete");
    expect(builtIn.routeText("Zeig mir alle Schlagwoerter").unsure).toBe(false);
  });
});

describe("questions without a question mark", () => {
  const builtIn = defaultRouter();

  it("reads a question's first words as a question, in any language", () => {
    expect(analyze("Hoe laat is het nu").signals.has(SIGNAL.ask)).toBe(true);
    expect(analyze("was steht heute an").signals.has(SIGNAL.ask)).toBe(true);
    expect(analyze("delete the draft").signals.has(SIGNAL.ask)).toBe(false);
    expect(builtIn.routeText("Hoe laat is het nu").tools[0]?.name).toBe("clock:now");
    expect(builtIn.routeText("what am I looking at").tools[0]?.name).toBe("note:active");
  });
});
