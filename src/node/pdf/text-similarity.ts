/**
 * Character similarity of two texts after whitespace folding (every run of whitespace one space, ends trimmed):
 * 2 × (longest common subsequence) / (sum of lengths), as Python's difflib ratio defines it, with the common
 * subsequence found by Myers' O((N+M)·D) diff, so near-equal page texts of thousands of characters compare in
 * milliseconds.
 */

/** Every run of whitespace as one space, ends trimmed. */
export function foldWhitespace(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

/** Length of the longest common subsequence of a and b (Myers: the shortest edit script's D gives N + M − 2·LCS). */
export function lcsLength(a: string, b: string): number {
  const n = a.length;
  const m = b.length;
  const max = n + m;
  if (max === 0) return 0;
  const offset = max + 1;
  const v = new Int32Array(2 * max + 3);
  for (let d = 0; d <= max; d++) {
    for (let k = -d; k <= d; k += 2) {
      let x = k === -d || (k !== d && v[offset + k - 1] < v[offset + k + 1]) ? v[offset + k + 1] : v[offset + k - 1] + 1;
      let y = x - k;
      while (x < n && y < m && a.charCodeAt(x) === b.charCodeAt(y)) {
        x++;
        y++;
      }
      v[offset + k] = x;
      if (x >= n && y >= m) return (n + m - d) / 2;
    }
  }
  return 0;
}

/** Sums for a similarity over many pages: matched characters and total length; the same for words in any order. */
export interface SimilarityTally {
  common: number;
  total: number;
  /** Words both texts have (as a multiset, order ignored), and the words of both. */
  commonWords?: number;
  totalWords?: number;
}

/** Words the two texts share as multisets: the order-free part of their agreement. */
export function commonWordCount(a: string[], b: string[]): number {
  const counts = new Map<string, number>();
  for (const w of a) counts.set(w, (counts.get(w) ?? 0) + 1);
  let common = 0;
  for (const w of b) {
    const n = counts.get(w) ?? 0;
    if (n > 0) {
      common++;
      counts.set(w, n - 1);
    }
  }
  return common;
}

/** Adds one pair of texts (folded first) to a tally. */
export function tallyPair(tally: SimilarityTally, ours: string, reference: string): void {
  const a = foldWhitespace(ours);
  const b = foldWhitespace(reference);
  tally.common += lcsLength(a, b);
  tally.total += a.length + b.length;
  const wa = a === "" ? [] : a.split(" ");
  const wb = b === "" ? [] : b.split(" ");
  tally.commonWords = (tally.commonWords ?? 0) + commonWordCount(wa, wb);
  tally.totalWords = (tally.totalWords ?? 0) + wa.length + wb.length;
}

/** 2·common words / all words, order ignored; 1 for two empty texts. */
export function wordRatioOf(tally: SimilarityTally): number {
  return !tally.totalWords ? 1 : (2 * (tally.commonWords ?? 0)) / tally.totalWords;
}

/** 2·common / total; 1 for two empty texts. */
export function ratioOf(tally: SimilarityTally): number {
  return tally.total === 0 ? 1 : (2 * tally.common) / tally.total;
}
