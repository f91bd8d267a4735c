/**
 * A loaded index's vocabulary searched where it lies: the stored shards' term lists, each sorted, read by binary
 * search. Building minisearch's radix tree from them cost a load one object per term and a tree walk (the help
 * vault's 206,000 terms: about a third of a one-shot `search`), for the handful of terms a query reads. This answers
 * what minisearch and the ranking ask of its SearchableMap (get, has, fetch, set, delete, atPrefix, fuzzyGet, size,
 * sorted iteration); terms added after the load live in a real SearchableMap beside the shards, and terms deleted
 * from the shards are remembered, so an edit never rebuilds the tree.
 */

/** What this needs of minisearch's SearchableMap (pinned version): the overlay for terms added after the load. */
export interface TermMap<V> extends Iterable<[string, V]> {
  get(term: string): V | undefined;
  set(term: string, value: V): unknown;
  delete(term: string): unknown;
  clear(): void;
  atPrefix(prefix: string): Iterable<[string, V]>;
  fuzzyGet(term: string, maxDistance: number): Map<string, [V, number]>;
  readonly size: number;
}

/**
 * `open(term, hits)` makes a term's value from where the shards hold it: `hits` are (shard, index) pairs, shards in
 * order. Values are made once per term and kept, so what a reader changes is what the next reader sees.
 */
export class ShardVocabulary<V> {
  private readonly memo = new Map<string, V>();
  /** Shard terms deleted (or replaced by `set`): the overlay then answers for them. */
  private readonly removed = new Set<string>();
  /** Per shard, where each first character's run of terms starts (for fuzzyGet), made on first use. */
  private readonly runs: (Int32Array | undefined)[];
  private uniqueCount = -1;

  constructor(
    private shards: string[][],
    private readonly open: (term: string, hits: number[]) => V,
    private readonly added: TermMap<V>,
  ) {
    this.runs = shards.map(() => undefined);
  }

  /** Whether every list is strictly ascending in UTF-16 code units (JavaScript's string order), as this needs. */
  static sorted(terms: readonly string[]): boolean {
    for (let i = 1; i < terms.length; i++) if (!(terms[i - 1] < terms[i])) return false;
    return true;
  }

  private fromShards(term: string): V | undefined {
    const made = this.memo.get(term);
    if (made !== undefined) return made;
    let hits: number[] | null = null;
    for (let s = 0; s < this.shards.length; s++) {
      const at = find(this.shards[s], term);
      if (at >= 0) (hits ??= []).push(s, at);
    }
    if (!hits) return undefined;
    const value = this.open(term, hits);
    this.memo.set(term, value);
    return value;
  }

  private inShards(term: string): boolean {
    return this.shards.some((terms) => find(terms, term) >= 0);
  }

  get(term: string): V | undefined {
    const value = this.added.get(term);
    if (value !== undefined || this.removed.has(term)) return value;
    return this.fromShards(term);
  }

  has(term: string): boolean {
    return this.get(term) !== undefined;
  }

  fetch(term: string, initial: () => V): V {
    const value = this.get(term);
    if (value !== undefined) return value;
    const made = initial();
    this.set(term, made);
    return made;
  }

  set(term: string, value: V): this {
    if (this.inShards(term)) this.removed.add(term);
    this.memo.delete(term);
    this.added.set(term, value);
    this.uniqueCount = -1;
    return this;
  }

  update(term: string, fn: (value: V | undefined) => V): this {
    return this.set(term, fn(this.get(term)));
  }

  delete(term: string): void {
    this.added.delete(term);
    if (this.inShards(term)) this.removed.add(term);
    this.memo.delete(term);
    this.uniqueCount = -1;
  }

  clear(): void {
    this.shards = [];
    this.runs.length = 0;
    this.memo.clear();
    this.removed.clear();
    this.added.clear();
    this.uniqueCount = 0;
  }

  /** Distinct terms (counted once, on first read after a change: minisearch reads it only as `termCount`). */
  get size(): number {
    if (this.uniqueCount < 0) {
      let n = 0;
      for (const term of this.shardTerms(null)) if (!this.removed.has(term)) n++;
      this.uniqueCount = n + this.added.size;
    }
    return this.uniqueCount;
  }

  /** The shards' distinct terms in order, all or those beginning with `prefix` (deleted ones included). */
  private *shardTerms(prefix: string | null): Generator<string> {
    const lists = this.shards;
    const at = lists.map((terms) => (prefix === null ? 0 : lowerBound(terms, prefix)));
    for (;;) {
      let next: string | null = null;
      for (let s = 0; s < lists.length; s++) {
        const term = lists[s][at[s]];
        if (term === undefined || (prefix !== null && !term.startsWith(prefix))) continue;
        if (next === null || term < next) next = term;
      }
      if (next === null) return;
      for (let s = 0; s < lists.length; s++) if (lists[s][at[s]] === next) at[s]++;
      yield next;
    }
  }

  /** Every term and its value in string order (minisearch's vacuum and the shard writer iterate it). */
  *entries(): Generator<[string, V]> {
    const later = [...this.added].map(([term]) => term).sort();
    let k = 0;
    for (const term of this.shardTerms(null)) {
      while (k < later.length && later[k] < term) yield* this.entry(later[k++]);
      if (k < later.length && later[k] === term) k++;
      yield* this.entry(term);
    }
    while (k < later.length) yield* this.entry(later[k++]);
  }

  private *entry(term: string): Generator<[string, V]> {
    const value = this.get(term);
    if (value !== undefined) yield [term, value];
  }

  [Symbol.iterator](): Generator<[string, V]> {
    return this.entries();
  }

  *keys(): Generator<string> {
    for (const [term] of this.entries()) yield term;
  }

  *values(): Generator<V> {
    for (const [, value] of this.entries()) yield value;
  }

  forEach(fn: (value: V, term: string, map: this) => void): void {
    for (const [term, value] of this.entries()) fn(value, term, this);
  }

  /** The terms beginning with `prefix` (itself included), in string order. */
  atPrefix(prefix: string): [string, V][] {
    const out: [string, V][] = [];
    const later = [...this.added.atPrefix(prefix)].map(([term]) => term);
    for (const term of this.shardTerms(prefix)) if (!this.removed.has(term)) later.push(term);
    for (const term of [...new Set(later)].sort()) out.push(...this.entry(term));
    return out;
  }

  /**
   * The terms within `maxDistance` edits (Levenshtein) of `term`, with their distance, in string order: minisearch's
   * search over its radix tree, walked here over each shard's sorted list as a tree whose node at depth d is a run of
   * terms sharing d characters.
   */
  fuzzyGet(term: string, maxDistance: number): Map<string, [V, number]> {
    const found = new Map<string, number>();
    for (const [t, [, distance]] of this.added.fuzzyGet(term, maxDistance)) found.set(t, distance);
    const n = term.length + 1;
    const m = n + maxDistance;
    const matrix = new Uint8Array(m * n).fill(maxDistance + 1);
    for (let j = 0; j < n; ++j) matrix[j] = j;
    for (let i = 1; i < m; ++i) matrix[i * n] = i;
    for (let s = 0; s < this.shards.length; s++) {
      const terms = this.shards[s];
      if (terms.length === 0) continue;
      const runs = (this.runs[s] ??= firstCharacterRuns(terms));
      const walk = (lo: number, hi: number, depth: number, bounds: Int32Array | null): void => {
        let i = lo;
        if (terms[i].length === depth) {
          const distance = matrix[depth * n + n - 1];
          if (distance <= maxDistance && !this.removed.has(terms[i]) && !found.has(terms[i])) found.set(terms[i], distance);
          i++;
        }
        const row = depth + 1;
        if (row >= m) return;
        let r = 0;
        while (i < hi) {
          const c = terms[i].charCodeAt(depth);
          let j: number;
          if (bounds) {
            while (bounds[r] <= i) r++;
            j = bounds[r];
          } else j = runEnd(terms, i, hi, depth, c);
          // One row of the matrix for this character, as minisearch computes it.
          const thisRow = n * row;
          const prevRow = thisRow - n;
          let minDistance = matrix[thisRow];
          const jmin = Math.max(0, row - maxDistance - 1);
          const jmax = Math.min(n - 1, row + maxDistance);
          for (let k = jmin; k < jmax; ++k) {
            const rpl = matrix[prevRow + k] + (c !== term.charCodeAt(k) ? 1 : 0);
            const del = matrix[prevRow + k + 1] + 1;
            const ins = matrix[thisRow + k] + 1;
            const dist = (matrix[thisRow + k + 1] = Math.min(rpl, del, ins));
            if (dist < minDistance) minDistance = dist;
          }
          if (minDistance <= maxDistance) walk(i, j, row, null);
          i = j;
        }
      };
      walk(0, terms.length, 0, runs);
    }
    const out = new Map<string, [V, number]>();
    for (const t of [...found.keys()].sort()) {
      const value = this.get(t);
      if (value !== undefined) out.set(t, [value, found.get(t) as number]);
    }
    return out;
  }
}

/** Where `term` is in the sorted `terms`, or -1. */
function find(terms: readonly string[], term: string): number {
  const at = lowerBound(terms, term);
  return at < terms.length && terms[at] === term ? at : -1;
}

/** The first index whose term is not below `term`. */
function lowerBound(terms: readonly string[], term: string): number {
  let lo = 0;
  let hi = terms.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (terms[mid] < term) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The end of the run from `i` (below `hi`) whose character at `depth` is `c`: the terms there share `depth` characters. */
function runEnd(terms: readonly string[], i: number, hi: number, depth: number, c: number): number {
  let lo = i + 1;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (terms[mid].charCodeAt(depth) === c) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Where each run of terms with the same first character ends (the last entry is the list's length), in one pass. */
function firstCharacterRuns(terms: readonly string[]): Int32Array {
  const ends: number[] = [];
  // An empty term (it sorts first) is its own run.
  for (let i = 1; i < terms.length; i++) if (terms[i].charCodeAt(0) !== terms[i - 1].charCodeAt(0) || terms[i - 1].length === 0) ends.push(i);
  ends.push(terms.length);
  return Int32Array.from(ends);
}
