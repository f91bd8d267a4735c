/**
 * The memory of a folder vault, headless: FolderVault, the index files under the plugin's folder in
 * the config dir (as in Obsidian), the Indexer, and — with an embedding model — the engine host for
 * embeddings and the vectra index (or, with `store: "flat"`, the flat store and the full-text index in
 * this process, as on Obsidian mobile). Used by the `index` and `search` commands and the benchmark.
 */
import { existsSync, statSync } from "node:fs";
import { basename, join, resolve } from "node:path";
import { FolderVault } from "./folder-vault";
import { FolderIndexStore } from "../../host/vector/folder-index-store";
import { Indexer, type IndexProgress } from "../../core/memory/indexer";
import { createMemorySearch } from "../../core/memory/memory-search";
import { SourceTexts } from "../../core/memory/source-text";
import { nodePdfText } from "../pdf/node-pdf-text";
import type { MemorySearch } from "../../core/protocol/tool";
import { createNodeEngine } from "../../engine/client/node-launcher";
import type { EngineClient } from "../../engine/client/engine-client";
import { RemoteVectorStore } from "../../engine/vector/remote-store";
import { RemoteTextStore } from "../../engine/vector/remote-text-store";
import { FlatVectorStore } from "../../engine/vector/flat-store";
import type { FlatPrecision } from "../../engine/vector/flat-codec";
import type { VectorStore } from "../../core/ports/vector-store";
import { FolderVectorFiles } from "./folder-vector-files";
import { LocalTextStore } from "../../core/memory/text-store";
import { startNodeSearchWorker, type NodeSearchWorker } from "../search-worker/node-search-worker";

/** A vector store the caller can open and flush: the host's vectra index or the flat store. */
export interface OpenableVectorStore extends VectorStore {
  open(): Promise<{ items: number; dimension?: number; notices: string[] }>;
  flush(): Promise<void>;
}

export interface FolderMemoryOptions {
  /** The vault folder. */
  vault: string;
  /** Embedding model (GGUF); absent: full-text memory only (unless `embed` is given). */
  embedModel?: string;
  /** An embedder to use instead of a model (benchmarks of everything but embedding); vectors still live in the engine host. */
  embed?: { texts: (texts: string[], signal?: AbortSignal) => Promise<number[][]>; modelKey: string };
  /** Where the index lives; default `<vault>/<configDir>/plugins/vault-agent/index`. */
  indexDir?: string;
  excludedFolders?: string[];
  /** CPU threads for the embedding model (default: the host's choice). */
  threads?: number;
  /** Chunks per embedding request (default 32). */
  batchSize?: number;
  /**
   * Where vectors live: "host" (default: vectra in the engine host, the full-text index there too),
   * "flat" (the flat store and the full-text index in this process), or "worker" (both in the search worker, in a
   * worker thread: as the plugin keeps them where there is no engine host).
   */
  store?: "host" | "flat" | "worker";
  /** The flat store's file precision (default float32). */
  precision?: FlatPrecision;
  onProgress?: (progress: IndexProgress) => void;
  onNotice?: (message: string) => void;
}

export interface FolderMemory {
  vault: FolderVault;
  indexer: Indexer;
  search: MemorySearch;
  /** Null without an embedding model. */
  vectors: OpenableVectorStore | null;
  engine: EngineClient | null;
  /** The search worker with `store: "worker"`. */
  searchWorker: NodeSearchWorker | null;
  indexDir: string;
  close(): Promise<void>;
}

/** The default index folder inside a vault, where the plugin keeps it too. */
export function defaultIndexDir(vaultRoot: string, configDir = ".obsidian"): string {
  return join(vaultRoot, configDir, "plugins", "vault-agent", "index");
}

export async function openFolderMemory(options: FolderMemoryOptions): Promise<FolderMemory> {
  const root = resolve(options.vault);
  if (!existsSync(root) || !statSync(root).isDirectory()) throw new Error(`The vault folder ${root} does not exist; pass an existing folder with --vault.`);
  if (options.embedModel && !existsSync(options.embedModel)) throw new Error(`The embedding model ${options.embedModel} does not exist; pass a .gguf file with --embed-model.`);
  const vault = new FolderVault(root, { watch: false });
  const indexDir = resolve(options.indexDir ?? defaultIndexDir(root, vault.configDir));
  let engine: EngineClient | null = null;
  let vectors: OpenableVectorStore | null = null;
  let embed: ((texts: string[], signal?: AbortSignal) => Promise<number[][]>) | null = null;
  let modelKey: string | undefined;
  const flat = options.store === "flat" || options.store === "worker";
  const searchWorker = options.store === "worker" ? await startNodeSearchWorker({ onNotice: options.onNotice }) : null;
  if (options.embedModel) {
    const path = resolve(options.embedModel);
    engine = createNodeEngine({ model: { path, threads: options.threads, contextSize: 2048 } });
    const client = engine;
    vectors = new RemoteVectorStore(client, { folder: join(indexDir, "vectors"), onNotice: options.onNotice });
    embed = (texts, signal) => client.embed(texts, { signal });
    modelKey = `${basename(path)}:${statSync(path).size}`;
  } else if (options.embed) {
    if (!flat) engine = createNodeEngine({});
    if (engine) vectors = new RemoteVectorStore(engine, { folder: join(indexDir, "vectors"), onNotice: options.onNotice });
    embed = options.embed.texts;
    modelKey = options.embed.modelKey;
  }
  if (flat && embed) vectors = new FlatVectorStore(new FolderVectorFiles(join(indexDir, "vectors")), { precision: options.precision, onNotice: options.onNotice });
  if (searchWorker && embed) vectors = new RemoteVectorStore(searchWorker.client, { folder: join(indexDir, "vectors"), precision: options.precision });
  const indexStore = new FolderIndexStore(indexDir);
  const indexer = new Indexer({
    vault,
    // Notes, canvases and PDFs (pdf.js from pdfjs-dist, page by page).
    sources: new SourceTexts(vault, nodePdfText()),
    indexStore,
    // With a host running anyway, the full-text index lives there too (its memory and GC pauses with it).
    text: searchWorker ? new RemoteTextStore(searchWorker.client, indexDir) : engine && !flat ? new RemoteTextStore(engine, indexDir) : new LocalTextStore(indexStore),
    vectors,
    embed,
    modelKey,
    excludedFolders: options.excludedFolders,
    batchSize: options.batchSize,
    onProgress: options.onProgress,
    onNotice: options.onNotice,
  });
  const search = createMemorySearch({ indexer, vault, vectors, embed });
  return {
    vault,
    indexer,
    search,
    vectors,
    engine,
    searchWorker,
    indexDir,
    async close() {
      await indexer.close();
      if (vectors) await vectors.flush().catch(() => undefined);
      vault.close();
      await searchWorker?.close();
      await engine?.shutdown();
    },
  };
}
