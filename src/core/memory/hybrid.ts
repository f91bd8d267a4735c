/**
 * Hybrid memory search: the full-text ranking and the vector ranking merged by reciprocal rank fusion (each list
 * gives a note 1 / (K + rank)), so a note found by both comes first, and a note that only one of them finds (a
 * title word the vectors miss, a paraphrase the words miss) still ranks. Scores of the two are never compared
 * directly: BM25 and cosine live on different scales. Without vectors it is the full-text ranking.
 */
import type { MemorySearch } from "../protocol/tool";

/** Rank fusion's constant: the usual 60 flattens the top too much for lists of ten. */
const K = 20;

export interface HybridHit {
  path: string;
  /** Fused score (higher is better). */
  score: number;
  /** The best passage: the semantic chunk's text when vectors found the note, else the full-text snippet. */
  text: string;
  /** Heading path of that chunk, when there is one. */
  heading?: string;
}

/**
 * The best `limit` notes for the query by both rankings. Semantic hits scoring below `minSemanticScore` (cosine) are
 * left out of the fusion, as prefetch leaves them out of the prompt.
 */
export async function hybridSearch(search: MemorySearch, query: string, limit: number, filter?: { pathPrefix?: string }, minSemanticScore = -Infinity): Promise<HybridHit[]> {
  const depth = Math.max(limit, 10);
  const text = await search.textSearch(query, depth, filter);
  if (!search.semanticSearch) return text.slice(0, limit).map((h) => ({ path: h.path, score: h.score, text: h.snippet }));
  const semantic = await search.semanticSearch(query, depth * 2, filter);
  const fused = new Map<string, HybridHit>();
  text.forEach((h, rank) => fused.set(h.path, { path: h.path, score: 1 / (K + rank + 1), text: h.snippet }));
  let rank = 0;
  for (const h of semantic) {
    if (h.score < minSemanticScore) continue;
    const hit = fused.get(h.path);
    // A note's first (best) chunk stands for it; its other chunks add nothing.
    if (hit?.heading !== undefined) continue;
    const add = 1 / (K + ++rank);
    if (hit) {
      hit.score += add;
      hit.text = h.text;
      hit.heading = h.heading;
    } else fused.set(h.path, { path: h.path, score: add, text: h.text, heading: h.heading });
  }
  return [...fused.values()].sort((a, b) => b.score - a.score || a.path.localeCompare(b.path)).slice(0, limit);
}
