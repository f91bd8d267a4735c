/**
 * A deterministic embedder for tests where the engine is not the subject: each word is hashed into
 * one of 64 dimensions (bag of words, L2-normalised), so texts sharing words are close. It counts
 * the texts it embedded, which is what the incremental-indexing tests assert on.
 */
import { contentHash } from "../../../src/core/memory/content-hash";

export class WordEmbedder {
  /** Every text embedded so far, in order. */
  readonly embedded: string[] = [];
  /** Number of embed calls (batches). */
  calls = 0;

  constructor(readonly dimension = 64) {}

  readonly embed = (texts: string[]): Promise<number[][]> => {
    this.calls++;
    this.embedded.push(...texts);
    return Promise.resolve(texts.map((t) => this.vector(t)));
  };

  vector(text: string): number[] {
    const v = new Array<number>(this.dimension).fill(0);
    for (const word of text.toLowerCase().match(/[\p{L}\p{N}]{3,}/gu) ?? []) {
      v[parseInt(contentHash(word).slice(0, 8), 16) % this.dimension] += 1;
    }
    const norm = Math.sqrt(v.reduce((s, x) => s + x * x, 0)) || 1;
    return v.map((x) => x / norm);
  }
}
