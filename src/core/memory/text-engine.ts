/**
 * MiniSearch with a compact, shardable on-disk form. minisearch's own serialization is JSON of the
 * whole index as nested objects (one object per term and field, one key per posting); parsing that and
 * turning it back into maps took 3.3 s for 10,000 notes. Here a shard of documents is written as flat
 * number arrays (per term: for each field a count, then local-document/frequency pairs), which parse
 * many times faster. Loading keeps each term's postings as references into the stored shards (LazyFieldData, then
 * PackedPostings) until a search or an edit first touches that term, so a reload costs the parse and one small object
 * per term, not a map per posting (2 million for 10,000 notes) nor per term and field. A subclass, because the maps are minisearch's protected state
 * (documented fields of its class, pinned version).
 */
import MiniSearch, { type Options } from "minisearch";
import { TimeSlices } from "./yield";
import { prepareRank, rankTop, type RankIndex, type RankQuery } from "./text-rank";
import { ShardVocabulary, type TermMap } from "./shard-vocabulary";

/** One shard of documents as stored: everything minisearch needs to search them, nothing else. */
export interface CompactShard {
  /** Format version of the shard. */
  v: number;
  /** Field names, in field-id order: a shard written with other fields is unusable. */
  fields: string[];
  /** Document ids (note paths), by local index. */
  docs: string[];
  /** Content hash per document, same order. */
  hashes: string[];
  /** Field lengths per document, `fields.length` numbers each. */
  len: number[];
  /** Terms, in the order of `post`. */
  terms: string[];
  /** Per term, per field: count n, then n pairs (local document index, term frequency) (32-bit integers when parsed by shard-parse.ts). */
  post: number[] | Int32Array;
}

export const SHARD_VERSION = 3;

/**
 * A shard as exportShards makes it: `post` in chunks of up to POST_CHUNK numbers, which joined are CompactShard's
 * `post` (one array of 300,000 numbers and more spent tens of ms in a single copy each time it grew).
 */
export type ExportedShard = Omit<CompactShard, "post"> & { post: number[][] };
/** A shard's postings, as parsed. */
type Post = number[] | Int32Array;

const POST_CHUNK = 16 * 1024;

/** A shard's content, with hashes, when being written out. */
interface ShardBuilder extends ExportedShard {
  /** The last chunk of `post`. */
  chunk: number[];
  /** Scratch: per field, the postings of the current term. */
  scratch: number[][];
}

/**
 * A term's postings in one field (document short id -> frequency) that stay as slices of the stored
 * arrays until first used: reading or changing a loaded document's posting first unpacks them into the map
 * itself. Documents added since the load have larger short ids than any packed one: their postings live in the
 * map beside the packed ones, so an edit after a load does not unpack every common word it contains (a one-note
 * update spent 140 ms of its 300 ms unpacking).
 */
class PackedPostings extends Map<number, number> {
  /** Flat (post, start, count, base) quadruples not yet unpacked; null once unpacked. */
  private packed: (Post | number)[] | null = [];
  /** Every packed short id is below this. */
  private limit = 0;
  /** Postings still packed. */
  private packedCount = 0;

  /** Adds `count` (local document, frequency) pairs of `post` from `start`, documents offset by `base` and below `limit`. */
  addPacked(post: Post, start: number, count: number, base: number, limit: number): void {
    if (this.packed) {
      this.packed.push(post, start, count, base);
      this.limit = Math.max(this.limit, limit);
      this.packedCount += count;
    } else for (let j = 0; j < count; j++) super.set(base + post[start + 2 * j], post[start + 2 * j + 1]);
  }

  /** Calls `fn` for every posting without unpacking (saving after a reload touches every term). */
  eachPosting(fn: (shortId: number, freq: number) => void): void {
    const p = this.packed;
    if (p) {
      for (let i = 0; i < p.length; i += 4) {
        const post = p[i] as Post;
        const start = p[i + 1] as number;
        const count = p[i + 2] as number;
        const base = p[i + 3] as number;
        for (let j = 0; j < count; j++) fn(base + post[start + 2 * j], post[start + 2 * j + 1]);
      }
    }
    for (const [k, v] of super.entries()) fn(k, v);
  }

  /**
   * Adds the packed postings to the map itself (once), before the newer ones: minisearch's scores depend on the
   * order it meets postings in (a discarded document lowers the count for those after it).
   */
  unpack(): void {
    const p = this.packed;
    if (!p) return;
    this.packed = null;
    this.packedCount = 0;
    const newer = [...super.entries()];
    super.clear();
    for (let i = 0; i < p.length; i += 4) this.addPacked(p[i] as Post, p[i + 1] as number, p[i + 2] as number, p[i + 3] as number, 0);
    for (const [k, v] of newer) super.set(k, v);
  }

  /** Whether `key` cannot be among the packed postings (so the map alone answers for it). */
  private fresh(key: number): boolean {
    return this.packed !== null && key >= this.limit;
  }

  /** Postings, packed ones included, without unpacking (minisearch reads it as the term's document frequency). */
  count(): number {
    return this.packedCount + mapSize.get.call(this);
  }

  override get(key: number): number | undefined {
    if (!this.fresh(key)) this.unpack();
    return super.get(key);
  }
  override set(key: number, value: number): this {
    if (!this.fresh(key)) this.unpack();
    return super.set(key, value);
  }
  override has(key: number): boolean {
    if (!this.fresh(key)) this.unpack();
    return super.has(key);
  }
  override delete(key: number): boolean {
    if (!this.fresh(key)) this.unpack();
    return super.delete(key);
  }
  override clear(): void {
    this.packed = null;
    this.packedCount = 0;
    super.clear();
  }
  override forEach(fn: (value: number, key: number, map: Map<number, number>) => void, thisArg?: unknown): void {
    this.unpack();
    super.forEach(fn, thisArg);
  }
  override keys(): MapIterator<number> {
    this.unpack();
    return super.keys();
  }
  override values(): MapIterator<number> {
    this.unpack();
    return super.values();
  }
  override entries(): MapIterator<[number, number]> {
    this.unpack();
    return super.entries();
  }
  override [Symbol.iterator](): MapIterator<[number, number]> {
    return this.entries();
  }
}
// `size` is a data property in TypeScript's Map type but an accessor at runtime: overridden here.
const mapSize = Object.getOwnPropertyDescriptor(Map.prototype, "size") as { get: (this: Map<number, number>) => number };
Object.defineProperty(PackedPostings.prototype, "size", {
  get(this: PackedPostings): number {
    return this.count();
  },
});

/**
 * A term's field data (field id -> postings) imported into an empty index, kept as references to the stored shards
 * until first read: a one-shot search of the help vault (206,000 terms) made a map and a PackedPostings per term and
 * field, a large part of a load's CPU and garbage, for the handful of terms a query reads. Any read or change first makes the
 * per-field postings exactly as an eager import would (fields in the order the shards first name them). Not a Map
 * subclass, which would allocate a table per term: minisearch and the ranking use only Map's methods on it.
 */
class LazyFieldData implements Map<number, Map<number, number>> {
  /** The first shard's reference: its postings, where the term's field counts start, and the shard's base and limit. */
  private post: Post | null = null;
  private start = 0;
  private base = 0;
  private limit = 0;
  /** Later shards' references, as (post, start, base, limit) quadruples. */
  private more: (Post | number)[] | null = null;
  /** The per-field postings once made (no map at all until then: one less allocation per term of a load). */
  private made: Map<number, Map<number, number>> | null = null;

  constructor(private readonly fields: number) {}

  /** Adds a shard's entry for the term: `fields` counts from `start`, each followed by its pairs. */
  addShard(post: Post, start: number, base: number, limit: number): void {
    if (this.post === null) {
      this.post = post;
      this.start = start;
      this.base = base;
      this.limit = limit;
    } else (this.more ??= []).push(post, start, base, limit);
  }

  /** The per-field postings, made from the references on first use. */
  private map(): Map<number, Map<number, number>> {
    if (this.made) return this.made;
    const made = new Map<number, Map<number, number>>();
    this.made = made;
    const more = this.more;
    if (this.post !== null) this.addFrom(made, this.post, this.start, this.base, this.limit);
    if (more) for (let i = 0; i < more.length; i += 4) this.addFrom(made, more[i] as Post, more[i + 1] as number, more[i + 2] as number, more[i + 3] as number);
    this.post = null;
    this.more = null;
    return made;
  }

  private addFrom(made: Map<number, Map<number, number>>, post: Post, start: number, base: number, limit: number): void {
    let p = start;
    for (let f = 0; f < this.fields; f++) {
      const n = post[p++];
      if (n === 0) continue;
      let postings = made.get(f) as PackedPostings | undefined;
      if (!postings) {
        postings = new PackedPostings();
        made.set(f, postings);
      }
      postings.addPacked(post, p, n, base, limit);
      p += 2 * n;
    }
  }

  get size(): number {
    return this.map().size;
  }
  get [Symbol.toStringTag](): string {
    return "Map";
  }
  get(key: number): Map<number, number> | undefined {
    return this.map().get(key);
  }
  set(key: number, value: Map<number, number>): this {
    this.map().set(key, value);
    return this;
  }
  has(key: number): boolean {
    return this.map().has(key);
  }
  delete(key: number): boolean {
    return this.map().delete(key);
  }
  clear(): void {
    this.map().clear();
  }
  forEach(fn: (value: Map<number, number>, key: number, map: Map<number, Map<number, number>>) => void, thisArg?: unknown): void {
    this.map().forEach((v, k) => fn.call(thisArg, v, k, this));
  }
  keys(): MapIterator<number> {
    return this.map().keys();
  }
  values(): MapIterator<Map<number, number>> {
    return this.map().values();
  }
  entries(): MapIterator<[number, Map<number, number>]> {
    return this.map().entries();
  }
  [Symbol.iterator](): MapIterator<[number, Map<number, number>]> {
    return this.map().entries();
  }
}

/** minisearch's documents and field lengths as arrays by short id, and the maps they mirror. */
interface DenseArrays {
  documentIds: Map<number, unknown>;
  fieldLength: Map<number, number[]>;
  ids: unknown[];
  lengths: (number[] | undefined)[];
}

/**
 * A map by short id whose lookups (`get`, `has`) read an array kept equal to it (TextEngine.denseArrays) instead of
 * hashing; everything else is the map's.
 */
class ByShortId<V> implements ReadonlyMap<number, V> {
  constructor(
    private readonly map: Map<number, V>,
    private readonly dense: (V | undefined)[],
  ) {}
  get(key: number): V | undefined {
    return this.dense[key];
  }
  has(key: number): boolean {
    return this.dense[key] !== undefined;
  }
  get size(): number {
    return this.map.size;
  }
  forEach(fn: (value: V, key: number, map: ReadonlyMap<number, V>) => void, thisArg?: unknown): void {
    this.map.forEach((v, k) => fn.call(thisArg, v, k, this));
  }
  entries(): MapIterator<[number, V]> {
    return this.map.entries();
  }
  keys(): MapIterator<number> {
    return this.map.keys();
  }
  values(): MapIterator<V> {
    return this.map.values();
  }
  [Symbol.iterator](): MapIterator<[number, V]> {
    return this.map.entries();
  }
}

/** A shard imported into an empty index, as stored, until finishImport decides how its terms are looked up. */
interface StoredShard {
  terms: string[];
  /** Per term, where its field counts start in `post`. */
  offsets: Int32Array;
  post: Post;
  base: number;
  limit: number;
  /** Whether `terms` is in string order (shards written since the sorted vocabulary; older ones are not). */
  sorted: boolean;
}

export class TextEngine<T> extends MiniSearch<T> {
  private readonly fieldNames: string[];
  /** Term -> field data while shards are imported into a non-empty index: a hash lookup instead of a walk down the radix tree. */
  private importing = new Map<string, Map<number, Map<number, number>>>();
  /** Shards imported into an empty index, in order. */
  private stored: StoredShard[] = [];
  /** Whether this import started on an empty index (its terms then go to the radix tree in one build). */
  private bulk: boolean | undefined;
  /** The ranking's view of the index (rankIndex), and the state of the documents it was made for. */
  private rankView: { key: string; index: unknown; ix: RankIndex } | null = null;
  /** What the ranking's lookups read (denseArrays). */
  private dense: DenseArrays | null = null;

  constructor(options: Options<T>) {
    super(options);
    this.fieldNames = [...options.fields];
  }

  /**
   * The compact form of the documents for which `shardOf` returns a wanted shard, in one pass over the index,
   * in time slices (all 16 shards of 10,000 notes held the thread 700 ms in one block). `hashOf` supplies each
   * document's content hash. The index must not change until it resolves (the indexer's queue runs one job at a
   * time, and a vacuum in progress is waited for).
   */
  async exportShards(shardOf: (id: string) => number, wanted: Set<number>, hashOf: (id: string) => string, slices: TimeSlices = new TimeSlices()): Promise<Map<number, ExportedShard>> {
    // A vacuum still running from the last discards reshapes the radix tree between our slices: let it finish.
    while (this.isVacuuming) await new Promise((resolve) => setTimeout(resolve, 10));
    const F = this.fieldNames.length;
    const builders: ShardBuilder[] = [];
    // Per short id: which builder (index into `builders`, -1: not written) and the local index there.
    // Typed arrays, not maps: this runs once per posting, two million times for 10,000 notes.
    const slot = new Int32Array(this._nextId).fill(-1);
    const local = new Int32Array(this._nextId);
    const builderOf = new Map<number, number>();
    for (const s of wanted) {
      builderOf.set(s, builders.length);
      const chunk: number[] = [];
      builders.push({ v: SHARD_VERSION, fields: this.fieldNames, docs: [], hashes: [], len: [], terms: [], post: [chunk], chunk, scratch: Array.from({ length: F }, () => []) });
    }
    let n = 0;
    for (const [shortId, id] of this._documentIds) {
      if ((++n & 255) === 0) await slices.maybePause();
      const k = builderOf.get(shardOf(String(id)));
      if (k === undefined) continue;
      const b = builders[k];
      slot[shortId] = k;
      local[shortId] = b.docs.length;
      b.docs.push(String(id));
      b.hashes.push(hashOf(String(id)));
      const lengths = this._fieldLength.get(shortId) ?? [];
      for (let f = 0; f < F; f++) b.len.push(lengths[f] ?? 0);
    }
    /** Builders that got postings for the current term. */
    const touched: number[] = [];
    const seen = new Uint8Array(builders.length);
    let field = 0;
    const visit = (shortId: number, freq: number) => {
      // Discarded documents stay in the maps until minisearch vacuums them: they are not written.
      const k = shortId < slot.length ? slot[shortId] : -1;
      if (k < 0) return;
      builders[k].scratch[field].push(local[shortId], freq);
      if (seen[k] === 0) {
        seen[k] = 1;
        touched.push(k);
      }
    };
    // In string order, so a shard's terms are sorted and its next load searches them where they lie (ShardVocabulary).
    for (const [term, fieldData] of sortedEntries(this._index as unknown as TermMap<Map<number, Map<number, number>>>)) {
      // A clock read per term: a common word's postings take as long as hundreds of rare words'.
      if (slices.due()) await slices.pause();
      for (const [fieldId, postings] of fieldData) {
        if (fieldId >= F) continue;
        field = fieldId;
        if (postings instanceof PackedPostings) postings.eachPosting(visit);
        else for (const [shortId, freq] of postings) visit(shortId, freq);
      }
      for (const k of touched) {
        const b = builders[k];
        seen[k] = 0;
        b.terms.push(term);
        for (const list of b.scratch) {
          if (b.chunk.length + list.length >= POST_CHUNK) b.post.push((b.chunk = []));
          b.chunk.push(list.length / 2);
          for (const x of list) b.chunk.push(x);
          list.length = 0;
        }
      }
      touched.length = 0;
    }
    const out = new Map<number, ExportedShard>();
    for (const [s, k] of builderOf) {
      const b = builders[k];
      out.set(s, { v: b.v, fields: b.fields, docs: b.docs, hashes: b.hashes, len: b.len, terms: b.terms, post: b.post });
    }
    return out;
  }

  /**
   * Adds a stored shard's documents to this (otherwise unused) index, in time slices. Throws on anything
   * inconsistent: a truncated or foreign file must never become a half-loaded index. Nothing else may use this
   * index until the import and finishImport are done. Resolves whether the shard's terms are in string order (one
   * that is not should be written again: see finishImport).
   */
  async importShard(shard: CompactShard, slices: TimeSlices = new TimeSlices()): Promise<boolean> {
    const F = this.fieldNames.length;
    if (shard.v !== SHARD_VERSION || !Array.isArray(shard.fields) || shard.fields.join("\n") !== this.fieldNames.join("\n")) throw new Error("text index shard from another version");
    const { docs, len, terms, post } = shard;
    if (!Array.isArray(docs) || !Array.isArray(len) || !Array.isArray(terms) || !(Array.isArray(post) || post instanceof Int32Array) || len.length !== docs.length * F) throw new Error("text index shard is malformed");
    const base = this._nextId;
    this.dense = null;
    for (let i = 0; i < docs.length; i++) {
      const id = docs[i];
      if (typeof id !== "string" || this._idToShortId.has(id)) throw new Error("text index shard has a bad or repeated document");
      const shortId = base + i;
      this._documentIds.set(shortId, id);
      this._idToShortId.set(id, shortId);
      this._fieldLength.set(shortId, len.slice(i * F, i * F + F));
    }
    this._nextId = base + docs.length;
    this._documentCount += docs.length;
    this.bulk ??= this._documentCount === docs.length && this._index.size === 0;
    let p = 0;
    if (this.bulk) {
      // Only where each term's counts start (and that they fit): the postings wait for the first read of the term.
      const offsets = new Int32Array(terms.length);
      for (let t = 0; t < terms.length; t++) {
        if ((t & 2047) === 2047) await slices.maybePause();
        if (typeof terms[t] !== "string") throw new Error("text index shard is malformed");
        offsets[t] = p;
        for (let f = 0; f < F; f++) {
          const n = post[p++];
          if (!(n >= 0) || p + 2 * n > post.length) throw new Error("text index shard is truncated");
          p += 2 * n;
        }
      }
      if (p !== post.length) throw new Error("text index shard is malformed");
      const sorted = ShardVocabulary.sorted(terms);
      this.stored.push({ terms, offsets, post, base, limit: this._nextId, sorted });
      return sorted;
    }
    for (let t = 0; t < terms.length; t++) {
      // A 10,000-note shard has tens of thousands of terms: imported in time slices, not one block of 150 ms.
      if ((t & 511) === 511) await slices.maybePause();
      const term = terms[t];
      let fieldData = this.importing.get(term);
      if (!fieldData) {
        fieldData = this._index.get(term) ?? new Map<number, Map<number, number>>();
        this._index.set(term, fieldData);
        this.importing.set(term, fieldData);
      }
      for (let f = 0; f < F; f++) {
        const n = post[p++];
        if (!(n >= 0) || p + 2 * n > post.length) throw new Error("text index shard is truncated");
        if (n === 0) continue;
        let postings = fieldData.get(f);
        if (!postings) {
          postings = new PackedPostings();
          fieldData.set(f, postings);
        }
        // Postings are not checked one by one: an out-of-range document is one minisearch does not
        // know, which its searches already treat as a discarded document.
        if (postings instanceof PackedPostings) postings.addPacked(post, p, n, base, this._nextId);
        else for (let j = 0; j < n; j++) postings.set(base + post[p + 2 * j], post[p + 2 * j + 1]);
        p += 2 * n;
      }
    }
    if (p !== post.length) throw new Error("text index shard is malformed");
    return ShardVocabulary.sorted(terms);
  }

  /** The best `k` documents by the ranking of text-rank.ts (best first, ties by id); `keep` filters by id first. */
  /** Makes what the first query would (the dense arrays and the ranking's corpus), for queries of `fields` fields. */
  prepareRank(fields: number): void {
    prepareRank(this.rankIndex(), fields);
  }

  rank(query: RankQuery, k: number, keep?: (id: string) => boolean): { id: string; score: number; terms: string[] }[] {
    const ix = this.rankIndex();
    return rankTop(ix, query, k, (d) => String(this._documentIds.get(d)), keep);
  }

  /**
   * The index as the ranking reads it. The ranking looks up a posting's document (is it indexed, its field lengths)
   * once per posting, hundreds of thousands of times a query at 50,000 notes: here those lookups read arrays by short
   * id instead of hashing into minisearch's maps. The arrays are made again when the documents change.
   */
  private rankIndex(): RankIndex {
    const key = `${this._nextId} ${this._documentCount} ${this._dirtCount} ${this._avgFieldLength.join(" ")}`;
    const view = this.rankView;
    if (view && view.key === key && view.index === this._index && view.ix.documentCount === this._documentCount) return view.ix;
    const dense = this.denseArrays();
    const ix: RankIndex = {
      index: this._index,
      documentIds: new ByShortId(this._documentIds, dense.ids) as unknown as Map<number, unknown>,
      fieldLength: new ByShortId(this._fieldLength, dense.lengths) as unknown as Map<number, number[]>,
      avgFieldLength: this._avgFieldLength,
      documentCount: this._documentCount,
      nextId: this._nextId,
      eachPosting: (postings: Map<number, number>, fn: (shortId: number, freq: number) => void) => {
        if (postings instanceof PackedPostings) postings.eachPosting(fn);
        else for (const [d, tf] of postings) fn(d, tf);
      },
    };
    this.rankView = { key, index: this._index, ix };
    return ix;
  }

  /**
   * Documents and field lengths by short id, kept up to date as documents are added and discarded (made again after
   * anything else: a removal, an import, minisearch's maps replaced), so an edit does not copy 50,000 entries twice.
   */
  private denseArrays(): DenseArrays {
    const d = this.dense;
    if (d && d.documentIds === this._documentIds && d.fieldLength === this._fieldLength && d.ids.length === this._nextId) return d;
    const ids = Array.from<unknown>({ length: this._nextId });
    const lengths = Array.from<number[] | undefined>({ length: this._nextId });
    for (const [k, v] of this._documentIds) if (k >= 0 && k < this._nextId) ids[k] = v;
    for (const [k, v] of this._fieldLength) if (k >= 0 && k < this._nextId) lengths[k] = v;
    this.dense = { documentIds: this._documentIds, fieldLength: this._fieldLength, ids, lengths };
    return this.dense;
  }

  override add(document: T): void {
    super.add(document);
    const d = this.dense;
    if (d && d.documentIds === this._documentIds && d.ids.length === this._nextId - 1) {
      const shortId = this._nextId - 1;
      d.ids.push(this._documentIds.get(shortId));
      d.lengths.push(this._fieldLength.get(shortId));
    } else this.dense = null;
  }

  override discard(id: unknown): void {
    const shortId = this._idToShortId.get(id);
    super.discard(id);
    const d = this.dense;
    if (d && shortId !== undefined && shortId < d.ids.length) {
      d.ids[shortId] = undefined;
      d.lengths[shortId] = undefined;
    }
  }

  override remove(document: T): void {
    this.dense = null;
    super.remove(document);
  }

  /** About how many documents have this term (as analysis gives it): the most in any one field. */
  termDocs(term: string): number {
    let n = 0;
    for (const postings of this._index.get(term)?.values() ?? []) n = Math.max(n, postings.size);
    return n;
  }

  /**
   * After the last `importShard`: an import into an empty index looks its terms up where the shards hold them when
   * every shard's terms are sorted (ShardVocabulary), else puts them in minisearch's radix tree, as before; then
   * recomputes the average field lengths.
   */
  async finishImport(slices: TimeSlices = new TimeSlices()): Promise<void> {
    if (this.bulk) {
      const F = this.fieldNames.length;
      const stored = this.stored;
      const SearchableMap = this._index.constructor as new (tree?: Map<string, unknown>) => typeof this._index;
      if (stored.every((s) => s.sorted)) {
        const open = (_term: string, hits: number[]) => {
          const fieldData = new LazyFieldData(F);
          for (let k = 0; k < hits.length; k += 2) {
            const s = stored[hits[k]];
            fieldData.addShard(s.post, s.offsets[hits[k + 1]], s.base, s.limit);
          }
          return fieldData;
        };
        this._index = new ShardVocabulary(stored.map((s) => s.terms), open, new SearchableMap() as unknown as TermMap<LazyFieldData>) as unknown as typeof this._index;
      } else {
        const importing = new Map<string, LazyFieldData>();
        for (const s of stored) {
          for (let t = 0; t < s.terms.length; t++) {
            if ((t & 4095) === 4095) await slices.maybePause();
            const term = s.terms[t];
            let fieldData = importing.get(term);
            if (!fieldData) {
              fieldData = new LazyFieldData(F);
              importing.set(term, fieldData);
            }
            fieldData.addShard(s.post, s.offsets[t], s.base, s.limit);
          }
        }
        this._index = new SearchableMap(await radixTree(importing, slices));
      }
    }
    this.bulk = undefined;
    this.stored = [];
    this.importing = new Map();
    const F = this.fieldNames.length;
    const sums = new Array<number>(F).fill(0);
    for (const lengths of this._fieldLength.values()) for (let f = 0; f < F; f++) sums[f] += lengths[f] ?? 0;
    this._avgFieldLength = sums.map((s) => (this._documentCount > 0 ? s / this._documentCount : 0));
  }
}

/** A term map's entries in string order: the sorted vocabulary's own order, or a walk of minisearch's radix tree with each node's edges sorted. */
function sortedEntries<V>(index: TermMap<V>): Iterable<[string, V]> {
  if (index instanceof ShardVocabulary) return (index as ShardVocabulary<V>).entries();
  const tree = (index as unknown as { _tree?: RadixNode })._tree;
  return tree instanceof Map ? radixEntries<V>(tree, "") : index;
}

function* radixEntries<V>(node: RadixNode, prefix: string): Generator<[string, V]> {
  // Edges out of a node begin with different characters, and the term ending here ("") sorts first.
  for (const key of [...node.keys()].sort()) {
    if (key === LEAF) yield [prefix, node.get(key) as V];
    else yield* radixEntries<V>(node.get(key) as RadixNode, prefix + key);
  }
}

/** minisearch's radix tree: a node is a Map from edge labels to child nodes, with the value under the empty key (pinned version). */
type RadixNode = Map<string, unknown>;
const LEAF = "";

/**
 * The radix tree of these terms as minisearch's SearchableMap builds it by inserting them one at a time, built from
 * the sorted terms in one pass instead: one insertion scans every child of each node it passes, and the root of a
 * vault in Chinese, Japanese and Korean has thousands (the help vault's 206,000 terms took 1.9 s to insert). Terms are
 * bucketed by first character and each bucket sorted and built in turn, with a pause between when the slice is used.
 */
export async function radixTree<V>(entries: Map<string, V>, slices: TimeSlices): Promise<RadixNode> {
  const buckets = new Map<number, string[]>();
  for (const term of entries.keys()) {
    const c = term.length === 0 ? -1 : term.charCodeAt(0);
    const bucket = buckets.get(c);
    if (bucket) bucket.push(term);
    else buckets.set(c, [term]);
  }
  const root: RadixNode = new Map();
  const build = (keys: string[], lo: number, hi: number, depth: number): RadixNode => {
    const node: RadixNode = new Map();
    let i = lo;
    // Sorted, the key that ends here comes first.
    if (keys[i].length === depth) node.set(LEAF, entries.get(keys[i++]));
    while (i < hi) {
      const c = keys[i].charCodeAt(depth);
      let j = i + 1;
      while (j < hi && keys[j].charCodeAt(depth) === c) j++;
      const first = keys[i];
      const last = keys[j - 1];
      let end = depth + 1;
      const max = Math.min(first.length, last.length);
      while (end < max && first.charCodeAt(end) === last.charCodeAt(end)) end++;
      if (j - i === 1) {
        // One key: one edge to a leaf.
        const leaf: RadixNode = new Map([[LEAF, entries.get(first)]]);
        node.set(first.slice(depth), leaf);
      } else node.set(first.slice(depth, end), build(keys, i, j, end));
      i = j;
    }
    return node;
  };
  for (const [c, keys] of buckets) {
    if (c === -1) {
      root.set(LEAF, entries.get(""));
      continue;
    }
    keys.sort();
    const sub = build(keys, 0, keys.length, 0);
    for (const [edge, child] of sub) root.set(edge, child);
    await slices.maybePause();
  }
  return root;
}
