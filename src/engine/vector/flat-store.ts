/**
 * The semantic index without Node: the vectors in Float32Array blocks of 1,024 (unit length, so a score is a dot
 * product; the index grows by a block and never copies what it holds), metadata beside it, a brute-force scan per
 * query — at 33,000 passages of 384 numbers a scan is a few milliseconds, and there is nothing to install. The same
 * VectorStore contract as the vectra store in the engine host (test/contract/vector-store-contract.ts); used where
 * there is no host (Obsidian mobile, a server engine without the runtime). Persisted through VectorFiles in the flat
 * codec, written behind (after a quiet period or on flush); chunk texts are not stored (hits carry `text: ""`, the
 * notes hold them). An unreadable file is moved aside with a notice and the index starts empty.
 */
import type { RelabelItem, VectorHit, VectorItem, VectorStore } from "../../core/ports/vector-store";
import { BLOCK_VECTORS, decodeFlatIndex, encodeFlatIndex, vectorAt, type FlatIndexData, type FlatMetadata, type FlatPrecision } from "./flat-codec";
import { matchesFilter } from "./metadata-filter";
import { FloatRows, type VectorRows } from "./vector-rows";
import { Int8Rows } from "./int8-rows";
import type { VectorFiles } from "./vector-files";

/** The file name in the index folder (vectra's is index.vec; the two can sit side by side). */
export const FLAT_FILE = "index.flat";
/**
 * The change file beside it: the items changed and the ids deleted since FLAT_FILE was written whole, in the same
 * codec (its header names the whole file's generation, and lists the deleted ids). A save writes only this while the
 * changes are fewer than an eighth of the index (a folder rename relabels a few thousand items: a few MB instead of
 * the whole 91 MB at 50,000 notes), else the whole file again; a load applies it when its base is the file's generation.
 */
export const FLAT_CHANGES_FILE = "index.flat.changes";
/** The change file is written instead of the whole file while it holds at most this share of the items (or MIN_CHANGES). */
const CHANGES_SHARE = 1 / 8;
const MIN_CHANGES = 1024;

export interface FlatVectorStoreOptions {
  /** How vectors are written to the file: "float32" (default) or "int8" with a scale per vector (a quarter of the size). */
  precision?: FlatPrecision;
  /** Quiet time before changes are written (default 2000 ms); `flush()` writes at once. */
  flushDelayMs?: number;
  /** Scan int8 rows with the WebAssembly SIMD kernel where the platform has it (default true; false: JavaScript only). */
  simd?: boolean;
  /** Lets the UI run between slices of a load or save (default: a zero-delay timer). */
  pause?: () => Promise<void>;
  /** Told when the index had to be rebuilt. */
  onNotice?: (message: string) => void;
  /** For the name of a file moved aside (default Date.now). */
  now?: () => number;
}

export class FlatVectorStore implements VectorStore {
  private dim = 0;
  private ids: string[] = [];
  private metadata: FlatMetadata[] = [];
  /** The vectors: float32, or bytes and a scale per row for the int8 precision (a quarter of the memory). */
  private rows: VectorRows = new FloatRows(0);
  private slots = new Map<string, number>();
  /** The save reading the index between its slices: changes wait for it, so the file is one consistent state. */
  private encoding: Promise<unknown> | null = null;
  private opening: Promise<void> | null = null;
  private notices: string[] = [];
  private bytes = 0;
  private dirty = false;
  /** The generation of the whole file on disk (null: none yet, or one written before generations). */
  private generation: string | null = null;
  /** Ids upserted or relabeled, and ids deleted, since the whole file was written (what the change file holds). */
  private changedIds = new Set<string>();
  private deletedIds = new Set<string>();
  /** Bytes of the whole file and of the change file on disk. */
  private wholeBytes = 0;
  private changesBytes = 0;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private saving: Promise<void> = Promise.resolve();
  private readonly pause: () => Promise<void>;

  constructor(
    private readonly files: VectorFiles,
    private readonly options: FlatVectorStoreOptions = {},
  ) {
    this.pause = options.pause ?? (() => new Promise((resolve) => setTimeout(resolve, 0)));
  }

  /** Loads the file (or starts empty); returns and clears the notices raised while opening. */
  async open(): Promise<{ items: number; dimension?: number; notices: string[] }> {
    await this.ready();
    const notices = this.notices;
    this.notices = [];
    return { items: this.ids.length, dimension: this.ids.length > 0 ? this.dim : undefined, notices };
  }

  async upsert(items: VectorItem[]): Promise<void> {
    if (items.length === 0) return;
    await this.ready();
    await this.unlocked();
    for (const item of items) {
      if (!Array.isArray(item.vector) || item.vector.length === 0 || item.vector.some((x) => typeof x !== "number" || !Number.isFinite(x))) {
        throw new Error(`Chunk "${item.id}" has no usable vector; the embedding model returned invalid numbers.`);
      }
    }
    const dims = new Set(items.map((i) => i.vector.length));
    const dim = this.ids.length > 0 ? this.dim : items[0].vector.length;
    if (dims.size > 1 || !dims.has(dim)) {
      throw new Error(`The embedding has ${[...dims].join(" or ")} numbers per vector but the index holds ${dim}; the embedding model changed, so rebuild the index.`);
    }
    // An emptied index may take another dimension: rows sized for the old one are dropped.
    if (dim !== this.dim || this.rows.dim !== dim) {
      this.rows = this.newRows(dim);
      // The change file must have the whole file's dimension: the next save writes the whole file.
      if (dim !== this.dim) this.generation = null;
    }
    this.dim = dim;
    for (const item of items) this.put(item.id, item.vector, null, item.metadata);
    this.changed();
  }

  async relabel(items: RelabelItem[]): Promise<string[]> {
    if (items.length === 0) return [];
    await this.ready();
    await this.unlocked();
    // Sources are copied first: an item may take the vector of one this same call rewrites.
    const sources = new Map<string, Float32Array>();
    for (const item of items) {
      const from = item.from ?? item.id;
      const slot = this.slots.get(from);
      if (slot !== undefined && !sources.has(from)) sources.set(from, this.rows.get(slot));
    }
    const missing: string[] = [];
    for (const item of items) {
      const vector = sources.get(item.from ?? item.id);
      if (vector) this.put(item.id, null, vector, item.metadata);
      else missing.push(item.id);
    }
    if (missing.length < items.length) this.changed();
    return missing;
  }

  async delete(ids: string[]): Promise<void> {
    if (ids.length === 0) return;
    await this.ready();
    await this.unlocked();
    let removed = 0;
    for (const id of ids) if (this.remove(id)) removed++;
    if (removed > 0) this.changed();
  }

  async query(vector: number[], topK: number, filter?: Record<string, unknown>): Promise<VectorHit[]> {
    await this.ready();
    const count = this.ids.length;
    if (count === 0) return [];
    if (vector.length !== this.dim) {
      throw new Error(`The query has ${vector.length} numbers per vector but the index holds ${this.dim}; the embedding model changed, so rebuild the index.`);
    }
    const q = unit(vector);
    const k = Math.max(1, Math.floor(topK));
    const best = this.rows.scan(q, count, k, filter ? (slot) => matchesFilter(this.metadata[slot], filter) : undefined);
    return best.map(({ slot, score }): VectorHit => {
      const m = this.metadata[slot];
      return { id: this.ids[slot], score, metadata: { ...m, path: String(m.path ?? ""), heading: String(m.heading ?? ""), hash: String(m.hash ?? ""), text: "" } };
    });
  }

  async stats(): Promise<{ items: number; bytes: number; dimension?: number }> {
    await this.ready();
    return { items: this.ids.length, bytes: this.bytes, dimension: this.ids.length > 0 ? this.dim : undefined };
  }

  async listIds(): Promise<{ id: string; hash: string; path: string }[]> {
    await this.ready();
    return this.ids.map((id, slot) => ({ id, hash: String(this.metadata[slot].hash ?? ""), path: String(this.metadata[slot].path ?? "") }));
  }

  /** Writes pending changes now. */
  async flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    // A failed earlier save must not stop this one: its changes are still marked dirty.
    if (this.dirty) this.saving = this.saving.catch(() => undefined).then(() => this.save());
    await this.saving;
  }

  /** Flushes and forgets the in-memory index (the next call loads it again). */
  async close(): Promise<void> {
    if (this.opening) await this.opening.catch(() => undefined);
    await this.flush();
    this.opening = null;
    this.reset();
  }

  // --- internals ---

  /** Removes an item: the last one moves into its slot (deletes stay O(dim), the vectors stay dense). */
  private remove(id: string): boolean {
    const slot = this.slots.get(id);
    if (slot === undefined) return false;
    const last = this.ids.length - 1;
    if (slot !== last) {
      this.rows.move(last, slot);
      this.ids[slot] = this.ids[last];
      this.metadata[slot] = this.metadata[last];
      this.slots.set(this.ids[slot], slot);
    }
    this.ids.pop();
    this.metadata.pop();
    this.slots.delete(id);
    this.changedIds.delete(id);
    this.deletedIds.add(id);
    return true;
  }

  private put(id: string, raw: number[] | null, normalized: Float32Array | null, metadata: VectorItem["metadata"]): void {
    const { text: _text, ...kept } = metadata;
    this.changedIds.add(id);
    this.deletedIds.delete(id);
    let slot = this.slots.get(id);
    if (slot === undefined) {
      // Slots are dense: a new one is in the last block or starts the next.
      slot = this.ids.length;
      this.ids.push(id);
      this.metadata.push(kept);
      this.slots.set(id, slot);
    } else {
      this.metadata[slot] = kept;
    }
    this.rows.set(slot, normalized ?? unit(raw!));
  }

  private newRows(dim: number): VectorRows {
    return this.options.precision === "int8" ? new Int8Rows(dim, this.options.simd ?? true) : new FloatRows(dim);
  }

  /** Waits while a save reads the index. */
  private async unlocked(): Promise<void> {
    while (this.encoding) await this.encoding.catch(() => undefined);
  }

  private changed(): void {
    this.dirty = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.flush().catch((err: unknown) => this.notify(`The semantic index could not be saved (${err instanceof Error ? err.message : String(err)}); it is kept in memory and saved again on the next change.`));
    }, this.options.flushDelayMs ?? 2000);
  }

  private async save(): Promise<void> {
    if (!this.dirty) return;
    this.dirty = false;
    const changes = this.changedIds.size + this.deletedIds.size;
    if (this.generation !== null && changes <= Math.max(MIN_CHANGES, this.ids.length * CHANGES_SHARE)) return this.saveChanges(this.generation);
    // The whole file: the changes so far are in it (changes made while it is written are kept for the next save).
    const generation = `${(this.options.now ?? Date.now)().toString(36)}-${Math.random().toString(36).slice(2, 10)}`;
    const changed = this.changedIds;
    const deleted = this.deletedIds;
    this.changedIds = new Set();
    this.deletedIds = new Set();
    try {
      const rows = this.rows;
      // The live index, read between slices (no copy of it): upsert, relabel and delete wait until it is encoded.
      const bytes = await this.encode({ dim: this.dim, ids: this.ids, metadata: this.metadata, ...rowsData(rows) }, { generation });
      await this.files.write(FLAT_FILE, bytes);
      this.generation = generation;
      this.wholeBytes = bytes.length;
      // A change file of the previous generation is never applied again: emptied, not to take room.
      if (this.changesBytes > 0) {
        await this.files.write(FLAT_CHANGES_FILE, new Uint8Array(0));
        this.changesBytes = 0;
      }
      this.bytes = this.wholeBytes;
    } catch (err) {
      // Not written: these changes are still to be saved.
      for (const id of changed) if (!this.deletedIds.has(id)) this.changedIds.add(id);
      for (const id of deleted) if (!this.changedIds.has(id)) this.deletedIds.add(id);
      this.dirty = true;
      throw err;
    }
  }

  /** Writes the change file: every item changed since the whole file of `generation`, and the ids deleted. */
  private async saveChanges(generation: string): Promise<void> {
    try {
      const slots = [...this.changedIds].map((id) => this.slots.get(id)!);
      const data = { dim: this.dim, ids: slots.map((k) => this.ids[k]), metadata: slots.map((k) => this.metadata[k]), ...rowsData(this.rows.subset(slots)) };
      const bytes = await this.encode(data, { base: generation, deleted: [...this.deletedIds] });
      await this.files.write(FLAT_CHANGES_FILE, bytes);
      this.changesBytes = bytes.length;
      this.bytes = this.wholeBytes + this.changesBytes;
    } catch (err) {
      this.dirty = true;
      throw err;
    }
  }

  /** Encodes, holding changes back until it is done. */
  private async encode(data: FlatIndexData, header: Record<string, unknown>): Promise<Uint8Array> {
    const encoding = encodeFlatIndex(data, this.options.precision ?? "float32", this.pause, header);
    this.encoding = encoding;
    try {
      return await encoding;
    } finally {
      this.encoding = null;
    }
  }

  private ready(): Promise<void> {
    if (!this.opening) {
      this.opening = this.load();
      this.opening.catch(() => (this.opening = null));
    }
    return this.opening;
  }

  private async load(): Promise<void> {
    this.reset();
    const bytes = await this.files.read(FLAT_FILE);
    if (!bytes) return;
    let data: Awaited<ReturnType<typeof decodeFlatIndex>>;
    try {
      data = await decodeFlatIndex(bytes, this.pause, this.options.precision === "int8");
    } catch (err) {
      const aside = `${FLAT_FILE}.corrupt-${(this.options.now ?? Date.now)()}`;
      await this.files.rename(FLAT_FILE, aside).catch(() => undefined);
      this.notify(`The semantic index was unreadable (${err instanceof Error ? err.message.slice(0, 120) : String(err)}), so it was moved aside to ${aside} and is being rebuilt.`, true);
      return;
    }
    this.dim = data.dim;
    this.ids = data.ids;
    this.metadata = data.metadata;
    this.rows = await this.rowsOf(data);
    this.bytes = this.wholeBytes = bytes.length;
    this.generation = typeof data.header.generation === "string" ? data.header.generation : null;
    // 33,000 ids took one block of 30 ms: mapped in slices too.
    for (let slot = 0; slot < data.ids.length; slot++) {
      if ((slot & 4095) === 4095) await this.pause();
      this.slots.set(data.ids[slot], slot);
    }
    await this.loadChanges();
  }

  /**
   * Applies the change file when it was written over this whole file (else it is of an older one, or none: ignored).
   * An unreadable change file loses only its changes, which the next build finds and makes again.
   */
  private async loadChanges(): Promise<void> {
    const bytes = await this.files.read(FLAT_CHANGES_FILE).catch(() => null);
    if (!bytes || bytes.length === 0) return;
    this.changesBytes = bytes.length;
    let data: Awaited<ReturnType<typeof decodeFlatIndex>>;
    try {
      data = await decodeFlatIndex(bytes, this.pause);
    } catch {
      return;
    }
    const deleted = data.header.deleted;
    if (this.generation === null || data.header.base !== this.generation || !Array.isArray(deleted) || (data.ids.length > 0 && data.dim !== this.dim)) return;
    this.bytes = this.wholeBytes + this.changesBytes;
    for (const id of deleted) if (typeof id === "string") this.remove(id);
    if (data.ids.length > 0 && this.rows.dim !== this.dim) this.rows = this.newRows(this.dim);
    data.ids.forEach((id, k) => this.put(id, null, vectorAt(data.blocks, data.dim, k), data.metadata[k] as VectorItem["metadata"]));
  }

  /** The decoded file's vectors as this store holds them (an int8 file into int8 rows: its bytes copied, a block per slice). */
  private async rowsOf(data: Awaited<ReturnType<typeof decodeFlatIndex>>): Promise<VectorRows> {
    if (this.options.precision !== "int8") return new FloatRows(data.dim, data.blocks);
    const rows = new Int8Rows(data.dim, this.options.simd ?? true);
    const count = data.ids.length;
    for (let k = 0; k < count; k += BLOCK_VECTORS) {
      await this.pause();
      const n = Math.min(count, k + BLOCK_VECTORS) - k;
      if (data.int8Body) rows.addRows(k, data.int8Body.bytes.subarray(k * data.dim, (k + n) * data.dim), n);
      else for (let i = k; i < k + n; i++) rows.set(i, data.blocks[Math.floor(i / BLOCK_VECTORS)].subarray((i % BLOCK_VECTORS) * data.dim, (i % BLOCK_VECTORS + 1) * data.dim));
    }
    return rows;
  }

  private reset(): void {
    this.dim = 0;
    this.ids = [];
    this.metadata = [];
    this.rows = new FloatRows(0);
    this.slots = new Map();
    this.bytes = 0;
    this.generation = null;
    this.changedIds = new Set();
    this.deletedIds = new Set();
    this.wholeBytes = 0;
    this.changesBytes = 0;
  }

  private notify(message: string, keep = false): void {
    if (keep) this.notices.push(message);
    this.options.onNotice?.(message);
  }
}

/** Rows as the codec writes them. */
function rowsData(rows: VectorRows): Pick<FlatIndexData, "blocks" | "int8"> {
  return rows instanceof Int8Rows ? { int8: rows, blocks: [] } : { blocks: (rows as FloatRows).blocks };
}

/** The vector scaled to length 1 (a zero vector stays zero: it scores 0 against everything). */
function unit(vector: ArrayLike<number>): Float32Array {
  let sum = 0;
  for (let i = 0; i < vector.length; i++) sum += vector[i] * vector[i];
  const inv = sum > 0 ? 1 / Math.sqrt(sum) : 0;
  const out = new Float32Array(vector.length);
  for (let i = 0; i < vector.length; i++) out[i] = vector[i] * inv;
  return out;
}
