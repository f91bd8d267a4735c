import { describe, expect, it } from "vitest";
import { NoteNames } from "../../../src/core/router/note-names";
import { ToolRouter } from "../../../src/core/router/tool-router";
import { createToolCatalog } from "../../../src/tools/index";

const catalog = createToolCatalog();
const bare = new ToolRouter(catalog);
const withVault = new ToolRouter(catalog);
withVault.setNotes([
  "People/Tom Reyes.md",
  "Projects/Atlas.md",
  "Projects/Dune.md",
  "Notes/Vendor email.md",
  "Riunioni/2026-03-12.md",
  "Fatture/2026-001.md",
  "Clienti/Rossi.md",
  "Recettes/Quiche.md",
]);
const offered = (router: ToolRouter, q: string): string[] => router.routeText(q).tools.map((t) => t.name);

describe("a question about a fact of the user's own looks it up", () => {
  it.each([
    "What is the office Wi-Fi password?",
    "Which variety of apples did I plant last year?",
    "Welche Tomatensorte habe ich gepflanzt?",
    "Wie lautet das WLAN-Passwort?",
    "Quand est l'anniversaire de Marc ?",
    "¿Cuál es la contraseña del wifi?",
    "Qual é o telefone da Ana?",
    "Qual è la password del wifi?",
    "Wat is het wachtwoord van de wifi?",
    "Jakie jest hasło do wifi?",
    "Какой пароль от вайфая?",
    "Який пароль від wifi?",
    "Wifi şifresi ne?",
    "wifi密码是什么？",
    "Wi-Fiのパスワードは何？",
    "와이파이 비밀번호가 뭐야?",
    "¿A qué hora sale mi vuelo?",
    "Wie heißt der Klempner, den wir beauftragt haben?",
    "Quanto abbiamo speso per il viaggio a Roma?",
    "Co ustaliliśmy na spotkaniu z Anną?",
    "Что мы решили на встрече?",
    "What's the door code for the office?",
  ])("%s → vault:search and vault:read, not chat", (q) => {
    const d = bare.routeText(q);
    expect(d.chatOnly).toBe(false);
    expect(d.tools.map((t) => t.name)).toEqual(expect.arrayContaining(["vault:search", "vault:read"]));
  });

  it("reads a note named with an English possessive as that note", () => {
    expect(new NoteNames(["People/Tom Reyes.md"]).mark("What is Tom Reyes's phone number?")).toBe("What is note's phone number?");
    expect(offered(withVault, "What is Tom Reyes's phone number?")).toEqual(expect.arrayContaining(["vault:search", "vault:read"]));
  });

  it("recalls a memory when the question is about a preference: a question's writer brings its reader", () => {
    expect(offered(bare, "A que horas prefiro estudar?")).toContain("memory:recall");
  });
});

describe("small talk and general questions stay chat", () => {
  it.each([
    "What is the capital of France?",
    "Who wrote Hamlet?",
    "How many planets are there?",
    "How do I boil an egg?",
    "What is an IP address?",
    "Combien de pays en Europe ?",
    "Quantos habitantes tem o Brasil?",
    "Сколько будет два плюс два?",
    "我应该学什么语言？",
    "Thanks, that's all for today",
    "Das war alles, danke!",
    "Grazie, è tutto",
    "Спасибо, это всё",
    "Est-ce que la Terre est ronde ?",
  ])("%s → chat only", (q) => {
    expect(bare.routeText(q).chatOnly).toBe(true);
  });
});

describe("a request over a set of notes finds them first", () => {
  it.each([
    "Delete all my project notes.",
    "Set the status to archived on every project whose end date has passed.",
    "What is the total budget of my projects?",
    "Combien de portions font toutes mes recettes réunies ?",
    "Setze gegossen auf true bei allen Beeten, die noch nicht gegossen wurden.",
    "Marque como lido o livro com mais de 300 páginas.",
    "Marca como pagadas todas las facturas de Pérez",
    "Zet de status van alle projecten op klaar",
    "Ustaw status wszystkich projektów na gotowe",
    "Поставь статус всех проектов на готово",
    "Tüm projelerin durumunu bitti yap",
    "把所有项目的状态改成完成",
    "すべてのプロジェクトのステータスを完了にして",
    "모든 프로젝트의 상태를 완료로 바꿔",
  ])("%s → vault:list, vault:search, vault:read after its own tools", (q) => {
    const names = offered(bare, q);
    expect(names).toEqual(expect.arrayContaining(["vault:list", "vault:search", "vault:read"]));
  });

  it("reads no set into a general question that only matched a reader weakly", () => {
    expect(offered(bare, "¿Cuántos días tiene el mes de febrero?")).not.toContain("vault:list");
  });

  it("keeps the request's own tools first", () => {
    expect(offered(bare, "Set the status to archived on every project whose end date has passed.")[0]).toBe("frontmatter:set");
  });

  it("lists a folder of the vault named by its word, singular or plural", () => {
    expect(offered(withVault, "Riassumi le riunioni con Rossi.")).toContain("vault:list");
    expect(offered(withVault, "Qual è l'importo totale delle fatture non pagate?")).toContain("vault:list");
    expect(new NoteNames(["Projects/Atlas.md"]).namesFolder("every project")).toBe(true);
    // A folder called "Notes" names no kind of note: every request says "notes".
    expect(new NoteNames(["Notes/Old draft.md"]).namesFolder("summarize my notes")).toBe(false);
  });

  it("searches for a note named by its name, not its path, before reading it", () => {
    expect(offered(withVault, "Summarize the vendor email note for me.")).toEqual(expect.arrayContaining(["vault:read", "vault:search"]));
    expect(offered(bare, "Summarize Notes/Vendor email.md")).not.toContain("vault:search");
  });
});

describe("a question that names a property the vault's notes use looks in the notes", () => {
  const garden = new ToolRouter(catalog);
  garden.setNotes(["Garten/Kartoffeln.md", "Garten/Kräuter.md", "Start.md"], ["beet", "gepflanzt", "gegossen", "tags", "status"]);

  it("offers the finders and the reader for it, where the same question without the vault stays chat", () => {
    const q = "Welche Pflanze steht in Beet 1, und wann wurde sie gepflanzt?";
    expect(offered(bare, q)).toEqual([]);
    expect(offered(garden, q)).toEqual(expect.arrayContaining(["vault:list", "vault:search", "vault:read"]));
  });

  it("ignores generic keys, statements and small talk", () => {
    expect(new NoteNames([], ["tags", "status", "date", "beet"]).namesProperty("what is the status of the world")).toBe(false);
    expect(new NoteNames([], ["tags", "status", "date", "beet"]).namesProperty("welches Beet")).toBe(true);
    expect(offered(garden, "Hallo, wie geht's?")).toEqual([]);
    expect(offered(garden, "What is the capital of France?")).toEqual([]);
  });
});
