/**
 * Finding staged facts for a query: by words always, by meaning when an embedding model is set. Staged facts are
 * few and not in any index, so each search reads them all (and embeds them, with a model).
 */
import type { StagedHit, StagedMemory } from "../protocol/staged-memory";

/** Words too common to say what a fact is about. */
const STOP_WORDS = new Set(
  ("a an and are as at be but by do does did for from has have i in is it its me my of on or so that the their then there these " +
    "this to was we were what when which who will with you your remember recall know about tell told did don't not").split(" "),
);

/** A fact's content words: lowercased letters and digits, stop words out, a plural "s" off longer words. */
export function contentWords(text: string): Set<string> {
  const out = new Set<string>();
  for (const raw of text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []) {
    if (STOP_WORDS.has(raw) || (raw.length < 2 && !/\p{N}/u.test(raw))) continue;
    out.add(raw.length > 3 && raw.endsWith("s") && !raw.endsWith("ss") ? raw.slice(0, -1) : raw);
  }
  return out;
}

/** Whether a query word finds a fact word: equal, or one a prefix of the other when both are long enough. */
function matches(q: string, f: string): boolean {
  return q === f || (q.length >= 4 && f.length >= 4 && (f.startsWith(q) || q.startsWith(f)));
}

function cosine(a: number[], b: number[]): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i] * b[i];
    na += a[i] * a[i];
    nb += b[i] * b[i];
  }
  return na && nb ? dot / Math.sqrt(na * nb) : 0;
}

export interface StagedSearchOptions {
  /** Embeds texts with the embedding model; absent: words only. */
  embed?: (texts: string[]) => Promise<number[][]>;
  /** Facts whose embedding's cosine with the query is at least this count as found by meaning (default 0.5). */
  minCosine?: number;
}

/** Staged facts for a query, best first (ties: the newer first). */
export async function searchStaged(staged: readonly StagedMemory[], query: string, limit: number, options: StagedSearchOptions = {}): Promise<StagedHit[]> {
  if (staged.length === 0 || !query.trim() || limit <= 0) return [];
  const q = [...contentWords(query)];
  const hits = new Map<string, StagedHit>();
  if (q.length > 0) {
    for (const memory of staged) {
      const words = [...contentWords(`${memory.title ?? ""} ${memory.content}`)];
      const found = q.filter((w) => words.some((f) => matches(w, f))).length;
      if (found > 0) hits.set(memory.id, { memory, score: found / q.length, mode: "words" });
    }
  }
  if (options.embed) {
    const vectors = await options.embed([query, ...staged.map((m) => m.content)]);
    const min = options.minCosine ?? 0.5;
    staged.forEach((memory, i) => {
      const score = cosine(vectors[0], vectors[i + 1] ?? []);
      const seen = hits.get(memory.id);
      if (score >= min && (!seen || score > seen.score)) hits.set(memory.id, { memory, score, mode: "meaning" });
    });
  }
  return [...hits.values()].sort((a, b) => b.score - a.score || b.memory.at - a.memory.at).slice(0, limit);
}
