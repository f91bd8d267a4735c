import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { appendFile, readFile, readdir, rename, unlink, writeFile, mkdir } from "node:fs/promises";
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
    expect((await readdir(join(f.indexDir, "vectors"))).sort()).toEqual(["index.pb"]);
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
    // A renamed note's chunks are re-embedded (their ids carry the path); nothing else is.
    const renamed = chunkNote("Baking/Banana Bread.md", await f.vault.read("Baking/Banana Bread.md")).length +
      chunkNote("Someday Ideas.md", await f.vault.read("Someday Ideas.md")).length;
    expect(f.embedder.embedded.length - embeddedBefore).toBe(renamed);
  });

  it("rebuilds a corrupt vector index with a notice instead of crashing", async () => {
    const first = f.open();
    await first.indexer.build();
    await first.indexer.close();
    await first.store.close();
    const file = join(f.indexDir, "vectors", "index.pb");
    await writeFile(file, Buffer.from("this is not protobuf at all \u0000\u0001\u0002 garbage"));
    const before = f.embedder.embedded.length;
    const second = f.open();
    const report = await second.indexer.build();
    expect(second.notices.join(" ")).toMatch(/unreadable.*moved aside.*rebuilt/);
    expect(report.embedded).toBe(await expectedChunks());
    expect(f.embedder.embedded.length - before).toBe(report.embedded);
    const files = await readdir(join(f.indexDir, "vectors"));
    expect(files.some((n) => n.startsWith("index.pb.corrupt-"))).toBe(true);
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
    expect(second.notices).toEqual(["The full-text index was missing or unreadable, so it is being rebuilt from the notes."]);
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
    expect(await readFile(join(f.indexDir, "text-index.json"), "utf8")).toContain('"shards":64');
  });
});

async function waitUntil(pred: () => Promise<boolean> | boolean, ms = 5000): Promise<void> {
  const start = Date.now();
  while (!(await pred())) {
    if (Date.now() - start > ms) throw new Error("timed out");
    await new Promise((r) => setTimeout(r, 25));
  }
}
