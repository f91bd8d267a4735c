/** Exact digit rules for integers in a closed range: no leading zeros, negative ranges, deterministic first digits. */
import { EMPTY, alt, cls, lit, opt, rep, seq, type GbnfExpr } from "./gbnf-ast";
import { MAX_INT_DIGITS } from "./json-text";

/** The largest magnitude an integer rule admits (MAX_INT_DIGITS nines). */
export const MAX_INT_MAGNITUDE = 10n ** BigInt(MAX_INT_DIGITS) - 1n;

const digitClass = (lo: number, hi: number): GbnfExpr => (lo === hi ? lit(String(lo)) : cls([[0x30 + lo, 0x30 + hi]]));

/** Same-length digit strings between x and y inclusive (x ≤ y, leading zeros allowed). */
type Band = [string, string];

/**
 * Non-negative integers in [a, b] without leading zeros, as a deterministic digit tree: at every
 * position the possible next digits are split into classes with identical continuations, so
 * llama.cpp never keeps two parses of the same number alive (e.g. [1,100] is `"1" ("0" "0"? | [1-9])? | [2-9] [0-9]?`).
 */
export function nonNegativeRange(a: bigint, b: bigint): GbnfExpr | null {
  if (a > b) return null;
  const bands: Band[] = [];
  const la = a.toString().length;
  const lb = b.toString().length;
  for (let len = la; len <= lb; len++) {
    const floor = len === 1 ? 0n : 10n ** BigInt(len - 1);
    const ceil = 10n ** BigInt(len) - 1n;
    const lo = a > floor ? a : floor;
    const hi = b < ceil ? b : ceil;
    if (lo <= hi) bands.push([lo.toString(), hi.toString()]);
  }
  return bands.length ? digitTree(bands, new Map()) : null;
}

function digitTree(bands: Band[], memo: Map<string, GbnfExpr>): GbnfExpr {
  const key = bands.map(([x, y]) => `${x}-${y}`).join(",");
  const known = memo.get(key);
  if (known) return known;
  const endsHere = bands.some(([x]) => x.length === 0);
  // For each next digit, the bands that continue after it.
  const next: Band[][] = [];
  for (let d = 0; d <= 9; d++) {
    const rest: Band[] = [];
    for (const [x, y] of bands) {
      if (x.length === 0) continue;
      const x0 = Number(x[0]);
      const y0 = Number(y[0]);
      if (d < x0 || d > y0) continue;
      const n = x.length - 1;
      rest.push([d === x0 ? x.slice(1) : "0".repeat(n), d === y0 ? y.slice(1) : "9".repeat(n)]);
    }
    next.push(rest);
  }
  const options: GbnfExpr[] = [];
  const keyOf = (bs: Band[]) => bs.map(([x, y]) => `${x}-${y}`).join(",");
  const seen = new Set<string>();
  for (let d = 0; d <= 9; d++) {
    if (next[d].length === 0) continue;
    const k = keyOf(next[d]);
    if (seen.has(k)) continue;
    seen.add(k);
    const digits = [...Array(10).keys()].filter((e) => next[e].length > 0 && keyOf(next[e]) === k);
    const ranges: Array<[number, number]> = [];
    for (const e of digits) {
      const last = ranges[ranges.length - 1];
      if (last && last[1] === 0x30 + e - 1) last[1] = 0x30 + e;
      else ranges.push([0x30 + e, 0x30 + e]);
    }
    const head = digits.length === 1 ? lit(String(digits[0])) : cls(ranges);
    options.push(seq(head, digitTree(next[d], memo)));
  }
  let body: GbnfExpr = options.length ? alt(...options) : EMPTY;
  if (endsHere && options.length) body = opt(body);
  // Fixed-width runs of free digits read better (and parse faster) as one repetition.
  body = compactFreeDigits(bands) ?? body;
  memo.set(key, body);
  return body;
}

/** `[0-9]{n}` or `[0-9]{m,n}` when the bands are exactly "any digits" of lengths m..n. */
function compactFreeDigits(bands: Band[]): GbnfExpr | null {
  const lengths = bands.map(([x]) => x.length).sort((p, q) => p - q);
  if (lengths.length === 0 || lengths[lengths.length - 1] === 0) return null;
  for (const [x, y] of bands) if (!/^0*$/.test(x) || !/^9*$/.test(y)) return null;
  for (let i = 1; i < lengths.length; i++) if (lengths[i] !== lengths[i - 1] + 1) return null;
  return rep(digitClass(0, 9), lengths[0], lengths[lengths.length - 1]);
}

/** Ranges recur across compilations (Zod's int() bounds in every tool); the rules are pure, so they are kept. */
const rangeCache = new Map<string, GbnfExpr | null>();

/** Integers in [lo, hi] (clamped to MAX_INT_MAGNITUDE); null when the range is empty. */
export function integerRange(lo: bigint, hi: bigint): GbnfExpr | null {
  const key = `${lo},${hi}`;
  if (rangeCache.has(key)) return rangeCache.get(key)!;
  const e = integerRangeUncached(lo, hi);
  if (rangeCache.size > 1000) rangeCache.clear();
  rangeCache.set(key, e);
  return e;
}

function integerRangeUncached(lo: bigint, hi: bigint): GbnfExpr | null {
  if (lo < -MAX_INT_MAGNITUDE) lo = -MAX_INT_MAGNITUDE;
  if (hi > MAX_INT_MAGNITUDE) hi = MAX_INT_MAGNITUDE;
  if (lo > hi) return null;
  const options: GbnfExpr[] = [];
  if (lo < 0n) {
    const magLo = hi < 0n ? -hi : 1n;
    const neg = nonNegativeRange(magLo, -lo);
    if (neg) options.push(seq(lit("-"), neg));
  }
  if (hi >= 0n) {
    const pos = nonNegativeRange(lo > 0n ? lo : 0n, hi);
    if (pos) options.push(pos);
  }
  return options.length ? alt(...options) : null;
}
