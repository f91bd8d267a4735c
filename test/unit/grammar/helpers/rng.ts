import { SeededRandom } from "../../../../src/node/test-model/prng";

/** A small seeded random source (mulberry32) so property failures replay from fast-check's seed. */
export function seededRandom(seed: number): () => number {
  const random = new SeededRandom(seed);
  return () => random.next();
}
