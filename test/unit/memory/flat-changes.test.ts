import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { FLAT_CHANGES_FILE, FLAT_FILE, FlatVectorStore } from "../../../src/engine/vector/flat-store";
import { FolderVectorFiles } from "../../../src/node/folder-vault/folder-vector-files";
import type { FlatPrecision } from "../../../src/engine/vector/flat-codec";
import { contractItem as item } from "../../contract/vector-store-contract";

function vectors(n: number, dim: number, seed = 1): number[][] {
  let s = seed;
  const rnd = () => ((s = (s * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff) * 2 - 1;
  return Array.from({ length: n }, () => Array.from({ length: dim }, rnd));
}

const meta = (path: string, hash: string) => ({ path, folder: path.slice(0, path.lastIndexOf("/")), heading: "H", hash, text: "" });

describe.each(["int8", "float32"] as FlatPrecision[])("FlatVectorStore's change file (%s)", (precision) => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), "flat-changes-"));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });
  const open = (folder: string) => new FlatVectorStore(new FolderVectorFiles(folder), { precision, flushDelayMs: 60_000 });
  const state = async (store: FlatVectorStore, queries: number[][]) => ({
    ids: (await store.listIds()).sort((a, b) => a.id.localeCompare(b.id)),
    hits: await Promise.all(queries.map((q) => store.query(q, 5))),
  });

  it("writes a folder rename's relabels, a delete and a new item to the change file only, and a reload applies them", async () => {
    const folder = join(dir, "v");
    const data = vectors(3000, 32);
    const store = open(folder);
    await store.upsert(data.map((v, i) => item(`n${i}`, v, `Batch/${i}.md`)));
    await store.flush();
    const whole = await stat(join(folder, FLAT_FILE));
    // A rename of 150 notes, as the indexer relabels it, then a delete and an upsert.
    await store.relabel(Array.from({ length: 150 }, (_, i) => ({ id: `n${i}`, metadata: meta(`Renamed/${i}.md`, `h-n${i}`) })));
    await store.delete(["n2000", "n5"]);
    await store.upsert([item("late", data[7].map((x) => -x), "Late/x.md")]);
    await store.flush();
    const after = await stat(join(folder, FLAT_FILE));
    expect(after.mtimeMs).toBe(whole.mtimeMs);
    const changes = await stat(join(folder, FLAT_CHANGES_FILE));
    expect(changes.size).toBeLessThan(whole.size / 10);
    const queries = [data[3], data[2999], data[7].map((x) => -x)];
    const live = await state(store, queries);
    expect(live.ids.find((x) => x.id === "n3")?.path).toBe("Renamed/3.md");
    await store.close();
    const reopened = open(folder);
    expect(await state(reopened, queries)).toEqual(live);
    expect((await reopened.stats()).items).toBe(2999);
    // More changes go on adding to the same change file.
    await reopened.relabel([{ id: "n10", metadata: meta("Again/10.md", "h-n10") }]);
    await reopened.close();
    const third = open(folder);
    expect((await third.listIds()).find((x) => x.id === "n10")?.path).toBe("Again/10.md");
    expect((await third.listIds()).find((x) => x.id === "n3")?.path).toBe("Renamed/3.md");
    await third.close();
  });

  it("writes the whole file again once the changes pass an eighth of the index, and empties the change file", async () => {
    const folder = join(dir, "w");
    const data = vectors(9000, 16, 3);
    const store = open(folder);
    await store.upsert(data.map((v, i) => item(`n${i}`, v, `A/${i}.md`)));
    await store.flush();
    await store.relabel(Array.from({ length: 500 }, (_, i) => ({ id: `n${i}`, metadata: meta(`B/${i}.md`, `h-n${i}`) })));
    await store.flush();
    expect((await stat(join(folder, FLAT_CHANGES_FILE))).size).toBeGreaterThan(0);
    await store.relabel(Array.from({ length: 1000 }, (_, i) => ({ id: `n${i + 1000}`, metadata: meta(`C/${i}.md`, `h-n${i + 1000}`) })));
    await store.flush();
    expect((await stat(join(folder, FLAT_CHANGES_FILE))).size).toBe(0);
    await store.close();
    const reopened = open(folder);
    const paths = new Map((await reopened.listIds()).map((x) => [x.id, x.path]));
    expect([paths.get("n1"), paths.get("n1001"), paths.get("n8000")]).toEqual(["B/1.md", "C/1.md", "A/8000.md"]);
    await reopened.close();
  });

  it("ignores a change file written over another whole file", async () => {
    const folder = join(dir, "x");
    const data = vectors(50, 16, 5);
    const store = open(folder);
    await store.upsert(data.map((v, i) => item(`n${i}`, v, `A/${i}.md`)));
    await store.flush();
    await store.relabel([{ id: "n1", metadata: meta("B/1.md", "h-n1") }]);
    await store.close();
    const stale = await readFile(join(folder, FLAT_CHANGES_FILE));
    // The whole file written again from scratch (another generation), then the old change file put back.
    await rm(folder, { recursive: true });
    const fresh = open(folder);
    await fresh.upsert(data.map((v, i) => item(`n${i}`, v, `A/${i}.md`)));
    await fresh.close();
    await writeFile(join(folder, FLAT_CHANGES_FILE), stale);
    const reopened = open(folder);
    expect((await reopened.listIds()).find((x) => x.id === "n1")?.path).toBe("A/1.md");
    await reopened.close();
  });
});
