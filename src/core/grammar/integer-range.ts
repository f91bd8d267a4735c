/** Exact digit rules for integers in a closed range: no leading zeros, negative ranges, deterministic first digits. */
import { EMPTY, alt, cls, lit, rep, seq, type GbnfExpr } from "./gbnf-ast";
import { MAX_INT_DIGITS } from "./json-text";

/** The largest magnitude an integer rule admits (MAX_INT_DIGITS nines). */
export const MAX_INT_MAGNITUDE = 10n ** BigInt(MAX_INT_DIGITS) - 1n;

const digitClass = (lo: number, hi: number): GbnfExpr => (lo === hi ? lit(String(lo)) : cls([[0x30 + lo, 0x30 + hi]]));

/** Digit strings of equal length between a and b (both that length, a ≤ b), leading zeros allowed. */
function sameLength(a: string, b: string): GbnfExpr {
  if (a.length === 0) return EMPTY;
  if (a === b) return lit(a);
  const a0 = Number(a[0]);
  const b0 = Number(b[0]);
  const aRest = a.slice(1);
  const bRest = b.slice(1);
  if (a0 === b0) return seq(lit(a[0]), sameLength(aRest, bRest));
  const n = aRest.length;
  const aFull = /^0*$/.test(aRest);
  const bFull = /^9*$/.test(bRest);
  const options: GbnfExpr[] = [];
  if (!aFull) options.push(seq(lit(a[0]), sameLength(aRest, "9".repeat(n))));
  const lo = aFull ? a0 : a0 + 1;
  const hi = bFull ? b0 : b0 - 1;
  if (lo <= hi) options.push(seq(digitClass(lo, hi), rep(digitClass(0, 9), n, n)));
  if (!bFull) options.push(seq(lit(b[0]), sameLength("0".repeat(n), bRest)));
  return alt(...options);
}

/** Non-negative integers in [a, b] without leading zeros. */
export function nonNegativeRange(a: bigint, b: bigint): GbnfExpr | null {
  if (a > b) return null;
  const options: GbnfExpr[] = [];
  const la = a.toString().length;
  const lb = b.toString().length;
  for (let len = la; len <= lb; len++) {
    const floor = len === 1 ? 0n : 10n ** BigInt(len - 1);
    const ceil = 10n ** BigInt(len) - 1n;
    const lo = a > floor ? a : floor;
    const hi = b < ceil ? b : ceil;
    if (lo <= hi) options.push(sameLength(lo.toString(), hi.toString()));
  }
  return alt(...options);
}

/** Integers in [lo, hi] (clamped to MAX_INT_MAGNITUDE); null when the range is empty. */
export function integerRange(lo: bigint, hi: bigint): GbnfExpr | null {
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
