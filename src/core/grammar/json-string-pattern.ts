/** Translates a parsed regex into GBNF over JSON string content (what sits between the quotes). */
import { EMPTY, alt, cls, lit, ref, seq, type GbnfExpr } from "./gbnf-ast";
import { literalChoice } from "./literal-choice";
import { printExpr } from "./gbnf-printer";
import { boundedRepeat } from "./bounded-repeat";
import { complement, contains, intersect, normalize, type CharRanges } from "./char-set";
import { boundLength, capQuantifiers, lengthRange, narrowingWasLossy, parseRegex, resetNarrowing, UntranslatableRegex, withoutEmpty, type RegexNode } from "./regex";
import type { RuleSet } from "./rule-set";
import { fnv1a36 } from "../text/fnv";

/** Code points a JSON string may hold raw (surrogates and ill-formed bytes are the engine's to prevent, see json-text.ts). */
const RAW_ALLOWED: CharRanges = complement([
  [0x00, 0x1f],
  [0x22, 0x22],
  [0x5c, 0x5c],
]);
/** Every code point a string can hold. */
export const ANY_CHAR: CharRanges = [[0, 0x10ffff]];

const SHORT_ESCAPES = new Map<number, string>([
  [0x08, "b"],
  [0x0c, "f"],
  [0x0a, "n"],
  [0x0d, "r"],
  [0x09, "t"],
]);

/** A class printed in whichever form (plain or negated) needs fewer ranges. */
export function compactClass(ranges: CharRanges): GbnfExpr {
  const inverse = complement(ranges);
  return inverse.length < ranges.length ? cls(inverse, true) : cls(ranges);
}

/**
 * The JSON encodings of one character from the set: raw where JSON allows it, `\"` `\\` `\/`, the
 * short escapes, and `\u00XX` (either hex case) for other control characters.
 */
export function encodeCharSet(set: CharRanges): GbnfExpr | null {
  const key = set.map(([a, b]) => `${a}-${b}`).join(",");
  if (encodings.has(key)) return encodings.get(key)!;
  const e = encodeUncached(set);
  remember(encodings, key, e);
  return e;
}

/** Pure results reused across compilations (the same patterns recur in every catalog compile). */
const encodings = new Map<string, GbnfExpr | null>();
const boundedPatterns = new Map<string, RegexNode | string | null>();
const CACHE_LIMIT = 1000;

function remember<V>(cache: Map<string, V>, key: string, value: V): void {
  if (cache.size >= CACHE_LIMIT) cache.delete(cache.keys().next().value!);
  cache.set(key, value);
}

function encodeUncached(set: CharRanges): GbnfExpr | null {
  const options: GbnfExpr[] = [];
  const raw = intersect(set, RAW_ALLOWED);
  if (raw.length === 1 && raw[0][0] === raw[0][1]) options.push(lit(String.fromCodePoint(raw[0][0])));
  else if (raw.length) options.push(compactClass(raw));
  // Escapes share one backslash and a prefix tree, so a position inside the string keeps two live parses.
  const escapes: string[] = [];
  if (contains(set, 0x22)) escapes.push('"');
  if (contains(set, 0x5c)) escapes.push("\\");
  if (contains(set, 0x2f)) escapes.push("/");
  for (const [a, b] of intersect(set, [[0x00, 0x1f]])) {
    for (let cp = a; cp <= b; cp++) {
      const short = SHORT_ESCAPES.get(cp);
      if (short) escapes.push(short);
      const hex = cp.toString(16).padStart(4, "0");
      escapes.push(`u${hex}`);
      if (hex !== hex.toUpperCase()) escapes.push(`u${hex.toUpperCase()}`);
    }
  }
  if (escapes.length) options.push(seq(lit("\\"), literalChoice(escapes.map((text) => ({ text, then: EMPTY })))));
  return options.length ? alt(...options) : null;
}

/** Rules a translated pattern needs: fixed names derived from their bodies, so translations can be reused. */
export type RuleDefs = Map<string, GbnfExpr>;
/** Every name handed out, with its body, so two different bodies never share a name. */
const namedBodies = new Map<string, string>();

/** A reference to a shared rule for this body (names start with `json-`, which derived names never take). */
export function sharedRule(prefix: string, body: GbnfExpr, defs: RuleDefs): GbnfExpr {
  const text = printExpr(body);
  let name = `json-${prefix}-${fnv1a36(text)}`;
  for (let i = 2; namedBodies.has(name) && namedBodies.get(name) !== text; i++) name = `json-${prefix}-${fnv1a36(text)}-${i}`;
  namedBodies.set(name, text);
  defs.set(name, body);
  return ref(name);
}

function toGbnf(node: RegexNode, defs: RuleDefs): GbnfExpr | null {
  switch (node.kind) {
    case "set": {
      const e = encodeCharSet(node.ranges);
      return e && e.kind === "alt" ? sharedRule("pchar", e, defs) : e;
    }
    case "seq": {
      const items: GbnfExpr[] = [];
      for (const item of node.items) {
        const e = toGbnf(item, defs);
        if (!e) return null;
        items.push(e);
      }
      return seq(...items);
    }
    case "alt": {
      const options = node.options.map((o) => toGbnf(o, defs)).filter((o): o is GbnfExpr => o !== null);
      return options.length ? alt(...options) : null;
    }
    case "repeat": {
      if (lengthRange(node.item)[0] === 0) {
        // A nullable item repeated would be left-recursive in llama.cpp; (x){m,n} = (x without empty){0,n}.
        const solid = withoutEmpty(node.item);
        if (!solid) return seq();
        // (x{1,a}){0,b} is x{0,a*b}: every count splits into at most b runs of 1..a.
        if (solid.kind === "repeat" && solid.min === 1) return toGbnf({ kind: "repeat", item: solid.item, min: 0, max: solid.max * node.max }, defs);
        return toGbnf({ kind: "repeat", item: solid, min: 0, max: node.max }, defs);
      }
      const item = toGbnf(node.item, defs);
      if (!item) return node.min === 0 ? seq() : null;
      const atom = item.kind === "seq" || item.kind === "alt" || item.kind === "repeat" ? sharedRule("pgroup", item, defs) : item;
      return boundedRepeat(atom, node.min, node.max);
    }
  }
}

/**
 * The outcome of translating a pattern: the string content rule, or why it could not be done.
 * `lengthsLoosened`: the pattern's pieces could not share the length bounds exactly, so each piece
 * is bounded on its own instead (under the default cap: minLength is not applied) and the total
 * length is left to the validator.
 */
export type PatternTranslation = { ok: true; content: GbnfExpr | null; lengthsLoosened?: boolean } | { ok: false; reason: string };

/**
 * JSON string content matching the pattern (ECMAScript semantics: unanchored ends match anything)
 * whose decoded length is within [minLength, maxLength]. `content: null` means no string qualifies.
 */
export function translatePattern(pattern: string, minLength: number, maxLength: number, rules: RuleSet): PatternTranslation {
  const key = `${minLength},${maxLength},${pattern}`;
  return translateWith(key, () => boundPattern(pattern, minLength, maxLength, key), rules, minLength, maxLength);
}

/**
 * Like translatePattern, for a string whose only upper bound is the default cap: each unbounded
 * quantifier is capped on its own (at `maxLength` more repetitions, fewer when that keeps the whole
 * pattern within `maxLength`, never below 64 or maxLength), so every string the pattern allows up to those
 * counts is kept. The longest match may exceed maxLength; the grammar's byte bound says by how much.
 */
export function translatePatternCapped(pattern: string, minLength: number, maxLength: number, rules: RuleSet): PatternTranslation {
  const key = `capped|${minLength},${maxLength},${pattern}`;
  return translateWith(key, () => capPattern(pattern, minLength, maxLength, key), rules, minLength, maxLength);
}

function translateWith(key: string, build: () => RegexNode | string | null, rules: RuleSet, minLength: number, maxLength: number): PatternTranslation {
  let bounded = boundedPatterns.get(key);
  if (bounded === undefined) {
    bounded = build();
    remember(boundedPatterns, key, bounded);
  }
  const lengthsLoosened = loosened.has(key);
  if (bounded === null) return { ok: false, reason: `its quantifiers cannot be narrowed to lengths ${minLength}..${maxLength}` };
  if (bounded === EMPTY_LANGUAGE) return { ok: true, content: null };
  if (typeof bounded === "string") return { ok: false, reason: bounded };
  let translated = translations.get(key);
  if (!translated) {
    const defs: RuleDefs = new Map();
    translated = { content: toGbnf(bounded, defs), defs };
    remember(translations, key, translated);
  }
  for (const [name, body] of translated.defs) rules.shared(name, () => body);
  return lengthsLoosened ? { ok: true, content: translated.content, lengthsLoosened } : { ok: true, content: translated.content };
}

/** Keys of translations whose length bounds were loosened (see PatternTranslation). */
const loosened = new Set<string>();

/** Translated contents with the shared rules they reference. */
const translations = new Map<string, { content: GbnfExpr | null; defs: RuleDefs }>();

/** Shortest and longest match of a pattern in code points, or null when it is untranslatable. */
export function patternLengths(pattern: string): [number, number] | null {
  if (lengthsCache.has(pattern)) return lengthsCache.get(pattern)!;
  const lengths = patternLengthsUncached(pattern);
  remember(lengthsCache, pattern, lengths);
  return lengths;
}

const lengthsCache = new Map<string, [number, number] | null>();

function patternLengthsUncached(pattern: string): [number, number] | null {
  try {
    const branches = parseRegex(pattern);
    const lengths = branches.map((b) => {
      const [lo, hi] = lengthRange(b.node);
      return [lo, b.start && b.end ? hi : Infinity] as [number, number];
    });
    return [Math.min(...lengths.map((l) => l[0])), Math.max(...lengths.map((l) => l[1]))];
  } catch (err) {
    if (err instanceof UntranslatableRegex) return null;
    throw err;
  }
}

/** The whole pattern as one node (unanchored ends match anything); a string says why it is untranslatable. */
function wholePattern(pattern: string): RegexNode | string {
  let branches;
  try {
    branches = parseRegex(pattern);
  } catch (err) {
    if (err instanceof UntranslatableRegex) return `the pattern uses ${err.message}`;
    throw err;
  }
  const anything: RegexNode = { kind: "repeat", item: { kind: "set", ranges: normalize(ANY_CHAR) }, min: 0, max: Infinity };
  const options: RegexNode[] = branches.map((b) => ({
    kind: "seq",
    items: [...(b.start ? [] : [anything]), b.node, ...(b.end ? [] : [anything])],
  }));
  return options.length === 1 ? options[0] : { kind: "alt", options };
}

/** Narrowing with its work budget; a string says why it failed. */
function narrow(node: RegexNode, minLength: number, maxLength: number): RegexNode | string | null {
  resetNarrowing();
  try {
    return boundLength(node, minLength, maxLength);
  } catch (err) {
    if (err instanceof UntranslatableRegex) return `the pattern has ${err.message}`;
    throw err;
  }
}

/**
 * The regex narrowed to the lengths; a string says why it is untranslatable; null when it cannot be
 * narrowed. Where exact narrowing would leave out strings (several unbounded pieces sharing one
 * maxLength), each piece is capped at maxLength instead: a superset, marked loosened under `key`.
 */
function boundPattern(pattern: string, minLength: number, maxLength: number, key: string): RegexNode | string | null {
  const whole = wholePattern(pattern);
  if (typeof whole === "string") return whole;
  const [shortest, longest] = lengthRange(whole);
  if (shortest > maxLength || longest < minLength) return EMPTY_LANGUAGE;
  const exact = narrow(whole, minLength, maxLength);
  if (typeof exact === "string" || !narrowingWasLossy()) return exact;
  if (loosened.size >= CACHE_LIMIT) loosened.clear();
  loosened.add(key);
  return capQuantifiers(whole, maxLength);
}

/** The pattern with its unbounded quantifiers capped (see translatePatternCapped), then minLength applied. */
function capPattern(pattern: string, minLength: number, maxLength: number, key: string): RegexNode | string | null {
  const whole = wholePattern(pattern);
  if (typeof whole === "string") return whole;
  const floor = Math.min(64, maxLength);
  let k = maxLength;
  let capped = capQuantifiers(whole, k);
  while (k > floor && lengthRange(capped)[1] > maxLength) {
    k = Math.max(floor, Math.floor(k / 2));
    capped = capQuantifiers(whole, k);
  }
  const [shortest, longest] = lengthRange(capped);
  if (longest < minLength) return EMPTY_LANGUAGE;
  if (shortest >= minLength) return capped;
  const narrowed = narrow(capped, minLength, longest);
  if (typeof narrowed === "string" || narrowed === null || !narrowingWasLossy()) return narrowed;
  // Narrowing to minLength would leave out strings: the capped pattern without it (a superset), marked loosened.
  if (loosened.size >= CACHE_LIMIT) loosened.clear();
  loosened.add(key);
  return capped;
}

/** Marks a pattern no string of the allowed lengths can match. */
const EMPTY_LANGUAGE = "\u0000empty";
