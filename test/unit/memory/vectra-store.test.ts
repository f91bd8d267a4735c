import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { mkdtemp, readdir, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { VectraStore } from "../../../src/host/vector/vectra-store";
import { vectorOps } from "../../../src/host/vector/host-ops";
import type { VectorItem } from "../../../src/core/ports/vector-store";

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "vectra-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

function item(id: string, vector: number[], path: string): VectorItem {
  return { id, vector, metadata: { path, folder: path.includes("/") ? path.slice(0, path.lastIndexOf("/")) : "", heading: "H", hash: `h-${id}`, text: `text ${id}` } };
}

describe("VectraStore", () => {
  for (const codec of ["compact", "protobuf", "json"] as const) {
    it(`stores, queries with a filter, deletes and reloads (${codec})`, async () => {
      const store = new VectraStore(join(dir, codec), { codec, flushDelayMs: 10_000 });
      await store.upsert([item("a", [1, 0, 0], "A/x.md"), item("b", [0, 1, 0], "B/y.md"), item("c", [0.9, 0.1, 0], "B/z.md")]);
      const top = await store.query([1, 0, 0], 2);
      expect(top.map((h) => h.id)).toEqual(["a", "c"]);
      expect(top[0].score).toBeCloseTo(1, 5);
      const filtered = await store.query([1, 0, 0], 5, { folder: { $in: ["B"] } });
      expect(filtered.map((h) => h.id)).toEqual(["c", "b"]);
      await store.upsert([item("a", [0, 0, 1], "A/x.md")]);
      await store.delete(["b"]);
      await store.close();
      const reopened = new VectraStore(join(dir, codec), { codec });
      expect((await reopened.listIds()).map((x) => x.id).sort()).toEqual(["a", "c"]);
      expect((await reopened.query([0, 0, 1], 1))[0]).toMatchObject({ id: "a", metadata: { path: "A/x.md", hash: "h-a", heading: "H", text: "" } });
      const s = await reopened.stats();
      expect(s).toMatchObject({ items: 2, dimension: 3 });
      expect(s.bytes).toBeGreaterThan(0);
    });
  }

  it("keeps chunk texts out of the index file (the notes hold them)", async () => {
    const store = new VectraStore(join(dir, "t"));
    await store.upsert([{ ...item("a", [1, 0], "a.md"), metadata: { ...item("a", [1, 0], "a.md").metadata, text: "UNIQUE-CHUNK-TEXT" } }]);
    await store.flush();
    const { readFile } = await import("node:fs/promises");
    expect((await readFile(join(dir, "t", "index.vec"))).includes("UNIQUE-CHUNK-TEXT")).toBe(false);
    expect((await readFile(join(dir, "t", "index.vec"))).includes("a.md")).toBe(true);
  });

  it("writes the index file only after the quiet period or a flush, atomically", async () => {
    const folder = join(dir, "wb");
    const store = new VectraStore(folder, { flushDelayMs: 60_000 });
    await store.open();
    const emptySize = (await stat(join(folder, "index.vec"))).size;
    for (let i = 0; i < 20; i++) await store.upsert([item(`i${i}`, [i, 1, 2], "n.md")]);
    expect((await stat(join(folder, "index.vec"))).size).toBe(emptySize);
    await store.flush();
    expect((await stat(join(folder, "index.vec"))).size).toBeGreaterThan(emptySize);
    expect(await readdir(folder)).toEqual(["index.vec"]);
  });

  it("relabels without new vectors: metadata follows a move, copies take another item's vector, missing sources are reported", async () => {
    const store = new VectraStore(join(dir, "relabel"), { flushDelayMs: 10_000 });
    await store.upsert([item("a", [1, 0, 0], "Old/x.md"), item("b", [0, 1, 0], "Old/y.md")]);
    const meta = (path: string, hash: string) => ({ path, folder: path.slice(0, path.lastIndexOf("/")), heading: "H", hash, text: "dropped" });
    const missing = await store.relabel([
      { id: "a", metadata: meta("New/x.md", "h-a") },
      { id: "a~1", from: "a", metadata: meta("Copy/x.md", "h-a") },
      { id: "c", from: "nowhere", metadata: meta("New/c.md", "h-c") },
    ]);
    expect(missing).toEqual(["c"]);
    const byId = new Map((await store.listIds()).map((x) => [x.id, x.path]));
    expect(Object.fromEntries(byId)).toEqual({ a: "New/x.md", b: "Old/y.md", "a~1": "Copy/x.md" });
    // The vectors came along: both copies of "a" are the nearest to its vector, and folder filters see the new folders.
    const hits = await store.query([1, 0, 0], 2);
    expect(hits.map((h) => h.id).sort()).toEqual(["a", "a~1"]);
    expect(hits[0].score).toBeCloseTo(1, 5);
    expect((await store.query([1, 0, 0], 5, { folder: { $in: ["New"] } })).map((h) => h.id)).toEqual(["a"]);
    await store.close();
    const reopened = new VectraStore(join(dir, "relabel"));
    expect((await reopened.query([1, 0, 0], 1, { folder: { $in: ["Copy"] } }))[0]).toMatchObject({ id: "a~1", metadata: { path: "Copy/x.md", text: "" } });
  });

  it("converts an index written by the protobuf codec of earlier versions, keeping every vector", async () => {
    const folder = join(dir, "old");
    const old = new VectraStore(folder, { codec: "protobuf" });
    await old.upsert([item("a", [1, 0, 0], "A/x.md"), item("b", [0, 1, 0], "B/y.md")]);
    await old.close();
    expect(await readdir(folder)).toEqual(["index.pb"]);
    const store = new VectraStore(folder);
    expect(await store.open()).toMatchObject({ items: 2, dimension: 3, notices: [] });
    expect(await readdir(folder)).toEqual(["index.vec"]);
    const [hit] = await store.query([0, 1, 0], 1);
    expect(hit).toMatchObject({ id: "b", metadata: { path: "B/y.md", folder: "B", hash: "h-b" } });
    expect(hit.score).toBeCloseTo(1, 5);
  });

  it("moves a truncated index file aside with a notice and starts empty", async () => {
    const folder = join(dir, "cut");
    const first = new VectraStore(folder);
    await first.upsert([item("a", [1, 0, 0], "A/x.md"), item("b", [0, 1, 0], "B/y.md")]);
    await first.close();
    const { readFile, writeFile } = await import("node:fs/promises");
    const bytes = await readFile(join(folder, "index.vec"));
    await writeFile(join(folder, "index.vec"), bytes.subarray(0, bytes.length - 5));
    const notices: string[] = [];
    const store = new VectraStore(folder, { onNotice: (n) => notices.push(n) });
    const opened = await store.open();
    expect(opened.items).toBe(0);
    expect(notices.join(" ")).toMatch(/unreadable \(the vector index file is truncated\).*moved aside/);
    expect((await readdir(folder)).some((n) => n.startsWith("index.vec.corrupt-"))).toBe(true);
  });

  it("refuses vectors with invalid numbers with a clear message", async () => {
    const store = new VectraStore(join(dir, "bad"));
    await expect(store.upsert([item("x", [Number.NaN, 1], "a.md")])).rejects.toThrow(/invalid numbers/);
    expect((await store.stats()).items).toBe(0);
  });
});

describe("host vector ops", () => {
  it("serve open, upsert, query, listIds, stats, delete and flush by folder", async () => {
    const folder = join(dir, "ops");
    const opened = (await vectorOps["vector.open"]({ folder })) as { items: number; notices: string[] };
    expect(opened).toMatchObject({ items: 0, notices: [] });
    await vectorOps["vector.upsert"]({ folder, items: [item("a", [1, 0], "a.md"), item("b", [0, 1], "b.md")] });
    const hits = (await vectorOps["vector.query"]({ folder, vector: [0, 1], topK: 1 })) as { id: string }[];
    expect(hits.map((h) => h.id)).toEqual(["b"]);
    expect(((await vectorOps["vector.listIds"]({ folder })) as unknown[]).length).toBe(2);
    const relabel = item("b", [0, 0], "moved/b.md");
    expect(await vectorOps["vector.relabel"]({ folder, items: [{ id: "b", metadata: relabel.metadata }, { id: "z", from: "zz", metadata: relabel.metadata }] })).toEqual(["z"]);
    expect((await vectorOps["vector.query"]({ folder, vector: [0, 1], topK: 1 })) as unknown[]).toMatchObject([{ id: "b", metadata: { path: "moved/b.md" } }]);
    await vectorOps["vector.delete"]({ folder, ids: ["a"] });
    expect(await vectorOps["vector.stats"]({ folder })).toMatchObject({ items: 1, dimension: 2 });
    await vectorOps["vector.flush"]({ folder });
    await vectorOps["vector.close"]({ folder });
  });

  it("reject missing parameters with a sentence naming the parameter", async () => {
    await expect(vectorOps["vector.query"]({ folder: join(dir, "x") })).rejects.toThrow(/needs "vector"/);
    await expect(vectorOps["vector.stats"]({})).rejects.toThrow(/needs "folder"/);
    await expect(vectorOps["vector.relabel"]({ folder: join(dir, "z"), items: "a" })).rejects.toThrow(/needs "items"/);
    await expect(vectorOps["vector.open"]({ folder: join(dir, "y"), codec: "xml" })).rejects.toThrow(/Unknown codec/);
  });
});
