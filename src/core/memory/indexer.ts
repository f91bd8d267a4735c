/**
 * Keeps the vault's memory in step with its notes: the full-text index (always) and the vector index
 * (when an embedding model is configured). Vectors are keyed by the hash of the text they embed, and
 * the note's path is only their metadata: a build compares every note with what is stored, reuses
 * every vector whose text it already has (a note or folder moved, even while the app was closed, only
 * rewrites metadata) and embeds only text it has never seen. Afterwards vault changes are applied
 * incrementally (debounced). Work is batched, cancellable, reports progress with an ETA, and yields
 * to the event loop so the UI stays responsive. The parts: index-manifest (what is stored), build-pass (the full
 * sync), change-feed (vault changes), vector-fulfil (relabel or embed), over the shared index-state.
 */
import type { VaultChange } from "../ports/vault";
import { runBuild } from "./build-pass";
import { applyChanges, ChangeFeed } from "./change-feed";
import type { SkipCounts } from "./index-manifest";
import { IndexState, type IndexerOptions, type IndexReport } from "./index-state";
import type { TextStore } from "./text-store";
import type { SourceTexts } from "./source-text";

export { hashOfVectorId, vectorId, type SkipCounts } from "./index-manifest";
export { MAX_FILE_BYTES, type EmbedTexts, type IndexerOptions, type IndexProgress, type IndexReport } from "./index-state";
export { folderOf } from "./vector-fulfil";

export class Indexer {
  /** The full-text index, searchable while indexing runs. */
  readonly text: TextStore;
  /** How each indexed file becomes text (search reads snippets and chunks back through it). */
  readonly sources: SourceTexts;
  private readonly state: IndexState;
  /** Serialises builds and incremental updates. */
  private queue: Promise<unknown> = Promise.resolve();
  private readonly changes: ChangeFeed;
  private unsubscribe: (() => void) | null = null;

  constructor(private readonly options: IndexerOptions) {
    this.state = new IndexState(options, (job) => this.enqueue(job));
    this.text = this.state.text;
    this.sources = this.state.sources;
    this.changes = new ChangeFeed(options.debounceMs ?? 1000, () => {
      void this.flushChanges().catch((err: unknown) => this.options.onNotice?.(`Updating the memory index failed: ${String(err)}`));
    });
  }

  /** Whether semantic search is possible. */
  get semantic(): boolean {
    return this.state.semantic;
  }

  /** Loads the manifest and text index saved by an earlier run; safe to call more than once. */
  load(): Promise<void> {
    return this.state.load();
  }

  /** Full sync with the vault: embeds what changed since the last run and drops what is gone. */
  build(signal?: AbortSignal): Promise<IndexReport> {
    return this.enqueue(() => runBuild(this.state, signal));
  }

  /** Applies vault changes as they happen (debounced). Returns the unsubscribe function. */
  watch(): () => void {
    this.unsubscribe?.();
    const off = this.options.vault.onChange((change) => this.changes.add(change));
    this.unsubscribe = () => {
      off();
      this.unsubscribe = null;
    };
    return this.unsubscribe;
  }

  /** Applies pending changes now instead of after the debounce; resolves when done. */
  flushChanges(signal?: AbortSignal): Promise<IndexReport> {
    const changes = this.changes.take();
    return this.enqueue(() => applyChanges(this.state, changes, signal));
  }

  /** Applies the given vault changes now (e.g. the per-file renames of a renamed folder). */
  apply(changes: VaultChange[], signal?: AbortSignal): Promise<IndexReport> {
    return this.enqueue(() => applyChanges(this.state, changes, signal));
  }

  /** Updates one note now (after an edit the caller knows about). */
  updateNote(path: string, signal?: AbortSignal): Promise<IndexReport> {
    return this.enqueue(() => applyChanges(this.state, [{ kind: "modify", path }], signal));
  }

  /** Stops watching and writes the manifest and text index. */
  async close(): Promise<void> {
    this.unsubscribe?.();
    this.changes.stop();
    if (this.changes.size > 0) await this.flushChanges();
    await this.enqueue(async () => {
      if (this.state.dirty) await this.state.saveNow();
    });
  }

  /** Counts of files skipped by the last build or update. */
  skipCounts(): SkipCounts {
    return this.state.skipCounts();
  }

  /** Every indexed note path. */
  paths(): string[] {
    return Object.keys(this.state.manifest.notes);
  }

  /** Notes and chunks currently indexed. */
  stats(): { notes: number; chunks: number } {
    return this.state.stats();
  }

  private enqueue<T>(job: () => Promise<T>): Promise<T> {
    const run = this.queue.then(job, job);
    this.queue = run.catch(() => undefined);
    return run;
  }
}
