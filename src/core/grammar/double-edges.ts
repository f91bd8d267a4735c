/**
 * Where the decimal texts that parse to a given double begin and end. JSON Schema compares the parsed
 * double, so `minimum: 1234567.1` must also admit "1234567.0999999999" (it parses to 1234567.1); the
 * exact edge is the midpoint to the neighbouring double, with ties going to the even mantissa as
 * IEEE round-half-even parsing does. Bounds are returned as exact decimals for decimal-range.ts.
 */
import { MAX_FRACTION_DIGITS } from "./json-text";
import { nextDouble } from "./schema-words";
import type { Decimal } from "./decimal-range";

/** A signed decimal bound, as decimal-range.ts takes it. */
export interface SignedDecimal {
  negative: boolean;
  value: Decimal;
}

const ZERO: SignedDecimal = { negative: false, value: { int: 0n, frac: "" } };

function bitsOf(v: number): bigint {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, v);
  return view.getBigUint64(0);
}

/** The double as sign * mantissa * 2^exponent, exactly. */
function parts(v: number): { mantissa: bigint; exponent: number; negative: boolean } {
  const bits = bitsOf(v);
  const biased = Number((bits >> 52n) & 0x7ffn);
  const fraction = bits & ((1n << 52n) - 1n);
  return {
    negative: bits >> 63n === 1n,
    mantissa: biased === 0 ? fraction : fraction | (1n << 52n),
    exponent: biased === 0 ? -1074 : biased - 1075,
  };
}

/** v * 2^shift as a signed BigInt (exact when shift ≥ -exponent). */
function scaled(v: number, shift: number): bigint {
  const p = parts(v);
  const n = p.mantissa << BigInt(p.exponent + shift);
  return p.negative ? -n : n;
}

/** (a + b) / 2 plus `nudge` units of the last digit, as a signed decimal (a, b adjacent finite doubles). */
function midpoint(a: number, b: number, nudge: -1 | 0 | 1): SignedDecimal {
  const shift = 1 + Math.max(0, -parts(a).exponent, -parts(b).exponent);
  const sum = scaled(a, shift) + scaled(b, shift); // the midpoint is sum / 2^(shift+1)
  const k = shift + 1;
  // Decimal digits: sum / 2^k = sum * 5^k / 10^k; at least MAX_FRACTION_DIGITS places so a nudge is finer than any text.
  const places = Math.max(k, MAX_FRACTION_DIGITS);
  const x = sum * 5n ** BigInt(k) * 10n ** BigInt(places - k) + BigInt(nudge);
  const negative = x < 0n;
  const digits = (negative ? -x : x).toString().padStart(places + 1, "0");
  const value: Decimal = { int: BigInt(digits.slice(0, digits.length - places)), frac: digits.slice(digits.length - places).replace(/0+$/, "") };
  return value.int === 0n && value.frac === "" ? ZERO : { negative, value };
}

const even = (v: number) => (bitsOf(v) & 1n) === 0n;

/** Beyond this magnitude integer parts are capped anyway (MAX_INT_DIGITS), so the edge needs no precision. */
const HUGE = 1e17;

function plain(v: number): SignedDecimal {
  const m = /^(\d+)(?:\.(\d+))?(?:e\+?(\d+))?$/.exec(String(Math.abs(v)));
  const digits = m ? m[1] + (m[2] ?? "") : "0";
  const int = m && m[3] ? BigInt(digits) * 10n ** BigInt(Number(m[3]) - (m[2]?.length ?? 0)) : BigInt(m ? m[1] : "0");
  return { negative: v < 0, value: { int, frac: "" } };
}

/** The smallest decimal t such that every text ≥ t parses to a double ≥ v (and every text below parses lower). */
export function lowestTextAtLeast(v: number): SignedDecimal {
  if (v === 0) return ZERO;
  if (Math.abs(v) >= HUGE) return plain(v);
  const below = nextDouble(v, -1);
  // A text exactly at the midpoint rounds to the even neighbour; if that is `below`, start just above it.
  return midpoint(below, v, even(v) ? 0 : 1);
}

/** The largest decimal t such that every text ≤ t parses to a double ≤ v (and every text above parses higher). */
export function highestTextAtMost(v: number): SignedDecimal {
  if (v === 0) return ZERO;
  if (Math.abs(v) >= HUGE) return plain(v);
  const above = nextDouble(v, 1);
  return midpoint(v, above, even(v) ? 0 : -1);
}
