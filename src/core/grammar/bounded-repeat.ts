/** Repetition that respects llama.cpp's limit (every bound below 2000) without ambiguity. */
import { EMPTY, alt, opt, rep, seq, type GbnfExpr } from "./gbnf-ast";

/** The largest bound printed in one `{m,n}`. */
export const MAX_BOUND = 1999;
/** Chunk used to express longer repetitions. */
const CHUNK = 1000;

/**
 * `item{min,max}` for any bounds. Longer ranges become `item{k}` chunks and a nested choice between
 * "fewer than a chunk" and "a whole chunk then the rest", whose languages are disjoint, so the
 * expansion stays unambiguous.
 */
export function boundedRepeat(item: GbnfExpr, min: number, max: number): GbnfExpr {
  if (max < min) throw new Error(`Repetition bounds are inverted: ${min} > ${max}.`);
  if (max !== Infinity && max <= MAX_BOUND) return rep(item, min, max);
  const parts: GbnfExpr[] = [];
  let needed = min;
  while (needed > MAX_BOUND) {
    parts.push(rep(item, CHUNK, CHUNK));
    needed -= CHUNK;
  }
  const span = max - min;
  if (max === Infinity) return seq(...parts, rep(item, needed, Infinity));
  if (needed > 0) parts.push(rep(item, needed, needed));
  return seq(...parts, upTo(item, span));
}

/**
 * `item{0,n}` for any n. Just above the limit it nests `(item item{0,n-1})?`, which keeps a single
 * live parse (the common 2,000-character default); far above it, chunks.
 */
function upTo(item: GbnfExpr, n: number): GbnfExpr {
  if (n <= MAX_BOUND) return n === 0 ? EMPTY : rep(item, 0, n);
  if (n <= MAX_BOUND + 8) return opt(seq(item, upTo(item, n - 1)));
  return alt(rep(item, 0, CHUNK - 1), seq(rep(item, CHUNK, CHUNK), upTo(item, n - CHUNK)));
}
