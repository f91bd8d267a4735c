/**
 * The behaviour every VectorStore must have, as one vitest suite: the vectra store of the engine host
 * (test/unit/memory/vectra-store.test.ts) and the flat store that needs no Node
 * (test/unit/memory/flat-store.test.ts) both run it over a real folder.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { mkdtemp, readFile, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { VectorItem, VectorStore } from "../../src/core/ports/vector-store";

/** A store with the lifecycle both implementations have. */
export interface OpenableVectorStore extends VectorStore {
  open(): Promise<{ items: number; dimension?: number; notices: string[] }>;
  flush(): Promise<void>;
  close(): Promise<void>;
}

export interface VectorStoreMaker {
  /** A store over `folder` (a fresh instance each call: a second one over the same folder is a restart). */
  create(folder: string, options: { flushDelayMs?: number; onNotice?: (message: string) => void }): OpenableVectorStore;
  /** The index file's name inside the folder. */
  fileName: string;
  /**
   * Decimal places a score must match the exact cosine to (toBeCloseTo's digits; default 5). A store that holds its
   * vectors as int8 scores within 0.01 of the exact cosine (2).
   */
  scoreDigits?: number;
}

export function contractItem(id: string, vector: number[], path: string, extra: Record<string, string | number | boolean> = {}): VectorItem {
  return { id, vector, metadata: { path, folder: path.includes("/") ? path.slice(0, path.lastIndexOf("/")) : "", heading: "H", hash: `h-${id}`, text: `text ${id}`, ...extra } };
}

export function describeVectorStoreContract(name: string, maker: VectorStoreMaker): void {
  describe(`${name} (VectorStore contract)`, () => {
    let dir: string;
    beforeEach(async () => {
      dir = await mkdtemp(join(tmpdir(), "vector-contract-"));
    });
    afterEach(async () => {
      await rm(dir, { recursive: true, force: true });
    });
    const item = contractItem;
    const digits = maker.scoreDigits ?? 5;

    it("stores, queries nearest first with a filter, replaces, deletes and reloads", async () => {
      const folder = join(dir, "basic");
      const store = maker.create(folder, { flushDelayMs: 10_000 });
      await store.upsert([item("a", [1, 0, 0], "A/x.md"), item("b", [0, 1, 0], "B/y.md"), item("c", [0.9, 0.1, 0], "B/z.md")]);
      const top = await store.query([1, 0, 0], 2);
      expect(top.map((h) => h.id)).toEqual(["a", "c"]);
      expect(top[0].score).toBeCloseTo(1, digits);
      expect(top[1].score).toBeCloseTo(0.9 / Math.hypot(0.9, 0.1), digits);
      expect((await store.query([1, 0, 0], 5, { folder: { $in: ["B"] } })).map((h) => h.id)).toEqual(["c", "b"]);
      await store.upsert([item("a", [0, 0, 1], "A/x.md")]);
      await store.delete(["b", "never-stored"]);
      expect((await store.query([0, 0, 1], 1))[0].id).toBe("a");
      await store.close();
      const reopened = maker.create(folder, {});
      expect((await reopened.listIds()).sort((x, y) => x.id.localeCompare(y.id))).toEqual([
        { id: "a", hash: "h-a", path: "A/x.md" },
        { id: "c", hash: "h-c", path: "B/z.md" },
      ]);
      expect((await reopened.query([0, 0, 1], 1))[0]).toMatchObject({ id: "a", metadata: { path: "A/x.md", hash: "h-a", heading: "H", text: "" } });
      const s = await reopened.stats();
      expect(s).toMatchObject({ items: 2, dimension: 3 });
      expect(s.bytes).toBeGreaterThan(0);
      await reopened.close();
    });

    it("evaluates vectra's filter syntax: equality, comparisons, $in/$nin, $and/$or", async () => {
      const store = maker.create(join(dir, "filters"), { flushDelayMs: 10_000 });
      await store.upsert([
        item("a", [1, 0], "A/a.md", { rank: 1, draft: true }),
        item("b", [0.8, 0.2], "B/b.md", { rank: 2, draft: false }),
        item("c", [0.6, 0.4], "B/c.md", { rank: 3 }),
        item("d", [0.4, 0.6], "C/d.md", { rank: 4 }),
      ]);
      const ids = async (filter: Record<string, unknown>) => (await store.query([1, 0], 10, filter)).map((h) => h.id);
      expect(await ids({ path: "B/c.md" })).toEqual(["c"]);
      expect(await ids({ path: { $eq: "A/a.md" } })).toEqual(["a"]);
      expect(await ids({ folder: { $ne: "B" } })).toEqual(["a", "d"]);
      expect(await ids({ rank: { $gt: 1, $lte: 3 } })).toEqual(["b", "c"]);
      expect(await ids({ rank: { $gte: 3 } })).toEqual(["c", "d"]);
      expect(await ids({ rank: { $lt: 2 } })).toEqual(["a"]);
      expect(await ids({ folder: { $nin: ["A", "C"] } })).toEqual(["b", "c"]);
      expect(await ids({ draft: false })).toEqual(["b"]);
      expect(await ids({ $or: [{ folder: "A" }, { rank: 4 }] })).toEqual(["a", "d"]);
      expect(await ids({ $and: [{ folder: "B" }, { rank: { $gt: 2 } }] })).toEqual(["c"]);
      // An item without the key never matches a condition on it.
      expect(await ids({ draft: { $ne: true } })).toEqual(["b"]);
      await store.close();
    });

    it("keeps chunk texts out of the index file (the notes hold them)", async () => {
      const folder = join(dir, "texts");
      const store = maker.create(folder, {});
      await store.upsert([{ ...item("a", [1, 0], "a.md"), metadata: { ...item("a", [1, 0], "a.md").metadata, text: "UNIQUE-CHUNK-TEXT" } }]);
      await store.flush();
      const bytes = await readFile(join(folder, maker.fileName));
      expect(bytes.includes("UNIQUE-CHUNK-TEXT")).toBe(false);
      expect(bytes.includes("a.md")).toBe(true);
      await store.close();
    });

    it("writes changes only after the quiet period or a flush, leaving no temporary file", async () => {
      const folder = join(dir, "wb");
      const store = maker.create(folder, { flushDelayMs: 60_000 });
      await store.open();
      const before = await readFile(join(folder, maker.fileName)).catch(() => null);
      for (let i = 0; i < 20; i++) await store.upsert([item(`i${i}`, [i, 1, 2], "n.md")]);
      const during = await readFile(join(folder, maker.fileName)).catch(() => null);
      expect(during?.length ?? null).toBe(before?.length ?? null);
      await store.flush();
      expect((await readFile(join(folder, maker.fileName))).includes("i19")).toBe(true);
      expect(await readdir(folder)).toEqual([maker.fileName]);
      await store.close();
    });

    it("relabels without new vectors: metadata follows a move, copies take another item's vector, missing sources are reported", async () => {
      const folder = join(dir, "relabel");
      const store = maker.create(folder, { flushDelayMs: 10_000 });
      await store.upsert([item("a", [1, 0, 0], "Old/x.md"), item("b", [0, 1, 0], "Old/y.md")]);
      const meta = (path: string, hash: string) => ({ path, folder: path.slice(0, path.lastIndexOf("/")), heading: "H", hash, text: "dropped" });
      const missing = await store.relabel([
        { id: "a", metadata: meta("New/x.md", "h-a") },
        { id: "a~1", from: "a", metadata: meta("Copy/x.md", "h-a") },
        { id: "c", from: "nowhere", metadata: meta("New/c.md", "h-c") },
      ]);
      expect(missing).toEqual(["c"]);
      expect(Object.fromEntries((await store.listIds()).map((x) => [x.id, x.path]))).toEqual({ a: "New/x.md", b: "Old/y.md", "a~1": "Copy/x.md" });
      const hits = await store.query([1, 0, 0], 2);
      expect(hits.map((h) => h.id).sort()).toEqual(["a", "a~1"]);
      expect(hits[0].score).toBeCloseTo(1, digits);
      expect((await store.query([1, 0, 0], 5, { folder: { $in: ["New"] } })).map((h) => h.id)).toEqual(["a"]);
      await store.close();
      const reopened = maker.create(folder, {});
      expect((await reopened.query([1, 0, 0], 1, { folder: { $in: ["Copy"] } }))[0]).toMatchObject({ id: "a~1", metadata: { path: "Copy/x.md", text: "" } });
      await reopened.close();
    });

    it("moves a truncated index file aside with a notice and starts empty", async () => {
      const folder = join(dir, "cut");
      const first = maker.create(folder, {});
      await first.upsert([item("a", [1, 0, 0], "A/x.md"), item("b", [0, 1, 0], "B/y.md")]);
      await first.close();
      const file = join(folder, maker.fileName);
      const bytes = await readFile(file);
      await writeFile(file, bytes.subarray(0, bytes.length - 5));
      const notices: string[] = [];
      const store = maker.create(folder, { onNotice: (n) => notices.push(n) });
      const opened = await store.open();
      expect(opened.items).toBe(0);
      expect(opened.notices.join(" ")).toMatch(/unreadable \(the vector index file is truncated\).*moved aside/);
      expect(notices.join(" ")).toMatch(/moved aside/);
      expect((await readdir(folder)).some((n) => n.startsWith(`${maker.fileName}.corrupt-`))).toBe(true);
      // It keeps working: new items are stored and found.
      await store.upsert([item("z", [0, 0, 1], "Z/z.md")]);
      expect((await store.query([0, 0, 1], 1))[0].id).toBe("z");
      await store.close();
    });

    it("refuses vectors with invalid numbers with a clear message and stores nothing of the batch", async () => {
      const store = maker.create(join(dir, "bad"), {});
      await expect(store.upsert([item("ok", [1, 1], "a.md"), item("x", [Number.NaN, 1], "a.md")])).rejects.toThrow(/"x" has no usable vector.*invalid numbers/);
      expect((await store.stats()).items).toBe(0);
      await store.close();
    });

    it("answers an empty index with no hits and lists nothing", async () => {
      const store = maker.create(join(dir, "empty"), {});
      expect(await store.query([1, 0], 3)).toEqual([]);
      expect(await store.listIds()).toEqual([]);
      expect((await store.stats()).items).toBe(0);
      await store.close();
    });
  });
}
