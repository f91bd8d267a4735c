/**
 * Turn-start memory: the passages most relevant to the user's message, fitted into a token budget,
 * each with its note path so the answer can cite [[links]]. Full-text and semantic rankings fused (hybrid.ts) when an
 * embedding model is configured, else full-text.
 */
import type { MemorySearch } from "../protocol/tool";
import { wikilink } from "../text/wikilink";
import { hybridSearch } from "./hybrid";

export interface PrefetchOptions {
  /** Tokens the block may use in the system prompt. */
  tokenBudget: number;
  /** Most passages to consider (default 8). */
  limit?: number;
  /** Semantic hits scoring below this are left out (default 0). */
  minScore?: number;
  /** Counts tokens; default: characters / 4. */
  countTokens?: (text: string) => Promise<number> | number;
}

export interface PrefetchResult {
  /** The block for the system prompt; "" when nothing fits or matches. */
  text: string;
  /** Note paths the block cites, in order. */
  paths: string[];
  tokens: number;
}

const HEADER = "Notes from the vault that may be relevant (cite them as [[links]]):";

export async function prefetchMemories(search: MemorySearch, query: string, options: PrefetchOptions): Promise<PrefetchResult> {
  const limit = options.limit ?? 8;
  const count = options.countTokens ?? ((t: string) => Math.ceil(t.length / 4));
  const empty: PrefetchResult = { text: "", paths: [], tokens: 0 };
  if (query.trim() === "" || options.tokenBudget <= 0) return empty;
  let passages: { link: string; path: string; text: string }[];
  if (search.semanticSearch) {
    const hits = await hybridSearch(search, query, limit, undefined, options.minScore ?? 0);
    passages = hits.map((h) => ({ link: wikilink(h.path, h.heading ? h.heading.split(" > ").pop() : undefined), path: h.path, text: h.text }));
  } else {
    const hits = await search.textSearch(query, limit);
    passages = hits.map((h) => ({ link: wikilink(h.path), path: h.path, text: h.snippet }));
  }
  if (passages.length === 0) return empty;
  const lines = [HEADER];
  const paths: string[] = [];
  let used = await count(HEADER);
  for (const p of passages) {
    const cite = `- ${p.link}: `;
    const line = `${cite}${p.text.replace(/\s+/g, " ").trim()}`;
    const cost = await count(line);
    if (used + cost <= options.tokenBudget) {
      lines.push(line);
      used += cost;
    } else {
      // Fit a shortened passage into what is left, if a useful amount is; the cut never reaches into the
      // [[link]], since a passage without its note path cannot be cited.
      const room = options.tokenBudget - used;
      if (room < 24) break;
      const keep = Math.floor(line.length * (room / cost)) - 1;
      if (keep < cite.length + 20) break;
      const cut = line.slice(0, keep) + "…";
      const cutCost = await count(cut);
      if (used + cutCost > options.tokenBudget) break;
      lines.push(cut);
      used += cutCost;
    }
    if (!paths.includes(p.path)) paths.push(p.path);
  }
  if (lines.length === 1) return empty;
  return { text: lines.join("\n"), paths, tokens: used };
}
