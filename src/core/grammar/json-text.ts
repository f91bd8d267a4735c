/** Shared rules for JSON text: string characters, generic numbers, and bounded strings. */
import { alt, chars, cls, lit, opt, rep, seq, type GbnfExpr } from "./gbnf-ast";
import { boundedRepeat } from "./bounded-repeat";
import type { RuleSet } from "./rule-set";

/** Digits allowed in an integer part: 16 covers every safe integer (Zod's `int()` bounds). */
export const MAX_INT_DIGITS = 16;
/** Digits allowed after the decimal point. */
export const MAX_FRACTION_DIGITS = 16;
/** Digits allowed in an exponent of an unbounded number (keeps every value finite). */
export const MAX_EXPONENT_DIGITS = 2;

const HEX: Array<[number, number]> = [
  [0x30, 0x39],
  [0x41, 0x46],
  [0x61, 0x66],
];

export const digit = (): GbnfExpr => cls([[0x30, 0x39]]);
export const nonZeroDigit = (): GbnfExpr => cls([[0x31, 0x39]]);

/**
 * One JSON string character: any code point except `"`, `\` and controls, or an escape. `\u` escapes
 * exclude surrogate halves, so every character counts as one code point for minLength/maxLength
 * (non-BMP characters are written raw).
 *
 * The raw class lists only those three entries on purpose: llama.cpp checks every entry of a class
 * for every character of every candidate token, and measured on the 32,000-token model two more
 * entries (surrogates, values past U+10FFFF) cost 13% per token inside strings. Those code points
 * only arise from ill-formed UTF-8, which the engine prevents by banning split-character tokens
 * (utf8-guard.ts); the grammar's promises assume that ban.
 */
export function jsonChar(rules: RuleSet): GbnfExpr {
  return rules.shared("json-char", () =>
    alt(
      cls(
        [
          [0x22, 0x22],
          [0x5c, 0x5c],
          [0x00, 0x1f],
        ],
        true,
      ),
      seq(lit("\\"), jsonEscape()),
    ),
  );
}

/** What may follow a backslash (inline: one rule less to expand per escape). */
function jsonEscape(): GbnfExpr {
  return alt(
      chars('"\\/bfnrt'),
      seq(
        lit("u"),
        alt(
          seq(cls([[0x30, 0x39], [0x41, 0x43], [0x61, 0x63]]), rep(cls(HEX), 3, 3)),
          seq(chars("Dd"), cls([[0x30, 0x37]]), rep(cls(HEX), 2, 2)),
          seq(chars("EFef"), rep(cls(HEX), 3, 3)),
        ),
      ),
    );
}

/** A JSON string of minLength..maxLength code points. */
export function jsonString(rules: RuleSet, minLength: number, maxLength: number): GbnfExpr {
  const body = boundedRepeat(jsonChar(rules), minLength, maxLength);
  return rules.add(`string-${minLength}-${maxLength}`, seq(lit('"'), body, lit('"')), `string|${minLength}|${maxLength}`);
}

/** Any integer of up to MAX_INT_DIGITS digits. */
export function jsonInteger(rules: RuleSet): GbnfExpr {
  return rules.shared("json-integer", () =>
    seq(opt(lit("-")), alt(lit("0"), seq(nonZeroDigit(), rep(digit(), 0, MAX_INT_DIGITS - 1)))),
  );
}

/** Any finite JSON number with bounded digits (fraction and exponent allowed). */
export function jsonNumber(rules: RuleSet): GbnfExpr {
  return rules.shared("json-number", () =>
    seq(
      jsonInteger(rules),
      opt(seq(lit("."), rep(digit(), 1, MAX_FRACTION_DIGITS))),
      opt(seq(chars("eE"), opt(chars("-+")), rep(digit(), 1, MAX_EXPONENT_DIGITS))),
    ),
  );
}

export function jsonBoolean(rules: RuleSet): GbnfExpr {
  return rules.shared("json-boolean", () => alt(lit("true"), lit("false")));
}

export const jsonNull = (): GbnfExpr => lit("null");

/** Significant digits of a number that must not be an integer (see jsonNonInteger). */
export const MAX_NON_INTEGER_DIGITS = 15;

/**
 * A JSON number whose value is not an integer: a fraction with a non-zero digit, no exponent, and
 * at most MAX_NON_INTEGER_DIGITS digits from the first integer digit (from the point, below 1) to
 * the last non-zero fraction digit (trailing zeros allowed up to MAX_FRACTION_DIGITS). With that many digits a decimal that is
 * not whole stays not whole as a double (its distance to an integer, at least 10^-f for f fraction
 * digits, is more than half a unit in the last place), so every text here parses to a non-integer;
 * a non-integer whose shortest text needs an exponent or more digits is left out.
 */
export function jsonNonInteger(rules: RuleSet): GbnfExpr {
  return rules.shared("json-non-integer", () => {
    const fraction = (digits: number, zeros: number) => seq(lit("."), rep(digit(), 0, digits - 1), nonZeroDigit(), rep(lit("0"), 0, zeros));
    const options: GbnfExpr[] = [seq(lit("0"), fraction(MAX_NON_INTEGER_DIGITS, MAX_FRACTION_DIGITS - MAX_NON_INTEGER_DIGITS))];
    for (let n = 1; n < MAX_NON_INTEGER_DIGITS; n++) {
      const left = MAX_NON_INTEGER_DIGITS - n;
      options.push(seq(nonZeroDigit(), rep(digit(), n - 1, n - 1), fraction(left, MAX_FRACTION_DIGITS - left)));
    }
    return seq(opt(lit("-")), alt(...options));
  });
}
