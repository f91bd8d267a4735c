/**
 * How the flat store holds its vectors in memory, row by row (a row per slot, slots dense from 0): float32 blocks
 * (FloatRows, for the "float32" precision) or signed bytes with a scale per row (Int8Rows, for "int8": a quarter of
 * the memory, loaded without converting, scanned with SIMD where the platform has it).
 */
import { BLOCK_VECTORS, vectorAt } from "./flat-codec";

/** One scan result: a slot and its score (the dot product with the query). */
export interface ScanHit {
  slot: number;
  score: number;
}

export interface VectorRows {
  readonly dim: number;
  /** Sets a row to this unit vector; `slot` is at most the number of rows held (equal: a new row). */
  set(slot: number, unit: Float32Array): void;
  /** A copy of a row's vector (unit length, as stored: dequantized for int8). */
  get(slot: number): Float32Array;
  /** Copies row `from` over row `to`. */
  move(from: number, to: number): void;
  /** The `k` best of the first `count` rows that `keep` lets through, best first; ties keep the lower slot first. */
  scan(query: Float32Array, count: number, k: number, keep?: (slot: number) => boolean): ScanHit[];
  /** These rows, in this order, copied as they are into rows of the same kind (for a change file). */
  subset(slots: number[]): VectorRows;
}

/** Adds `hit` to `best` (best first, at most `k`; an equal score stays behind the ones already there). */
export function insertHit(best: ScanHit[], k: number, slot: number, score: number): void {
  if (best.length === k && score <= best[k - 1].score) return;
  let at = best.length;
  while (at > 0 && best[at - 1].score < score) at--;
  best.splice(at, 0, { slot, score });
  if (best.length > k) best.pop();
}

/** Float32 rows in blocks of BLOCK_VECTORS (the index grows by a block and never copies what it holds). */
export class FloatRows implements VectorRows {
  constructor(
    readonly dim: number,
    /** The blocks (a decoded file's, or none). */
    readonly blocks: Float32Array[] = [],
  ) {}

  set(slot: number, unit: Float32Array): void {
    if (Math.floor(slot / BLOCK_VECTORS) === this.blocks.length) this.blocks.push(new Float32Array(BLOCK_VECTORS * this.dim));
    vectorAt(this.blocks, this.dim, slot).set(unit);
  }

  get(slot: number): Float32Array {
    return vectorAt(this.blocks, this.dim, slot).slice();
  }

  move(from: number, to: number): void {
    vectorAt(this.blocks, this.dim, to).set(vectorAt(this.blocks, this.dim, from));
  }

  subset(slots: number[]): FloatRows {
    const out = new FloatRows(this.dim);
    slots.forEach((slot, i) => out.set(i, vectorAt(this.blocks, this.dim, slot)));
    return out;
  }

  scan(q: Float32Array, count: number, k: number, keep?: (slot: number) => boolean): ScanHit[] {
    const best: ScanHit[] = [];
    const { dim, blocks } = this;
    // Block by block (no division per item), four sums at a time (a dimension is a multiple of 4 or the rest is summed after).
    const whole = dim - (dim % 4);
    for (let b = 0; b * BLOCK_VECTORS < count; b++) {
      const vectors = blocks[b];
      const end = Math.min(BLOCK_VECTORS, count - b * BLOCK_VECTORS);
      for (let k0 = 0; k0 < end; k0++) {
        const slot = b * BLOCK_VECTORS + k0;
        if (keep && !keep(slot)) continue;
        const base = k0 * dim;
        let s0 = 0;
        let s1 = 0;
        let s2 = 0;
        let s3 = 0;
        for (let j = 0; j < whole; j += 4) {
          s0 += q[j] * vectors[base + j];
          s1 += q[j + 1] * vectors[base + j + 1];
          s2 += q[j + 2] * vectors[base + j + 2];
          s3 += q[j + 3] * vectors[base + j + 3];
        }
        for (let j = whole; j < dim; j++) s0 += q[j] * vectors[base + j];
        insertHit(best, k, slot, s0 + s1 + s2 + s3);
      }
    }
    return best;
  }
}
