/**
 * Exact rules for decimal numbers in a closed range: integer-part ranges plus fraction constraints at
 * the two boundary integer parts. No exponents. Bounds are decimal strings the caller derived so that
 * every accepted text parses to a double inside the JSON Schema bounds.
 */
import { EMPTY, alt, cls, lit, opt, rep, seq, type GbnfExpr } from "./gbnf-ast";
import { MAX_FRACTION_DIGITS, MAX_INT_DIGITS } from "./json-text";
import { nonNegativeRange } from "./integer-range";

/** A non-negative decimal: integer part and fraction digits (no trailing zeros). */
export interface Decimal {
  int: bigint;
  frac: string;
}

const anyDigits = (n: number): GbnfExpr => rep(cls([[0x30, 0x39]]), 0, n);
const digitClass = (lo: number, hi: number): GbnfExpr => (lo === hi ? lit(String(lo)) : cls([[0x30 + lo, 0x30 + hi]]));

/** Parses a plain or exponent decimal string (no sign) exactly. */
export function parseDecimal(text: string): Decimal {
  const m = /^(\d+)(?:\.(\d+))?(?:e([+-]?\d+))?$/i.exec(text);
  if (!m) throw new Error(`Not a decimal: ${text}`);
  let digits = m[1] + (m[2] ?? "");
  let point = m[1].length + Number(m[3] ?? 0);
  if (point < 0) {
    digits = "0".repeat(-point) + digits;
    point = 0;
  }
  if (point > digits.length) digits = digits + "0".repeat(point - digits.length);
  const int = BigInt(digits.slice(0, point) || "0");
  const frac = digits.slice(point).replace(/0+$/, "");
  return { int, frac };
}

/**
 * Digit strings s of length ≤ n with lo ≤ 0.s ≤ hi (null = unbounded on that side); returns whether
 * the empty string qualifies and a rule for the non-empty ones.
 */
function fraction(lo: string | null, hi: string | null, n: number): { empty: boolean; nonEmpty: GbnfExpr | null } {
  const empty = lo === null || /^0*$/.test(lo);
  if (n === 0) return { empty, nonEmpty: null };
  const lo0 = lo === null || lo === "" ? 0 : Number(lo[0]);
  const hi0 = hi === null ? 9 : hi === "" ? 0 : Number(hi[0]);
  const loRest = lo === null || lo === "" ? null : lo.slice(1);
  const hiRest = hi === null ? null : hi === "" ? "" : hi.slice(1);
  if (lo0 > hi0) return { empty, nonEmpty: null };
  const options: GbnfExpr[] = [];
  const branch = (d: number, l: string | null, h: string | null) => {
    const rest = fraction(l, h, n - 1);
    const tail = rest.nonEmpty ? (rest.empty ? opt(rest.nonEmpty) : rest.nonEmpty) : rest.empty ? EMPTY : null;
    if (tail) options.push(seq(lit(String(d)), tail));
  };
  if (lo0 === hi0) {
    branch(lo0, loRest, hiRest);
  } else {
    const loTight = loRest !== null && !/^0*$/.test(loRest);
    const hiTight = hiRest !== null;
    if (loTight) branch(lo0, loRest, null);
    const from = loTight ? lo0 + 1 : lo0;
    const to = hiTight ? hi0 - 1 : hi0;
    if (from <= to) options.push(seq(digitClass(from, to), anyDigits(n - 1)));
    if (hiTight) branch(hi0, null, hiRest);
  }
  return { empty, nonEmpty: options.length ? alt(...options) : null };
}

/** `("." digits)` constrained to [lo, hi] as fractions; null when nothing qualifies. */
function fractionPart(lo: string | null, hi: string | null): GbnfExpr | null {
  const f = fraction(lo, hi, MAX_FRACTION_DIGITS);
  const dotted = f.nonEmpty ? seq(lit("."), f.nonEmpty) : null;
  if (f.empty) return dotted ? opt(dotted) : EMPTY;
  return dotted;
}

/** Non-negative decimals in [lo, hi]. */
export function nonNegativeDecimalRange(lo: Decimal, hi: Decimal): GbnfExpr | null {
  const cap = 10n ** BigInt(MAX_INT_DIGITS) - 1n;
  if (hi.int > cap) hi = { int: cap, frac: "9".repeat(MAX_FRACTION_DIGITS) };
  if (lo.int > hi.int) return null;
  const options: GbnfExpr[] = [];
  const withFraction = (int: bigint, f: GbnfExpr | null) => {
    if (f) options.push(seq(lit(int.toString()), f));
  };
  if (lo.int === hi.int) {
    withFraction(lo.int, fractionPart(lo.frac, hi.frac));
  } else {
    const loExact = lo.frac === "";
    if (!loExact) withFraction(lo.int, fractionPart(lo.frac, null));
    const middle = nonNegativeRange(loExact ? lo.int : lo.int + 1n, hi.int - 1n);
    if (middle) options.push(seq(middle, opt(seq(lit("."), rep(cls([[0x30, 0x39]]), 1, MAX_FRACTION_DIGITS)))));
    withFraction(hi.int, fractionPart(null, hi.frac));
  }
  return options.length ? alt(...options) : null;
}

/** Smallest positive decimal with MAX_FRACTION_DIGITS digits. */
const SMALLEST: Decimal = { int: 0n, frac: "0".repeat(MAX_FRACTION_DIGITS - 1) + "1" };

function lessThan(a: Decimal, b: Decimal): boolean {
  if (a.int !== b.int) return a.int < b.int;
  const n = Math.max(a.frac.length, b.frac.length);
  return a.frac.padEnd(n, "0") < b.frac.padEnd(n, "0");
}

/** Signed decimals in [lo, hi]; each side is {negative, magnitude} or null for unbounded. */
export function decimalRange(
  lo: { negative: boolean; value: Decimal } | null,
  hi: { negative: boolean; value: Decimal } | null,
): GbnfExpr | null {
  const huge: Decimal = { int: 10n ** BigInt(MAX_INT_DIGITS), frac: "" };
  const zero: Decimal = { int: 0n, frac: "" };
  const options: GbnfExpr[] = [];
  // Negative values: magnitudes in [max(-hi, smallest), -lo]; "-0" forms are left to the non-negative side.
  const loNegative = lo === null || (lo.negative && (lo.value.int > 0n || lo.value.frac !== ""));
  if (loNegative) {
    const magHi = lo === null ? huge : lo.value;
    let magLo = hi !== null && hi.negative ? hi.value : SMALLEST;
    if (lessThan(magLo, SMALLEST)) magLo = SMALLEST;
    if (!lessThan(magHi, magLo)) {
      const r = nonNegativeDecimalRange(magLo, magHi);
      if (r) options.push(seq(lit("-"), r));
    }
  }
  const hiNonNegative = hi === null || !hi.negative || (hi.value.int === 0n && hi.value.frac === "");
  if (hiNonNegative) {
    const from = lo === null || lo.negative ? zero : lo.value;
    const to = hi === null ? huge : hi.negative ? zero : hi.value;
    if (!lessThan(to, from)) {
      const r = nonNegativeDecimalRange(from, to);
      if (r) options.push(r);
    }
  }
  return options.length ? alt(...options) : null;
}
