/**
 * The semantic index: a vectra LocalIndex in a folder (inside the vault by default), serving the
 * VectorStore port in the engine host. The index file uses the compact codec (compact-codec.ts: raw
 * float32 vectors behind a small JSON header, the fastest to load; an index written with vectra's
 * protobuf or JSON codec is converted on open); writes are deferred and atomic. Chunk texts are not stored (hits come back with `text: ""`): they are two thirds of the
 * file and of its load time, and the notes hold them anyway — MemorySearch reads them back by chunk
 * id. An unreadable index is moved aside and rebuilt empty with a notice instead of crashing.
 */
import { promises as fs } from "node:fs";
import { join, resolve } from "node:path";
import type { IndexCodec, IndexData, LocalIndex, MetadataTypes } from "vectra";
import type { VectorCodec, RelabelItem, VectorHit, VectorItem, VectorStore } from "../../core/ports/vector-store";
import { loadVectra } from "./vectra-loader";
import { CompactCodec } from "./compact-codec";
import { DeferredCodec, WriteBehindStorage } from "./write-behind-file";


/** The index file each codec writes. */
const FILE_NAMES: Record<VectorCodec, string> = { compact: "index.vec", protobuf: "index.pb", json: "index.json" };

export interface VectraStoreOptions {
  /** Index file format; default "compact" (measured: `bench index`, codec_compare). */
  codec?: VectorCodec;
  /** Quiet time before changes are written to disk (default 2000 ms); `flush()` writes at once. */
  flushDelayMs?: number;
  /** Told when the index had to be rebuilt. */
  onNotice?: (message: string) => void;
}

type Meta = Record<string, MetadataTypes>;

export class VectraStore implements VectorStore {
  /** The folder holding the index. */
  readonly folder: string;
  private index: LocalIndex<Meta> | null = null;
  private storage: WriteBehindStorage | null = null;
  private opening: Promise<void> | null = null;
  /** Serialises updates: vectra allows one update at a time. */
  private queue: Promise<unknown> = Promise.resolve();
  /** Notices raised while opening (a rebuilt index), until someone reads them. */
  private notices: string[] = [];

  constructor(
    folder: string,
    private readonly options: VectraStoreOptions = {},
  ) {
    this.folder = resolve(folder);
  }

  /** The index file's name for the chosen codec. */
  get fileName(): string {
    return FILE_NAMES[this.options.codec ?? "compact"];
  }

  /** Opens (creating or rebuilding as needed); returns and clears notices raised while opening. */
  async open(): Promise<{ items: number; dimension?: number; notices: string[] }> {
    await this.ready();
    const s = await this.stats();
    const notices = this.notices;
    this.notices = [];
    return { items: s.items, dimension: s.dimension, notices };
  }

  async upsert(items: VectorItem[]): Promise<void> {
    if (items.length === 0) return;
    for (const item of items) {
      if (!Array.isArray(item.vector) || item.vector.length === 0 || item.vector.some((x) => typeof x !== "number" || !Number.isFinite(x))) {
        throw new Error(`Chunk "${item.id}" has no usable vector; the embedding model returned invalid numbers.`);
      }
    }
    await this.update(async (index) => {
      for (const item of items) {
        const { text: _text, ...metadata } = item.metadata;
        await index.upsertItem({ id: item.id, vector: item.vector, metadata });
      }
    });
  }

  async relabel(items: RelabelItem[]): Promise<string[]> {
    if (items.length === 0) return [];
    const missing: string[] = [];
    await this.update(async (index) => {
      // One lookup table: vectra's getItem scans the whole index per call.
      const sources = new Set(items.map((i) => i.from ?? i.id));
      const byId = new Map<string, number[]>();
      for (const item of await index.listItems()) if (sources.has(item.id)) byId.set(item.id, item.vector);
      for (const item of items) {
        const vector = byId.get(item.from ?? item.id);
        if (!vector) {
          missing.push(item.id);
          continue;
        }
        const { text: _text, ...metadata } = item.metadata;
        await index.upsertItem({ id: item.id, vector, metadata });
      }
    });
    return missing;
  }

  async delete(ids: string[]): Promise<void> {
    if (ids.length === 0) return;
    await this.update((index) => index.deleteItems(ids));
  }

  async query(vector: number[], topK: number, filter?: Record<string, unknown>): Promise<VectorHit[]> {
    const index = await this.ready();
    await this.queue;
    const results = await index.queryItems(vector, "", Math.max(1, topK), filter);
    return results.map((r): VectorHit => {
      const m = r.item.metadata;
      return { id: r.item.id, score: r.score, metadata: { ...m, path: String(m.path ?? ""), heading: String(m.heading ?? ""), hash: String(m.hash ?? ""), text: "" } };
    });
  }

  async stats(): Promise<{ items: number; bytes: number; dimension?: number }> {
    const index = await this.ready();
    await this.queue;
    const items = await index.listItems();
    let bytes = 0;
    try {
      bytes = (await fs.stat(join(this.folder, this.fileName))).size;
    } catch {
      bytes = 0;
    }
    return { items: items.length, bytes, dimension: items[0]?.vector.length };
  }

  async listIds(): Promise<{ id: string; hash: string; path: string }[]> {
    const index = await this.ready();
    await this.queue;
    return (await index.listItems()).map((i) => ({ id: i.id, hash: String(i.metadata.hash ?? ""), path: String(i.metadata.path ?? "") }));
  }

  /** Writes pending changes to disk now. */
  async flush(): Promise<void> {
    await this.queue;
    await this.storage?.flush();
  }

  /** Writes pending changes synchronously (on process exit). */
  flushSync(): void {
    this.storage?.flushSync();
  }

  /** Flushes and forgets the in-memory index. */
  async close(): Promise<void> {
    await this.flush();
    this.index = null;
    this.opening = null;
  }

  // --- internals ---

  private update(job: (index: LocalIndex<Meta>) => Promise<void>): Promise<void> {
    const run = this.queue.then(async () => {
      const index = await this.ready();
      await index.beginUpdate();
      try {
        await job(index);
      } catch (err) {
        index.cancelUpdate();
        throw err;
      }
      await index.endUpdate();
    });
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async ready(): Promise<LocalIndex<Meta>> {
    if (!this.opening) this.opening = this.openIndex();
    await this.opening;
    return this.index!;
  }

  private async openIndex(): Promise<void> {
    const vectra = await loadVectra();
    const kind = this.options.codec ?? "compact";
    const codecOf = (k: VectorCodec) => (k === "compact" ? new CompactCodec() : k === "json" ? new vectra.JsonCodec() : new vectra.ProtobufCodec());
    const codec = new DeferredCodec(codecOf(kind));
    const indexPath = join(this.folder, this.fileName);
    const storage = new WriteBehindStorage(indexPath, codec, this.options.flushDelayMs ?? 2000);
    const make = () => new vectra.LocalIndex<Meta>(this.folder, this.fileName, storage, codec);
    await fs.mkdir(this.folder, { recursive: true });
    await this.convertOlderFile(kind, indexPath, codecOf);
    let index = make();
    if (await index.isIndexCreated()) {
      try {
        await index.getIndexStats();
      } catch (err) {
        const aside = `${indexPath}.corrupt-${Date.now()}`;
        await fs.rename(indexPath, aside).catch(() => undefined);
        const notice = `The semantic index was unreadable (${err instanceof Error ? err.message.slice(0, 120) : String(err)}), so it was moved aside to ${aside} and is being rebuilt.`;
        this.notices.push(notice);
        this.options.onNotice?.(notice);
        index = make();
      }
    }
    if (!(await index.isIndexCreated())) {
      await index.createIndex({ version: 1, metadata_config: { indexed: [] } });
      await storage.flush();
    }
    this.index = index;
    this.storage = storage;
  }

  /**
   * An index written in another format (the protobuf file of earlier versions) and none in this one:
   * rewritten in this format, then removed — its vectors are kept, nothing is re-embedded. An
   * unreadable one is left for the normal path (moved aside with a notice, rebuilt).
   */
  private async convertOlderFile(kind: VectorCodec, indexPath: string, codecOf: (k: VectorCodec) => IndexCodec): Promise<void> {
    if (await exists(indexPath)) return;
    for (const other of ["protobuf", "json", "compact"] as const) {
      if (other === kind) continue;
      const oldPath = join(this.folder, FILE_NAMES[other]);
      if (!(await exists(oldPath))) continue;
      let data: IndexData;
      try {
        data = codecOf(other).deserializeIndex(await fs.readFile(oldPath));
      } catch (err) {
        const aside = `${oldPath}.corrupt-${Date.now()}`;
        await fs.rename(oldPath, aside).catch(() => undefined);
        const notice = `The semantic index was unreadable (${err instanceof Error ? err.message.slice(0, 120) : String(err)}), so it was moved aside to ${aside} and is being rebuilt.`;
        this.notices.push(notice);
        this.options.onNotice?.(notice);
        return;
      }
      const tmp = `${indexPath}.tmp-${process.pid}`;
      await fs.writeFile(tmp, codecOf(kind).serializeIndex(data));
      await fs.rename(tmp, indexPath);
      await fs.rm(oldPath, { force: true });
      return;
    }
  }
}

async function exists(path: string): Promise<boolean> {
  try {
    await fs.access(path);
    return true;
  } catch {
    return false;
  }
}
