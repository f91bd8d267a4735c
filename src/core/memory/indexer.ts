/**
 * Keeps the vault's memory in step with its notes: the full-text index (always) and the vector index
 * (when an embedding model is configured). A build compares every note with what is stored and embeds
 * only chunks whose content hash changed; afterwards vault changes are applied incrementally
 * (debounced). Work is batched, cancellable, reports progress with an ETA, and yields to the event
 * loop so the UI stays responsive.
 */
import type { VaultPort, VaultChange } from "../ports/vault";
import type { VectorItem, VectorStore } from "../ports/vector-store";
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
  chunks: { id: string; hash: string }[];
}

interface Manifest {
  version: number;
  modelKey: string | null;
  notes: Record<string, NoteEntry>;
  skipped: Record<string, keyof SkipCounts>;
}

const MANIFEST_KEY = "memory-manifest.json";
const MANIFEST_VERSION = 2;
export const MAX_FILE_BYTES = 10 * 1024 * 1024;

export class Indexer {
  /** The full-text index, searchable while indexing runs. */
  readonly text: TextStore;
  private manifest: Manifest = emptyManifest(null);
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
    // Both halves must agree; otherwise re-read the notes the text index lacks.
    if (!textLoaded) {
      const entries = Object.values(this.manifest.notes);
      // A manifest with notes means an earlier run saved a text index too: it is gone or unreadable.
      if (entries.length > 0) this.options.onNotice?.("The full-text index was missing or unreadable, so it is being rebuilt from the notes.");
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
    return { notes: notes.length, chunks: notes.reduce((n, e) => n + e.chunks.length, 0) };
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
    // What the vector index holds now: chunks whose id and hash match are never embedded again.
    const stored = this.semantic ? new Map((await opts.vectors!.listIds()).map((x) => [x.id, x.hash])) : new Map<string, string>();
    const live = new Set<string>();
    this.manifest.skipped = {};
    // Only ids travel to the embed phase (texts are read again there), so a 10,000-note build holds
    // a few megabytes, not every chunk's text.
    const pending = new Map<string, Set<string>>();
    let pendingCount = 0;
    const want = (path: string, ids: string[]) => {
      if (!this.semantic || ids.length === 0) return;
      const set = pending.get(path) ?? new Set<string>();
      for (const id of ids) if (!set.has(id)) set.add(id);
      pending.set(path, set);
      pendingCount += ids.length;
    };
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
        // Unchanged note; its vectors may still be missing (a rebuilt or fresh vector index).
        want(f.path, entry.chunks.filter((c) => stored.get(c.id) !== c.hash).map((c) => c.id));
      } else {
        const chunks = await this.readAndIndex(f.path, f.mtime, f.size, report);
        if (chunks) {
          live.add(f.path);
          want(f.path, chunks.filter((c) => stored.get(c.id) !== c.hash).map((c) => c.id));
        }
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

    if (this.semantic) {
      const wanted = new Set<string>();
      for (const e of Object.values(this.manifest.notes)) for (const c of e.chunks) wanted.add(c.id);
      const stale = [...stored.keys()].filter((id) => !wanted.has(id));
      if (stale.length) {
        await opts.vectors!.delete(stale);
        report.deleted += stale.length;
      }
      const cancelled = await this.embedPending(pending, pendingCount, report, signal);
      if (cancelled) return this.finish(report, started, true);
    }
    if (this.dirty) await this.saveNow();
    return this.finish(report, started, false);
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
    this.manifest.notes[path] = { mtime, size, hash, chunks: chunks.map((c) => ({ id: c.id, hash: c.hash })) };
    delete this.manifest.skipped[path];
    return chunks;
  }

  private skip(path: string, reason: keyof SkipCounts): void {
    this.manifest.skipped[path] = reason;
    this.forget(path);
  }

  private forget(path: string): void {
    if (this.manifest.notes[path] || this.text.hashOf(path) !== undefined) this.dirty = true;
    delete this.manifest.notes[path];
    this.text.remove(path);
  }

  /** Embeds one batch and stores it. */
  private async embedBatch(batch: Chunk[], report: IndexReport, signal?: AbortSignal): Promise<void> {
    const opts = this.options;
    const t0 = this.now();
    const vectors = await opts.embed!(batch.map((c) => c.embedText), signal);
    report.embedMs += this.now() - t0;
    const items: VectorItem[] = batch.map((c, k) => ({
      id: c.id,
      vector: vectors[k],
      // Texts stay in the notes (MemorySearch reads them back by id); sending them would only cost IPC.
      metadata: { path: c.path, folder: folderOf(c.path), heading: c.heading, hash: c.hash, text: "", line: c.line },
    }));
    await opts.vectors!.upsert(items);
    report.embedded += batch.length;
  }

  private progress(done: number, total: number, started: number): void {
    const elapsed = this.now() - started;
    this.options.onProgress?.({ phase: "embed", done, total, etaMs: done > 0 ? Math.round((elapsed / done) * Math.max(0, total - done)) : null });
  }

  /** Embeds the given chunks in batches; true when cancelled part-way. */
  private async embedAndStore(chunks: Chunk[], report: IndexReport, signal?: AbortSignal): Promise<boolean> {
    const batchSize = Math.max(1, this.options.batchSize ?? 32);
    const started = this.now();
    for (let i = 0; i < chunks.length; i += batchSize) {
      if (signal?.aborted) return true;
      await this.embedBatch(chunks.slice(i, i + batchSize), report, signal);
      this.progress(Math.min(chunks.length, i + batchSize), chunks.length, started);
    }
    return false;
  }

  /** Reads each note again and embeds the chunks whose ids were marked, in batches across notes; true when cancelled. */
  private async embedPending(pending: Map<string, Set<string>>, total: number, report: IndexReport, signal?: AbortSignal): Promise<boolean> {
    const batchSize = Math.max(1, this.options.batchSize ?? 32);
    const started = this.now();
    const batch: Chunk[] = [];
    let done = 0;
    const flush = async (n: number) => {
      const part = batch.splice(0, n);
      await this.embedBatch(part, report, signal);
      done += part.length;
      this.progress(done, total, started);
    };
    for (const [path, ids] of pending) {
      if (signal?.aborted) return true;
      const entry = this.manifest.notes[path];
      let text: string;
      try {
        text = await this.options.vault.read(path);
      } catch {
        continue;
      }
      // Changed since the scan: the change event (or the next build) embeds its new chunks.
      if (!entry || contentHash(text) !== entry.hash) continue;
      for (const c of chunkNote(path, text, this.options.chunk)) if (ids.has(c.id)) batch.push(c);
      while (batch.length >= batchSize) {
        if (signal?.aborted) return true;
        await flush(batchSize);
      }
    }
    if (batch.length > 0) {
      if (signal?.aborted) return true;
      await flush(batch.length);
    }
    return false;
  }

  private async applyChanges(changes: VaultChange[], signal?: AbortSignal): Promise<IndexReport> {
    const started = this.now();
    await this.load();
    const report = emptyReport();
    const toEmbed: Chunk[] = [];
    const toDelete: string[] = [];
    const expanded = changes.flatMap((c): VaultChange[] => (c.kind === "rename" ? [{ kind: "delete", path: c.oldPath }, { kind: "create", path: c.path }] : [c]));
    for (const change of expanded) {
      const path = change.path;
      if (!this.isCandidate(path)) continue;
      const before = this.manifest.notes[path]?.chunks ?? [];
      if (change.kind === "delete") {
        toDelete.push(...before.map((c) => c.id));
        this.forget(path);
        delete this.manifest.skipped[path];
        continue;
      }
      if (this.isExcluded(path)) {
        toDelete.push(...before.map((c) => c.id));
        this.forget(path);
        this.manifest.skipped[path] = "excluded";
        continue;
      }
      const stat = await this.options.vault.stat(path);
      if (!stat) {
        toDelete.push(...before.map((c) => c.id));
        this.forget(path);
        continue;
      }
      if (stat.size > (this.options.maxFileBytes ?? MAX_FILE_BYTES)) {
        toDelete.push(...before.map((c) => c.id));
        this.skip(path, "huge");
        continue;
      }
      const chunks = await this.readAndIndex(path, stat.mtime, stat.size, report);
      if (!chunks) {
        toDelete.push(...before.map((c) => c.id));
        continue;
      }
      const old = new Map(before.map((c) => [c.id, c.hash]));
      const ids = new Set(chunks.map((c) => c.id));
      toDelete.push(...before.filter((c) => !ids.has(c.id)).map((c) => c.id));
      toEmbed.push(...chunks.filter((c) => old.get(c.id) !== c.hash));
    }
    if (this.semantic) {
      if (toDelete.length) {
        await this.options.vectors!.delete(toDelete);
        report.deleted += toDelete.length;
      }
      const cancelled = await this.embedAndStore(toEmbed, report, signal);
      if (cancelled) return this.finish(report, started, true);
    }
    this.scheduleSave();
    return this.finish(report, started, false);
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
 * On disk a note entry is `[mtime, size, hash, "<id><hash>..."]` (chunk ids and hashes are 16 hex digits
 * each, packed in one string): a tenth of the objects to create, so a 10,000-note manifest parses in a
 * few milliseconds instead of tens.
 */
type StoredEntry = [number, number, string, string];

function parseManifest(raw: string): Manifest | null {
  const parsed = JSON.parse(raw) as { version?: number; modelKey?: string | null; skipped?: Manifest["skipped"]; notes?: Record<string, StoredEntry> };
  if (parsed.version !== MANIFEST_VERSION || !parsed.notes) return null;
  const notes: Record<string, NoteEntry> = {};
  for (const [path, [mtime, size, hash, packed]] of Object.entries(parsed.notes)) {
    const chunks: NoteEntry["chunks"] = [];
    for (let i = 0; i + 32 <= packed.length; i += 32) chunks.push({ id: packed.slice(i, i + 16), hash: packed.slice(i + 16, i + 32) });
    notes[path] = { mtime, size, hash, chunks };
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
        .map(([path, e]) => `${JSON.stringify(path)}:${JSON.stringify([e.mtime, e.size, e.hash, e.chunks.map((c) => c.id + c.hash).join("")])}`)
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
  return { notes: 0, chunks: 0, embedded: 0, deleted: 0, read: 0, skipped: { binary: 0, huge: 0, nonUtf8: 0, excluded: 0 }, embedMs: 0, totalMs: 0, cancelled: false };
}

/** The folder part of a vault path ("" at the root). */
export function folderOf(path: string): string {
  const i = path.lastIndexOf("/");
  return i >= 0 ? path.slice(0, i) : "";
}
