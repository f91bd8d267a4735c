/**
 * What the indexer's passes share: its options, the manifest and who holds each vector id, the full-text index,
 * and the steps every pass takes on one note (read and index it, skip it, forget it, give its chunks ids) and on
 * the whole (save, report).
 */
import type { VaultPort } from "../ports/vault";
import type { VectorStore } from "../ports/vector-store";
import type { IndexStore } from "../ports/index-store";
import type { Chunk, ChunkOptions } from "./chunker";
import { chunkSource } from "./chunk-source";
import { isPdf, pageLink, pagesOf, SourceTexts } from "./source-text";
import { contentHash } from "./content-hash";
import { emptyManifest, MANIFEST_KEY, parseManifest, stringifyManifest, vectorId, type Manifest, type SkipCounts } from "./index-manifest";
import type { TextStore } from "./text-store";
import { TimeSlices } from "./yield";

/** Embeds texts; the engine's `embed`. */
export type EmbedTexts = (texts: string[], signal?: AbortSignal) => Promise<number[][]>;

export interface IndexerOptions {
  vault: VaultPort;
  /** Where the manifest persists. */
  indexStore: IndexStore;
  /**
   * The full-text index: in this process (LocalTextStore over an IndexStore: headless, tests), or served by the engine
   * host or the search worker (RemoteTextStore), so that main.js carries no copy of the index code.
   */
  text: TextStore;
  /** The vector index; null for text-only memory (no embedding model). */
  vectors: VectorStore | null;
  /** The embedder; null for text-only memory. */
  embed: EmbedTexts | null;
  /** Identifies the embedding model; when it changes every vector is recomputed. */
  modelKey?: string;
  /** How files become text (notes, canvases, and PDFs when it can read them); default: notes and canvases. */
  sources?: SourceTexts;
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

/** What a chunk needs in the vector index: nothing, new metadata on a stored vector, or an embedding. */
export interface Need {
  id: string;
  /** Take the vector of this stored item; absent: embed. */
  from?: string;
}

export const MAX_FILE_BYTES = 10 * 1024 * 1024;

export class IndexState {
  /** The full-text index, searchable while indexing runs. */
  readonly text: TextStore;
  /** How each indexed file becomes text. */
  readonly sources: SourceTexts;
  manifest: Manifest = emptyManifest(null);
  /** Which note holds each vector id (derived from the manifest). */
  readonly owners = new Map<string, string>();
  /** Whether the manifest or text index changed since they were last saved. */
  dirty = false;
  readonly now: () => number;
  private saveTimer: ReturnType<typeof setTimeout> | null = null;
  /**
   * Running counts for stats(): counting the manifest at every finished change read 50,000 entries and held the main
   * thread 30–45 ms after each edit.
   */
  private counted: { manifest: Manifest; notes: number; chunks: number } | null = null;
  private loading: Promise<void> | null = null;

  constructor(
    readonly options: IndexerOptions,
    /** Runs a job in the indexer's queue (a scheduled save waits for the pass in progress). */
    private readonly enqueue: (job: () => Promise<void>) => Promise<void>,
  ) {
    this.now = options.now ?? (() => Date.now());
    this.text = options.text;
    this.sources = options.sources ?? new SourceTexts(options.vault);
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
    const slices = new TimeSlices();
    const raw = await this.options.indexStore.load(MANIFEST_KEY);
    let manifest: Manifest | null = null;
    if (raw !== null) {
      try {
        manifest = await parseManifest(raw, slices);
      } catch {
        this.options.onNotice?.("The memory index manifest was unreadable, so it is being rebuilt.");
      }
    }
    const textLoaded = await this.text.load();
    this.manifest = manifest ?? emptyManifest(this.options.modelKey ?? null);
    this.owners.clear();
    let n = 0;
    let chunks = 0;
    for (const [path, entry] of Object.entries(this.manifest.notes)) {
      // 33,000 ids for 10,000 notes: in slices, like the rest of the load.
      if ((++n & 127) === 0) await slices.maybePause();
      for (const id of entry.ids) if (!this.owners.has(id)) this.owners.set(id, path);
      chunks += entry.ids.length;
    }
    this.counted = { manifest: this.manifest, notes: n, chunks };
    // Both halves must agree; otherwise re-read the notes the text index lacks.
    if (!textLoaded) {
      const entries = Object.values(this.manifest.notes);
      // A manifest with notes means an earlier run saved a text index too: it is gone or unreadable.
      if (entries.length > 0) this.options.onNotice?.("The full-text index was missing, unreadable or from an older version, so it is being rebuilt from the notes.");
      for (const entry of entries) entry.mtime = -1;
    }
  }

  isCandidate(path: string): boolean {
    return this.sources.indexes(path) && !path.split("/").some((s) => s.startsWith("."));
  }

  isExcluded(path: string): boolean {
    return (this.options.excludedFolders ?? []).some((f) => {
      const folder = f.replace(/^\/+|\/+$/g, "");
      return folder !== "" && (path === folder || path.startsWith(`${folder}/`));
    });
  }

  /** Whether a file of this size is over the limit. */
  isHuge(size: number): boolean {
    return size > (this.options.maxFileBytes ?? MAX_FILE_BYTES);
  }

  /**
   * Gives each chunk of a note an id: its text's hash, with "~k" when another note (or an earlier chunk
   * of this one) already holds that text. Ids this note held before are kept.
   */
  assignIds(path: string, hashes: string[]): string[] {
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
    if (entry) {
      if (this.counted) this.counted.chunks += ids.length - entry.ids.length;
      entry.ids = ids;
    }
    this.dirty = true;
    return ids;
  }

  /** Reads a note, updates the text index and the manifest entry; null when skipped. */
  async readAndIndex(path: string, mtime: number, size: number, report: IndexReport): Promise<Chunk[] | null> {
    let text: string;
    try {
      text = await this.sources.text(path);
    } catch (err) {
      // A PDF pdf.js cannot open (damaged, protected by a password) is left out until it changes; a note that is gone, simply left.
      if (isPdf(path) && (err as { name?: string } | null)?.name === "PdfError") {
        this.skip(path, "binary");
        this.noteSkipped(path, mtime, size);
      }
      return null;
    }
    report.read++;
    if (!isPdf(path) && text.includes("\u0000")) {
      this.skip(path, "binary");
      this.noteSkipped(path, mtime, size);
      return null;
    }
    if (!isPdf(path) && text.includes("\uFFFD")) {
      // The file was not valid UTF-8: decoding replaced bytes, so the text is not what the user wrote.
      this.skip(path, "nonUtf8");
      this.noteSkipped(path, mtime, size);
      return null;
    }
    const hash = contentHash(text);
    const chunks = chunkSource(path, text, this.options.chunk);
    if (isPdf(path)) await this.setPages(path, text, hash);
    else this.text.set(path, text, hash);
    this.dirty = true;
    this.release(path);
    // Provisional ids (the plain hashes) until assignIds runs, so an interrupted run still records the chunks.
    this.count(this.manifest.notes[path], -1);
    this.manifest.notes[path] = { mtime, size, hash, ids: chunks.map((c) => c.hash) };
    this.count(this.manifest.notes[path], 1);
    delete this.manifest.skipped[path];
    delete this.manifest.skippedAt?.[path];
    return chunks;
  }

  /**
   * A PDF in the text index: the file itself (its name, with the file's hash) and each page a document of its own
   * (`file.pdf#page=3`), so a hit names its page; pages set in time slices, so a 300-page PDF never blocks for long.
   */
  private async setPages(path: string, text: string, hash: string): Promise<void> {
    this.text.set(path, "", hash);
    const pages = pagesOf(text);
    const slices = new TimeSlices();
    for (let i = 0; i < pages.length; i++) {
      await slices.maybePause();
      this.text.set(pageLink(path, i + 1), pages[i], hash);
    }
    this.removePages(path, pages.length + 1);
  }

  /** Removes a PDF's page documents from page `from` on (1: all of them). */
  private removePages(path: string, from: number): void {
    const prefix = `${path}#page=`;
    for (const id of this.text.paths()) if (id.startsWith(prefix) && Number(id.slice(prefix.length)) >= from) this.text.remove(id);
  }

  /** Records the size and time of a file skipped for its content, so the next build need not read it. */
  private noteSkipped(path: string, mtime: number, size: number): void {
    (this.manifest.skippedAt ??= {})[path] = `${mtime}:${size}`;
    this.dirty = true;
  }

  skip(path: string, reason: keyof SkipCounts): void {
    this.manifest.skipped[path] = reason;
    this.forget(path);
  }

  forget(path: string): void {
    if (this.manifest.notes[path] || this.text.hashOf(path) !== undefined) this.dirty = true;
    this.release(path);
    this.count(this.manifest.notes[path], -1);
    delete this.manifest.notes[path];
    this.text.remove(path);
    if (isPdf(path)) this.removePages(path, 1);
  }

  /** Frees the ids a note holds. */
  release(path: string): void {
    for (const id of this.manifest.notes[path]?.ids ?? []) if (this.owners.get(id) === path) this.owners.delete(id);
  }

  /** Another id held by a live note for the same text (its vector can be copied), if any. */
  storedWithHash(hash: string, except: string): string | undefined {
    for (let k = 0; k < 8; k++) {
      const id = vectorId(hash, k);
      if (id !== except && this.owners.has(id)) return id;
    }
    return undefined;
  }

  /** Saves a few seconds after the last change, so a burst of edits writes once. */
  scheduleSave(): void {
    if (this.saveTimer) clearTimeout(this.saveTimer);
    this.saveTimer = setTimeout(() => {
      this.saveTimer = null;
      void this.enqueue(() => this.saveNow()).catch(() => undefined);
    }, 5000);
  }

  async saveNow(): Promise<void> {
    if (this.saveTimer) clearTimeout(this.saveTimer);
    this.saveTimer = null;
    this.dirty = false;
    this.options.onProgress?.({ phase: "save", done: 0, total: 1, etaMs: null });
    await this.options.indexStore.save(MANIFEST_KEY, await stringifyManifest(this.manifest));
    await this.text.save();
  }

  skipCounts(): SkipCounts {
    const counts: SkipCounts = { binary: 0, huge: 0, nonUtf8: 0, excluded: 0 };
    for (const reason of Object.values(this.manifest.skipped)) counts[reason]++;
    return counts;
  }

  /** Notes and chunks in the manifest: counted once after a load, then kept as entries come and go. */
  stats(): { notes: number; chunks: number } {
    if (!this.counted || this.counted.manifest !== this.manifest) {
      const notes = Object.values(this.manifest.notes);
      this.counted = { manifest: this.manifest, notes: notes.length, chunks: notes.reduce((n, e) => n + e.ids.length, 0) };
    }
    return { notes: this.counted.notes, chunks: this.counted.chunks };
  }

  /** An entry added to (`sign` 1) or taken from (-1) the manifest's notes, in the running counts. */
  private count(entry: { ids: string[] } | undefined, sign: 1 | -1): void {
    if (!entry || !this.counted) return;
    this.counted.notes += sign;
    this.counted.chunks += sign * entry.ids.length;
  }

  finish(report: IndexReport, started: number, cancelled: boolean): IndexReport {
    const stats = this.stats();
    return { ...report, notes: stats.notes, chunks: stats.chunks, skipped: this.skipCounts(), totalMs: this.now() - started, cancelled };
  }
}

export function emptyReport(): IndexReport {
  return { notes: 0, chunks: 0, embedded: 0, deleted: 0, relabeled: 0, read: 0, skipped: { binary: 0, huge: 0, nonUtf8: 0, excluded: 0 }, embedMs: 0, totalMs: 0, cancelled: false };
}
