/**
 * The flat store's vectors as signed bytes, one scale per row: a quarter of float32's memory, read from an int8 file
 * by copying its bytes (no conversion), and scanned by the SIMD kernel (int8-kernel.ts) where the platform runs it.
 *
 * A row is quantized as the file always was (the largest coordinate to ±127) and its scale is 1 / |bytes|, so
 * a row's dequantized vector has length 1 and a vector scores 1 against itself. A query's score against a row is
 * `scale × Σ q[j] × bytes[j]` with the query in floats: the exact score. The SIMD scan quantizes the query too, which
 * moves each score by at most r = |q − its quantized form| (Cauchy–Schwarz, the row having length 1); so every row
 * within 2r of the k-th best quantized score is scored again exactly, and the result is the exact top k.
 */
import { BLOCK_VECTORS } from "./flat-codec";
import { int8Kernel, type Int8Kernel } from "./int8-kernel";
import { insertHit, type ScanHit, type VectorRows } from "./vector-rows";

const PAGE = 65536;

export class Int8Rows implements VectorRows {
  /** Per block of BLOCK_VECTORS rows, each row's scale. */
  private readonly scales: Float32Array[] = [];
  /** Without the kernel: the rows' bytes in blocks. */
  private readonly plain: Int8Array[] = [];
  private readonly kernel: Int8Kernel | null;
  /** With the kernel: where the query, the scores and the rows are in its memory. */
  private readonly queryAt = 0;
  private readonly outAt: number;
  private readonly rowsAt: number;
  private blockCount = 0;
  private heap: Int8Array = new Int8Array(0);
  /** The quantized scores of the last scan (reused). */
  private approx = new Float64Array(0);

  constructor(
    readonly dim: number,
    /** Use the SIMD kernel when the platform has it (default); false: JavaScript only. */
    simd = true,
  ) {
    this.outAt = align(dim, 16);
    this.rowsAt = align(this.outAt + BLOCK_VECTORS * 4, PAGE);
    this.kernel = simd && dim > 0 && dim % 16 === 0 ? int8Kernel(this.rowsAt / PAGE) : null;
  }

  /** Whether scans run on the SIMD kernel. */
  get simd(): boolean {
    return this.kernel !== null;
  }

  set(slot: number, unit: Float32Array): void {
    const { dim } = this;
    this.reserve(slot);
    const row = this.row(slot);
    let max = 0;
    for (let j = 0; j < dim; j++) max = Math.max(max, Math.abs(unit[j]));
    const inv = max > 0 ? 127 / max : 0;
    let sum = 0;
    for (let j = 0; j < dim; j++) {
      const x = Math.round(unit[j] * inv);
      row[j] = x;
      sum += x * x;
    }
    this.scales[Math.floor(slot / BLOCK_VECTORS)][slot % BLOCK_VECTORS] = sum > 0 ? 1 / Math.sqrt(sum) : 0;
  }

  get(slot: number): Float32Array {
    const row = this.row(slot);
    const s = this.scale(slot);
    const out = new Float32Array(this.dim);
    for (let j = 0; j < this.dim; j++) out[j] = row[j] * s;
    return out;
  }

  move(from: number, to: number): void {
    this.row(to).set(this.row(from));
    this.scales[Math.floor(to / BLOCK_VECTORS)][to % BLOCK_VECTORS] = this.scale(from);
  }

  subset(slots: number[]): Int8Rows {
    const out = new Int8Rows(this.dim, false);
    slots.forEach((slot, i) => {
      out.reserve(i);
      out.row(i).set(this.row(slot));
      out.scales[Math.floor(i / BLOCK_VECTORS)][i % BLOCK_VECTORS] = this.scale(slot);
    });
    return out;
  }

  /** A row's scale (1 / the length of its bytes; 0 for a zero row). */
  scale(slot: number): number {
    return this.scales[Math.floor(slot / BLOCK_VECTORS)][slot % BLOCK_VECTORS];
  }

  /** Rows `start` to `start + count - 1` as bytes (a view: valid until the next row is added). */
  bytes(start: number, count: number): Int8Array {
    if (this.kernel) {
      this.refresh();
      const at = this.rowsAt + start * this.dim;
      return this.heap.subarray(at, at + count * this.dim);
    }
    // Plain blocks: one block at most (callers go block by block).
    const at = (start % BLOCK_VECTORS) * this.dim;
    return this.plain[Math.floor(start / BLOCK_VECTORS)].subarray(at, at + count * this.dim);
  }

  /**
   * Adds rows from a file's bytes (`count` rows from slot `start`, which must be the number held, a multiple of
   * BLOCK_VECTORS or the end): copied, and each row's scale computed from its bytes (files written before the scale
   * was 1 / |bytes| hold the largest coordinate / 127 instead).
   */
  addRows(start: number, bytes: Int8Array, count: number): void {
    const { dim } = this;
    if (count === 0) return;
    this.reserve(start + count - 1);
    for (let b = Math.floor(start / BLOCK_VECTORS); b * BLOCK_VECTORS < start + count; b++) {
      const from = Math.max(start, b * BLOCK_VECTORS);
      const to = Math.min(start + count, (b + 1) * BLOCK_VECTORS);
      this.bytes(from, to - from).set(bytes.subarray((from - start) * dim, (to - start) * dim));
    }
    const kernel = this.kernel;
    if (kernel) {
      // Each row against itself, a block at a time into the scores area.
      this.refresh();
      const out = new Int32Array(kernel.memory.buffer, this.outAt, BLOCK_VECTORS);
      for (let slot = start; slot < start + count; slot++) {
        const at = this.rowsAt + slot * dim;
        kernel.scan(at, at, 1, dim, this.outAt);
        const sum = out[0];
        this.scales[Math.floor(slot / BLOCK_VECTORS)][slot % BLOCK_VECTORS] = sum > 0 ? 1 / Math.sqrt(sum) : 0;
      }
      return;
    }
    for (let slot = start; slot < start + count; slot++) {
      const row = this.row(slot);
      let sum = 0;
      for (let j = 0; j < dim; j++) sum += row[j] * row[j];
      this.scales[Math.floor(slot / BLOCK_VECTORS)][slot % BLOCK_VECTORS] = sum > 0 ? 1 / Math.sqrt(sum) : 0;
    }
  }

  scan(q: Float32Array, count: number, k: number, keep?: (slot: number) => boolean): ScanHit[] {
    const best: ScanHit[] = [];
    if (count === 0) return best;
    if (!this.kernel) {
      for (let slot = 0; slot < count; slot++) if (!keep || keep(slot)) insertHit(best, k, slot, this.exact(q, slot));
      return best;
    }
    const { dim, kernel } = this;
    // The query quantized, and how far that may move a score (r).
    let max = 0;
    for (let j = 0; j < dim; j++) max = Math.max(max, Math.abs(q[j]));
    const step = max / 127;
    const inv = max > 0 ? 127 / max : 0;
    this.refresh();
    let r2 = 0;
    for (let j = 0; j < dim; j++) {
      const x = Math.round(q[j] * inv);
      this.heap[this.queryAt + j] = x;
      r2 += (q[j] - x * step) ** 2;
    }
    const slack = 2 * Math.sqrt(r2) + 1e-9;
    if (this.approx.length < count) this.approx = new Float64Array(align(count, BLOCK_VECTORS));
    const approx = this.approx;
    // The k best quantized scores among the rows kept (a min-heap of k): its root is the k-th best.
    const top = new Float64Array(k);
    let held = 0;
    const out = new Int32Array(kernel.memory.buffer, this.outAt, BLOCK_VECTORS);
    for (let b = 0; b * BLOCK_VECTORS < count; b++) {
      const start = b * BLOCK_VECTORS;
      const n = Math.min(BLOCK_VECTORS, count - start);
      kernel.scan(this.queryAt, this.rowsAt + start * dim, n, dim, this.outAt);
      const scales = this.scales[b];
      for (let i = 0; i < n; i++) {
        const slot = start + i;
        if (keep && !keep(slot)) {
          approx[slot] = -Infinity;
          continue;
        }
        const a = out[i] * step * scales[i];
        approx[slot] = a;
        if (held < k) heapPush(top, held++, a);
        else if (a > top[0]) heapReplace(top, k, a);
      }
    }
    const floor = held < k ? -Infinity : top[0] - slack;
    for (let slot = 0; slot < count; slot++) {
      if (approx[slot] >= floor && approx[slot] !== -Infinity) insertHit(best, k, slot, this.exact(q, slot));
    }
    return best;
  }

  // --- internals ---

  /** The exact score of a row: its scale times the float query's dot product with its bytes. */
  private exact(q: Float32Array, slot: number): number {
    const row = this.row(slot);
    const { dim } = this;
    let s0 = 0;
    let s1 = 0;
    let s2 = 0;
    let s3 = 0;
    const whole = dim - (dim % 4);
    for (let j = 0; j < whole; j += 4) {
      s0 += q[j] * row[j];
      s1 += q[j + 1] * row[j + 1];
      s2 += q[j + 2] * row[j + 2];
      s3 += q[j + 3] * row[j + 3];
    }
    for (let j = whole; j < dim; j++) s0 += q[j] * row[j];
    return (s0 + s1 + s2 + s3) * this.scale(slot);
  }

  private row(slot: number): Int8Array {
    return this.bytes(slot, 1);
  }

  /** Makes room for rows up to `slot`: a block at a time (the kernel's memory grows by a quarter or more). */
  private reserve(slot: number): void {
    while (Math.floor(slot / BLOCK_VECTORS) >= this.blockCount) {
      this.scales.push(new Float32Array(BLOCK_VECTORS));
      if (this.kernel) {
        const need = this.rowsAt + (this.blockCount + 1) * BLOCK_VECTORS * this.dim;
        const memory = this.kernel.memory;
        const have = memory.buffer.byteLength;
        if (need > have) memory.grow(Math.max(Math.ceil((need - have) / PAGE), Math.ceil(have / PAGE / 4)));
      } else this.plain.push(new Int8Array(BLOCK_VECTORS * this.dim));
      this.blockCount++;
    }
  }

  /** A view of the kernel's memory (a grown memory has a new buffer). */
  private refresh(): void {
    const buffer = this.kernel!.memory.buffer;
    if (this.heap.buffer !== buffer) this.heap = new Int8Array(buffer);
  }
}

function align(n: number, to: number): number {
  return Math.ceil(n / to) * to;
}

function heapPush(h: Float64Array, size: number, x: number): void {
  let i = size;
  h[i] = x;
  while (i > 0) {
    const p = (i - 1) >> 1;
    if (h[p] <= h[i]) break;
    [h[p], h[i]] = [h[i], h[p]];
    i = p;
  }
}

function heapReplace(h: Float64Array, size: number, x: number): void {
  h[0] = x;
  let i = 0;
  for (;;) {
    const l = 2 * i + 1;
    const r = l + 1;
    let m = i;
    if (l < size && h[l] < h[m]) m = l;
    if (r < size && h[r] < h[m]) m = r;
    if (m === i) break;
    [h[m], h[i]] = [h[i], h[m]];
    i = m;
  }
}
