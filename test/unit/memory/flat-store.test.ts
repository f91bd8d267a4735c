import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { mkdtemp, readFile, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { FLAT_CHANGES_FILE, FLAT_FILE, FlatVectorStore } from "../../../src/engine/vector/flat-store";
import { BLOCK_VECTORS, decodeFlatIndex, encodeFlatIndex, vectorAt } from "../../../src/engine/vector/flat-codec";
import { FolderVectorFiles } from "../../../src/node/folder-vault/folder-vector-files";
import { contractItem as item, describeVectorStoreContract } from "../../contract/vector-store-contract";

describeVectorStoreContract("FlatVectorStore, float32", { create: (folder, options) => new FlatVectorStore(new FolderVectorFiles(folder), options), fileName: FLAT_FILE });
describeVectorStoreContract("FlatVectorStore, int8", { create: (folder, options) => new FlatVectorStore(new FolderVectorFiles(folder), { ...options, precision: "int8" }), fileName: FLAT_FILE, scoreDigits: 2 });

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "flat-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Deterministic pseudo-random vectors (a linear congruential generator), so both precisions see the same data. */
function vectors(n: number, dim: number, seed = 7): number[][] {
  let s = seed;
  const next = () => ((s = (Math.imul(s, 1103515245) + 12345) >>> 0) / 2 ** 32) * 2 - 1;
  return Array.from({ length: n }, () => Array.from({ length: dim }, next));
}

describe("FlatVectorStore", () => {
  it("stores int8 in about a quarter of float32's vector bytes, with the same nearest items and scores within 0.01", async () => {
    const data = vectors(500, 64);
    const stores = { float32: new FlatVectorStore(new FolderVectorFiles(join(dir, "f"))), int8: new FlatVectorStore(new FolderVectorFiles(join(dir, "q")), { precision: "int8" }) };
    for (const store of Object.values(stores)) {
      await store.upsert(data.map((v, i) => item(`n${i}`, v, `N/${i}.md`)));
      await store.close();
    }
    const size = async (folder: string) => (await stat(join(dir, folder, FLAT_FILE))).size;
    // The metadata is the same in both files (the header differs by a word and padding); int8 vectors take 64 + 4 bytes each instead of 256.
    const saved = (await size("f")) - (await size("q"));
    expect(saved).toBeGreaterThanOrEqual(500 * (256 - 68));
    expect(saved).toBeLessThanOrEqual(500 * (256 - 68) + 8);
    const reopened = { float32: new FlatVectorStore(new FolderVectorFiles(join(dir, "f"))), int8: new FlatVectorStore(new FolderVectorFiles(join(dir, "q")), { precision: "int8" }) };
    for (const query of vectors(20, 64, 99)) {
      const exact = await reopened.float32.query(query, 5);
      const coarse = await reopened.int8.query(query, 5);
      expect(coarse[0].id).toBe(exact[0].id);
      for (const hit of coarse) {
        const twin = exact.find((h) => h.id === hit.id);
        if (twin) expect(Math.abs(twin.score - hit.score)).toBeLessThan(0.01);
      }
    }
  });

  it("refuses a vector of another length than the index holds, saying the model changed, and accepts a new length once emptied", async () => {
    const store = new FlatVectorStore(new FolderVectorFiles(join(dir, "dim")));
    await store.upsert([item("a", [1, 0, 0], "a.md")]);
    await expect(store.upsert([item("b", [1, 0], "b.md")])).rejects.toThrow(/2 numbers per vector but the index holds 3; the embedding model changed/);
    await expect(store.query([1, 0], 1)).rejects.toThrow(/the embedding model changed, so rebuild the index/);
    await store.delete(["a"]);
    await store.upsert([item("b", [1, 0], "b.md")]);
    expect(await store.stats()).toMatchObject({ items: 1, dimension: 2 });
    await store.close();
  });

  it("yields between slices while loading a large index", async () => {
    const folder = join(dir, "big");
    const writer = new FlatVectorStore(new FolderVectorFiles(folder));
    await writer.upsert(vectors(10_000, 16).map((v, i) => item(`n${i}`, v, `F${i % 10}/${i}.md`)));
    await writer.close();
    let pauses = 0;
    const reader = new FlatVectorStore(new FolderVectorFiles(folder), { precision: "int8", pause: () => (pauses++, Promise.resolve()) });
    expect(await reader.open()).toMatchObject({ items: 10_000, dimension: 16, notices: [] });
    // One before the ids, one per metadata column (path, folder, heading, hash), one before the vectors, two inside
    // their copy (4,096 vectors a slice) and two while the ids are mapped to slots (4,096 a slice).
    expect(pauses).toBeGreaterThanOrEqual(10);
    expect((await reader.query(vectors(1, 16, 7)[0], 1))[0].id).toBe("n0");
  });

  it("deletes by moving the last item into the hole, keeping every other vector with its id", async () => {
    const data = vectors(50, 8);
    const store = new FlatVectorStore(new FolderVectorFiles(join(dir, "del")));
    await store.upsert(data.map((v, i) => item(`n${i}`, v, `${i}.md`)));
    await store.delete(["n0", "n17", "n49", "n3"]);
    expect((await store.stats()).items).toBe(46);
    for (const i of [1, 2, 16, 18, 48]) {
      const [hit] = await store.query(data[i], 1);
      expect(hit).toMatchObject({ id: `n${i}`, metadata: { path: `${i}.md` } });
      expect(hit.score).toBeCloseTo(1, 5);
    }
    await store.close();
  });

  it("grows past a block of 1,024 vectors and deletes across blocks, in memory and after a reload", async () => {
    const data = vectors(2600, 8, 3);
    const folder = join(dir, "blocks");
    const store = new FlatVectorStore(new FolderVectorFiles(folder), { precision: "float32" });
    for (let i = 0; i < data.length; i += 300) await store.upsert(data.slice(i, i + 300).map((v, k) => item(`n${i + k}`, v, `${i + k}.md`)));
    // Holes in the first block filled from the third, and the last block emptied back into the second.
    await store.delete(["n0", "n5", "n1023", "n1024", "n2599", "n2048"]);
    expect((await store.stats()).items).toBe(2594);
    const check = async (s: FlatVectorStore) => {
      for (const i of [1, 1022, 1025, 2047, 2049, 2598]) {
        const [hit] = await s.query(data[i], 1);
        expect(hit).toMatchObject({ id: `n${i}`, metadata: { path: `${i}.md` } });
        expect(hit.score).toBeCloseTo(1, 5);
      }
    };
    await check(store);
    await store.upsert([item("late", data[0], "late.md")]);
    expect((await store.query(data[0], 1))[0].id).toBe("late");
    await store.close();
    const reader = new FlatVectorStore(new FolderVectorFiles(folder));
    expect(await reader.open()).toMatchObject({ items: 2595, dimension: 8 });
    await check(reader);
    expect((await reader.query(data[0], 1))[0].id).toBe("late");
    // Emptied, it takes another dimension.
    await reader.delete((await reader.listIds()).map((x) => x.id));
    await reader.upsert([item("wide", vectors(1, 32)[0], "w.md")]);
    expect(await reader.stats()).toMatchObject({ items: 1, dimension: 32 });
    await reader.close();
  });

  it("holds changes while a save reads the index, so the file is one state and the change is written next", async () => {
    let release: () => void = () => undefined;
    let gated = true;
    const written: Uint8Array[] = [];
    const names: string[] = [];
    const files = { read: () => Promise.resolve(null), write: (n: string, bytes: Uint8Array) => (names.push(n), written.push(bytes), Promise.resolve()), rename: () => Promise.resolve() };
    let reached: () => void = () => undefined;
    const paused = new Promise<void>((r) => (reached = r));
    const pause = () => (gated ? new Promise<void>((r) => ((release = r), reached())) : Promise.resolve());
    const store = new FlatVectorStore(files, { flushDelayMs: 60_000, pause });
    await store.upsert([item("a", [1, 0], "a.md"), item("b", [0, 1], "b.md")]);
    const saving = store.flush();
    // The save is inside its first slice now.
    await paused;
    let added = false;
    const adding = store.upsert([item("c", [1, 1], "c.md")]).then(() => (added = true));
    const deleting = store.delete(["a"]);
    await new Promise((r) => setTimeout(r, 20));
    expect(added).toBe(false);
    gated = false;
    release();
    await saving;
    await Promise.all([adding, deleting]);
    expect(written).toHaveLength(1);
    const first = Buffer.from(written[0]);
    expect([first.includes("a.md"), first.includes("b.md"), first.includes("c.md")]).toEqual([true, true, false]);
    await store.flush();
    // The change next: in the change file, beside the whole file just written (c added, a deleted, b as it was).
    expect(names).toEqual([FLAT_FILE, FLAT_CHANGES_FILE]);
    const second = Buffer.from(written[1]);
    expect([second.includes("a.md"), second.includes("b.md"), second.includes("c.md"), second.includes('"deleted":["a"]')]).toEqual([false, false, true, true]);
  });

  it("writes columns as arrays of 8,192 values, read back with a pause between, and still reads a version 1 file", async () => {
    const count = 20_000;
    const dim = 4;
    const blocks: Float32Array[] = [];
    for (let k = 0; k < count; k += BLOCK_VECTORS) blocks.push(new Float32Array(BLOCK_VECTORS * dim).map((_, j) => ((k + j) % 97) / 97));
    const data = { dim, ids: Array.from({ length: count }, (_, i) => `id,"${i}"]`), metadata: Array.from({ length: count }, (_, i) => ({ path: `F/${i}.md`, ...(i % 2 ? { heading: "H" } : {}) })), blocks };
    const bytes = await encodeFlatIndex(data, "float32", () => Promise.resolve());
    const header = JSON.parse(Buffer.from(bytes.subarray(8, 8 + new DataView(bytes.buffer).getUint32(4, true))).toString()) as { version: number; parts: number[][] };
    expect(header.version).toBe(2);
    expect(header.parts.map((p) => p.length)).toEqual([3, 3, 3]);
    let pauses = 0;
    const back = await decodeFlatIndex(bytes, () => (pauses++, Promise.resolve()));
    expect(back.ids).toEqual(data.ids);
    expect(back.metadata[1]).toEqual({ path: "F/1.md", heading: "H" });
    expect(back.metadata[19_998]).toEqual({ path: "F/19998.md" });
    expect(Array.from(vectorAt(back.blocks, dim, 12_345))).toEqual(Array.from(vectorAt(blocks, dim, 12_345)));
    // Two more per column than one parse each: three arrays apiece.
    expect(pauses).toBeGreaterThanOrEqual(6 + Math.floor(count / BLOCK_VECTORS));
    // Version 1: one array per section.
    const enc = new TextEncoder();
    const ids = enc.encode(JSON.stringify(["a", "b"]));
    const paths = enc.encode(JSON.stringify(["a.md", null]));
    const head = enc.encode(JSON.stringify({ version: 1, precision: "float32", dim: 2, count: 2, keys: ["path"], sections: [ids.length, paths.length] }));
    const start = (8 + head.length + ids.length + paths.length + 3) & ~3;
    const v1 = new Uint8Array(start + 16);
    v1.set([0x56, 0x41, 0x46, 0x31]);
    new DataView(v1.buffer).setUint32(4, head.length, true);
    v1.set(head, 8);
    v1.set(ids, 8 + head.length);
    v1.set(paths, 8 + head.length + ids.length);
    v1.set(new Uint8Array(new Float32Array([1, 0, 0, 1]).buffer), start);
    const old = await decodeFlatIndex(v1, () => Promise.resolve());
    expect(old.ids).toEqual(["a", "b"]);
    expect(old.metadata).toEqual([{ path: "a.md" }, {}]);
    expect(Array.from(vectorAt(old.blocks, 2, 1))).toEqual([0, 1]);
    // Parts that do not add up to their section are refused.
    const bad = enc.encode(JSON.stringify({ ...header, parts: [[1], ...header.parts.slice(1)] }));
    const headerEnd = 8 + new DataView(bytes.buffer).getUint32(4, true);
    const broken = new Uint8Array(8 + bad.length + bytes.length - headerEnd);
    broken.set(bytes.subarray(0, 4));
    new DataView(broken.buffer).setUint32(4, bad.length, true);
    broken.set(bad, 8);
    broken.set(bytes.subarray(headerEnd), 8 + bad.length);
    await expect(decodeFlatIndex(broken, () => Promise.resolve())).rejects.toThrow(/header is malformed/);
  });

  it("keeps a failed save pending and writes it on the next flush", async () => {
    let fail = true;
    const written: Uint8Array[] = [];
    const files = {
      read: () => Promise.resolve(null),
      write: (_name: string, bytes: Uint8Array) => (fail ? Promise.reject(new Error("disk full")) : (written.push(bytes), Promise.resolve())),
      rename: () => Promise.resolve(),
    };
    const store = new FlatVectorStore(files, { flushDelayMs: 60_000 });
    await store.upsert([item("a", [1, 0], "a.md")]);
    await expect(store.flush()).rejects.toThrow(/disk full/);
    fail = false;
    await store.flush();
    expect(written).toHaveLength(1);
    expect(Buffer.from(written[0]).includes("a.md")).toBe(true);
  });

  it("refuses a file name that would leave the index folder", async () => {
    const files = new FolderVectorFiles(join(dir, "safe"));
    await expect(files.write("../escape.flat", new Uint8Array([1]))).rejects.toThrow(/plain file name/);
    await expect(readFile(join(dir, "escape.flat"))).rejects.toThrow();
  });
});
