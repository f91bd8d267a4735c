/** A temp copy of examples/vault plus an index folder, wired into an Indexer with real vectra and minisearch on disk. */
import { cp, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { FolderVault } from "../../../src/node/folder-vault/folder-vault";
import { FolderIndexStore } from "../../../src/host/vector/folder-index-store";
import { VectraStore } from "../../../src/host/vector/vectra-store";
import { Indexer, type IndexerOptions, type IndexProgress } from "../../../src/core/memory/indexer";
import { WordEmbedder } from "./word-embedder";
import { LocalTextStore } from "../../../src/core/memory/text-store";

export const exampleVault = fileURLToPath(new URL("../../../examples/vault", import.meta.url));

export interface MemoryFixture {
  root: string;
  indexDir: string;
  vault: FolderVault;
  embedder: WordEmbedder;
  /** Opens a fresh Indexer (as after a restart) over the same folders. */
  open(extra?: Partial<IndexerOptions>): { indexer: Indexer; store: VectraStore; progress: IndexProgress[]; notices: string[] };
  cleanup(): Promise<void>;
}

export async function makeMemoryFixture(): Promise<MemoryFixture> {
  const root = await mkdtemp(join(tmpdir(), "memory-vault-"));
  await cp(exampleVault, root, { recursive: true });
  const indexDir = join(root, ".obsidian", "plugins", "vault-agent", "index");
  const vault = new FolderVault(root, { debounceMs: 30 });
  const embedder = new WordEmbedder();
  const opened: { indexer: Indexer; store: VectraStore }[] = [];
  return {
    root,
    indexDir,
    vault,
    embedder,
    open(extra = {}) {
      const progress: IndexProgress[] = [];
      const notices: string[] = [];
      const store = new VectraStore(join(indexDir, "vectors"), { onNotice: (n) => notices.push(n), flushDelayMs: 50 });
      const indexer = new Indexer({
        vault,
        indexStore: new FolderIndexStore(indexDir),
        text: new LocalTextStore(new FolderIndexStore(indexDir)),
        vectors: store,
        embed: embedder.embed,
        modelKey: "word-embedder-64",
        batchSize: 8,
        debounceMs: 50,
        onProgress: (p) => progress.push(p),
        onNotice: (n) => notices.push(n),
        ...extra,
      });
      opened.push({ indexer, store });
      return { indexer, store, progress, notices };
    },
    async cleanup() {
      for (const o of opened) {
        await o.indexer.close().catch(() => undefined);
        await o.store.close().catch(() => undefined);
      }
      vault.close();
      await rm(root, { recursive: true, force: true });
    },
  };
}
