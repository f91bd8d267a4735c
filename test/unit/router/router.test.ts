import { describe, expect, it } from "vitest";
import { EmbeddingScorer } from "../../../src/core/router/embedding-scorer";
import { stem } from "../../../src/core/router/stem";
import { ToolRouter } from "../../../src/core/router/tool-router";
import { toolCard } from "../../../src/core/router/tool-card";
import { NoteNames } from "../../../src/core/router/note-names";
import { EVAL_SUITE } from "../../../src/node/eval/suite";
import type { IndexStore } from "../../../src/core/ports/index-store";
import { createToolCatalog } from "../../../src/tools/index";

const catalog = createToolCatalog();
const router = new ToolRouter(catalog);
const names = (q: string) => router.routeText(q).tools.map((t) => t.name);

describe("stemming", () => {
  it("brings word forms together and drops stop words", () => {
    expect(new Set(["notes", "noting", "noted", "note"].map(stem)).size).toBe(1);
    expect(stem("tagging")).toBe(stem("tags"));
  });
});

describe("hybrid tool router (text only)", () => {
  it("offers the matching tool first, at most top-K from scores", () => {
    expect(names("what time is it")[0]).toBe("clock:now");
    expect(names("mark the task done in Inbox")[0]).toBe("tasks:complete");
    expect(names("which notes link to Home")).toContain("links:backlinks");
    expect(router.routeText("list my notes about recipes").tools.length).toBeLessThanOrEqual(3 + 2);
  });

  it("decides chat only for small talk and general questions", () => {
    for (const q of ["hello there", "thanks!", "what is the capital of France?", "who wrote Hamlet"]) {
      const d = router.routeText(q);
      expect(d, q).toMatchObject({ chatOnly: true, tools: [] });
    }
  });

  it("is unsure (full catalog) when nothing matches clearly but the message is not chat", () => {
    const d = router.routeText("please frobnicate the quux gadget with the zorp module");
    expect(d.chatOnly).toBe(false);
    expect(d.unsure).toBe(true);
    // A short message with nothing in it that any tool or the vault knows is chat, not the whole catalog.
    expect(router.routeText("xyzzy plugh frobnicate").chatOnly).toBe(true);
  });

  it("always includes tools the user names explicitly", () => {
    const d = router.routeText("use web:fetch and hello");
    expect(d.tools[0]).toEqual({ name: "web:fetch", score: 1 });
    expect(d.chatOnly).toBe(false);
  });

  it("adds a family's write siblings when the message asks to change something", () => {
    const reading = names("summarize my daily note");
    const saving = names("save the weather to my daily note");
    expect(reading).toContain("daily:get");
    expect(saving).toContain("daily:append");
    const asked = names("what is in my daily note");
    expect(asked).toContain("daily:get");
  });

  it("treats file paths as 'a note' rather than as words to match", () => {
    expect(names("open my note Projects/Tasks Overview.md")).toContain("vault:read");
  });

  it("meets compound words of other languages through their first letters", () => {
    // "Backlinkliste" is no word of the index; its truncation "backl" still meets "backlinks".
    const d = router.routeText("Zeig mir die Backlinkliste von Home");
    expect(d.tools[0].name).toBe("links:backlinks");
    // Noise matches no card, so it gets no tools.
    expect(router.routeText("xyzzy plugh frobnicate").tools).toEqual([]);
  });
});

describe("small talk in every language", () => {
  const chat = (q: string) => router.routeText(q).chatOnly;

  it("reads joke words as chat wherever they stand, unless the message is about the vault", () => {
    for (const q of ["got any good jokes?", "재밌는 농담 하나 해줘", "Erzähl mir was Lustiges", "何か面白い話して", "расскажи анекдот"]) expect(chat(q), q).toBe(true);
    expect(chat("add a joke to Inbox.md")).toBe(false);
    expect(chat("find the funny note about cats")).toBe(false);
    expect(chat("summarize https://jokes.example")).toBe(false);
  });

  it("reads compliments, chained small talk and small talk after a leading word as chat", () => {
    for (const q of ["you're awesome, see you tomorrow", "Du bist echt super, bis morgen!", "Você é muito bom, tchau!", "so, how are you?", "오늘 기분 어때?"]) expect(chat(q), q).toBe(true);
    expect(chat("you're awesome, now delete Drafts/old.md")).toBe(false);
  });

  it("reads a general question whose only match is its own first word as chat", () => {
    expect(chat("Объясни, что такое инфляция")).toBe(true);
    expect(chat("Explain what a black hole is")).toBe(true);
    expect(names("Объясни выделенный фрагмент")[0]).toBe("note:selection");
    expect(names("explain the highlighted passage")[0]).toBe("note:selection");
    expect(names("Hoe laat is het nu")[0]).toBe("clock:now");
  });

  it("strips Korean sentence endings, so a short question meets its hint", () => {
    expect(names("지금 몇 시야?")[0]).toBe("clock:now");
  });
});

describe("change lean", () => {
  it("keeps the order of the tools it lifts (capping each at 1 tied them and sorted them by name)", () => {
    expect(names("買い物リスト.md に「牛乳を買う」を追加して")[0]).toBe("vault:append");
  });
});

describe("questions about a named note", () => {
  const notes = ["Shopping List.md", "Reading List.md", "Projects/Team Offsite.md", "Inbox.md", "Time.md", "Attachments/diagram.png"];
  const vaultRouter = new ToolRouter(catalog);
  vaultRouter.setNotes(notes);

  it("reads a note's name as 'a note': several words in any case, one word only as a proper name", () => {
    const n = new NoteNames(notes);
    expect(n.mark("What is on my shopping list?")).toBe("What is on my note?");
    expect(n.mark("add eggs to the Reading List note")).toBe("add eggs to the note note");
    expect(n.mark("what is in my Inbox")).toBe("what is in my note");
    // A one-word name in lower case, or as the first word, is an ordinary word; attachments are not notes.
    expect(n.mark("what time is it")).toBe("what time is it");
    expect(n.mark("Inbox zero is my goal")).toBe("Inbox zero is my goal");
    expect(n.mark("show the diagram")).toBe("show the diagram");
  });

  it("offers vault:read, not the list tools, for 'what is on my shopping list'", () => {
    const d = vaultRouter.routeText("What is on my shopping list?");
    expect(d.tools[0].name).toBe("vault:read");
    expect(d.tools.map((t) => t.name)).not.toContain("tags:list");
    // Without the vault's note names the list words compete, but reading stays among the offered tools.
    expect(new ToolRouter(catalog).routeText("What is on my shopping list?").tools.map((t) => t.name)).toContain("vault:read");
  });

  it("treats 'what is in/on X' as a request to read X, while the folder and daily hints still win their cases", () => {
    expect(names("what's in Projects/Kitchen Renovation.md?")).toContain("vault:read");
    expect(names("what's in the folder People")).toContain("vault:list");
    expect(names("what's on my plate today")[0]).toBe("daily:get");
  });

  it("never calls a message that names a note small talk", () => {
    expect(router.routeText("when is the Team Offsite").chatOnly).toBe(true);
    const d = vaultRouter.routeText("when is the Team Offsite");
    expect(d.chatOnly).toBe(false);
    expect(d.unsure || d.tools.some((t) => t.name === "vault:read")).toBe(true);
  });
});

describe("router quality on the bundled eval suite", () => {
  it("offers the expected tool (or the full catalog) for at least 95% of tool requests and chat only for most chat", () => {
    const r = new ToolRouter(createToolCatalog({ semantic: false, network: false }));
    const toolCases = EVAL_SUITE.filter((c) => c.tools.length > 0);
    const chatCases = EVAL_SUITE.filter((c) => c.tools.length === 0);
    const offered = toolCases.filter((c) => {
      const d = r.routeText(c.query);
      return d.unsure || d.tools.some((t) => c.tools.includes(t.name));
    });
    const fullCatalog = toolCases.filter((c) => r.routeText(c.query).unsure);
    expect(offered.length / toolCases.length).toBeGreaterThanOrEqual(0.95);
    // The full catalog is the fallback, not the answer: it must stay rare.
    expect(fullCatalog.length).toBeLessThanOrEqual(5);
    expect(chatCases.filter((c) => r.routeText(c.query).chatOnly).length).toBeGreaterThanOrEqual(chatCases.length - 1);
  });
});

describe("embedding fusion", () => {
  it("embeds the cards once per model, caches them in the store, then embeds only the message", async () => {
    const saved = new Map<string, string>();
    const store: IndexStore = { load: async (k) => saved.get(k) ?? null, save: async (k, t) => void saved.set(k, t), remove: async (k) => void saved.delete(k) };
    let embedded = 0;
    // A deterministic embedder: one dimension per family keyword.
    const keys = ["time", "task", "tag", "link", "daily", "note"];
    const embedder = {
      embed: async (texts: string[]) => (embedded += texts.length, texts.map((t) => keys.map((k) => (t.toLowerCase().includes(k) ? 1 : 0.01)))),
    };
    const cards = catalog.map(toolCard);
    const scorer = new EmbeddingScorer(cards, embedder, "mini-embed.gguf", store);
    const r = new ToolRouter(catalog, {}, scorer);
    const d = await r.route("what time is it");
    expect(d.tools[0].name).toBe("clock:now");
    expect(embedded).toBe(cards.length + 1);
    await r.route("list my tags");
    expect(embedded).toBe(cards.length + 2);
    // A second router over the same model reads the cached card vectors from the store.
    const again = new ToolRouter(catalog, {}, new EmbeddingScorer(cards, embedder, "mini-embed.gguf", store));
    await again.route("my tasks");
    expect(embedded).toBe(cards.length + 3);
    expect([...saved.keys()]).toEqual(["router-cards-mini-embed.gguf.json"]);
  });

  it("falls back to text scores when the embedding model fails", async () => {
    const failing = { embed: async (): Promise<number[][]> => Promise.reject(new Error("The embedding model is not loaded.")) };
    const r = new ToolRouter(catalog, {}, new EmbeddingScorer(catalog.map(toolCard), failing, "broken.gguf"));
    const d = await r.route("what time is it");
    expect(d.tools[0].name).toBe("clock:now");
    expect(r.embeddingError).toBe("The embedding model is not loaded.");
  });
});
