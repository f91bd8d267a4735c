/** A seeded pseudo-random source (mulberry32): same seed, same sequence, on every platform. */
export class SeededRandom {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  /** Uniform in [0, 1). */
  next(): number {
    let t = (this.state = (this.state + 0x6d2b79f5) >>> 0);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** `count` values uniform in [-scale, scale); only arithmetic, so bytes never vary with the Math library. */
  fill(count: number, scale: number): Float32Array {
    const out = new Float32Array(count);
    for (let i = 0; i < count; i++) out[i] = (this.next() * 2 - 1) * scale;
    return out;
  }
}
