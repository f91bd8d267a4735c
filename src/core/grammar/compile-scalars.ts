/**
 * Scalars: enums and consts (each listed value checked against the node's other keywords), strings
 * (lengths, formats and patterns), integers and numbers (exact ranges on the parsed value).
 */
import { EMPTY, lit, seq, type GbnfExpr } from "./gbnf-ast";
import { AJV_FORMATS, FORMAT_MAX_LENGTH, FORMAT_PATTERNS, NUMBER_FORMATS, PATTERNS_WITHIN_FORMAT } from "./formats";
import { integerRange } from "./integer-range";
import { decimalRange } from "./decimal-range";
import { highestTextAtMost, lowestTextAtLeast } from "./double-edges";
import { jsonInteger, jsonNonInteger, jsonNumber, jsonString } from "./json-text";
import { literalChoice } from "./literal-choice";
import { patternLengths, translatePattern, translatePatternCapped } from "./json-string-pattern";
import { anyKeyLanguage, boundKeyLanguage, keyRule } from "./key-language";
import { parseRegex, UntranslatableRegex, type AnchoredBranch } from "./regex";
import { stringLanguage } from "./string-automaton";
import type { Merged } from "./schema-merge";
import type { JsonSchema } from "./types";
import { isSchema, nextDouble, signed, toBigInt, type Schema } from "./schema-words";
import { type Ctx, type CompileContext, count, num } from "./compile-context";

export function compileEnum(compiler: CompileContext, s: Schema, m: Merged, ctx: Ctx): GbnfExpr | null {
  const { enum: values, ...rest } = s;
  // Every other keyword of the node decides membership of each listed value exactly.
  const check: Schema = { ...rest };
  const extra: JsonSchema[] = [
    ...m.collected.map((c) => (c.keyword === "if" ? c.part.schema : c.keyword === "contains" && isSchema(c.part.schema) && "contains" in c.part.schema ? c.part.schema : { [c.keyword]: c.part.schema })),
    ...m.extraPatterns.map((x) => ({ pattern: x.pattern })),
    ...m.extraFormats.map((x) => ({ format: x.format })),
    ...m.extraMultiples.map((x) => ({ multipleOf: x.value })),
  ];
  if (extra.length) check.allOf = extra;
  if (isSchema(check.dependentRequired) || isSchema(check.dependentSchemas)) check.dependencies = { ...(check.dependentRequired as object), ...(check.dependentSchemas as object) };
  compiler.checker.undecided = null;
  const kept = (values as unknown[]).filter((v) => compiler.checker.matches(check, v, ctx.base));
  const undecided = compiler.checker.takeUndecided();
  if (undecided) compiler.relax(ctx.pointer, undecided, `some ${undecided} beside enum could not be checked, so every listed value is allowed`);
  const texts = [...new Set(kept.map((v) => JSON.stringify(v)))];
  if (texts.length === 0) return null;
  const choice = literalChoice(texts.map((text) => ({ text, then: EMPTY })));
  return choice.kind === "literal" ? choice : compiler.rules.add(`${compiler.hint}-enum`, choice, `enum|${JSON.stringify(texts)}`);
}

export function compileString(compiler: CompileContext, s: Schema, ctx: Ctx): GbnfExpr | null {
  const minLength = count(s.minLength) ?? 0;
  const format = typeof s.format === "string" ? s.format : undefined;
  const formatMax = format === undefined ? undefined : FORMAT_MAX_LENGTH[format];
  const declaredMax = formatMax === undefined ? count(s.maxLength) : Math.min(formatMax, count(s.maxLength) ?? formatMax);
  const pattern = typeof s.pattern === "string" ? s.pattern : undefined;
  let source: string | undefined = pattern;
  if (format && FORMAT_PATTERNS[format]) {
    source = FORMAT_PATTERNS[format];
    if (pattern !== undefined) {
      const within = PATTERNS_WITHIN_FORMAT[format]?.[pattern];
      if (within !== undefined) source = within;
      else compiler.relax(ctx.pointer, "pattern", `the pattern next to format "${format}" is not enforced; the grammar enforces the format only`);
    }
  } else if (format && AJV_FORMATS.has(format) && !NUMBER_FORMATS.has(format)) {
    compiler.relax(ctx.pointer, "format", `the format "${format}" is not enforced by the grammar`);
  }
  // A pattern or format that bounds its own length needs no cap; otherwise the default cap applies.
  const lengths = source === undefined ? null : patternLengths(source);
  let maxLength = declaredMax;
  let capped = false;
  if (maxLength === undefined) {
    if (lengths && lengths[1] !== Infinity) maxLength = lengths[1];
    else {
      maxLength = Math.max(compiler.options.maxStringChars, minLength, lengths ? lengths[0] : 0);
      capped = true;
      compiler.cap(ctx.pointer, "string", maxLength);
    }
  }
  if (minLength > maxLength) return null;
  const excluded = compiler.excludedStrings.get(s);
  const negated = compiler.excludedPatterns.get(s) ?? [];
  if (source === undefined && negated.length === 0) {
    // Any string of these lengths but the listed ones, each written in its one canonical spelling.
    if (!excluded) return jsonString(compiler.rules, minLength, maxLength);
    const lang = boundKeyLanguage(anyKeyLanguage(maxLength), minLength, maxLength);
    return lang && keyRule(compiler.rules, excluded, lang, "string-except");
  }
  // Under the default cap only output size matters, so each unbounded quantifier gets its own cap
  // instead of narrowing the pattern to a total length (which can drop strings the pattern allows).
  const translated = source === undefined ? null : capped ? translatePatternCapped(source, minLength, maxLength, compiler.rules) : translatePattern(source, minLength, maxLength, compiler.rules);
  const what = source === pattern ? "pattern" : "format";
  if (translated && !translated.ok) {
    // Narrowing gave up (or the pattern is outside the subset): the automaton may still build it exactly.
    const exact = exactStrings(compiler, { source, negated, excluded: excluded ?? [], minLength, maxLength, capped });
    if (exact !== undefined && !excluded && !negated.length) return exact;
    compiler.relax(`${ctx.pointer}`, what, `${translated.reason}, so the grammar allows any string of ${minLength}..${maxLength} characters there`);
    return jsonString(compiler.rules, minLength, maxLength);
  }
  if (translated && translated.content === null) return null;
  const loosened = translated?.lengthsLoosened === true;
  if (!translated || loosened || excluded || negated.length) {
    // The pattern's strings of these lengths, less the ones left out, as an automaton (exact within its budget).
    const language = { source, negated, excluded: excluded ?? [], minLength, maxLength, capped };
    const exact = exactStrings(compiler, language);
    if (exact !== undefined) return exact;
    if (negated.length) compiler.relax(ctx.pointer, "not", "the strings this not leaves out need more automaton states than the budget allows, so they are not left out");
    if (excluded) compiler.relax(ctx.pointer, "not", "the strings this not leaves out are not left out of the pattern's strings");
    if (loosened && capped) compiler.relax(ctx.pointer, "minLength", `the ${what}'s pieces cannot share the minimum length exactly within the automaton budget, so shorter strings are allowed and the minimum is left to the validator`);
    else if (loosened) compiler.relax(ctx.pointer, "maxLength", `the ${what}'s pieces cannot share the length bounds exactly within the automaton budget, so each piece is bounded on its own and the string's length is left to the validator`);
    if (!translated) return jsonString(compiler.rules, minLength, maxLength);
  }
  return compiler.rules.add(`${compiler.hint}-pattern`, seq(lit('"'), translated.content!, lit('"')), `pattern|${minLength}|${maxLength}|${capped}|${source}`);
}

/** What exactStrings builds: a pattern's strings (any string without one) of these lengths, less some. */
interface ExactStrings {
  source: string | undefined;
  /** Patterns whose strings are left out. */
  negated: string[];
  /** Strings left out. */
  excluded: string[];
  minLength: number;
  maxLength: number;
  /** maxLength is the default cap: only minLength is counted, and each loop is capped at maxLength. */
  capped: boolean;
}

/**
 * The string rule for the language, built as an automaton (see string-automaton.ts); undefined past
 * its budget or for a pattern outside the regex subset, null when no string qualifies.
 */
function exactStrings(compiler: CompileContext, x: ExactStrings): GbnfExpr | null | undefined {
  let pattern: AnchoredBranch[] | null = null;
  const negated: AnchoredBranch[][] = [];
  try {
    if (x.source !== undefined) pattern = parseRegex(x.source);
    for (const p of x.negated) negated.push(parseRegex(p));
  } catch (err) {
    if (err instanceof UntranslatableRegex) return undefined;
    throw err;
  }
  for (const text of x.excluded) negated.push([{ node: { kind: "seq", items: [...text].map((ch) => ({ kind: "set", ranges: [[ch.codePointAt(0)!, ch.codePointAt(0)!]] })) }, start: true, end: true }]);
  const key = JSON.stringify([x.source ?? null, x.negated, x.excluded, x.minLength, x.maxLength, x.capped]);
  const built = stringLanguage(key, { pattern, negated, minLength: x.minLength, maxLength: x.capped ? Infinity : x.maxLength, loopCap: x.maxLength }, compiler.rules);
  if (built === undefined) return undefined;
  if (built.content === null) return null;
  return compiler.rules.add(`${compiler.hint}-pattern`, seq(lit('"'), built.content, lit('"')), `strings|${key}`);
}

/** Integer multipleOf values whose multiples in a bounded range are written out one by one, at most. */
const MAX_LISTED_MULTIPLES = 256;

/**
 * multipleOf on a number or integer node: nothing to do where every integer is a multiple (1, 0.5,
 * 0.25 on integers); otherwise relaxed, unless the caller handles it (integers in a short range).
 */
function multipleOf(compiler: CompileContext, s: Schema, ctx: Ctx, integer: boolean): void {
  if (s.multipleOf === undefined) return;
  if (integer && typeof s.multipleOf === "number" && (s.multipleOf === 1 || s.multipleOf === 0.5 || s.multipleOf === 0.25)) return;
  compiler.relax(ctx.pointer, "multipleOf", "multipleOf is not enforced by the grammar");
}

/**
 * The multiples of a whole step between two integer bounds, written out, when there are few and all
 * are exact doubles; undefined otherwise. (Below 2^53 the validator's division is exact, so a value
 * passes exactly when the step divides it.)
 */
function listedMultiples(lo: bigint, hi: bigint, step: number): GbnfExpr | null | undefined {
  const exact = 2n ** 53n;
  if (!Number.isInteger(step) || step < 2 || lo < -exact || hi > exact) return undefined;
  const k = BigInt(step);
  const first = lo >= 0n ? ((lo + k - 1n) / k) * k : -((-lo / k) * k);
  if (first > hi) return null;
  if ((hi - first) / k + 1n > BigInt(MAX_LISTED_MULTIPLES)) return undefined;
  const texts: string[] = [];
  for (let v = first; v <= hi; v += k) texts.push(String(v));
  return literalChoice(texts.map((text) => ({ text, then: EMPTY })));
}

export function compileInteger(compiler: CompileContext, s: Schema, ctx: Ctx): GbnfExpr | null {
  const min = num(s.minimum);
  const max = num(s.maximum);
  const xmin = num(s.exclusiveMinimum);
  const xmax = num(s.exclusiveMaximum);
  const los: bigint[] = [];
  const his: bigint[] = [];
  if (s.format === "int32") {
    los.push(-(2n ** 31n));
    his.push(2n ** 31n - 1n);
  }
  if (min !== undefined) los.push(toBigInt(Math.ceil(min)));
  if (xmin !== undefined) los.push(toBigInt(Math.floor(xmin)) + 1n);
  if (max !== undefined) his.push(toBigInt(Math.floor(max)));
  if (xmax !== undefined) his.push(toBigInt(Math.ceil(xmax)) - 1n);
  const lo = los.length ? los.reduce((a, b) => (a > b ? a : b)) : -(10n ** 16n);
  const hi = his.length ? his.reduce((a, b) => (a < b ? a : b)) : 10n ** 16n;
  const step = num(s.multipleOf);
  const multiples = step !== undefined && los.length > 0 && his.length > 0 ? listedMultiples(lo, hi, step) : undefined;
  if (multiples !== undefined) return multiples && multiples.kind !== "literal" ? compiler.rules.add(`int-${signed(lo)}-${signed(hi)}-by-${step}`, multiples) : multiples;
  multipleOf(compiler, s, ctx, true);
  if (los.length === 0 && his.length === 0) return jsonInteger(compiler.rules);
  const e = cachedIntegerRange(lo, hi);
  return e && e.kind !== "literal" ? compiler.rules.add(`int-${signed(lo)}-${signed(hi)}`, e, `int|${lo}|${hi}`) : e;
}

export function compileNumber(compiler: CompileContext, s: Schema, ctx: Ctx): GbnfExpr | null {
  const whole = s.format === "int32" || s.format === "int64" || (typeof s.multipleOf === "number" && Number.isInteger(s.multipleOf) && s.multipleOf >= 1);
  const notWhole = compiler.nonInteger.get(s);
  // Integer formats and a whole step admit only integers (ajv: value / step is an integer), so the node is an integer one.
  if (whole) return notWhole === undefined ? compileInteger(compiler, s, ctx) : null;
  multipleOf(compiler, s, ctx, false);
  const min = num(s.minimum);
  const max = num(s.maximum);
  const xmin = num(s.exclusiveMinimum);
  const xmax = num(s.exclusiveMaximum);
  const unbounded = min === undefined && max === undefined && xmin === undefined && xmax === undefined;
  if (notWhole !== undefined) {
    if (unbounded && s.multipleOf === undefined) return jsonNonInteger(compiler.rules);
    compiler.relax(notWhole, "not", "not {type: integer} beside a bounded number is not enforced");
  }
  if (unbounded) return jsonNumber(compiler.rules);
  // Bounds are on the parsed double: an exclusive bound moves to the next double, then each side
  // becomes the exact edge of the texts that round into range (double-edges.ts), so the rule
  // accepts a text exactly when ajv accepts the value it parses to.
  const lows = [min, xmin === undefined ? undefined : nextDouble(xmin, 1)].filter((v): v is number => v !== undefined);
  const highs = [max, xmax === undefined ? undefined : nextDouble(xmax, -1)].filter((v): v is number => v !== undefined);
  const lo = lows.length ? Math.max(...lows) : undefined;
  const hi = highs.length ? Math.min(...highs) : undefined;
  if (lo !== undefined && hi !== undefined && lo > hi) return null;
  const e = decimalRange(lo === undefined ? null : lowestTextAtLeast(lo), hi === undefined ? null : highestTextAtMost(hi));
  return e && e.kind !== "literal" ? compiler.rules.add(`num-${lo === undefined ? "min" : signed(lo)}-${hi === undefined ? "max" : signed(hi)}`, e, `num|${lo}|${hi}`) : e;
}

/** integerRange results are pure and recur (the same bounds across schemas), so they are kept. */
const integerRanges = new Map<string, GbnfExpr | null>();
function cachedIntegerRange(lo: bigint, hi: bigint): GbnfExpr | null {
  const key = `${lo}|${hi}`;
  if (!integerRanges.has(key)) {
    if (integerRanges.size > 500) integerRanges.clear();
    integerRanges.set(key, integerRange(lo, hi));
  }
  return integerRanges.get(key)!;
}
