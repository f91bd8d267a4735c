/**
 * The plugin's memory: the core Indexer over ObsidianVault with its manifest and full-text index stored in the
 * index folder inside the vault. Indexing runs only when the user asks (Index vault / Rebuild index), then keeps
 * up with edits; its progress goes to the status bar. Search is text-only until an embedding model is wired in.
 */
import { normalizePath } from "obsidian";
import { Indexer } from "../../core/memory/indexer";
import { createMemorySearch } from "../../core/memory/memory-search";
import type { IndexStore } from "../../core/ports/index-store";
import type { VaultPort } from "../../core/ports/vault";
import type { MemorySearch } from "../../core/protocol/tool";
import type { FolderAdapter } from "../chat/conversation-store";
import type { VaultAgentSettings } from "../settings/settings";

export interface MemoryServiceDeps {
  vault: VaultPort;
  adapter: FolderAdapter;
  settings: () => VaultAgentSettings;
  progress: (job: string, done: number, total?: number) => void;
  notice: (message: string) => void;
  /** Unused until semantic search is wired; kept so the engine is handed over in one place. */
  engine?: unknown;
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
  private running: Promise<void> | null = null;
  private stopWatching: (() => void) | null = null;

  constructor(private readonly deps: MemoryServiceDeps) {}

  /** Search over the index once it has been built; undefined before. */
  search(): MemorySearch | undefined {
    return this.indexer ? createMemorySearch({ indexer: this.indexer, vault: this.deps.vault }) : undefined;
  }

  /** Builds (or with `rebuild`, rebuilds from scratch) the index. A second call while one runs waits for it. */
  index(rebuild: boolean): Promise<void> {
    if (this.running) {
      this.deps.notice("Indexing is already running; its progress is in the status bar.");
      return this.running;
    }
    this.running = this.run(rebuild).finally(() => (this.running = null));
    return this.running;
  }

  private async run(rebuild: boolean): Promise<void> {
    const settings = this.deps.settings();
    const store = new AdapterIndexStore(this.deps.adapter, () => this.deps.settings().indexFolder);
    if (rebuild || !this.indexer) {
      this.stopWatching?.();
      if (this.indexer) await this.indexer.close();
      if (rebuild) for (const key of ["memory-manifest.json", "text-index.json"]) await store.remove(key);
      this.indexer = new Indexer({
        vault: this.deps.vault,
        indexStore: store,
        vectors: null,
        embed: null,
        excludedFolders: [...settings.excludedFolders, settings.indexFolder],
        onProgress: (p) => this.deps.progress(p.phase === "save" ? "saving index" : "indexing", p.done, p.total),
        onNotice: (message) => this.deps.notice(message),
      });
      await this.indexer.load();
    }
    try {
      const report = await this.indexer.build();
      this.stopWatching = this.indexer.watch();
      this.deps.progress("indexing", 1, 1);
      this.deps.notice(`Indexed ${report.notes} notes (${report.chunks} passages) in ${(report.totalMs / 1000).toFixed(1)} s.`);
    } catch (error) {
      this.deps.progress("indexing", 1, 1);
      this.deps.notice(`Indexing failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  async close(): Promise<void> {
    this.stopWatching?.();
    await this.indexer?.close();
  }
}
