/**
 * The flat vector index file, readable without Node: a small JSON header, then the ids and each metadata
 * key as its own JSON array (parsed one at a time, yielding between them, so a phone's UI thread is never
 * held by one big parse), then the vectors — float32, or int8 with one float32 scale per vector (a
 * quarter of the bytes; cosine scores move by well under 0.01).
 *
 * Layout: "VAF1", u32 header length, header (UTF-8 JSON: version, precision, dim, count, keys, section
 * byte lengths; version 2 also each section's parts), the sections, zero padding to a multiple of 4, then for
 * float32 `count × dim` floats, for int8 `count` scales and `count × dim` signed bytes. Little-endian throughout.
 * An int8 row's scale is 1 / the length of its bytes as the flat store writes it (int8-rows.ts), so a row read back
 * has length 1; files written before held the largest coordinate / 127, and the int8 store computes it from the bytes.
 * Version 2 writes each section as JSON arrays of 8,192 values one after another (a 1.5 MB column of paths
 * was one parse of 15-25 ms); version 1 (one array per section) is still read.
 */
export type FlatPrecision = "float32" | "int8";
export type FlatMetadata = Record<string, string | number | boolean>;

/** Vectors per block: the index grows by a block, never by copying what it holds. */
export const BLOCK_VECTORS = 1024;

/** The index in memory: unit-length vectors, item after item. */
export interface FlatIndexData {
  dim: number;
  ids: string[];
  metadata: FlatMetadata[];
  /**
   * The vectors in blocks of BLOCK_VECTORS × dim numbers, item k at `blocks[k / BLOCK_VECTORS]` (the last block may
   * have spare capacity). One array of 33,000 × 384 numbers took 50 ms and more to copy each time it doubled.
   */
  blocks: Float32Array[];
  /** Instead of `blocks`, for the int8 precision: the rows as signed bytes with a scale each (int8-rows.ts). */
  int8?: Int8Source;
}

/** Rows held as signed bytes: what the int8 layout writes as they are. */
export interface Int8Source {
  /** Row `k`'s scale. */
  scale(k: number): number;
  /** Rows `start` to `start + count - 1` (within one block of BLOCK_VECTORS) as bytes. */
  bytes(start: number, count: number): Int8Array;
}

/** An int8 file's rows as they are in it (views of the file's bytes), when decoding for a store that holds int8. */
export interface Int8Body {
  scales: Float32Array;
  bytes: Int8Array;
}

/** Item `k`'s vector as a view into its block. */
export function vectorAt(blocks: Float32Array[], dim: number, k: number): Float32Array {
  const at = (k % BLOCK_VECTORS) * dim;
  return blocks[Math.floor(k / BLOCK_VECTORS)].subarray(at, at + dim);
}

interface Header extends Record<string, unknown> {
  version: 1 | 2;
  precision: FlatPrecision;
  dim: number;
  count: number;
  keys: string[];
  /** Byte length of the ids section, then of each key's column. */
  sections: number[];
  /** Version 2: per section, the byte lengths of its arrays (they add up to the section's). */
  parts?: number[][];
}

const MAGIC = [0x56, 0x41, 0x46, 0x31]; // "VAF1"
/**
 * Vectors decoded (or encoded) between two yields: one block. Writing fresh memory is what costs here (the first
 * touch of each page): 6 MB took 25-47 ms on the test machine, 200 times a copy into memory already touched.
 */
const SLICE = BLOCK_VECTORS;
/** Metadata values written between two yields. */
const COLUMN_SLICE = 8192;
const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

/**
 * Encodes the index. `extra` adds fields to the header (the flat store's generation of a whole file, or a change
 * file's base and deleted ids); readers that do not know them ignore them.
 */
export async function encodeFlatIndex(data: FlatIndexData, precision: FlatPrecision, pause: () => Promise<void>, extra: Record<string, unknown> = {}): Promise<Uint8Array> {
  const count = data.ids.length;
  const { dim, blocks } = data;
  const keySet = new Set<string>();
  for (let i = 0; i < count; i++) {
    if (i % COLUMN_SLICE === COLUMN_SLICE - 1) await pause();
    for (const key in data.metadata[i]) keySet.add(key);
  }
  const keys = [...keySet];
  const text = new TextEncoder();
  const columns: Uint8Array[][] = [await jsonArrays(data.ids, text, pause)];
  for (const key of keys) {
    await pause();
    columns.push(await jsonArrays(data.metadata.map((m) => m[key] ?? null), text, pause));
  }
  const sections = columns.flat();
  const parts = columns.map((c) => c.map((s) => s.length));
  const header: Header = { ...extra, version: 2, precision, dim, count, keys, sections: parts.map((p) => p.reduce((n, x) => n + x, 0)), parts };
  const headerBytes = text.encode(JSON.stringify(header));
  const sectionsEnd = 8 + headerBytes.length + sections.reduce((n, s) => n + s.length, 0);
  const start = align4(sectionsEnd);
  const vectorBytes = precision === "float32" ? count * dim * 4 : count * 4 + count * dim;
  const out = new Uint8Array(start + vectorBytes);
  out.set(MAGIC, 0);
  new DataView(out.buffer).setUint32(4, headerBytes.length, true);
  out.set(headerBytes, 8);
  let o = 8 + headerBytes.length;
  for (const s of sections) {
    out.set(s, o);
    o += s.length;
  }
  await pause();
  if (precision === "float32") {
    for (let k = 0; k < count; k += BLOCK_VECTORS) {
      if (k > 0) await pause();
      writeFloats(out, start + k * dim * 4, blocks[k / BLOCK_VECTORS].subarray(0, (Math.min(count, k + BLOCK_VECTORS) - k) * dim));
    }
  } else if (data.int8) {
    // Held as bytes already: copied block by block.
    const scales = new Float32Array(count);
    const bytes = new Int8Array(out.buffer, start + count * 4, count * dim);
    for (let k = 0; k < count; k += BLOCK_VECTORS) {
      if (k > 0) await pause();
      const n = Math.min(count, k + BLOCK_VECTORS) - k;
      bytes.set(data.int8.bytes(k, n), k * dim);
      for (let i = k; i < k + n; i++) scales[i] = data.int8.scale(i);
    }
    writeFloats(out, start, scales);
  } else {
    const scales = new Float32Array(count);
    const bytes = new Int8Array(out.buffer, start + count * 4, count * dim);
    for (let k = 0; k < count; k++) {
      if (k % SLICE === SLICE - 1) await pause();
      const v = vectorAt(blocks, dim, k);
      let max = 0;
      for (let j = 0; j < dim; j++) max = Math.max(max, Math.abs(v[j]));
      scales[k] = max / 127;
      const inv = max > 0 ? 127 / max : 0;
      const base = k * dim;
      for (let j = 0; j < dim; j++) bytes[base + j] = Math.round(v[j] * inv);
    }
    writeFloats(out, start, scales);
  }
  return out;
}

/**
 * Decodes a file; throws a short reason when it is not one, or is truncated or malformed. With `keepInt8`, an int8
 * file's rows come back as they are (`int8`, views of `bytes`) instead of as float blocks.
 */
export async function decodeFlatIndex(bytes: Uint8Array, pause: () => Promise<void>, keepInt8 = false): Promise<FlatIndexData & { int8Body?: Int8Body; header: Record<string, unknown> }> {
  if (bytes.length < 8 || MAGIC.some((b, i) => bytes[i] !== b)) throw new Error("not a flat vector index file");
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const headerLength = view.getUint32(4, true);
  if (8 + headerLength > bytes.length) throw new Error("the vector index file is truncated");
  const text = new TextDecoder();
  const header = JSON.parse(text.decode(bytes.subarray(8, 8 + headerLength))) as Header;
  const { dim, count, keys, sections, precision } = header;
  const { parts } = header;
  const partsOk = header.version === 1 ? parts === undefined : Array.isArray(parts) && parts.length === sections?.length && parts.every((p, k) => Array.isArray(p) && p.reduce((n: number, x) => n + x, 0) === sections[k]);
  if ((header.version !== 1 && header.version !== 2) || !partsOk || !Number.isInteger(dim) || !Number.isInteger(count) || !Array.isArray(keys) || !Array.isArray(sections) || sections.length !== keys.length + 1 || (precision !== "float32" && precision !== "int8")) {
    throw new Error("the vector index header is malformed");
  }
  const sectionsEnd = 8 + headerLength + sections.reduce((n, s) => n + s, 0);
  const start = align4(sectionsEnd);
  const vectorBytes = precision === "float32" ? count * dim * 4 : count * 4 + count * dim;
  if (start + vectorBytes !== bytes.length) throw new Error("the vector index file is truncated");
  let o = 8 + headerLength;
  await pause();
  const section = async (k: number): Promise<unknown[]> => {
    const values: unknown[] = [];
    for (const length of parts?.[k] ?? [sections[k]]) {
      if (values.length > 0) await pause();
      const value = JSON.parse(text.decode(bytes.subarray(o, o + length))) as unknown;
      o += length;
      if (!Array.isArray(value)) throw new Error("the vector index header is malformed");
      for (const v of value) values.push(v);
    }
    if (values.length !== count) throw new Error("the vector index header is malformed");
    return values;
  };
  const ids = (await section(0)) as string[];
  const metadata: FlatMetadata[] = ids.map(() => ({}));
  for (let k = 0; k < keys.length; k++) {
    await pause();
    const column = (await section(k + 1)) as (FlatMetadata[string] | null)[];
    const key = keys[k];
    for (let i = 0; i < count; i++) if (column[i] !== null) metadata[i][key] = column[i]!;
  }
  await pause();
  // Each block is made where it is first filled: making all of them at once was one block of 25 ms at 384 dims.
  const blocks: Float32Array[] = [];
  if (precision === "int8" && keepInt8) {
    const scales = new Float32Array(count);
    readFloats(bytes, start, scales);
    return { dim, ids, metadata, blocks, header, int8Body: { scales, bytes: new Int8Array(bytes.buffer, bytes.byteOffset + start + count * 4, count * dim) } };
  }
  if (precision === "float32") {
    // Copied a block at a time with a yield between: 33,000 of 384 numbers are 50 MB.
    for (let k = 0; k < count; k += BLOCK_VECTORS) {
      if (k > 0) await pause();
      blocks.push(new Float32Array(BLOCK_VECTORS * dim));
      readFloats(bytes, start + k * dim * 4, blocks[k / BLOCK_VECTORS].subarray(0, (Math.min(count, k + BLOCK_VECTORS) - k) * dim));
    }
  } else {
    const scales = new Float32Array(count);
    readFloats(bytes, start, scales);
    const q = new Int8Array(bytes.buffer, bytes.byteOffset + start + count * 4, count * dim);
    for (let k = 0; k < count; k++) {
      if (k % SLICE === 0) {
        if (k > 0) await pause();
        blocks.push(new Float32Array(BLOCK_VECTORS * dim));
      }
      const v = vectorAt(blocks, dim, k);
      const base = k * dim;
      const s = scales[k];
      for (let j = 0; j < dim; j++) v[j] = q[base + j] * s;
    }
  }
  return { dim, ids, metadata, blocks, header };
}

/** A column as UTF-8 JSON arrays of COLUMN_SLICE values each (one empty array when there are none), a pause between. */
async function jsonArrays(values: unknown[], text: TextEncoder, pause: () => Promise<void>): Promise<Uint8Array[]> {
  const out = [text.encode(JSON.stringify(values.slice(0, COLUMN_SLICE)))];
  for (let i = COLUMN_SLICE; i < values.length; i += COLUMN_SLICE) {
    await pause();
    out.push(text.encode(JSON.stringify(values.slice(i, i + COLUMN_SLICE))));
  }
  return out;
}

function writeFloats(out: Uint8Array, at: number, values: Float32Array): void {
  if (LITTLE_ENDIAN) {
    out.set(new Uint8Array(values.buffer, values.byteOffset, values.length * 4), at);
    return;
  }
  const view = new DataView(out.buffer, out.byteOffset);
  for (let i = 0; i < values.length; i++) view.setFloat32(at + i * 4, values[i], true);
}

function readFloats(bytes: Uint8Array, at: number, into: Float32Array): void {
  if (LITTLE_ENDIAN) {
    // Copied through bytes: the file's buffer may start at any offset, a Float32Array view may not.
    new Uint8Array(into.buffer, into.byteOffset, into.length * 4).set(bytes.subarray(at, at + into.length * 4));
    return;
  }
  const view = new DataView(bytes.buffer, bytes.byteOffset);
  for (let i = 0; i < into.length; i++) into[i] = view.getFloat32(at + i * 4, true);
}

function align4(n: number): number {
  return (n + 3) & ~3;
}
