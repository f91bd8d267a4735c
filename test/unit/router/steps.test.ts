import { describe, expect, it } from "vitest";
import { readSteps } from "../../../src/core/router/steps";
import { ToolRouter } from "../../../src/core/router/tool-router";
import { createToolCatalog } from "../../../src/tools/index";

const catalog = createToolCatalog({ semantic: false });
const router = new ToolRouter(catalog);
const writers = new Set(catalog.filter((t) => t.effect !== "read").map((t) => t.name));
const offered = (q: string): string[] => router.routeText(q).tools.map((t) => t.name);

/**
 * Per language: find → read → "change nothing", as a user would write it. Each must read as three steps, the last
 * negated (or answer-only), and be offered search and read with no tool that writes.
 */
const FIND_READ_KEEP: Record<string, { request: string; steps: string[] }> = {
  en: { request: "Find my notes about tea, then read the newest one. Don't change anything.", steps: ["Find my notes about tea", "then read the newest one", "Don't change anything"] },
  de: { request: "Such meine Notizen über Tee und lies dann die neueste. Ändere nichts.", steps: ["Such meine Notizen über Tee", "und lies dann die neueste", "Ändere nichts"] },
  fr: { request: "Cherche mes notes sur le thé, puis lis la plus récente. Ne modifie rien.", steps: ["Cherche mes notes sur le thé", "puis lis la plus récente", "Ne modifie rien"] },
  es: { request: "Busca mis notas sobre el té y luego lee la más reciente. No cambies nada.", steps: ["Busca mis notas sobre el té", "y luego lee la más reciente", "No cambies nada"] },
  pt: { request: "Procure minhas notas sobre chá e depois leia a mais recente. Não altere nada.", steps: ["Procure minhas notas sobre chá", "e depois leia a mais recente", "Não altere nada"] },
  it: { request: "Cerca le mie note sul tè e poi leggi la più recente. Non modificare niente.", steps: ["Cerca le mie note sul tè", "e poi leggi la più recente", "Non modificare niente"] },
  nl: { request: "Zoek mijn notities over thee en lees dan de nieuwste. Verander niets.", steps: ["Zoek mijn notities over thee", "en lees dan de nieuwste", "Verander niets"] },
  pl: { request: "Wyszukaj moje notatki o herbacie, a potem przeczytaj najnowszą. Niczego nie zmieniaj.", steps: ["Wyszukaj moje notatki o herbacie", "a potem przeczytaj najnowszą", "Niczego nie zmieniaj"] },
  ru: { request: "Найди мои заметки про чай, а потом прочитай самую новую. Ничего не меняй.", steps: ["Найди мои заметки про чай", "а потом прочитай самую новую", "Ничего не меняй"] },
  uk: { request: "Знайди мої нотатки про чай, а потім прочитай найновішу. Нічого не змінюй.", steps: ["Знайди мої нотатки про чай", "а потім прочитай найновішу", "Нічого не змінюй"] },
  tr: { request: "Çay hakkındaki notlarımı ara, sonra en yenisini oku. Hiçbir şeyi değiştirme.", steps: ["Çay hakkındaki notlarımı ara", "sonra en yenisini oku", "Hiçbir şeyi değiştirme"] },
  zh: { request: "搜索我关于茶的笔记，然后读一下最新的那篇。不要修改任何东西。", steps: ["搜索我关于茶的笔记", "然后读一下最新的那篇", "不要修改任何东西"] },
  ja: { request: "お茶についてのノートを検索して、最新のものを読んで。何も変更しないで。", steps: ["お茶についてのノートを検索して", "最新のものを読んで", "何も変更しないで"] },
  ko: { request: "차에 관한 노트를 검색하고 가장 최근 것을 읽어 줘. 아무것도 바꾸지 마.", steps: ["차에 관한 노트를 검색하고", "가장 최근 것을 읽어 줘", "아무것도 바꾸지 마"] },
};

/** Per language: a question about links, then "do not change them": the reader the question asks for must stay. */
const ASK_THEN_KEEP: Record<string, string> = {
  en: "Which notes link to [[Home]]? Do not change them.",
  de: "Welche Notizen verlinken auf [[Home]]? Ändere sie nicht.",
  fr: "Quelles notes renvoient vers [[Home]] ? Ne les modifie pas.",
  es: "¿Qué notas enlazan a [[Home]]? No las cambies.",
  pt: "Quais notas têm links para [[Home]]? Não as altere.",
  it: "Quali note rimandano a [[Home]]? Non modificarle.",
  nl: "Welke notities linken naar [[Home]]? Wijzig ze niet.",
  pl: "Które notatki linkują do [[Home]]? Nie zmieniaj ich.",
  ru: "Какие заметки ссылаются на [[Home]]? Не меняй их.",
  uk: "Які нотатки посилаються на [[Home]]? Не змінюй їх.",
  tr: "Hangi notlar [[Home]] notuna bağlantı veriyor? Onları değiştirme.",
  zh: "哪些笔记链接到 [[Home]]？不要修改它们。",
  ja: "[[Home]] にリンクしているノートはどれ？変更しないで。",
  ko: "[[Home]]에 링크된 노트는 어떤 거야? 수정하지 마.",
};

describe("reading a request as steps, in every language", () => {
  for (const [lang, { request, steps }] of Object.entries(FIND_READ_KEEP)) {
    it(`${lang}: cuts at sentence ends and "then"-words, and reads the last step as negated`, () => {
      const read = readSteps(request);
      expect(read.map((s) => s.text)).toEqual(steps);
      expect(read.map((s) => s.negation !== null || s.answerOnly !== null)).toEqual([false, false, true]);
    });
    it(`${lang}: offers search and read, and no tool that writes`, () => {
      const tools = offered(request);
      expect(tools).toEqual(expect.arrayContaining(["vault:search", "vault:read"]));
      expect(tools.filter((t) => writers.has(t))).toEqual([]);
    });
  }

  for (const [lang, request] of Object.entries(ASK_THEN_KEEP)) {
    it(`${lang}: a negation after a question never removes the reader the question asks for`, () => {
      const tools = offered(request);
      expect(tools).toContain("links:backlinks");
      expect(tools.filter((t) => writers.has(t))).toEqual([]);
    });
  }
});

describe("negation scope", () => {
  it("a negated step's own readers still count: 'don't edit the notes that link to X' still asks who links to X", () => {
    const d = router.readText("Don't edit the notes that link to [[Home]], just tell me which ones they are.");
    expect(d.reading.steps[0].negated).toBe("don't");
    expect(d.tools.map((t) => t.name)).toContain("links:backlinks");
    expect(d.tools.map((t) => t.name).filter((t) => writers.has(t))).toEqual([]);
  });

  it("a negation in one step never removes the writer another step asks for", () => {
    const tools = offered("Don't change the original note. Read Recipes/Pancakes.md and write a shorter version into Recipes/Pancakes short.md.");
    expect(tools).toEqual(expect.arrayContaining(["vault:read", "vault:write"]));
  });

  it("without the negation the same request offers writers; with it, none (the negation decides)", () => {
    expect(offered("Read Projects/Plan.md and summarize it. Modify the files.").some((t) => writers.has(t))).toBe(true);
    expect(offered("Read Projects/Plan.md and summarize it. Do not modify any files.").some((t) => writers.has(t))).toBe(false);
  });

  it("a request that only refuses a change is offered no writer: it is answered in words", () => {
    const d = router.routeText("Don't delete Draft.md");
    expect(d.chatOnly).toBe(true);
    expect(router.routeText("Delete Draft.md").tools.map((t) => t.name)).toContain("vault:delete");
  });

  it("a negation scopes over the words after it (and a verb just before it), not over the whole step", () => {
    expect(offered("Delete the notes I don't need")).toContain("vault:delete");
    expect(offered("把不要的笔记删掉")).toContain("vault:delete");
    expect(offered("Ändere keine Dateien, sag mir nur, was in Projekte/Plan.md steht").filter((t) => writers.has(t))).toEqual([]);
  });

  it("a negated question keeps its tool ('which tasks are not done yet?')", () => {
    expect(offered("Which tasks are not done yet?")).toContain("tasks:list");
    expect(offered("Какие задачи у меня ещё не сделаны?")).toContain("tasks:list");
  });

  it("'don't forget to…' asks for something: it is no negation", () => {
    const [step] = readSteps("Don't forget to add milk to my shopping list");
    expect(step.negation).toBeNull();
    expect(offered("Don't forget to add milk to my shopping list").some((t) => writers.has(t))).toBe(true);
  });

  it("words that look like a cue in another language are not cues: English 'I', Turkish 'ne', Portuguese 'no'", () => {
    expect(readSteps("Summarize what I did today according to my daily note").length).toBe(1);
    expect(readSteps("Dün günlüğüme ne yazmışım?")[0].negation).toBeNull();
    expect(readSteps("Acrescente uma linha no fim de Fermento.md")[0].negation).toBeNull();
    expect(readSteps("No cambies nada")[0].negation).toBe("no");
  });
});

describe("step splitting keeps names whole", () => {
  it("never cuts inside a path, a [[link]], a URL or quoted text", () => {
    const steps = readSteps('Open Projects/Plan.v2.md, then replace "first. then second" with "x" and read [[Notes, then more]] from https://example.com/a.b?c=1, then stop.');
    expect(steps.map((s) => s.text)).toEqual([
      "Open Projects/Plan.v2.md",
      'then replace "first. then second" with "x"',
      "and read [[Notes, then more]] from https://example.com/a.b?c=1",
      "then stop",
    ]);
  });

  it("cuts enumerations and line breaks into steps", () => {
    expect(readSteps("1. find notes tagged #trip\n2. read them\n3. write Trips/Summary.md").map((s) => s.text)).toEqual([
      "find notes tagged #trip",
      "read them",
      "write Trips/Summary.md",
    ]);
  });

  it("a one-clause request is one step, and routes exactly as a single request does", () => {
    expect(readSteps("read my Inbox note").length).toBe(1);
    expect(router.readText("read my Inbox note").reading.steps).toHaveLength(1);
  });
});

describe("readers to look before acting", () => {
  it("'read X and summarize' keeps the reader, and small talk still offers nothing", () => {
    expect(offered("Read eval-scratch/expedition-log.md and summarize the expedition as a bulleted list in your reply.")).toContain("vault:read");
    expect(router.routeText("thanks, that's all for today").chatOnly).toBe(true);
  });

  it("an aggregation over a folder's notes gets the folder's list and the properties", () => {
    expect(offered("Add up the hours field of every note in Timesheets/ and tell me the total.")).toEqual(expect.arrayContaining(["vault:list", "frontmatter:get"]));
  });
});
