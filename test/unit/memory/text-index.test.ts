import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { TextIndex } from "../../../src/core/memory/text-index";
import { ANALYSIS_KEY } from "../../../src/core/memory/analysis";
import { contentHash } from "../../../src/core/memory/content-hash";
import { FolderIndexStore } from "../../../src/host/vector/folder-index-store";
import type { IndexStore } from "../../../src/core/ports/index-store";

const KEY = "text-index.json";
const WORDS = "garden tomato budget review offline sync queue river mountain kitchen bread oven lentil soup coffee travel train city".split(" ");

/** A deterministic note: a few sentences from the word list, with a heading and a tag. */
function note(i: number): string {
  const pick = (k: number) => WORDS[(i * 7 + k * 13) % WORDS.length];
  const lines = [`# Note ${i} ${pick(1)}`, "", `#tag${i % 5}`];
  for (let s = 0; s < 4; s++) lines.push(`${pick(s)} ${pick(s + 2)} ${pick(s + 5)} word${i % 37} about ${pick(s + 3)}.`);
  return lines.join("\n");
}

function fill(index: TextIndex, n: number): Map<string, string> {
  const notes = new Map<string, string>();
  for (let i = 0; i < n; i++) {
    const path = `${["Projects", "Daily", "Areas/Home"][i % 3]}/Note ${i}.md`;
    notes.set(path, note(i));
    index.set(path, note(i), contentHash(note(i)));
  }
  return notes;
}

/** An IndexStore that records which keys were written. */
class CountingStore implements IndexStore {
  readonly saved: string[] = [];
  constructor(private readonly inner: IndexStore) {}
  load(key: string) {
    return this.inner.load(key);
  }
  save(key: string, text: string) {
    this.saved.push(key);
    return this.inner.save(key, text);
  }
  remove(key: string) {
    return this.inner.remove(key);
  }
}

let dir: string;
let store: FolderIndexStore;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "text-index-"));
  store = new FolderIndexStore(dir);
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Same notes with the same scores (to rounding: a reload recomputes averages exactly, an edited index keeps running ones). */
function expectSameHits(a: TextIndex, b: TextIndex, query: string): void {
  const ha = new Map(a.search(query, 10_000).map((h) => [h.path, h.score]));
  const hb = new Map(b.search(query, 10_000).map((h) => [h.path, h.score]));
  expect([...hb.keys()].sort(), query).toEqual([...ha.keys()].sort());
  for (const [path, score] of ha) expect(Math.abs(hb.get(path)! - score) / score, `${query}: ${path}`).toBeLessThan(1e-9);
}

const QUERIES = ["garden tomato", "budget", "offline queue", "word12", "tag3", "lentl", "mountain river bread", "Note 42"];

describe("TextIndex on disk", () => {
  it("returns the best matches first, ties by path, exactly as sorting every match would", () => {
    const index = new TextIndex();
    fill(index, 300);
    // Equal scores: the same text under different paths.
    for (const name of ["b", "a", "c"]) index.set(`Same/${name}.md`, "zebra crossing", "h");
    expect(index.search("zebra", 2).map((h) => h.path)).toEqual(["Same/a.md", "Same/b.md"]);
    expect(index.search("zebra", 0)).toEqual([]);
    const all = index.search("garden tomato", 10_000);
    expect(all.length).toBeGreaterThan(100);
    const sorted = [...all].sort((a, b) => b.score - a.score || a.path.localeCompare(b.path));
    expect(all).toEqual(sorted);
    expect(index.search("garden tomato", 7)).toEqual(sorted.slice(0, 7));
  });

  it("reloads to exactly the same search results and scores, edits and removals included", async () => {
    const a = new TextIndex();
    const notes = fill(a, 300);
    a.remove("Projects/Note 3.md");
    a.set("Daily/Note 4.md", "# Changed\nNothing about gardens here, only zucchini.", "h");
    await a.save(store, KEY);
    const b = new TextIndex();
    expect(await b.load(store, KEY)).toBe(true);
    expect(b.size).toBe(notes.size - 1);
    expect(b.hashOf("Daily/Note 4.md")).toBe("h");
    expect(b.hashOf("Projects/Note 3.md")).toBeUndefined();
    // The same notes indexed from scratch (no discarded entries) score exactly alike.
    const fresh = new TextIndex();
    for (const [path, text] of notes) if (path !== "Projects/Note 3.md" && path !== "Daily/Note 4.md") fresh.set(path, text, "");
    fresh.set("Daily/Note 4.md", "# Changed\nNothing about gardens here, only zucchini.", "h");
    for (const q of QUERIES) expectSameHits(fresh, b, q);
    expect(b.search("budget", 20).length).toBe(20);
    expect(b.search("zucchini", 5).map((h) => h.path)).toEqual(["Daily/Note 4.md"]);
    expect(b.search("Note 3", 50).map((h) => h.path)).not.toContain("Projects/Note 3.md");
    // Edits after a reload (which unpack the stored postings) find what a fresh index finds. (Scores of
    // an index with discarded notes depend on posting order until minisearch vacuums: not compared.)
    b.remove("Areas/Home/Note 5.md");
    a.remove("Areas/Home/Note 5.md");
    b.set("Projects/New.md", "# New\ngarden tomato budget", "n");
    a.set("Projects/New.md", "# New\ngarden tomato budget", "n");
    for (const q of QUERIES) expect(b.search(q, 10_000).map((h) => h.path).sort(), q).toEqual(a.search(q, 10_000).map((h) => h.path).sort());
    expect(b.search("Note 5", 10_000).map((h) => h.path)).not.toContain("Areas/Home/Note 5.md");
    expect(b.search("new", 5).map((h) => h.path)).toEqual(["Projects/New.md"]);
  });

  it("prepared for search after a load, answers exactly as an index that was not, before and after edits", async () => {
    const a = new TextIndex();
    fill(a, 300);
    await a.save(store, KEY);
    const prepared = new TextIndex();
    const plain = new TextIndex();
    expect(await prepared.load(store, KEY)).toBe(true);
    expect(await plain.load(store, KEY)).toBe(true);
    prepared.prepareSearch();
    for (const q of QUERIES) expect(prepared.search(q, 10_000), q).toEqual(plain.search(q, 10_000));
    for (const ix of [prepared, plain]) {
      ix.set("Projects/New.md", "# New\ngarden tomato budget zucchini", "n");
      ix.remove("Daily/Note 1.md");
    }
    for (const q of [...QUERIES, "zucchini"]) expect(prepared.search(q, 10_000), q).toEqual(plain.search(q, 10_000));
    // The prepared ranking counted its corpus before the edit and brought it up to date after: as counted afresh.
    const fresh = new TextIndex();
    expect(await fresh.load(store, KEY)).toBe(true);
    fresh.set("Projects/New.md", "# New\ngarden tomato budget zucchini", "n");
    fresh.remove("Daily/Note 1.md");
    for (const q of QUERIES) expectSameHits(fresh, prepared, q);
  });

  it("limits a search to a folder inside the query, so a weak match there is never cut off", async () => {
    const index = new TextIndex();
    for (let i = 0; i < 400; i++) index.set(`Big/Note ${i}.md`, `# Budget ${i}\nbudget budget budget review`, String(i));
    index.set("Small/Aside.md", "# Aside\nA long note about rivers, mountains and lakes; once, a budget.", "s");
    expect(index.search("budget", 10).map((h) => h.path)).not.toContain("Small/Aside.md");
    expect(index.search("budget", 10, { pathPrefix: "Small/" }).map((h) => h.path)).toEqual(["Small/Aside.md"]);
    expect(index.search("budget", 10, { pathPrefix: "Small" }).map((h) => h.path)).toEqual(["Small/Aside.md"]);
    // A prefix is a folder, not the start of a name.
    expect(index.search("budget", 10, { pathPrefix: "Sma" })).toEqual([]);
  });

  it("reads a reloaded term's postings only when needed, and saves the same shards whichever terms were read", async () => {
    const a = new TextIndex();
    fill(a, 300);
    await a.save(store, KEY);
    const other = new FolderIndexStore(await mkdtemp(join(tmpdir(), "text-index-")));
    try {
      // b: searched (some terms read) before an edit; c: edited straight after the load; both saved.
      const b = new TextIndex();
      const c = new TextIndex();
      expect(await b.load(store, KEY)).toBe(true);
      for (const q of QUERIES) expectSameHits(a, b, q);
      for (const name of await readdir(dir)) await other.save(name, await readFile(join(dir, name), "utf8"));
      expect(await c.load(other, KEY)).toBe(true);
      for (const [index, at] of [[b, store], [c, other]] as const) {
        index.set("Projects/Note 1.md", "# Edited\ngarden words", "e");
        await index.save(at, KEY);
      }
      for (const name of await readdir(dir)) expect(await other.load(name), name).toBe(await store.load(name));
      for (const q of QUERIES) expect(c.search(q, 10_000), q).toEqual(b.search(q, 10_000));
    } finally {
      await rm(other.folder, { recursive: true, force: true });
    }
  });

  it("rewrites only the shard of an edited note, plus the small head", async () => {
    const counting = new CountingStore(store);
    const index = new TextIndex();
    fill(index, 200);
    await index.save(counting, KEY);
    expect(counting.saved.length).toBe(17);
    counting.saved.length = 0;
    index.set("Projects/Note 0.md", "# Edited\nnew words", "e");
    await index.save(counting, KEY);
    expect(counting.saved).toHaveLength(2);
    expect(counting.saved[1]).toBe(KEY);
    expect((await readFile(join(dir, KEY), "utf8")).length).toBeLessThan(100);
  });

  it("treats a truncated shard as unusable: empty index, false, no exception", async () => {
    const a = new TextIndex();
    fill(a, 100);
    await a.save(store, KEY);
    const shard = (await readdir(dir)).find((n) => n.startsWith("text-index-v3-"))!;
    const text = await readFile(join(dir, shard), "utf8");
    await writeFile(join(dir, shard), text.slice(0, Math.floor(text.length / 2)));
    const b = new TextIndex();
    expect(await b.load(store, KEY)).toBe(false);
    expect(b.size).toBe(0);
    expect(b.search("garden", 5)).toEqual([]);
    // Rebuilt and saved, it loads again.
    fill(b, 100);
    await b.save(store, KEY);
    expect(await new TextIndex().load(store, KEY)).toBe(true);
  });

  it("rejects a shard whose counts run past its postings", async () => {
    const a = new TextIndex();
    fill(a, 50);
    await a.save(store, KEY);
    const shard = (await readdir(dir)).find((n) => n.startsWith("text-index-v3-"))!;
    const parsed = JSON.parse(await readFile(join(dir, shard), "utf8")) as { post: number[] };
    parsed.post[0] = 1e9;
    await writeFile(join(dir, shard), JSON.stringify(parsed));
    expect(await new TextIndex().load(store, KEY)).toBe(false);
  });

  it("rebuilds an index of the previous format and removes its 64 shard files", async () => {
    await writeFile(join(dir, KEY), JSON.stringify({ version: 2, shards: 64, hashes: { "A.md": "x" } }));
    for (let i = 0; i < 64; i++) await writeFile(join(dir, `text-index-${String(i).padStart(2, "0")}.json`), "{}");
    const index = new TextIndex();
    expect(await index.load(store, KEY)).toBe(false);
    expect(await readdir(dir)).toEqual([KEY]);
  });

  it("rebuilds an index whose analysis differs (another analysis version or other router word lists)", async () => {
    const index = new TextIndex();
    fill(index, 30);
    await index.save(store, KEY);
    const head = JSON.parse(await readFile(join(dir, KEY), "utf8")) as { analysis: string };
    expect(head.analysis).toBe(ANALYSIS_KEY);
    expect(await new TextIndex().load(store, KEY)).toBe(true);
    await writeFile(join(dir, KEY), JSON.stringify({ ...head, analysis: `${ANALYSIS_KEY.split("-")[0]}-00000000` }));
    expect(await new TextIndex().load(store, KEY)).toBe(false);
  });

  it("treats a head from a newer version or with another shard count as unusable", async () => {
    await writeFile(join(dir, KEY), JSON.stringify({ version: 5, shards: 16, analysis: 2 }));
    expect(await new TextIndex().load(store, KEY)).toBe(false);
    await writeFile(join(dir, KEY), JSON.stringify({ version: 3, shards: 8 }));
    expect(await new TextIndex().load(store, KEY)).toBe(false);
    await writeFile(join(dir, KEY), '{"version":3,"sha');
    expect(await new TextIndex().load(store, KEY)).toBe(false);
  });
});
