/**
 * Keeps the vault's memory in step with its notes: the full-text index (always) and the vector index
 * (when an embedding model is configured). Vectors are keyed by the hash of the text they embed, and
 * the note's path is only their metadata: a build compares every note with what is stored, reuses
 * every vector whose text it already has (a note or folder moved, even while the app was closed, only
 * rewrites metadata) and embeds only text it has never seen. Afterwards vault changes are applied
 * incrementally (debounced). Work is batched, cancellable, reports progress with an ETA, and yields
 * to the event loop so the UI stays responsive.
 */
import type { VaultPort, VaultChange } from "../ports/vault";
import type { RelabelItem, VectorItem, VectorStore } from "../ports/vector-store";
import type { IndexStore } from "../ports/index-store";
import { chunkNote, type Chunk, type ChunkOptions } from "./chunker";
import { contentHash } from "./content-hash";
import { LocalTextStore, type TextStore } from "./text-store";
import { yieldToLoop } from "./yield";

/** Embeds texts; the engine's `embed`. */
export type EmbedTexts = (texts: string[], signal?: AbortSignal) => Promise<number[][]>;

export interface IndexerOptions {
  vault: VaultPort;
  /** Where the manifest (and, unless `text` is given, the text index) persist. */
  indexStore: IndexStore;
  /** The full-text index; default: in this process, saved in `indexStore`. */
  text?: TextStore;
  /** The vector index; null for text-only memory (no embedding model). */
  vectors: VectorStore | null;
  /** The embedder; null for text-only memory. */
  embed: EmbedTexts | null;
  /** Identifies the embedding model; when it changes every vector is recomputed. */
  modelKey?: string;
  /** Folders never indexed (the config dir and dot-folders never are). */
  excludedFolders?: string[];
  chunk?: ChunkOptions;
  /** Chunks per embedding call (default 32). */
  batchSize?: number;
  /** Files larger than this are skipped (default 10 MB). */
  maxFileBytes?: number;
  /** Quiet time before vault changes are applied (default 1000 ms). */
  debounceMs?: number;
  onProgress?: (progress: IndexProgress) => void;
  /** Messages for the user (a rebuilt index, skipped files). */
  onNotice?: (message: string) => void;
  /** Clock for ETA (injectable in tests). */
  now?: () => number;
}

export interface IndexProgress {
  phase: "scan" | "embed" | "save";
  done: number;
  total: number;
  /** Estimated milliseconds left; null until there is enough to estimate. */
  etaMs: number | null;
}

/** Files left out, by reason. */
export interface SkipCounts {
  binary: number;
  huge: number;
  nonUtf8: number;
  excluded: number;
}

export interface IndexReport {
  notes: number;
  chunks: number;
  /** Chunks embedded in this run. */
  embedded: number;
  /** Chunk vectors deleted in this run. */
  deleted: number;
  /** Chunks that kept (or took over) a stored vector with new metadata: moves, renamed folders, duplicates. */
  relabeled: number;
  /** Notes whose text was read in this run (unchanged notes are not). */
  read: number;
  skipped: SkipCounts;
  /** Milliseconds spent waiting for embeddings. */
  embedMs: number;
  totalMs: number;
  cancelled: boolean;
}

/** Per-note record of what was indexed. */
interface NoteEntry {
  mtime: number;
  size: number;
  /** Hash of the whole text. */
  hash: string;
  /** Vector ids of its chunks, in order (see `vectorId`). */
  ids: string[];
}

interface Manifest {
  version: number;
  modelKey: string | null;
  notes: Record<string, NoteEntry>;
  skipped: Record<string, keyof SkipCounts>;
}

const MANIFEST_KEY = "memory-manifest.json";
/** Version 3: chunk ids are content hashes. Version 2 (ids from path and heading) is migrated on load. */
const MANIFEST_VERSION = 3;
/** Metadata rewrites per request to the vector index. */
const RELABEL_BATCH = 512;

/**
 * A chunk's id in the vector index: the hash of its embedded text, and "~k" for the k-th further note
 * holding exactly the same text (ids are unique; identical chunks are rare: same name, heading and text).
 */
export function vectorId(hash: string, k: number): string {
  return k === 0 ? hash : `${hash}~${k}`;
}

/** The content hash a vector id stands for. */
export function hashOfVectorId(id: string): string {
  const i = id.indexOf("~");
  return i < 0 ? id : id.slice(0, i);
}

/** What a chunk needs in the vector index: nothing, new metadata on a stored vector, or an embedding. */
interface Need {
  id: string;
  /** Take the vector of this stored item; absent: embed. */
  from?: string;
}
export const MAX_FILE_BYTES = 10 * 1024 * 1024;

export class Indexer {
  /** The full-text index, searchable while indexing runs. */
  readonly text: TextStore;
  private manifest: Manifest = emptyManifest(null);
  /** Which note holds each vector id (derived from the manifest). */
  private readonly owners = new Map<string, string>();
  private loading: Promise<void> | null = null;
  /** Serialises builds and incremental updates. */
  private queue: Promise<unknown> = Promise.resolve();
  private readonly pending = new Map<string, VaultChange>();
  private timer: ReturnType<typeof setTimeout> | null = null;
  private saveTimer: ReturnType<typeof setTimeout> | null = null;
  private unsubscribe: (() => void) | null = null;
  private readonly now: () => number;
  /** Whether the manifest or text index changed since they were last saved. */
  private dirty = false;

  constructor(private readonly options: IndexerOptions) {
    this.now = options.now ?? (() => Date.now());
    this.text = options.text ?? new LocalTextStore(options.indexStore);
  }

  /** Whether semantic search is possible. */
  get semantic(): boolean {
    return this.options.vectors !== null && this.options.embed !== null;
  }

  /** Loads the manifest and text index saved by an earlier run; safe to call more than once. */
  load(): Promise<void> {
    this.loading ??= this.loadSaved();
    return this.loading;
  }

  private async loadSaved(): Promise<void> {
    const raw = await this.options.indexStore.load(MANIFEST_KEY);
    let manifest: Manifest | null = null;
    if (raw !== null) {
      try {
        manifest = parseManifest(raw);
      } catch {
        this.options.onNotice?.("The memory index manifest was unreadable, so it is being rebuilt.");
      }
    }
    const textLoaded = await this.text.load();
    this.manifest = manifest ?? emptyManifest(this.options.modelKey ?? null);
    this.owners.clear();
    for (const [path, entry] of Object.entries(this.manifest.notes)) for (const id of entry.ids) if (!this.owners.has(id)) this.owners.set(id, path);
    // Both halves must agree; otherwise re-read the notes the text index lacks.
    if (!textLoaded) {
      const entries = Object.values(this.manifest.notes);
      // A manifest with notes means an earlier run saved a text index too: it is gone or unreadable.
      if (entries.length > 0) this.options.onNotice?.("The full-text index was missing, unreadable or from an older version, so it is being rebuilt from the notes.");
      for (const entry of entries) entry.mtime = -1;
    }
  }

  /** Full sync with the vault: embeds what changed since the last run and drops what is gone. */
  build(signal?: AbortSignal): Promise<IndexReport> {
    return this.enqueue(() => this.runBuild(signal));
  }

  /** Applies vault changes as they happen (debounced). Returns the unsubscribe function. */
  watch(): () => void {
    this.unsubscribe?.();
    const off = this.options.vault.onChange((change) => this.onChange(change));
    this.unsubscribe = () => {
      off();
      this.unsubscribe = null;
    };
    return this.unsubscribe;
  }

  /** Applies pending changes now instead of after the debounce; resolves when done. */
  flushChanges(signal?: AbortSignal): Promise<IndexReport> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const changes = [...this.pending.values()];
    this.pending.clear();
    return this.enqueue(() => this.applyChanges(changes, signal));
  }

  /** Applies the given vault changes now (e.g. the per-file renames of a renamed folder). */
  apply(changes: VaultChange[], signal?: AbortSignal): Promise<IndexReport> {
    return this.enqueue(() => this.applyChanges(changes, signal));
  }

  /** Updates one note now (after an edit the caller knows about). */
  updateNote(path: string, signal?: AbortSignal): Promise<IndexReport> {
    return this.enqueue(() => this.applyChanges([{ kind: "modify", path }], signal));
  }

  /** Stops watching and writes the manifest and text index. */
  async close(): Promise<void> {
    this.unsubscribe?.();
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (this.pending.size > 0) await this.flushChanges();
    await this.enqueue(async () => {
      if (this.dirty) await this.saveNow();
    });
  }

  /** Counts of files skipped by the last build or update. */
  skipCounts(): SkipCounts {
    const counts: SkipCounts = { binary: 0, huge: 0, nonUtf8: 0, excluded: 0 };
    for (const reason of Object.values(this.manifest.skipped)) counts[reason]++;
    return counts;
  }

  /** Every indexed note path. */
  paths(): string[] {
    return Object.keys(this.manifest.notes);
  }

  /** Notes and chunks currently indexed. */
  stats(): { notes: number; chunks: number } {
    const notes = Object.values(this.manifest.notes);
    return { notes: notes.length, chunks: notes.reduce((n, e) => n + e.ids.length, 0) };
  }

  // --- internals ---

  private enqueue<T>(job: () => Promise<T>): Promise<T> {
    const run = this.queue.then(job, job);
    this.queue = run.catch(() => undefined);
    return run;
  }

  private onChange(change: VaultChange): void {
    const key = change.path;
    if (change.kind === "rename") this.pending.set(change.oldPath, { kind: "delete", path: change.oldPath });
    this.pending.set(key, change);
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.flushChanges().catch((err: unknown) => this.options.onNotice?.(`Updating the memory index failed: ${String(err)}`));
    }, this.options.debounceMs ?? 1000);
  }

  private isCandidate(path: string): boolean {
    return path.endsWith(".md") && !path.split("/").some((s) => s.startsWith("."));
  }

  private isExcluded(path: string): boolean {
    return (this.options.excludedFolders ?? []).some((f) => {
      const folder = f.replace(/^\/+|\/+$/g, "");
      return folder !== "" && (path === folder || path.startsWith(`${folder}/`));
    });
  }

  private async runBuild(signal?: AbortSignal): Promise<IndexReport> {
    const started = this.now();
    await this.load();
    const report = emptyReport();
    const opts = this.options;
    if (this.semantic && (this.manifest.modelKey ?? null) !== (opts.modelKey ?? null)) {
      // Another embedding model: its vectors are not comparable, so all of them are recomputed.
      const ids = (await opts.vectors!.listIds()).map((x) => x.id);
      if (ids.length) await opts.vectors!.delete(ids);
      report.deleted += ids.length;
      this.manifest.modelKey = opts.modelKey ?? null;
      this.dirty = true;
    }
    const files = (await opts.vault.list()).filter((f) => this.isCandidate(f.path));
    const live = new Set<string>();
    this.manifest.skipped = {};
    /** Notes re-read in this build: their chunk ids are assigned after the unchanged notes keep theirs. */
    const reread: string[] = [];
    let done = 0;
    let sliceStart = Date.now();
    for (const f of files) {
      if (signal?.aborted) return this.finish(report, started, true);
      done++;
      if (this.isExcluded(f.path)) {
        this.manifest.skipped[f.path] = "excluded";
        continue;
      }
      if (f.size > (opts.maxFileBytes ?? MAX_FILE_BYTES)) {
        this.manifest.skipped[f.path] = "huge";
        continue;
      }
      const entry = this.manifest.notes[f.path];
      if (entry && entry.mtime === f.mtime && entry.size === f.size && this.text.hashOf(f.path) === entry.hash) {
        live.add(f.path);
      } else if (await this.readAndIndex(f.path, f.mtime, f.size, report)) {
        live.add(f.path);
        reread.push(f.path);
      }
      if (Date.now() - sliceStart > 8) {
        opts.onProgress?.({ phase: "scan", done, total: files.length, etaMs: null });
        await yieldToLoop();
        sliceStart = Date.now();
      }
    }
    // Notes that vanished since the last run.
    const gone = Object.keys(this.manifest.notes).filter((p) => !live.has(p));
    for (const p of gone) this.forget(p);
    for (const p of this.text.paths()) if (!live.has(p)) this.text.remove(p);

    // Ids: unchanged notes keep theirs; re-read ones take the first free id for each chunk's text.
    const rereadSet = new Set(reread);
    this.owners.clear();
    const conflicted: string[] = [];
    for (const [path, entry] of Object.entries(this.manifest.notes)) {
      if (rereadSet.has(path)) continue;
      if (entry.ids.some((id) => this.owners.has(id))) conflicted.push(path);
      else for (const id of entry.ids) this.owners.set(id, path);
    }
    for (const path of [...conflicted, ...reread]) this.assignIds(path, this.manifest.notes[path].ids.map(hashOfVectorId));

    if (this.semantic) {
      // What the vector index holds: an id there already has its text's vector; a hash there (under any
      // id, including ids of an older format) has a vector to copy.
      const stored = new Map((await opts.vectors!.listIds()).map((x) => [x.id, x]));
      const byHash = new Map<string, string>();
      for (const x of stored.values()) if (x.hash && !byHash.has(x.hash)) byHash.set(x.hash, x.id);
      const needs = new Map<string, Need[]>();
      let embedTotal = 0;
      for (const [path, entry] of Object.entries(this.manifest.notes)) {
        const list: Need[] = [];
        for (const id of entry.ids) {
          const hash = hashOfVectorId(id);
          const have = stored.get(id);
          if (have && have.hash === hash) {
            if (have.path !== path) list.push({ id, from: id });
            continue;
          }
          const from = byHash.get(hash);
          list.push(from === undefined ? { id } : { id, from });
          if (from === undefined) embedTotal++;
        }
        if (list.length) needs.set(path, list);
      }
      const cancelled = await this.fulfil(needs, embedTotal, report, signal);
      if (cancelled) return this.finish(report, started, true);
      // Only now, after copies are taken from them: vectors no note uses any more.
      const stale = [...stored.keys()].filter((id) => !this.owners.has(id));
      if (stale.length) {
        await opts.vectors!.delete(stale);
        report.deleted += stale.length;
      }
    }
    if (this.dirty) await this.saveNow();
    return this.finish(report, started, false);
  }

  /**
   * Gives each chunk of a note an id: its text's hash, with "~k" when another note (or an earlier chunk
   * of this one) already holds that text. Ids this note held before are kept.
   */
  private assignIds(path: string, hashes: string[]): string[] {
    const mine = new Set<string>();
    const ids = hashes.map((hash) => {
      let k = 0;
      for (;;) {
        const owner = this.owners.get(vectorId(hash, k));
        if ((owner === undefined || owner === path) && !mine.has(vectorId(hash, k))) break;
        k++;
      }
      const id = vectorId(hash, k);
      mine.add(id);
      this.owners.set(id, path);
      return id;
    });
    const entry = this.manifest.notes[path];
    if (entry) entry.ids = ids;
    this.dirty = true;
    return ids;
  }

  /** Reads a note, updates the text index and the manifest entry; null when skipped. */
  private async readAndIndex(path: string, mtime: number, size: number, report: IndexReport): Promise<Chunk[] | null> {
    let text: string;
    try {
      text = await this.options.vault.read(path);
    } catch {
      return null;
    }
    report.read++;
    if (text.includes("\u0000")) {
      this.skip(path, "binary");
      return null;
    }
    if (text.includes("\uFFFD")) {
      // The file was not valid UTF-8: decoding replaced bytes, so the text is not what the user wrote.
      this.skip(path, "nonUtf8");
      return null;
    }
    const hash = contentHash(text);
    const chunks = chunkNote(path, text, this.options.chunk);
    this.text.set(path, text, hash);
    this.dirty = true;
    this.release(path);
    // Provisional ids (the plain hashes) until assignIds runs, so an interrupted run still records the chunks.
    this.manifest.notes[path] = { mtime, size, hash, ids: chunks.map((c) => c.hash) };
    delete this.manifest.skipped[path];
    return chunks;
  }

  private skip(path: string, reason: keyof SkipCounts): void {
    this.manifest.skipped[path] = reason;
    this.forget(path);
  }

  private forget(path: string): void {
    if (this.manifest.notes[path] || this.text.hashOf(path) !== undefined) this.dirty = true;
    this.release(path);
    delete this.manifest.notes[path];
    this.text.remove(path);
  }

  /** Frees the ids a note holds. */
  private release(path: string): void {
    for (const id of this.manifest.notes[path]?.ids ?? []) if (this.owners.get(id) === path) this.owners.delete(id);
  }

  /**
   * Carries out what the notes' chunks need in the vector index: stored vectors relabeled in batches
   * (no embedding), the rest embedded in batches across notes. Notes are read again here (only ids
   * travel this far, so a 10,000-note build holds a few megabytes, not every chunk's text). True when
   * cancelled part-way.
   */
  private async fulfil(needs: Map<string, Need[]>, embedTotal: number, report: IndexReport, signal?: AbortSignal): Promise<boolean> {
    const batchSize = Math.max(1, this.options.batchSize ?? 32);
    const started = this.now();
    let total = embedTotal;
    let done = 0;
    const toEmbed: { id: string; chunk: Chunk }[] = [];
    let toRelabel: { item: RelabelItem; chunk: Chunk }[] = [];
    /** Chunks with the text of one embedded earlier in this run, and the id embedded first per text. */
    const copies: { item: RelabelItem; chunk: Chunk }[] = [];
    const firstOf = new Map<string, string>();
    const embedSome = async (n: number) => {
      const part = toEmbed.splice(0, n);
      await this.embedBatch(part, report, signal);
      done += part.length;
      this.progress(done, total, started);
    };
    const relabelAll = async () => {
      const batch = toRelabel;
      toRelabel = [];
      const missing = new Set(await this.options.vectors!.relabel(batch.map((b) => b.item)));
      for (const b of batch) {
        if (missing.has(b.item.id)) {
          toEmbed.push({ id: b.item.id, chunk: b.chunk });
          total++;
        } else report.relabeled++;
      }
    };
    for (const [path, list] of needs) {
      if (signal?.aborted) return true;
      const entry = this.manifest.notes[path];
      let text: string;
      try {
        text = await this.options.vault.read(path);
      } catch {
        continue;
      }
      // Changed since the scan: the change event (or the next build) takes care of its chunks.
      if (!entry || contentHash(text) !== entry.hash) continue;
      const chunks = chunkNote(path, text, this.options.chunk);
      if (chunks.length !== entry.ids.length) continue;
      const at = new Map(entry.ids.map((id, i) => [id, i]));
      for (const need of list) {
        const chunk = chunks[at.get(need.id) ?? -1];
        if (!chunk || chunk.hash !== hashOfVectorId(need.id)) continue;
        const first = firstOf.get(chunk.hash);
        if (need.from !== undefined) toRelabel.push({ item: { id: need.id, from: need.from, metadata: metadataOf(chunk) }, chunk });
        else if (first !== undefined) {
          // The same text as a chunk embedded in this run: its vector is copied once that one is stored.
          copies.push({ item: { id: need.id, from: first, metadata: metadataOf(chunk) }, chunk });
          total--;
        } else {
          firstOf.set(chunk.hash, need.id);
          toEmbed.push({ id: need.id, chunk });
        }
      }
      if (toRelabel.length >= RELABEL_BATCH) await relabelAll();
      while (toEmbed.length >= batchSize) {
        if (signal?.aborted) return true;
        await embedSome(batchSize);
      }
    }
    if (toRelabel.length > 0) await relabelAll();
    while (toEmbed.length > 0) {
      if (signal?.aborted) return true;
      await embedSome(Math.min(batchSize, toEmbed.length));
    }
    if (copies.length > 0) {
      toRelabel = copies;
      await relabelAll();
      while (toEmbed.length > 0) {
        if (signal?.aborted) return true;
        await embedSome(Math.min(batchSize, toEmbed.length));
      }
    }
    return false;
  }

  /** Embeds one batch and stores it. */
  private async embedBatch(batch: { id: string; chunk: Chunk }[], report: IndexReport, signal?: AbortSignal): Promise<void> {
    const t0 = this.now();
    const vectors = await this.options.embed!(batch.map((b) => b.chunk.embedText), signal);
    report.embedMs += this.now() - t0;
    const items: VectorItem[] = batch.map((b, k) => ({ id: b.id, vector: vectors[k], metadata: metadataOf(b.chunk) }));
    await this.options.vectors!.upsert(items);
    report.embedded += batch.length;
  }

  private progress(done: number, total: number, started: number): void {
    const elapsed = this.now() - started;
    this.options.onProgress?.({ phase: "embed", done, total, etaMs: done > 0 ? Math.round((elapsed / done) * Math.max(0, total - done)) : null });
  }

  private async applyChanges(changes: VaultChange[], signal?: AbortSignal): Promise<IndexReport> {
    const started = this.now();
    await this.load();
    const report = emptyReport();
    /** Ids whose vectors this batch may drop (or reuse): id -> the path that held it. */
    const freed = new Map<string, string>();
    const created: { path: string; chunks: Chunk[] }[] = [];
    const expanded = changes.flatMap((c): VaultChange[] => (c.kind === "rename" ? [{ kind: "delete", path: c.oldPath }, { kind: "create", path: c.path }] : [c]));
    for (const change of expanded) {
      const path = change.path;
      if (!this.isCandidate(path)) continue;
      for (const id of this.manifest.notes[path]?.ids ?? []) if (this.owners.get(id) === path) freed.set(id, path);
      if (change.kind === "delete") {
        this.forget(path);
        delete this.manifest.skipped[path];
        continue;
      }
      if (this.isExcluded(path)) {
        this.forget(path);
        this.manifest.skipped[path] = "excluded";
        continue;
      }
      const stat = await this.options.vault.stat(path);
      if (!stat) {
        this.forget(path);
        continue;
      }
      if (stat.size > (this.options.maxFileBytes ?? MAX_FILE_BYTES)) {
        this.skip(path, "huge");
        continue;
      }
      const chunks = await this.readAndIndex(path, stat.mtime, stat.size, report);
      if (chunks) created.push({ path, chunks });
    }
    // A path changed twice in one batch: only its last reading counts.
    const last = new Map(created.map((c) => [c.path, c]));
    const freedByHash = new Map<string, string>();
    for (const id of freed.keys()) if (!freedByHash.has(hashOfVectorId(id))) freedByHash.set(hashOfVectorId(id), id);
    const needs = new Map<string, Need[]>();
    let embedTotal = 0;
    for (const { path, chunks } of last.values()) {
      if (!this.manifest.notes[path]) continue;
      const ids = this.assignIds(path, chunks.map((c) => c.hash));
      const list: Need[] = [];
      ids.forEach((id, i) => {
        const was = freed.get(id);
        if (was !== undefined) {
          // The same text under the same id: its vector stays; metadata follows a move.
          freed.delete(id);
          if (was !== path) list.push({ id, from: id });
          return;
        }
        const from = freedByHash.get(chunks[i].hash) ?? this.storedWithHash(chunks[i].hash, id);
        list.push(from === undefined ? { id } : { id, from });
        if (from === undefined) embedTotal++;
      });
      if (list.length) needs.set(path, list);
    }
    if (this.semantic) {
      const cancelled = await this.fulfil(needs, embedTotal, report, signal);
      // After relabeling, which may copy from them: vectors no note holds any more.
      const drop = [...freed.keys()].filter((id) => !this.owners.has(id));
      if (drop.length) {
        await this.options.vectors!.delete(drop);
        report.deleted += drop.length;
      }
      if (cancelled) return this.finish(report, started, true);
    }
    this.scheduleSave();
    return this.finish(report, started, false);
  }

  /** Another id held by a live note for the same text (its vector can be copied), if any. */
  private storedWithHash(hash: string, except: string): string | undefined {
    for (let k = 0; k < 8; k++) {
      const id = vectorId(hash, k);
      if (id !== except && this.owners.has(id)) return id;
    }
    return undefined;
  }

  private scheduleSave(): void {
    if (this.saveTimer) clearTimeout(this.saveTimer);
    this.saveTimer = setTimeout(() => {
      this.saveTimer = null;
      void this.enqueue(() => this.saveNow()).catch(() => undefined);
    }, 5000);
  }

  private async saveNow(): Promise<void> {
    if (this.saveTimer) clearTimeout(this.saveTimer);
    this.saveTimer = null;
    this.dirty = false;
    this.options.onProgress?.({ phase: "save", done: 0, total: 1, etaMs: null });
    await this.options.indexStore.save(MANIFEST_KEY, await stringifyManifest(this.manifest));
    await this.text.save();
  }

  private finish(report: IndexReport, started: number, cancelled: boolean): IndexReport {
    const stats = this.stats();
    return { ...report, notes: stats.notes, chunks: stats.chunks, skipped: this.skipCounts(), totalMs: this.now() - started, cancelled };
  }
}

/**
 * On disk a note entry is `[mtime, size, hash, "<id>,<id>,..."]`: a tenth of the objects to create, so a
 * 10,000-note manifest parses in a few milliseconds instead of tens.
 */
type StoredEntry = [number, number, string, string];

/**
 * Reads a manifest. Version 2 (chunks as packed path-based ids and content hashes) is migrated: its
 * chunks become their hashes (ids are assigned again by the next build, and stored vectors found by
 * hash are relabeled, not re-embedded). Other versions: null (rebuilt).
 */
function parseManifest(raw: string): Manifest | null {
  const parsed = JSON.parse(raw) as { version?: number; modelKey?: string | null; skipped?: Manifest["skipped"]; notes?: Record<string, StoredEntry> };
  if ((parsed.version !== MANIFEST_VERSION && parsed.version !== 2) || !parsed.notes) return null;
  const notes: Record<string, NoteEntry> = {};
  for (const [path, [mtime, size, hash, packed]] of Object.entries(parsed.notes)) {
    if (typeof packed !== "string") return null;
    let ids: string[];
    if (parsed.version === 2) {
      ids = [];
      for (let i = 0; i + 32 <= packed.length; i += 32) ids.push(packed.slice(i + 16, i + 32));
    } else ids = packed === "" ? [] : packed.split(",");
    notes[path] = { mtime, size, hash, ids };
  }
  return { version: MANIFEST_VERSION, modelKey: parsed.modelKey ?? null, skipped: parsed.skipped ?? {}, notes };
}

/** JSON of the manifest, 1000 notes at a time with yields between, so a 10,000-note vault never blocks for long. */
async function stringifyManifest(manifest: Manifest): Promise<string> {
  const entries = Object.entries(manifest.notes);
  const parts: string[] = [];
  for (let i = 0; i < entries.length; i += 1000) {
    parts.push(
      entries
        .slice(i, i + 1000)
        .map(([path, e]) => `${JSON.stringify(path)}:${JSON.stringify([e.mtime, e.size, e.hash, e.ids.join(",")])}`)
        .join(","),
    );
    await yieldToLoop();
  }
  const head = JSON.stringify({ version: manifest.version, modelKey: manifest.modelKey, skipped: manifest.skipped });
  return `${head.slice(0, -1)},"notes":{${parts.join(",")}}}`;
}

function emptyManifest(modelKey: string | null): Manifest {
  return { version: MANIFEST_VERSION, modelKey, notes: {}, skipped: {} };
}

function emptyReport(): IndexReport {
  return { notes: 0, chunks: 0, embedded: 0, deleted: 0, relabeled: 0, read: 0, skipped: { binary: 0, huge: 0, nonUtf8: 0, excluded: 0 }, embedMs: 0, totalMs: 0, cancelled: false };
}

/** What the vector index keeps with a chunk: where it is now (rewritten on moves) and its text's hash. */
function metadataOf(chunk: Chunk): VectorItem["metadata"] {
  // Texts stay in the notes (MemorySearch reads them back by hash); sending them would only cost IPC.
  return { path: chunk.path, folder: folderOf(chunk.path), heading: chunk.heading, hash: chunk.hash, text: "", line: chunk.line };
}

/** The folder part of a vault path ("" at the root). */
export function folderOf(path: string): string {
  const i = path.lastIndexOf("/");
  return i >= 0 ? path.slice(0, i) : "";
}
