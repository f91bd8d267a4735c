/**
 * Objects: declared and required members in a fixed order, extra keys from propertyNames,
 * patternProperties and additionalProperties (key languages, see key-language.ts), and
 * minProperties/maxProperties counted over the member list.
 */
import { EMPTY, alt, lit, opt, seq, type GbnfExpr } from "./gbnf-ast";
import { boundedRepeat } from "./bounded-repeat";
import { extraKey } from "./extra-key";
import { translatePatternCapped } from "./json-string-pattern";
import { MAX_OUTSIDE_LANGUAGES, anyKeyLanguage, containedClassOf, keysWithout, boundKeyLanguage, disjointKeyLanguages, isEveryKey, keyInLanguage, keyLanguageOf, keyRule, keyRuleOutside, type KeyLanguage } from "./key-language";
import { jsonEqual, patternRegex } from "./value-check";
import type { JsonSchema } from "./types";
import { MAX_EXTRA_KEY_CHARS, constrainingKeys, escapePointer, isSchema, type Schema } from "./schema-words";
import { type Ctx, type CompileContext, count } from "./compile-context";

/** Objects with more count states (min/maxProperties) than this relax the counts. */
const MAX_COUNT_STATES = 4096;
/** Optional members per named tail rule of a long object (see compileObject). */
const TAIL_CHUNK = 8;

/** Extra keys of an object: a key language (or the keys outside some languages) and their value schema. */
interface Extra {
  lang: KeyLanguage;
  /** Keys in none of these languages (and in `lang`). */
  outside?: KeyLanguage[];
  /** Keys the pattern matches (instead of `lang`). */
  regex?: string;
  value: JsonSchema;
  pointer: string;
}

/** One declared or required member of an object: `"name":value`, and whether it must appear. */
interface Slot {
  required: boolean;
  expr: GbnfExpr;
}

/** What an object's member list is built from (see memberList). */
interface MemberPlan {
  slots: Slot[];
  /** One undeclared member, when any is allowed. */
  extraRule: GbnfExpr | null;
  maxExtra: number;
  minP: number;
  maxP: number;
  /** Members counted up to this many; past it only "at least one" matters. */
  top: number;
  /** members(i, c) by i * (top + 1) + c. */
  memo: Map<number, GbnfExpr | null>;
}

/** `,` then the member. */
function comma(e: GbnfExpr): GbnfExpr {
  return seq(lit(","), e);
}

/**
 * The extra keys: key languages with their value schemas, from propertyNames, patternProperties and
 * additionalProperties. With patterns, extra keys come from the patterns' languages (keys matching no
 * pattern are left out: a narrowing, never a loosening); overlapping or complex patterns relax.
 */
function extraKeys(compiler: CompileContext, s: Schema, ctx: Ctx): Extra[] {
  let lang: KeyLanguage | null = anyKeyLanguage(MAX_EXTRA_KEY_CHARS);
  const additional = (s.additionalProperties ?? true) as JsonSchema;
  const patterns = isSchema(s.patternProperties) ? Object.entries(s.patternProperties) : [];
  const pn = s.propertyNames;
  if (pn !== undefined && pn !== true) {
    const names = namesLanguage(compiler, pn as JsonSchema, ctx);
    if (names === null) return [];
    lang = names;
  }
  if (patterns.length === 0) return additional === false ? [] : [{ lang, value: additional, pointer: `${ctx.pointer}/additionalProperties` }];
  // Every pattern and additionalProperties give extra keys one schema: which pattern a key matches does not matter.
  if (additional !== false && patterns.every(([, v]) => jsonEqual(v, additional))) return [{ lang, value: additional, pointer: `${ctx.pointer}/additionalProperties` }];
  const contained = patterns.length === 1 && isEveryKey(lang) ? containedClassOf(patterns[0][0]) : null;
  if (contained) {
    // "Contains a character of C": keys without one take additionalProperties, the others the pattern's schema.
    const without = keysWithout(contained, MAX_EXTRA_KEY_CHARS);
    const matched: Extra = { lang, outside: [without], value: patterns[0][1] as JsonSchema, pointer: `${ctx.pointer}/patternProperties/${escapePointer(patterns[0][0])}` };
    return isTrivialFalse(additional) ? [matched] : [matched, { lang: without, value: additional, pointer: `${ctx.pointer}/additionalProperties` }];
  }
  const langs = patterns.map(([pattern]) => keyLanguageOf(pattern, MAX_EXTRA_KEY_CHARS));
  const every = langs.findIndex((l) => l !== null && isEveryKey(l));
  if (every >= 0) {
    // One pattern matches every key: every extra key takes it (and any other pattern it matches).
    const [pattern, value] = patterns[every];
    const others = patterns.filter((_, k) => k !== every).map(([, v]) => v as JsonSchema);
    if (others.length && !others.every(isTrivial)) {
      compiler.relax(`${ctx.pointer}/patternProperties`, "patternProperties", "extra keys are not matched against the other patterns");
    }
    return [{ lang, value: value as JsonSchema, pointer: `${ctx.pointer}/patternProperties/${escapePointer(pattern)}` }];
  }
  if (isEveryKey(lang) && langs.every((l) => l !== null) && langs.every((a, x) => langs.every((b, y) => x >= y || disjointKeyLanguages(a, b)))) {
    // Keys come from the patterns' languages only: a narrowing where a language is only part of its
    // pattern's, or where additionalProperties allows keys that match no pattern.
    if (langs.some((l) => !l.exact)) compiler.relax(`${ctx.pointer}/patternProperties`, "patternProperties", "only keys anchored at the start are offered for an unanchored pattern");
    const out: Extra[] = patterns.map(([pattern, value], k) => ({ lang: langs[k], value: value as JsonSchema, pointer: `${ctx.pointer}/patternProperties/${escapePointer(pattern)}` }));
    if (isTrivialFalse(additional)) return out;
    // Keys matching no pattern take additionalProperties.
    if (langs.every((l) => l.exact) && langs.length <= MAX_OUTSIDE_LANGUAGES) return [...out, { lang, outside: langs, value: additional, pointer: `${ctx.pointer}/additionalProperties` }];
    compiler.relax(`${ctx.pointer}/additionalProperties`, "additionalProperties", "keys that match none of the patterns are not offered");
    return out;
  }
  if (patterns.every(([, v]) => isTrivial(v)) && isTrivial(additional)) return [{ lang, value: true, pointer: `${ctx.pointer}/patternProperties` }];
  // The only extra keys are one pattern's, which no declared name matches: keys are written by the pattern itself.
  const declaredNames = [...Object.keys(isSchema(s.properties) ? s.properties : {}), ...(Array.isArray(s.required) ? s.required.map(String) : [])];
  const re = patterns.length === 1 ? patternRegex(patterns[0][0]) : null;
  if (re && isEveryKey(lang) && isTrivialFalse(additional) && !declaredNames.some((k) => re.test(k))) {
    return [{ lang, regex: patterns[0][0], value: patterns[0][1] as JsonSchema, pointer: `${ctx.pointer}/patternProperties/${escapePointer(patterns[0][0])}` }];
  }
  // Overlapping or complex patterns: keys are not told apart by the grammar.
  compiler.relax(`${ctx.pointer}`, "patternProperties", "extra keys are not matched against their patterns; each may take any of the patterns' value schemas");
  const values = patterns.map(([, v]) => v as JsonSchema);
  if (additional !== false) values.push(additional);
  return [{ lang, value: values.length === 1 ? values[0] : { anyOf: values }, pointer: `${ctx.pointer}/patternProperties` }];
}

/** Keys allowed by a propertyNames schema (pattern and lengths); null when none. */
function namesLanguage(compiler: CompileContext, pn: JsonSchema, ctx: Ctx): KeyLanguage | null {
  if (pn === false) return null;
  let lang: KeyLanguage | null = anyKeyLanguage(MAX_EXTRA_KEY_CHARS);
  if (!isSchema(pn)) return lang;
  const listed = listedOrPattern(compiler, pn, ctx.base);
  if (listed) return listed;
  const s = compiler.normal(pn);
  const known = ["type", "pattern", "minLength", "maxLength", "format"];
  const other = constrainingKeys(s).filter((k) => !known.includes(k));
  if (other.length) compiler.relax(`${ctx.pointer}/propertyNames`, other[0], `propertyNames ${other[0]} is not enforced on extra keys`);
  if (typeof s.pattern === "string") {
    const pl = keyLanguageOf(s.pattern, MAX_EXTRA_KEY_CHARS);
    if (pl) lang = pl;
    else compiler.relax(`${ctx.pointer}/propertyNames`, "pattern", "the propertyNames pattern is not enforced on extra keys");
    if (pl && !pl.exact) compiler.relax(`${ctx.pointer}/propertyNames`, "pattern", "only extra keys anchored at the start are offered for the unanchored propertyNames pattern");
  }
  if (lang && (typeof s.minLength === "number" || typeof s.maxLength === "number")) lang = boundKeyLanguage(lang, count(s.minLength) ?? 0, Math.min(count(s.maxLength) ?? MAX_EXTRA_KEY_CHARS, MAX_EXTRA_KEY_CHARS));
  return lang;
}

/** `"..."`: a key the pattern matches (each quantifier capped like a default-capped string); null when none. */
function patternKey(compiler: CompileContext, pattern: string, pointer: string): GbnfExpr | null {
  const translated = translatePatternCapped(pattern, 0, MAX_EXTRA_KEY_CHARS, compiler.rules);
  if (!translated.ok) {
    compiler.relax(pointer, "patternProperties", `${translated.reason}, so extra keys may be any key`);
    return extraKey(compiler.rules, [], MAX_EXTRA_KEY_CHARS);
  }
  return translated.content && compiler.rules.add("pattern-key", seq(lit('"'), translated.content, lit('"')));
}

/**
 * propertyNames `oneOf: [{enum: names}, {pattern}]` where every listed name matches the pattern
 * (a list of exceptions to it): the pattern's keys without the listed ones. Null for other forms.
 */
function listedOrPattern(compiler: CompileContext, pn: Schema, base: string): KeyLanguage | null {
  const s = compiler.normal(pn);
  if (!Array.isArray(s.oneOf) || s.oneOf.length !== 2 || constrainingKeys(s).some((k) => k !== "oneOf" && !(k === "type" && s.type === "string"))) return null;
  const [x, y] = (s.oneOf as JsonSchema[]).map((b) => compiler.deref(b, base)).map((b) => (isSchema(b) ? compiler.normal(b) : null));
  if (!x || !y) return null;
  const isList = (b: Schema) => Array.isArray(b.enum) && constrainingKeys(b).every((k) => k === "enum" || (k === "type" && b.type === "string"));
  const isPattern = (b: Schema) => typeof b.pattern === "string" && constrainingKeys(b).every((k) => k === "pattern" || (k === "type" && b.type === "string"));
  const [list, pat] = isList(x) && isPattern(y) ? [x, y] : isList(y) && isPattern(x) ? [y, x] : [null, null];
  if (!list || !pat) return null;
  const lang = keyLanguageOf(pat.pattern as string, MAX_EXTRA_KEY_CHARS);
  const re = patternRegex(pat.pattern as string);
  const names = (list.enum as unknown[]).filter((v): v is string => typeof v === "string");
  if (!lang || !lang.exact || !re || !names.every((n) => re.test(n) && keyInLanguage(lang, n))) return null;
  return { fixed: lang.fixed, tail: lang.tail, tailMax: lang.tailMax, excluded: names };
}

export function compileObject(compiler: CompileContext, s0: Schema, ctx: Ctx): GbnfExpr | null {
  const s: Schema = { ...s0 };
  const properties: Record<string, unknown> = { ...((isSchema(s.properties) ? s.properties : {}) as Record<string, unknown>) };
  const required = [...new Set((Array.isArray(s.required) ? s.required : []).map(String))];
  const patterns = isSchema(s.patternProperties) ? Object.entries(s.patternProperties) : [];
  // Declared keys that match a pattern must satisfy the pattern's schema too.
  for (const key of Object.keys(properties)) {
    for (const [pattern, ps] of patterns) {
      const re = patternRegex(pattern);
      if (re === null) compiler.relax(`${ctx.pointer}/patternProperties`, "patternProperties", `the pattern "${pattern}" is not a valid regular expression here`);
      else if (re.test(key) && !isTrivial(ps)) properties[key] = { allOf: [properties[key], ps] };
    }
  }
  // Declared names propertyNames rules out can never appear.
  if (s.propertyNames !== undefined && s.propertyNames !== true) {
    const names = namesLanguage(compiler, s.propertyNames as JsonSchema, ctx);
    for (const key of [...Object.keys(properties), ...required]) if (names === null || !keyInLanguage(names, key)) properties[key] = false;
  }
  const declared = Object.keys(properties);
  const extras = extraKeys(compiler, s, ctx);
  const valueOfUndeclared = (key: string): JsonSchema | false => {
    const matching = patterns.filter(([p]) => patternRegex(p)?.test(key)).map(([, v]) => v as JsonSchema);
    if (matching.length) return matching.length === 1 ? matching[0] : { allOf: matching };
    if (s.propertyNames !== undefined && s.propertyNames !== true) {
      const names = namesLanguage(compiler, s.propertyNames as JsonSchema, ctx);
      if (names === null || !keyInLanguage(names, key)) return false;
    }
    return (s.additionalProperties ?? true) as JsonSchema;
  };

  const order = [...declared.filter((k) => required.includes(k)), ...required.filter((k) => !declared.includes(k)), ...declared.filter((k) => !required.includes(k))];
  const slots: Slot[] = [];
  for (const key of order) {
    const isRequired = required.includes(key);
    const schema = key in properties ? (properties[key] as JsonSchema) : valueOfUndeclared(key);
    const pointer = key in properties ? `${ctx.pointer}/properties/${escapePointer(key)}` : `${ctx.pointer}/required`;
    const value = schema === false ? null : compiler.value(schema, { base: ctx.base, pointer });
    if (value === null) {
      if (isRequired) return null;
      continue;
    }
    slots.push({ required: isRequired, expr: seq(lit(JSON.stringify(key) + ":"), value) });
  }
  let extraRule: GbnfExpr | null = null;
  let maxExtra = 0;
  const members: GbnfExpr[] = [];
  const taken = [...new Set([...declared, ...required])];
  for (const extra of extras) {
    const value = compiler.value(extra.value, { base: ctx.base, pointer: extra.pointer });
    if (!value) continue;
    const key = extra.regex !== undefined ? patternKey(compiler, extra.regex, extra.pointer) : extra.outside ? keyRuleOutside(compiler.rules, taken, extra.outside, MAX_EXTRA_KEY_CHARS) : isEveryKey(extra.lang) ? extraKey(compiler.rules, taken, extra.lang.tailMax) : keyRule(compiler.rules, taken, extra.lang);
    if (key) members.push(seq(key, lit(":"), value));
  }
  if (members.length) {
    maxExtra = compiler.options.maxKeys;
    compiler.cap(ctx.pointer, "object", maxExtra);
    compiler.cap(`${ctx.pointer}/propertyNames`, "string", MAX_EXTRA_KEY_CHARS);
    extraRule = compiler.rules.add(`${compiler.hint}-extra`, alt(...members));
  }
  let minP = count(s.minProperties) ?? 0;
  let maxP = count(s.maxProperties) ?? Infinity;
  const most = slots.length + (extraRule ? maxExtra : 0);
  if (maxP >= most) maxP = Infinity;
  if (minP > most) return null;
  const requiredCount = slots.filter((x) => x.required).length;
  if (minP <= requiredCount) minP = 0;
  let top = maxP === Infinity ? Math.max(minP, 1) : maxP;
  if ((slots.length + 1) * (top + 1) > MAX_COUNT_STATES) {
    if (minP > 1) compiler.relax(ctx.pointer, "minProperties", "minProperties is not enforced beyond one member");
    if (maxP !== Infinity) compiler.relax(ctx.pointer, "maxProperties", "maxProperties is not enforced by the grammar");
    minP = Math.min(minP, 1);
    maxP = Infinity;
    top = 1;
  }
  const body = memberList(compiler, { slots, extraRule, maxExtra, minP, maxP, top, memo: new Map() }, 0, 0);
  if (body === null) return null;
  return compiler.rules.add(`${compiler.hint}-object`, seq(lit("{"), body, lit("}")));
}

/** members(m, i, c): an object's members from slot i on, c members written so far (saturating at `top`). */
function memberList(compiler: CompileContext, m: MemberPlan, i: number, c: number): GbnfExpr | null {
  // c never exceeds top, so this numbers each (i, c) once.
  const key = i * (m.top + 1) + c;
  if (m.memo.has(key)) return m.memo.get(key)!;
  const { slots, extraRule, maxExtra, minP, maxP, top } = m;
  let e: GbnfExpr | null;
  if (i === slots.length) {
    const lo = Math.max(0, minP - c);
    const hi = Math.min(maxExtra, maxP - c);
    if (!extraRule) e = lo === 0 ? EMPTY : null;
    else if (lo > hi) e = null;
    else if (c > 0) e = boundedRepeat(comma(extraRule), lo, hi);
    else if (hi === 0) e = EMPTY;
    else {
      const tail = boundedRepeat(comma(extraRule), Math.max(0, lo - 1), hi - 1);
      e = lo === 0 ? opt(seq(extraRule, tail)) : seq(extraRule, tail);
    }
  } else if (c > 0 && top === 1 && minP <= 1) {
    // Past the first member with nothing to count, each later member is independently there or not.
    // Tails of long member lists are named every TAIL_CHUNK slots and shared, so an object's rules
    // grow linearly with its properties (inlining every tail made them quadratic).
    const end = Math.min(slots.length, (Math.floor(i / TAIL_CHUNK) + 1) * TAIL_CHUNK);
    const tail = end === slots.length ? memberList(compiler, m, slots.length, 1) : memberList(compiler, m, end, 1);
    const here = slots.slice(i, end).map((x) => (x.required ? comma(x.expr) : opt(comma(x.expr))));
    e = tail && seq(...here, tail);
    if (e && i % TAIL_CHUNK === 0 && slots.length > TAIL_CHUNK) e = compiler.rules.add(`${compiler.hint}-tail`, e);
  } else {
    const slot = slots[i];
    const next = c + 1 > maxP ? null : memberList(compiler, m, i + 1, Math.min(c + 1, top));
    const present = next ? seq(c > 0 ? lit(",") : EMPTY, slot.expr, next) : null;
    if (slot.required) e = present;
    else {
      const absent = memberList(compiler, m, i + 1, c);
      // Small objects inline the choice (as the reviewed grammars do); larger ones name it, which keeps the grammar linear.
      e = present && absent ? (slots.length <= 8 ? alt(present, absent) : compiler.rules.add(`${compiler.hint}-members`, alt(present, absent))) : (present ?? absent);
    }
  }
  m.memo.set(key, e);
  return e;
}

/** additionalProperties that admits no value (false, or a schema that is `not {}`). */
function isTrivialFalse(s: unknown): boolean {
  return s === false || (isSchema(s) && constrainingKeys(s).length === 1 && isSchema(s.not) && constrainingKeys(s.not).length === 0);
}

function isTrivial(s: unknown): boolean {
  return s === true || s === undefined || (isSchema(s) && constrainingKeys(s).length === 0);
}
