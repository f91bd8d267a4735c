/**
 * The plugin's memory: the core Indexer over ObsidianVault, its manifest and full-text index stored through
 * Obsidian's adapter in the index folder (by default the plugin's folder, where the CLI looks too), and — when a
 * model is ready — embeddings from the engine with the vectra index living in the engine host. Indexing runs when
 * the user asks (Index vault / Rebuild index), then keeps up with edits; progress goes to the status bar.
 */
import { normalizePath } from "obsidian";
import { Indexer } from "../../core/memory/indexer";
import { createMemorySearch } from "../../core/memory/memory-search";
import type { IndexStore } from "../../core/ports/index-store";
import type { VaultPort } from "../../core/ports/vault";
import type { VectorStore } from "../../core/ports/vector-store";
import type { MemorySearch } from "../../core/protocol/tool";
import { RemoteVectorStore, type EngineRequester } from "../../engine/vector/remote-store";
import { RemoteTextStore } from "../../engine/vector/remote-text-store";
import type { SearchWorkerClient } from "../../engine/search-worker/worker-client";
import type { FlatPrecision } from "../../engine/vector/flat-codec";
import type { FolderAdapter } from "../chat/conversation-store";
import type { ChargingGate } from "./charging-gate";
import type { VaultAgentSettings } from "../settings/settings";
import type { PdfTextPort } from "../../core/ports/pdf";
import { SourceTexts } from "../../core/memory/source-text";

/** A vector index the service can flush when it closes. */
type FlushableVectorStore = VectorStore & { flush(): Promise<void> };

/**
 * What semantic memory needs: an embedder, and either the host for the vectra index with where it lives on disk,
 * or (no host: mobile) a vector store in this process.
 */
export interface SemanticSetup {
  embed: (texts: string[], signal?: AbortSignal) => Promise<number[][]>;
  host?: EngineRequester;
  /** Absolute folder for the vectra index (with `host`). */
  vectorFolder?: string;
  /** Instead of the host's index: the flat store in the search worker, its vault-relative folder and file precision. */
  flat?: { folder: string; precision: FlatPrecision };
  /** Identifies the embedding model; a different one re-embeds everything. */
  modelKey: string;
}

/** Where the full-text index can live outside Obsidian's renderer: the engine host, and the index folder on disk. */
export interface TextHostSetup {
  host: EngineRequester;
  /** Absolute path of the index folder (the same folder the in-process index would use). */
  folder: string;
}

export interface MemoryServiceDeps {
  vault: VaultPort;
  adapter: FolderAdapter;
  settings: () => VaultAgentSettings;
  /** Vault-relative index folder used when the setting is empty (the plugin's folder + "/index"). */
  defaultIndexFolder: string;
  /**
   * The engine host for the full-text index when the runtime is installed, else null: minisearch over a 10k-note
   * vault is ~335 MB of heap with GC pauses over 100 ms, too much for the renderer; without a host it stays here.
   */
  textHost?: () => Promise<TextHostSetup | null>;
  /** Semantic memory when a model is ready, else null (text search only). */
  semantic: () => Promise<SemanticSetup | null>;
  progress: (job: string, done: number, total?: number) => void;
  notice: (message: string) => void;
  /** Waits for power when "Index only while charging" is on. Default: none (indexing never waits). */
  charging?: ChargingGate;
  /**
   * Starts the search worker, where the indexes live when the engine host does not hold them: the full-text index, and
   * on mobile the flat vector index (null: none here; they stay on the main thread). Default: none.
   */
  searchWorker?: () => Promise<SearchWorkerClient | null> | SearchWorkerClient | null;
  /** Reads PDFs (Obsidian's pdf.js): PDFs are indexed page by page. Default: none (notes and canvases only). */
  pdf?: PdfTextPort;
}

/** An IndexStore over Obsidian's DataAdapter, one file per key in a vault folder. */
export class AdapterIndexStore implements IndexStore {
  constructor(
    private readonly adapter: FolderAdapter,
    private readonly folder: () => string,
  ) {}
  private file(key: string): string {
    return normalizePath(`${this.folder()}/${key}`);
  }
  async load(key: string): Promise<string | null> {
    return (await this.adapter.exists(this.file(key))) ? this.adapter.read(this.file(key)) : null;
  }
  async save(key: string, text: string): Promise<void> {
    const folder = normalizePath(this.folder());
    if (!(await this.adapter.exists(folder))) await this.adapter.mkdir(folder);
    await this.adapter.write(this.file(key), text);
  }
  async remove(key: string): Promise<void> {
    if (await this.adapter.exists(this.file(key))) await this.adapter.remove(this.file(key));
  }
}

export class MemoryService {
  private indexer: Indexer | null = null;
  private searchFn: MemorySearch | undefined;
  private vectors: FlushableVectorStore | null = null;
  private running: Promise<void> | null = null;
  private stopWatching: (() => void) | null = null;
  /** Where the current index keeps its full-text half. */
  private textWhere: "host" | "worker" = "worker";
  /** The search worker once started (undefined: not tried yet; null: none). */
  private worker: SearchWorkerClient | null | undefined;

  constructor(private readonly deps: MemoryServiceDeps) {}

  /** The vault-relative folder holding the index files. */
  indexFolder(): string {
    return normalizePath(this.deps.settings().indexFolder || this.deps.defaultIndexFolder);
  }

  /** Search over the index once it has been built; undefined before. */
  search(): MemorySearch | undefined {
    return this.searchFn;
  }

  /** One sentence on the index for the settings tab. */
  describe(): string {
    if (this.running) return this.deps.charging?.pending ? "Waiting for the device to charge before indexing." : "Indexing now.";
    if (!this.indexer) return "Not indexed yet; run Index vault from the command palette.";
    const { notes, chunks } = this.indexer.stats();
    return `${notes} notes, ${chunks} passages, ${this.semantic ? "semantic and full-text search" : "full-text search only"}.`;
  }

  /** Whether the full-text index lives in the engine host (false: in this process). */
  get textInHost(): boolean {
    return this.indexer !== null && this.textWhere === "host";
  }

  /** Whether the full-text index lives in the search worker. */
  get textInWorker(): boolean {
    return this.indexer !== null && this.textWhere === "worker";
  }

  /** Whether the last build included embeddings. */
  get semantic(): boolean {
    return this.indexer?.semantic ?? false;
  }

  /** Builds (or with `rebuild`, rebuilds from scratch) the index. A second call while one runs waits for it. */
  /** Indexes these notes now (kept memories) when the vault has an index; without one there is nothing to add them to. */
  async updateNotes(paths: string[]): Promise<void> {
    const indexer = this.indexer;
    if (!indexer) return;
    for (const path of paths) await indexer.updateNote(path);
  }

  index(rebuild: boolean): Promise<void> {
    if (this.running) {
      this.deps.notice(this.deps.charging?.pending ? "Indexing is waiting for the device to charge." : "Indexing is already running; its progress is in the status bar.");
      return this.running;
    }
    this.running = this.start(rebuild).finally(() => (this.running = null));
    return this.running;
  }

  /** Runs a build, first waiting for power when the setting asks (an unload while waiting runs nothing). */
  private async start(rebuild: boolean): Promise<void> {
    const gate = this.deps.charging;
    if (gate && this.deps.settings().indexOnlyWhileCharging && !(await gate.whenCharging(this.deps.notice))) return;
    await this.run(rebuild);
  }

  private async run(rebuild: boolean): Promise<void> {
    const settings = this.deps.settings();
    const folder = this.indexFolder();
    const store = new AdapterIndexStore(this.deps.adapter, () => folder);
    try {
      this.stopWatching?.();
      if (this.indexer) await this.indexer.close();
      const textHost = (await this.deps.textHost?.().catch(() => null)) ?? null;
      if (rebuild) {
        // The host or the worker holds the index in memory and would write it back: drop it there before deleting the files.
        if (textHost) await textHost.host.request("text.close", { folder: textHost.folder }).catch(() => undefined);
        if (this.worker) await this.worker.request("text.close", { folder }).catch(() => undefined);
        for (const key of ["memory-manifest.json", "text-index.json"]) await store.remove(key);
      }
      let text = textHost ? await this.openRemoteText({ host: textHost.host, folder: textHost.folder }) : undefined;
      this.textWhere = "host";
      const worker = text ? null : await this.searchWorker();
      if (!text && worker) {
        text = await this.openRemoteText({ host: worker, folder });
        if (text) this.textWhere = "worker";
      }
      // main.js carries no index code of its own: its search runs in the host or the worker, never on Obsidian's UI thread.
      if (!text) throw new Error("memory search needs the engine host or a Web Worker, and neither could start here");
      const semantic = await this.deps.semantic().catch(() => null);
      const vectors = semantic ? this.vectorStoreFor(semantic) : null;
      this.vectors = vectors;
      const embed = semantic?.embed ?? null;
      this.indexer = new Indexer({
        vault: this.deps.vault,
        sources: new SourceTexts(this.deps.vault, this.deps.pdf ?? null),
        indexStore: store,
        text,
        vectors,
        embed,
        modelKey: semantic?.modelKey,
        excludedFolders: [...settings.excludedFolders, folder],
        onProgress: (p) => this.deps.progress(p.phase === "save" ? "saving index" : p.phase === "embed" ? "embedding" : "indexing", p.done, p.total),
        onNotice: (message) => this.deps.notice(message),
      });
      await this.indexer.load();
      const report = await this.indexer.build();
      // The build's vectors are written now, not after the store's quiet time (half a minute in the search worker).
      await vectors?.flush();
      this.searchFn = createMemorySearch({ indexer: this.indexer, vault: this.deps.vault, vectors, embed });
      this.stopWatching = this.indexer.watch();
      const kind = semantic ? "semantic and full-text" : "full-text only; choose a model for semantic search";
      this.deps.notice(`Indexed ${report.notes} notes (${report.chunks} passages, ${kind}) in ${(report.totalMs / 1000).toFixed(1)} s.`);
    } catch (error) {
      this.deps.notice(`Indexing failed: ${error instanceof Error ? error.message : String(error)}`);
    } finally {
      this.deps.progress("indexing", 1, 1);
    }
  }

  private vectorStoreFor(semantic: SemanticSetup): FlushableVectorStore | null {
    // The flat index lives in the search worker (its notices come from the worker); without one, text search only.
    if (semantic.flat) return this.worker ? new RemoteVectorStore(this.worker, { folder: semantic.flat.folder, precision: semantic.flat.precision }) : null;
    if (!semantic.host || !semantic.vectorFolder) return null;
    return new RemoteVectorStore(semantic.host, { folder: semantic.vectorFolder, onNotice: this.deps.notice });
  }

  /** The search worker, started on first use (null where there is none). */
  private async searchWorker(): Promise<SearchWorkerClient | null> {
    if (this.worker === undefined) this.worker = (await Promise.resolve(this.deps.searchWorker?.()).catch(() => null)) ?? null;
    return this.worker;
  }

  /** The text index of the host or the worker, or undefined (the in-process fallback) when it cannot open it. */
  private async openRemoteText(setup: TextHostSetup): Promise<RemoteTextStore | undefined> {
    const text = new RemoteTextStore(setup.host, setup.folder);
    try {
      await text.load();
      return text;
    } catch {
      // The host could not start (no model chosen yet, say): search still works, from an index in this process.
      return undefined;
    }
  }

  async close(): Promise<void> {
    this.deps.charging?.cancel();
    this.stopWatching?.();
    await this.indexer?.close();
    await this.vectors?.flush().catch(() => undefined);
    this.worker?.close();
    this.worker = undefined;
  }
}
