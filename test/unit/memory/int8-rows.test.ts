import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { int8Kernel } from "../../../src/engine/vector/int8-kernel";
import { Int8Rows } from "../../../src/engine/vector/int8-rows";
import { FLAT_FILE, FlatVectorStore } from "../../../src/engine/vector/flat-store";
import { decodeFlatIndex } from "../../../src/engine/vector/flat-codec";
import { FolderVectorFiles } from "../../../src/node/folder-vault/folder-vector-files";
import { contractItem as item } from "../../contract/vector-store-contract";

/** Deterministic pseudo-random unit vectors, some of them near copies of others (close scores). */
function vectors(n: number, dim: number, seed = 1): Float32Array[] {
  let s = seed;
  const rnd = () => ((s = (s * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff) * 2 - 1;
  const out: Float32Array[] = [];
  for (let i = 0; i < n; i++) {
    const v = new Float32Array(dim);
    if (i % 7 === 6) for (let j = 0; j < dim; j++) v[j] = out[i - 1][j] + rnd() * 0.002;
    else for (let j = 0; j < dim; j++) v[j] = rnd();
    const norm = Math.hypot(...v);
    for (let j = 0; j < dim; j++) v[j] /= norm;
    out.push(v);
  }
  return out;
}

describe("the int8 SIMD kernel", () => {
  it("computes the same dot products as JavaScript, for every row", () => {
    const kernel = int8Kernel(4)!;
    expect(kernel).not.toBeNull();
    const dim = 48;
    const bytes = new Int8Array(kernel.memory.buffer);
    const rows = 100;
    for (let j = 0; j < dim; j++) bytes[j] = ((j * 37) % 255) - 127;
    for (let i = 0; i < rows * dim; i++) bytes[65536 + i] = ((i * 91 + 7) % 255) - 127;
    kernel.scan(0, 65536, rows, dim, 4096);
    const out = new Int32Array(kernel.memory.buffer, 4096, rows);
    for (let i = 0; i < rows; i++) {
      let sum = 0;
      for (let j = 0; j < dim; j++) sum += bytes[j] * bytes[65536 + i * dim + j];
      expect(out[i]).toBe(sum);
    }
  });
});

describe("Int8Rows", () => {
  it("finds the same top k with the same scores on the SIMD kernel as in JavaScript, with and without a filter", () => {
    const dim = 64;
    const data = vectors(5000, dim);
    const simd = new Int8Rows(dim, true);
    const plain = new Int8Rows(dim, false);
    expect(simd.simd).toBe(true);
    expect(plain.simd).toBe(false);
    data.forEach((v, i) => (simd.set(i, v), plain.set(i, v)));
    for (const [q, k, keep] of [
      [data[5], 10, undefined],
      [data[700], 50, undefined],
      [vectors(1, dim, 9)[0], 8, (slot: number) => slot % 3 === 0],
      [data[4095], 1, (slot: number) => slot > 4000],
    ] as const) {
      const a = simd.scan(q, data.length, k, keep);
      const b = plain.scan(q, data.length, k, keep);
      expect(a).toEqual(b);
      expect(a.length).toBe(k);
    }
  });

  it("gives each row length 1, so a vector scores 1 against itself", () => {
    const rows = new Int8Rows(32);
    const data = vectors(3, 32);
    data.forEach((v, i) => rows.set(i, v));
    for (let i = 0; i < 3; i++) {
      const back = rows.get(i);
      expect(Math.hypot(...back)).toBeCloseTo(1, 6);
      expect(rows.scan(back, 3, 1)[0]).toMatchObject({ slot: i });
      expect(rows.scan(back, 3, 1)[0].score).toBeCloseTo(1, 6);
    }
  });
});

describe("FlatVectorStore, int8 in memory", () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), "int8-rows-"));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("answers the same after a reload as before it, and as the JavaScript scan does", async () => {
    const dim = 384;
    const data = vectors(2500, dim, 5);
    const folder = join(dir, "q");
    const store = new FlatVectorStore(new FolderVectorFiles(folder), { precision: "int8" });
    await store.upsert(data.map((v, i) => item(`n${i}`, [...v], `F${i % 10}/${i}.md`)));
    await store.delete(["n3", "n1500"]);
    const queries = [data[10], data[2000], vectors(1, dim, 77)[0]].map((v) => [...v]);
    const before = await Promise.all(queries.map((q) => store.query(q, 8)));
    await store.close();
    const simd = new FlatVectorStore(new FolderVectorFiles(folder), { precision: "int8" });
    const plain = new FlatVectorStore(new FolderVectorFiles(folder), { precision: "int8", simd: false });
    for (let i = 0; i < queries.length; i++) {
      const after = await simd.query(queries[i], 8);
      expect(after).toEqual(before[i]);
      expect(await plain.query(queries[i], 8)).toEqual(after);
      expect((await simd.query(queries[i], 8, { folder: { $in: ["F3"] } })).every((h) => h.metadata.path.startsWith("F3/"))).toBe(true);
    }
    expect(before[0][0]).toMatchObject({ id: "n10" });
    await simd.close();
    await plain.close();
  });

  it("reads an int8 file written with the older scale (largest coordinate / 127) to the same vectors", async () => {
    const dim = 32;
    const data = vectors(40, dim, 3);
    const folder = join(dir, "old");
    const writer = new FlatVectorStore(new FolderVectorFiles(folder), { precision: "int8" });
    await writer.upsert(data.map((v, i) => item(`n${i}`, [...v], `${i}.md`)));
    await writer.close();
    const file = join(folder, FLAT_FILE);
    const bytes = new Uint8Array(await readFile(file));
    const decoded = await decodeFlatIndex(bytes, () => Promise.resolve(), true);
    const body = decoded.int8Body!;
    const expected = await new FlatVectorStore(new FolderVectorFiles(folder), { precision: "int8" }).query([...data[7]], 5);
    // The previous code's scales (the largest coordinate / 127) are near 1 / |bytes| but not it: read from the bytes instead.
    for (let k = 0; k < 40; k++) body.scales[k] *= 1 + (k % 5) / 100;
    const scalesAt = body.bytes.byteOffset - bytes.byteOffset - 40 * 4;
    new Uint8Array(bytes.buffer, bytes.byteOffset + scalesAt, 160).set(new Uint8Array(body.scales.buffer, body.scales.byteOffset, 160));
    await writeFile(file, bytes);
    const reader = new FlatVectorStore(new FolderVectorFiles(folder), { precision: "int8" });
    expect(await reader.query([...data[7]], 5)).toEqual(expected);
    await reader.close();
  });
});
