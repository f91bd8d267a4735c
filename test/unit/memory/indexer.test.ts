import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ANALYSIS_KEY } from "../../../src/core/memory/analysis";
import { appendFile, readFile, readdir, rename, unlink, writeFile, mkdir } from "node:fs/promises";
import { contentHash } from "../../../src/core/memory/content-hash";
import { createMemorySearch } from "../../../src/core/memory/memory-search";
import { join } from "node:path";
import { makeMemoryFixture, type MemoryFixture } from "./memory-fixture";
import { chunkNote } from "../../../src/core/memory/chunker";

let f: MemoryFixture;
beforeEach(async () => {
  f = await makeMemoryFixture();
});
afterEach(async () => {
  await f.cleanup();
});

async function expectedChunks(): Promise<number> {
  let n = 0;
  for (const file of await f.vault.list()) if (file.path.endsWith(".md")) n += chunkNote(file.path, await f.vault.read(file.path)).length;
  return n;
}

describe("Indexer over a real vectra index on disk", () => {
  it("builds the index: every chunk embedded once, progress with totals and an ETA", async () => {
    const { indexer, store, progress } = f.open();
    const report = await indexer.build();
    const chunks = await expectedChunks();
    expect(report.embedded).toBe(chunks);
    expect(report.chunks).toBe(chunks);
    expect(report.notes).toBe((await f.vault.list()).filter((x) => x.path.endsWith(".md")).length);
    expect((await store.stats()).items).toBe(chunks);
    expect(f.embedder.embedded.length).toBe(chunks);
    expect(f.embedder.calls).toBe(Math.ceil(chunks / 8));
    const embed = progress.filter((p) => p.phase === "embed");
    expect(embed[embed.length - 1]).toMatchObject({ done: chunks, total: chunks, etaMs: 0 });
    expect(embed.some((p) => p.done < p.total && p.etaMs !== null && p.etaMs >= 0)).toBe(true);
    await store.flush();
    expect((await readdir(join(f.indexDir, "vectors"))).sort()).toEqual(["index.vec"]);
  });

  it("re-embeds nothing after a restart when nothing changed", async () => {
    const first = f.open();
    await first.indexer.build();
    await first.indexer.close();
    await first.store.close();
    const before = f.embedder.embedded.length;
    const second = f.open();
    const report = await second.indexer.build();
    expect(report.embedded).toBe(0);
    expect(report.read).toBe(0);
    expect(report.deleted).toBe(0);
    expect(f.embedder.embedded.length).toBe(before);
    expect(report.chunks).toBe(await expectedChunks());
    // The text index came back from disk too.
    expect((await second.indexer.text.search("shakshuka", 3))[0].path).toBe("Recipes/Shakshuka.md");
  });

  it("re-embeds only the changed section of one modified note", async () => {
    const { indexer, store } = f.open();
    await indexer.build();
    indexer.watch();
    await new Promise((r) => setTimeout(r, 100));
    const before = f.embedder.embedded.length;
    const idsBefore = new Map((await store.listIds()).map((x) => [x.id, x.hash]));
    const text = await f.vault.read("Recipes/Shakshuka.md");
    const lastHeading = chunkNote("Recipes/Shakshuka.md", text).pop()!.heading;
    await appendFile(join(f.root, "Recipes/Shakshuka.md"), "\nAdd a pinch of smoked paprika.\n");
    await waitUntil(async () => f.embedder.embedded.length > before);
    await indexer.flushChanges();
    const newly = f.embedder.embedded.slice(before);
    expect(newly).toHaveLength(1);
    expect(newly[0]).toContain("smoked paprika");
    expect(newly[0].startsWith(`Shakshuka > ${lastHeading}`)).toBe(true);
    const idsAfter = new Map((await store.listIds()).map((x) => [x.id, x.hash]));
    expect(idsAfter.size).toBe(idsBefore.size);
    const changed = [...idsAfter].filter(([id, h]) => idsBefore.get(id) !== h);
    expect(changed).toHaveLength(1);
  });

  it("follows renames and deletes, made through the vault or outside it", async () => {
    const { indexer, store } = f.open();
    await indexer.build();
    indexer.watch();
    await new Promise((r) => setTimeout(r, 100));
    const embeddedBefore = f.embedder.embedded.length;
    const pathsNow = async () => new Set((await store.listIds()).map((x) => x.path));
    await f.vault.move("Recipes/Banana Bread.md", "Baking/Banana Bread.md");
    await rename(join(f.root, "Ideas.md"), join(f.root, "Someday Ideas.md"));
    await f.vault.trash("Recipes/Shakshuka.md");
    await unlink(join(f.root, "Inbox.md"));
    await waitUntil(async () => {
      const p = await pathsNow();
      return p.has("Baking/Banana Bread.md") && p.has("Someday Ideas.md") && !p.has("Inbox.md") && !p.has("Recipes/Shakshuka.md");
    });
    await indexer.flushChanges();
    const paths = await pathsNow();
    for (const gone of ["Recipes/Banana Bread.md", "Ideas.md", "Recipes/Shakshuka.md", "Inbox.md"]) expect(paths.has(gone), gone).toBe(false);
    expect((await indexer.text.search("banana bread", 5)).map((h) => h.path)).toContain("Baking/Banana Bread.md");
    expect((await indexer.text.search("shakshuka", 5)).map((h) => h.path)).not.toContain("Recipes/Shakshuka.md");
    expect((await store.stats()).items).toBe(await expectedChunks());
    // The counts kept as notes came and went (counted once, at the build) are those of the vault now.
    expect(indexer.stats()).toEqual({ notes: (await f.vault.list()).filter((x) => x.path.endsWith(".md")).length, chunks: await expectedChunks() });
    // The moved note keeps its vectors; only the renamed one is embedded again (its name is part of
    // every chunk's embedded text).
    const renamed = chunkNote("Someday Ideas.md", await f.vault.read("Someday Ideas.md"));
    expect(f.embedder.embedded.length - embeddedBefore).toBe(renamed.length);
    expect(f.embedder.embedded.slice(embeddedBefore).every((t) => t.startsWith("Someday Ideas"))).toBe(true);
    const moved = (await store.listIds()).filter((x) => x.path === "Baking/Banana Bread.md");
    expect(moved.map((x) => x.hash).sort()).toEqual(chunkNote("Baking/Banana Bread.md", await f.vault.read("Baking/Banana Bread.md")).map((c) => c.hash).sort());
  });

  it("rebuilds a corrupt vector index with a notice instead of crashing", async () => {
    const first = f.open();
    await first.indexer.build();
    await first.indexer.close();
    await first.store.close();
    const file = join(f.indexDir, "vectors", "index.vec");
    await writeFile(file, Buffer.from("this is not an index at all \u0000\u0001\u0002 garbage"));
    const before = f.embedder.embedded.length;
    const second = f.open();
    const report = await second.indexer.build();
    expect(second.notices.join(" ")).toMatch(/unreadable.*moved aside.*rebuilt/);
    expect(report.embedded).toBe(await expectedChunks());
    expect(f.embedder.embedded.length - before).toBe(report.embedded);
    const files = await readdir(join(f.indexDir, "vectors"));
    expect(files.some((n) => n.startsWith("index.vec.corrupt-"))).toBe(true);
    expect((await second.store.query(f.embedder.vector("lentil soup"), 1))[0].metadata.path).toBe("Recipes/Red Lentil Soup.md");
  });

  it("rebuilds the text index and manifest when they are corrupt", async () => {
    const first = f.open();
    await first.indexer.build();
    await first.indexer.close();
    await first.store.close();
    await writeFile(join(f.indexDir, "text-index.json"), "{broken");
    await writeFile(join(f.indexDir, "memory-manifest.json"), "{broken");
    const second = f.open();
    const report = await second.indexer.build();
    expect(report.embedded).toBe(0);
    expect((await second.indexer.text.search("shakshuka", 1))[0].path).toBe("Recipes/Shakshuka.md");
    expect(second.notices.join(" ")).toMatch(/manifest was unreadable/);
  });

  it("rebuilds only the text index, with a notice, when just its file is corrupt", async () => {
    const first = f.open();
    await first.indexer.build();
    await first.indexer.close();
    await first.store.close();
    await writeFile(join(f.indexDir, "text-index.json"), "\u0000not json");
    const second = f.open();
    const report = await second.indexer.build();
    expect(second.notices).toEqual(["The full-text index was missing, unreadable or from an older version, so it is being rebuilt from the notes."]);
    expect(report.embedded).toBe(0);
    expect(report.read).toBe(report.notes);
    expect((await second.indexer.text.search("shakshuka", 1))[0].path).toBe("Recipes/Shakshuka.md");
  });

  it("skips and counts binary, huge and non-UTF-8 files, and excluded folders", async () => {
    await writeFile(join(f.root, "Binary.md"), Buffer.from([0x23, 0x20, 0x41, 0x00, 0x01, 0x02, 0x0a]));
    await writeFile(join(f.root, "Latin1.md"), Buffer.from([0x43, 0x61, 0x66, 0xe9, 0x0a]));
    await writeFile(join(f.root, "Huge.md"), Buffer.alloc(10 * 1024 * 1024 + 1, "a"));
    await mkdir(join(f.root, "Private"));
    await writeFile(join(f.root, "Private/Diary.md"), "# Secret\nDo not index me.\n");
    const { indexer, store } = f.open({ excludedFolders: ["Private"] });
    const report = await indexer.build();
    expect(report.skipped).toEqual({ binary: 1, huge: 1, nonUtf8: 1, excluded: 1 });
    const paths = new Set((await store.listIds()).map((x) => x.path));
    for (const p of ["Binary.md", "Latin1.md", "Huge.md", "Private/Diary.md"]) expect(paths.has(p)).toBe(false);
    expect(f.embedder.embedded.some((t) => t.includes("Do not index me"))).toBe(false);
    expect(await indexer.text.search("secret", 5)).toEqual([]);
  });

  it("stops when cancelled and finishes the rest on the next build", async () => {
    const controller = new AbortController();
    const { indexer, store } = f.open({
      onProgress: (p) => {
        if (p.phase === "embed" && p.done >= 16) controller.abort();
      },
    });
    const report = await indexer.build(controller.signal);
    expect(report.cancelled).toBe(true);
    expect(report.embedded).toBe(16);
    const total = await expectedChunks();
    const next = await indexer.build();
    expect(next.cancelled).toBe(false);
    expect(next.embedded).toBe(total - 16);
    expect((await store.stats()).items).toBe(total);
  });

  it("re-embeds everything when the embedding model changes", async () => {
    const first = f.open();
    await first.indexer.build();
    await first.indexer.close();
    await first.store.close();
    const second = f.open({ modelKey: "another-model" });
    const report = await second.indexer.build();
    const total = await expectedChunks();
    expect(report.embedded).toBe(total);
    expect((await second.store.stats()).items).toBe(total);
  });

  it("keeps only the text index without an embedding model", async () => {
    const { indexer } = f.open({ vectors: null, embed: null });
    const report = await indexer.build();
    expect(report.embedded).toBe(0);
    expect(f.embedder.calls).toBe(0);
    expect(indexer.semantic).toBe(false);
    expect((await indexer.text.search("lentil", 3))[0].path).toBe("Recipes/Red Lentil Soup.md");
    expect(JSON.parse(await readFile(join(f.indexDir, "text-index.json"), "utf8"))).toEqual({ version: 4, shards: 16, analysis: ANALYSIS_KEY });
  });
  it("moves a folder through the vault without embedding anything: only metadata is rewritten", async () => {
    // One batch: the changes wait for flushChanges.
    const { indexer, store } = f.open({ debounceMs: 60_000 });
    await indexer.build();
    indexer.watch();
    const notes = (await f.vault.list("Recipes")).map((x) => x.path);
    const chunks = (await Promise.all(notes.map(async (p) => chunkNote(p, await f.vault.read(p)).length))).reduce((a, b) => a + b, 0);
    const before = f.embedder.embedded.length;
    const idsBefore = (await store.listIds()).map((x) => x.id).sort();
    const homeIds = new Set((await store.listIds()).filter((x) => x.path === "Home.md").map((x) => x.id));
    const home = await f.vault.read("Home.md");
    for (const p of notes) await f.vault.move(p, p.replace(/^Recipes\//, "Archive/Cooking/"));
    const report = await indexer.flushChanges();
    expect(report.relabeled).toBe(chunks);
    // The move rewrote one path-style link in Home.md: that changed section is the only text embedded.
    expect(await f.vault.read("Home.md")).not.toBe(home);
    const embedded = f.embedder.embedded.slice(before);
    expect(embedded).toHaveLength(1);
    expect(embedded[0]).toMatch(/^Home > .*Archive\/Cooking\/Red%20Lentil%20Soup\.md/s);
    expect(report.embedded).toBe(1);
    expect(report.deleted).toBe(1);
    // Same vectors under the same ids; their paths and folders follow the move.
    expect((await store.listIds()).filter((x) => !x.path.startsWith("Home")).map((x) => x.id).sort()).toEqual(idsBefore.filter((id) => !homeIds.has(id)));
    const paths = new Set((await store.listIds()).map((x) => x.path));
    expect([...paths].some((p) => p.startsWith("Recipes/"))).toBe(false);
    const search = createMemorySearch({ indexer, vault: f.vault, vectors: store, embed: f.embedder.embed });
    const hits = await search.semanticSearch!("red lentil soup cumin", 3, { pathPrefix: "Archive/Cooking/" });
    expect(hits[0].path).toBe("Archive/Cooking/Red Lentil Soup.md");
    expect(hits[0].text.length).toBeGreaterThan(0);
    expect(await search.semanticSearch!("red lentil soup cumin", 3, { pathPrefix: "Recipes/" })).toEqual([]);
  });

  it("reuses every vector when a folder was renamed while the app was closed", async () => {
    const first = f.open();
    await first.indexer.build();
    await first.indexer.close();
    await first.store.close();
    const before = f.embedder.embedded.length;
    await mkdir(join(f.root, "Archive"));
    await rename(join(f.root, "People"), join(f.root, "Archive", "Contacts"));
    const second = f.open();
    const report = await second.indexer.build();
    const moved = (await f.vault.list("Archive/Contacts")).map((x) => x.path);
    const chunks = (await Promise.all(moved.map(async (p) => chunkNote(p, await f.vault.read(p)).length))).reduce((a, b) => a + b, 0);
    expect(report.embedded).toBe(0);
    expect(report.relabeled).toBe(chunks);
    expect(f.embedder.embedded.length).toBe(before);
    expect((await second.store.stats()).items).toBe(await expectedChunks());
    const paths = (await second.store.listIds()).map((x) => x.path);
    expect(paths.filter((p) => p.startsWith("Archive/Contacts/"))).toHaveLength(chunks);
    expect(paths.some((p) => p.startsWith("People/"))).toBe(false);
  });

  it("gives identical notes in two folders their own ids and copies the vector instead of embedding it twice", async () => {
    const text = "# Checklist\nPassport, charger, umbrella and the blue notebook.\n";
    await mkdir(join(f.root, "Trips/Rome"), { recursive: true });
    await mkdir(join(f.root, "Trips/Oslo"), { recursive: true });
    await writeFile(join(f.root, "Trips/Rome/Packing.md"), text);
    await writeFile(join(f.root, "Trips/Oslo/Packing.md"), text);
    const { indexer, store } = f.open();
    const report = await indexer.build();
    const total = await expectedChunks();
    expect(report.embedded).toBe(total - 1);
    expect(f.embedder.embedded.filter((t) => t.includes("blue notebook"))).toHaveLength(1);
    const packing = (await store.listIds()).filter((x) => x.path.endsWith("/Packing.md"));
    expect(packing.map((x) => x.path).sort()).toEqual(["Trips/Oslo/Packing.md", "Trips/Rome/Packing.md"]);
    expect(new Set(packing.map((x) => x.id)).size).toBe(2);
    expect(packing[0].hash).toBe(packing[1].hash);
    // Deleting one keeps the other's vector.
    indexer.watch();
    await f.vault.trash("Trips/Rome/Packing.md");
    const update = await indexer.flushChanges();
    expect(update.embedded).toBe(0);
    expect((await store.listIds()).filter((x) => x.path.endsWith("/Packing.md")).map((x) => x.path)).toEqual(["Trips/Oslo/Packing.md"]);
    const search = createMemorySearch({ indexer, vault: f.vault, vectors: store, embed: f.embedder.embed });
    expect((await search.semanticSearch!("passport charger umbrella notebook", 1))[0].path).toBe("Trips/Oslo/Packing.md");
  });

  it("migrates an index of the previous format (path-based ids) without embedding anything", async () => {
    const first = f.open();
    await first.indexer.build();
    await first.indexer.close();
    // Turn the index into what the previous version wrote: ids from path and position, manifest version 2,
    // the text index as 64 shards of minisearch's JSON.
    const items = await first.store.listIds();
    const oldId = (x: { id: string; path: string }) => contentHash(`${x.path}\u0000${x.id}`);
    const missing = await first.store.relabel(items.map((x) => ({ id: oldId(x), from: x.id, metadata: { path: x.path, heading: "", hash: x.hash, text: "" } })));
    expect(missing).toEqual([]);
    await first.store.delete(items.map((x) => x.id));
    await first.store.close();
    const manifest = JSON.parse(await readFile(join(f.indexDir, "memory-manifest.json"), "utf8")) as { version: number; notes: Record<string, [number, number, string, string]> };
    for (const [path, entry] of Object.entries(manifest.notes)) {
      entry[3] = entry[3].split(",").filter(Boolean).map((id) => oldId({ id, path }) + id).join("");
    }
    manifest.version = 2;
    await writeFile(join(f.indexDir, "memory-manifest.json"), JSON.stringify(manifest));
    await writeFile(join(f.indexDir, "text-index.json"), JSON.stringify({ version: 2, shards: 64, hashes: {} }));
    for (let i = 0; i < 64; i++) await writeFile(join(f.indexDir, `text-index-${String(i).padStart(2, "0")}.json`), "{}");

    const before = f.embedder.embedded.length;
    const second = f.open();
    const report = await second.indexer.build();
    const total = await expectedChunks();
    expect(report.embedded).toBe(0);
    expect(f.embedder.embedded.length).toBe(before);
    expect(report.relabeled).toBe(total);
    expect(report.deleted).toBe(total);
    expect(second.notices.join(" ")).toMatch(/older version/);
    const now = await second.store.listIds();
    expect(now).toHaveLength(total);
    for (const x of now) expect(x.id.startsWith(x.hash)).toBe(true);
    expect((await second.indexer.text.search("shakshuka", 1))[0].path).toBe("Recipes/Shakshuka.md");
    expect((await readdir(f.indexDir)).filter((n) => /^text-index-\d\d\.json$/.test(n))).toEqual([]);
    const search = createMemorySearch({ indexer: second.indexer, vault: f.vault, vectors: second.store, embed: f.embedder.embed });
    expect((await search.semanticSearch!("red lentil soup cumin", 1))[0].path).toBe("Recipes/Red Lentil Soup.md");
  });

  it("rebuilds the text index with a notice when one of its shards is truncated", async () => {
    const first = f.open();
    await first.indexer.build();
    await first.indexer.close();
    await first.store.close();
    const shards = (await readdir(f.indexDir)).filter((n) => n.startsWith("text-index-v3-"));
    expect(shards.length).toBeGreaterThan(1);
    const text = await readFile(join(f.indexDir, shards[0]), "utf8");
    await writeFile(join(f.indexDir, shards[0]), text.slice(0, text.length - 10));
    const second = f.open();
    const report = await second.indexer.build();
    expect(second.notices).toEqual(["The full-text index was missing, unreadable or from an older version, so it is being rebuilt from the notes."]);
    expect(report.embedded).toBe(0);
    expect(report.read).toBe(report.notes);
    expect((await second.indexer.text.search("shakshuka", 1))[0].path).toBe("Recipes/Shakshuka.md");
  });
});

async function waitUntil(pred: () => Promise<boolean> | boolean, ms = 20_000): Promise<void> {
  const start = Date.now();
  while (!(await pred())) {
    if (Date.now() - start > ms) throw new Error("timed out");
    await new Promise((r) => setTimeout(r, 25));
  }
}
