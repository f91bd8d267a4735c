/**
 * The vector index file in a compact binary form: a small JSON header (ids and metadata by column)
 * followed by every vector as raw float32. vectra's protobuf codec decodes each item and metadata
 * value through protobufjs, and its JSON codec writes numbers as text; reading raw floats straight
 * into arrays loads a 33,000-chunk index several times faster than either (see `bench index`,
 * codec_compare). Catalogs and metadata files (which this store does not use) stay JSON.
 *
 * Layout: "VAV1", u32 header length, header (UTF-8 JSON), zero padding to a multiple of 4, then
 * float32 little-endian vectors, item after item.
 */
import type { IndexCodec, IndexData, IndexItem, MetadataTypes } from "vectra";

const MAGIC = "VAV1";

interface Header {
  version: number;
  metadata_config: IndexData["metadata_config"];
  ids: string[];
  /** Length of every vector, or null when they differ (then `lengths` has each). */
  dim: number | null;
  lengths?: number[];
  /** Metadata by key: one value per item, null where the item lacks the key. */
  columns: Record<string, (MetadataTypes | null)[]>;
  /** Item index -> vectra's external metadata file, for the few items that have one. */
  metadataFiles?: Record<string, string>;
}

export class CompactCodec implements IndexCodec {
  readonly extension = ".vec";

  serializeIndex(data: IndexData): Buffer {
    const items = data.items;
    const dim = items.length > 0 && items.every((i) => i.vector.length === items[0].vector.length) ? items[0].vector.length : items.length === 0 ? 0 : null;
    const columns: Header["columns"] = {};
    const metadataFiles: Record<string, string> = {};
    items.forEach((item, k) => {
      for (const [key, value] of Object.entries(item.metadata ?? {})) {
        let column = columns[key];
        if (!column) {
          column = new Array<MetadataTypes | null>(items.length).fill(null);
          columns[key] = column;
        }
        column[k] = value;
      }
      if (item.metadataFile) metadataFiles[k] = item.metadataFile;
    });
    const header: Header = { version: data.version, metadata_config: data.metadata_config, ids: items.map((i) => i.id), dim, columns };
    if (dim === null) header.lengths = items.map((i) => i.vector.length);
    if (Object.keys(metadataFiles).length > 0) header.metadataFiles = metadataFiles;
    const json = Buffer.from(JSON.stringify(header), "utf8");
    const start = align4(8 + json.length);
    const floats = items.reduce((n, i) => n + i.vector.length, 0);
    const out = Buffer.alloc(start + floats * 4);
    out.write(MAGIC, 0, "latin1");
    out.writeUInt32LE(json.length, 4);
    json.copy(out, 8);
    const view = new Float32Array(out.buffer, out.byteOffset + start, floats);
    let o = 0;
    for (const item of items) {
      view.set(item.vector, o);
      o += item.vector.length;
    }
    return out;
  }

  deserializeIndex(buffer: Buffer): IndexData {
    if (buffer.length < 8 || buffer.toString("latin1", 0, 4) !== MAGIC) throw new Error("not a vector index file of this format");
    const headerLength = buffer.readUInt32LE(4);
    if (8 + headerLength > buffer.length) throw new Error("the vector index file is truncated");
    const header = JSON.parse(buffer.toString("utf8", 8, 8 + headerLength)) as Header;
    const { ids, dim, columns } = header;
    if (!Array.isArray(ids) || (dim === null && (!Array.isArray(header.lengths) || header.lengths.length !== ids.length))) throw new Error("the vector index header is malformed");
    const start = align4(8 + headerLength);
    const floats = dim === null ? header.lengths!.reduce((a, b) => a + b, 0) : dim * ids.length;
    if (start + floats * 4 !== buffer.length) throw new Error("the vector index file is truncated");
    // Copy into an aligned buffer: the file buffer may start at any byte offset.
    const all = new Float32Array(floats);
    new Uint8Array(all.buffer).set(buffer.subarray(start, start + floats * 4));
    const keys = Object.keys(columns);
    for (const key of keys) if (!Array.isArray(columns[key]) || columns[key].length !== ids.length) throw new Error("the vector index header is malformed");
    const items: IndexItem[] = new Array<IndexItem>(ids.length);
    let o = 0;
    for (let k = 0; k < ids.length; k++) {
      const n = dim ?? header.lengths![k];
      const vector = new Array<number>(n);
      let sum = 0;
      for (let j = 0; j < n; j++) {
        const x = all[o + j];
        vector[j] = x;
        sum += x * x;
      }
      o += n;
      const metadata: Record<string, MetadataTypes> = {};
      for (const key of keys) {
        const value = columns[key][k];
        if (value !== null) metadata[key] = value;
      }
      const item: IndexItem = { id: ids[k], metadata, vector, norm: Math.sqrt(sum) };
      const file = header.metadataFiles?.[k];
      if (file) item.metadataFile = file;
      items[k] = item;
    }
    return { version: header.version, metadata_config: header.metadata_config ?? {}, items };
  }

  serializeCatalog(catalog: Parameters<IndexCodec["serializeCatalog"]>[0]): Buffer {
    return Buffer.from(JSON.stringify(catalog), "utf8");
  }

  deserializeCatalog(buffer: Buffer): ReturnType<IndexCodec["deserializeCatalog"]> {
    return JSON.parse(buffer.toString("utf8")) as ReturnType<IndexCodec["deserializeCatalog"]>;
  }

  serializeMetadata(metadata: Record<string, MetadataTypes>): Buffer {
    return Buffer.from(JSON.stringify(metadata), "utf8");
  }

  deserializeMetadata(buffer: Buffer): Record<string, MetadataTypes> {
    return JSON.parse(buffer.toString("utf8")) as Record<string, MetadataTypes>;
  }
}

function align4(n: number): number {
  return (n + 3) & ~3;
}
