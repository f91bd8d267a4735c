import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { VectraStore } from "../../../src/host/vector/vectra-store";
import { vectorOps } from "../../../src/host/vector/host-ops";
import type { VectorItem } from "../../../src/core/ports/vector-store";
import { describeVectorStoreContract } from "../../contract/vector-store-contract";

describeVectorStoreContract("VectraStore", { create: (folder, options) => new VectraStore(folder, options), fileName: "index.vec" });

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
  for (const codec of ["protobuf", "json"] as const) {
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
