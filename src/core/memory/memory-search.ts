/**
 * MemorySearch over the indexer: full-text search through minisearch (always), semantic search
 * through the vector index when an embedding model is configured (null otherwise, so the tools and
 * the router can say so).
 */
import type { MemorySearch } from "../protocol/tool";
import type { VaultPort } from "../ports/vault";
import type { VectorStore } from "../ports/vector-store";
import type { EmbedTexts, Indexer } from "./indexer";
import { folderOf, hashOfVectorId } from "./indexer";
import type { ChunkOptions } from "./chunker";
import { chunkSource } from "./chunk-source";

export interface MemorySearchDeps {
  indexer: Indexer;
  vault: VaultPort;
  /** Absent or null: text search only. */
  vectors?: VectorStore | null;
  embed?: EmbedTexts | null;
  /** The chunking the index was built with (to read chunk texts back by id). */
  chunk?: ChunkOptions;
}

export function createMemorySearch(deps: MemorySearchDeps): MemorySearch {
  const { indexer } = deps;
  const vectors = deps.vectors ?? null;
  const embed = deps.embed ?? null;
  const textSearch: MemorySearch["textSearch"] = async (query, limit, filter) => {
    const hits = await indexer.text.search(query, limit, filter?.pathPrefix ? { pathPrefix: filter.pathPrefix } : undefined);
    const out: { path: string; score: number; snippet: string }[] = [];
    for (const h of hits) {
      let hit: { path: string; snippet: string };
      try {
        // A PDF's hit names its best page (`file.pdf#page=3`); any other file's is its path.
        hit = await indexer.sources.locate(h.path, [...h.terms, ...query.split(/\s+/)]);
      } catch {
        // Deleted since it was indexed: the next update drops it.
        continue;
      }
      out.push({ path: hit.path, score: h.score, snippet: hit.snippet });
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
    // The vector index keeps no chunk texts: read them back from the notes, by the chunk's text hash.
    const notes = new Map<string, Map<string, string> | null>();
    const out: { path: string; heading: string; score: number; text: string }[] = [];
    for (const h of hits) {
      const path = h.metadata.path;
      if (!notes.has(path)) {
        try {
          notes.set(path, new Map(chunkSource(path, await indexer.sources.text(path), deps.chunk).map((c) => [c.hash, c.text])));
        } catch {
          notes.set(path, null);
        }
      }
      const text = h.metadata.text || notes.get(path)?.get(h.metadata.hash || hashOfVectorId(h.id));
      // A chunk that no longer exists (the note changed and is not re-indexed yet) is left out.
      if (text) out.push({ path, heading: h.metadata.heading, score: h.score, text });
    }
    return out;
  };
  return { textSearch, semanticSearch, embed: (texts) => embed(texts) };
}
