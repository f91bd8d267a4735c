/**
 * Turn-start memory with the staging tier: the conversation's staged facts that match the message come first (they
 * are the newest thing the user asked to keep), then the vault's memories in what is left of the token budget.
 */
import type { MemorySearch } from "../protocol/tool";
import type { StagedMemory } from "../protocol/staged-memory";
import { prefetchMemories, type PrefetchOptions, type PrefetchResult } from "./prefetch";
import { searchStaged } from "./staging-search";

const STAGED_HEADER = "Facts the user asked you to remember in this conversation (staged, not saved in the vault yet):";

export interface StagedPrefetchResult extends PrefetchResult {
  /** Ids of the staged facts the block holds, in order. */
  staged: string[];
}

/** The prompt's memory block: matching staged facts first, then vault memories (either may be absent). */
export async function prefetchWithStaged(
  search: MemorySearch | undefined,
  staged: readonly StagedMemory[],
  query: string,
  options: PrefetchOptions,
): Promise<StagedPrefetchResult> {
  const count = options.countTokens ?? ((t: string) => Math.ceil(t.length / 4));
  const hits = await searchStaged(staged, query, options.limit ?? 8, { embed: search?.embed });
  const lines: string[] = [];
  const ids: string[] = [];
  let used = 0;
  if (hits.length > 0) {
    used = await count(STAGED_HEADER);
    for (const h of hits) {
      const line = `- ${h.memory.content}`;
      const cost = await count(line);
      if (used + cost > options.tokenBudget) break;
      lines.push(line);
      ids.push(h.memory.id);
      used += cost;
    }
    if (ids.length === 0) used = 0;
    else lines.unshift(STAGED_HEADER);
  }
  const vault = search ? await prefetchMemories(search, query, { ...options, tokenBudget: options.tokenBudget - used }) : { text: "", paths: [], tokens: 0 };
  const text = [lines.join("\n"), vault.text].filter(Boolean).join("\n");
  return { text, paths: vault.paths, tokens: used + vault.tokens, staged: ids };
}
