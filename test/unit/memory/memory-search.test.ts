import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { makeMemoryFixture, type MemoryFixture } from "./memory-fixture";
import { createMemorySearch } from "../../../src/core/memory/memory-search";
import { prefetchMemories } from "../../../src/core/memory/prefetch";
import { createToolCatalog } from "../../../src/tools";
import { DEFAULT_TOOL_SETTINGS, type MemorySearch, type ToolContext } from "../../../src/core/protocol/tool";
import { ToolError } from "../../../src/tools/tool-error";

let f: MemoryFixture;
beforeEach(async () => {
  f = await makeMemoryFixture();
});
afterEach(async () => {
  await f.cleanup();
});

function context(memory: ToolContext["memory"]): ToolContext {
  return {
    vault: f.vault,
    user: { confirm: () => Promise.resolve("approve"), notify: () => undefined },
    memory,
    settings: { ...DEFAULT_TOOL_SETTINGS },
    now: () => new Date(2026, 10, 23, 9, 30),
  };
}

async function run(name: string, args: Record<string, unknown>, ctx: ToolContext) {
  const tool = createToolCatalog().find((t) => t.name === name)!;
  return tool.handler(tool.args.parse(args), ctx);
}

describe("createMemorySearch", () => {
  it("finds notes by words with minisearch, snippets from the note", async () => {
    const { indexer } = f.open();
    await indexer.build();
    const search = createMemorySearch({ indexer, vault: f.vault, vectors: null, embed: null });
    expect(search.semanticSearch).toBeNull();
    const hits = await search.textSearch("lentil soup", 5);
    expect(hits[0].path).toBe("Recipes/Red Lentil Soup.md");
    expect(hits[0].snippet.toLowerCase()).toMatch(/lentil/);
    // Prefix matching: a half-typed word still finds the note.
    expect((await search.textSearch("shaks", 3))[0].path).toBe("Recipes/Shakshuka.md");
  });

  it("searches by meaning through the vector index, optionally within a folder", async () => {
    const { indexer, store } = f.open();
    await indexer.build();
    const search = createMemorySearch({ indexer, vault: f.vault, vectors: store, embed: f.embedder.embed });
    const hits = await search.semanticSearch!("red lentil soup cumin", 3);
    expect(hits[0].path).toBe("Recipes/Red Lentil Soup.md");
    expect(hits[0].score).toBeGreaterThan(hits[2].score - 1e-9);
    const people = await search.semanticSearch!("product lead beta", 5, { pathPrefix: "People/" });
    expect(people.length).toBeGreaterThan(0);
    for (const h of people) expect(h.path.startsWith("People/")).toBe(true);
    expect(await search.semanticSearch!("anything", 5, { pathPrefix: "Nowhere/" })).toEqual([]);
  });

  it("reads hit texts back from the notes, leaving out chunks that no longer exist", async () => {
    const { indexer, store } = f.open();
    await indexer.build();
    const search = createMemorySearch({ indexer, vault: f.vault, vectors: store, embed: f.embedder.embed });
    const [hit] = await search.semanticSearch!("red lentil soup cumin", 1);
    expect(await f.vault.read(hit.path)).toContain(hit.text);
    // Replace that chunk (and its heading) without re-indexing: the stored id points at nothing now, so the hit is dropped.
    const text = await f.vault.read(hit.path);
    await f.vault.process(hit.path, () => text.replace(hit.text, "## Gone\nreplaced"));
    const again = await search.semanticSearch!("red lentil soup cumin", 1);
    expect(again.every((h) => h.text !== hit.text)).toBe(true);
  });

  it("backs the tools: vault:search, vault:semantic_search and memory:recall by meaning", async () => {
    const { indexer, store } = f.open();
    await indexer.build();
    const ctx = context(createMemorySearch({ indexer, vault: f.vault, vectors: store, embed: f.embedder.embed }));
    const words = await run("vault:search", { query: "insurance" }, ctx);
    expect(words.content).toContain("[[Inbox]]");
    const meaning = await run("vault:semantic_search", { query: "banana bread recipe oven", limit: 2 }, ctx);
    expect(meaning.content.split("\n")[0]).toContain("[[Recipes/Banana Bread");
    await run("memory:save", { content: "The wifi password for the cabin is on the fridge.", title: "Cabin wifi" }, ctx);
    await indexer.updateNote("Memory/2026-11-23 Cabin wifi.md");
    const recall = await run("memory:recall", { query: "cabin wifi password" }, ctx);
    expect(recall.content).toContain("[[Memory/2026-11-23 Cabin wifi]]");
    expect((recall.data as { mode: string }).mode).toBe("semantic");
  });

  it("makes the semantic tool say clearly that it needs an embedding model, while word search works", async () => {
    const { indexer } = f.open({ vectors: null, embed: null });
    await indexer.build();
    const ctx = context(createMemorySearch({ indexer, vault: f.vault }));
    const err = await run("vault:semantic_search", { query: "soup" }, ctx).then(() => null, (e: unknown) => e);
    expect(err).toBeInstanceOf(ToolError);
    expect((err as Error).message).toMatch(/no embedding model is configured/);
    expect((await run("vault:search", { query: "soup" }, ctx)).content).toContain("Red Lentil Soup");
  });
});

describe("prefetchMemories", () => {
  it("puts the top passages with their note links into the budget", async () => {
    const { indexer, store } = f.open();
    await indexer.build();
    const search = createMemorySearch({ indexer, vault: f.vault, vectors: store, embed: f.embedder.embed });
    const result = await prefetchMemories(search, "shakshuka", { tokenBudget: 300, limit: 5 });
    expect(result.text.split("\n")[0]).toMatch(/cite them as \[\[links\]\]/);
    expect(result.paths[0]).toBe("Recipes/Shakshuka.md");
    expect(result.text).toContain("[[Recipes/Shakshuka");
    expect(result.tokens).toBeLessThanOrEqual(300);
    expect(Math.ceil(result.text.length / 4)).toBeLessThanOrEqual(300 + result.text.split("\n").length);
  });

  it("respects a small budget with a real token counter and returns nothing for a zero budget", async () => {
    const { indexer, store } = f.open();
    await indexer.build();
    const search = createMemorySearch({ indexer, vault: f.vault, vectors: store, embed: f.embedder.embed });
    const countTokens = (t: string) => t.split(/\s+/).length;
    const small = await prefetchMemories(search, "project alpha sync", { tokenBudget: 60, countTokens });
    // Lines are counted one by one and joined by newlines, so the whole block costs exactly what was counted.
    expect(small.tokens).toBe(countTokens(small.text));
    expect(small.tokens).toBeLessThanOrEqual(60);
    expect(small.paths.length).toBeGreaterThan(0);
    for (const p of small.paths) expect(small.text).toContain(`[[${p.replace(/\.md$/, "")}`);
    expect((await prefetchMemories(search, "project alpha", { tokenBudget: 0 })).text).toBe("");
  });

  it("shortens the last passage to fit, but never cuts into its [[link]]", async () => {
    const longPath = `Archive/${"Very long folder name ".repeat(8).trim()}/Note.md`;
    const body = "Lentils simmer for twenty minutes with cumin and lemon. ".repeat(40);
    const search = (path: string): MemorySearch => ({
      textSearch: () => Promise.resolve([]),
      semanticSearch: () => Promise.resolve([{ path, heading: "Soup", score: 0.9, text: body }]),
    });
    const short = await prefetchMemories(search("Recipes/Soup.md"), "lentils", { tokenBudget: 80 });
    expect(short.text).toContain("- [[Recipes/Soup#Soup]]: Lentils simmer");
    expect(short.text.endsWith("…")).toBe(true);
    expect(short.tokens).toBeLessThanOrEqual(80);
    expect(Math.ceil(short.text.split("\n")[1].length / 4)).toBeLessThanOrEqual(80);
    // Too little room for the link plus some text: the passage is left out rather than cited without its note.
    const long = await prefetchMemories(search(longPath), "lentils", { tokenBudget: 60 });
    expect(long).toEqual({ text: "", paths: [], tokens: 0 });
  });

  it("falls back to full-text passages without an embedding model", async () => {
    const { indexer } = f.open({ vectors: null, embed: null });
    await indexer.build();
    const result = await prefetchMemories(createMemorySearch({ indexer, vault: f.vault }), "banana bread", { tokenBudget: 200 });
    expect(result.paths).toContain("Recipes/Banana Bread.md");
  });
});
