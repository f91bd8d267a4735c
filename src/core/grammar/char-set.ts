/** Sets of code points as sorted, merged, inclusive ranges. */
export type CharRanges = Array<[number, number]>;

export const MAX_CODE_POINT = 0x10ffff;


export function normalize(ranges: CharRanges): CharRanges {
  const sorted = ranges.filter(([a, b]) => a <= b).sort((x, y) => x[0] - y[0]);
  const out: CharRanges = [];
  for (const [a, b] of sorted) {
    const last = out[out.length - 1];
    if (last && a <= last[1] + 1) last[1] = Math.max(last[1], b);
    else out.push([a, b]);
  }
  return out;
}

export function complement(ranges: CharRanges): CharRanges {
  const out: CharRanges = [];
  let next = 0;
  for (const [a, b] of normalize(ranges)) {
    if (a > next) out.push([next, a - 1]);
    next = b + 1;
  }
  if (next <= MAX_CODE_POINT) out.push([next, MAX_CODE_POINT]);
  return out;
}

export function intersect(x: CharRanges, y: CharRanges): CharRanges {
  const out: CharRanges = [];
  for (const [a, b] of normalize(x)) {
    for (const [c, d] of normalize(y)) {
      const lo = Math.max(a, c);
      const hi = Math.min(b, d);
      if (lo <= hi) out.push([lo, hi]);
    }
  }
  return normalize(out);
}

export function contains(ranges: CharRanges, cp: number): boolean {
  for (const [a, b] of ranges) if (cp >= a && cp <= b) return true;
  return false;
}
