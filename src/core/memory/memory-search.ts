/**
 * MemorySearch over the indexer: full-text search through minisearch (always), semantic search
 * through the vector index when an embedding model is configured (null otherwise, so the tools and
 * the router can say so).
 */
import type { MemorySearch } from "../protocol/tool";
import type { VaultPort } from "../ports/vault";
import type { VectorStore } from "../ports/vector-store";
import type { EmbedTexts, Indexer } from "./indexer";
import { folderOf } from "./indexer";
import { snippetFor } from "./snippet";

export interface MemorySearchDeps {
  indexer: Indexer;
  vault: VaultPort;
  /** Absent or null: text search only. */
  vectors?: VectorStore | null;
  embed?: EmbedTexts | null;
}

export function createMemorySearch(deps: MemorySearchDeps): MemorySearch {
  const { indexer, vault } = deps;
  const vectors = deps.vectors ?? null;
  const embed = deps.embed ?? null;
  const textSearch: MemorySearch["textSearch"] = async (query, limit) => {
    const hits = indexer.text.search(query, limit);
    const out: { path: string; score: number; snippet: string }[] = [];
    for (const h of hits) {
      let snippet = "";
      try {
        snippet = snippetFor(await vault.read(h.path), [...h.terms, ...query.split(/\s+/)]);
      } catch {
        // Deleted since it was indexed: the next update drops it.
        continue;
      }
      out.push({ path: h.path, score: h.score, snippet });
    }
    return out;
  };
  if (!vectors || !embed) return { textSearch, semanticSearch: null };
  const semanticSearch: NonNullable<MemorySearch["semanticSearch"]> = async (query, limit, filter) => {
    const [vector] = await embed([query]);
    let where: Record<string, unknown> | undefined;
    if (filter?.pathPrefix) {
      const prefix = filter.pathPrefix.replace(/\/+$/, "");
      const folders = [...new Set(indexer.paths().map(folderOf))].filter((f) => f === prefix || f.startsWith(`${prefix}/`));
      if (folders.length === 0) return [];
      where = { folder: { $in: folders } };
    }
    const hits = await vectors.query(vector, limit, where);
    return hits.map((h) => ({ path: h.metadata.path, heading: h.metadata.heading, score: h.score, text: h.metadata.text }));
  };
  return { textSearch, semanticSearch };
}
