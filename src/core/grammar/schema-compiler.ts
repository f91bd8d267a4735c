/**
 * JSON Schema (draft 2020-12, as Zod 4 emits it) → GBNF rules. Exact on every keyword it accepts;
 * any other keyword raises `UnsupportedSchema`, and the caller falls back to a free-form rule and
 * reports the keyword. `null` from a compile step means "no value qualifies" (an empty language),
 * which lets unrolled recursion and impossible branches drop out soundly.
 */
import { EMPTY, alt, lit, opt, seq, type GbnfExpr } from "./gbnf-ast";
import { boundedRepeat } from "./bounded-repeat";
import { anyObject, anyValue, type FreeformLimits } from "./any-value";
import { extraKey } from "./extra-key";
import { AJV_FORMATS, FORMAT_PATTERNS, PATTERNS_WITHIN_FORMAT } from "./formats";
import { integerRange } from "./integer-range";
import { decimalRange } from "./decimal-range";
import { highestTextAtMost, lowestTextAtLeast } from "./double-edges";
import { jsonBoolean, jsonInteger, jsonNull, jsonNumber, jsonString } from "./json-text";
import { literalChoice } from "./literal-choice";
import { patternLengths, translatePattern } from "./json-string-pattern";
import { mergeAllOf, provablyDisjoint } from "./schema-combinators";
import type { RuleSet } from "./rule-set";
import type { GrammarCap, GrammarFallback, JsonSchema, ResolvedGrammarOptions } from "./types";
import {
  ALL_TYPES,
  KNOWN,
  MAX_EXTRA_KEY_CHARS,
  UnsupportedSchema,
  bound,
  constrainingKeys,
  escapePointer,
  isSchema,
  matchesType,
  nextDouble,
  nonNegativeInt,
  signed,
  toBigInt,
  type Schema,
} from "./schema-words";

export { UnsupportedSchema, MAX_EXTRA_KEY_CHARS } from "./schema-words";

/** Compiles schemas of one tool (or one bare schema) into a shared RuleSet. */
export class SchemaCompiler {
  /** How many times each $ref target is open on the current path (recursion unrolling). */
  private refDepth = new Map<string, number>();

  constructor(
    private readonly rules: RuleSet,
    private readonly options: ResolvedGrammarOptions,
    private readonly root: JsonSchema,
    private readonly hint: string,
    private readonly report: { fallbacks: GrammarFallback[]; caps: GrammarCap[]; tool?: string },
  ) {}

  /** Limits for free-form values. */
  freeform(depth = this.options.recursionDepth): FreeformLimits {
    return {
      depth,
      maxStringChars: this.options.maxStringChars,
      maxItems: this.options.maxItems,
      maxKeys: this.options.maxKeys,
      maxKeyChars: MAX_EXTRA_KEY_CHARS,
    };
  }

  private cap(path: string, kind: GrammarCap["kind"], cap: number): void {
    const entry: GrammarCap = { path, kind, cap };
    if (this.report.tool !== undefined) entry.tool = this.report.tool;
    this.report.caps.push(entry);
  }

  private fallback(path: string, keyword: string, reason: string): void {
    const entry: GrammarFallback = { path, keyword, reason };
    if (this.report.tool !== undefined) entry.tool = this.report.tool;
    this.report.fallbacks.push(entry);
  }

  /** The value rule for a schema; throws UnsupportedSchema; null when no value qualifies. */
  compile(schema: JsonSchema, path: string): GbnfExpr | null {
    if (schema === true) return this.anyValueCapped(path);
    if (schema === false) return null;
    if (!isSchema(schema)) throw new UnsupportedSchema(path, "schema", "a schema must be an object or a boolean");
    for (const key of Object.keys(schema)) {
      if (!KNOWN.has(key)) throw new UnsupportedSchema(path, key, `the keyword "${key}" is not supported`);
    }
    if (schema.$ref !== undefined) return this.compileRef(schema, path);
    if (schema.allOf !== undefined) return this.compile(mergeAllOf(schema, path, this.deref), path);
    if (schema.anyOf !== undefined || schema.oneOf !== undefined) return this.compileUnion(schema, path);
    if (schema.enum !== undefined || schema.const !== undefined) return this.compileEnum(schema, path);
    const keys = constrainingKeys(schema);
    if (keys.length === 0) return this.anyValueCapped(path);
    let types: string[];
    if (schema.type === undefined) types = ALL_TYPES;
    else if (typeof schema.type === "string") types = [schema.type];
    else if (Array.isArray(schema.type) && schema.type.every((t) => typeof t === "string")) types = schema.type;
    else throw new UnsupportedSchema(path, "type", "type must be a string or an array of strings");
    if (types.includes("number")) types = types.filter((t) => t !== "integer");
    const options: GbnfExpr[] = [];
    for (const t of types) {
      const e = this.compileType(t, schema, path);
      if (e) options.push(e);
    }
    return options.length ? alt(...options) : null;
  }

  private anyValueCapped(path: string): GbnfExpr {
    this.cap(path, "object", this.options.maxKeys);
    return anyValue(this.rules, this.freeform());
  }

  private compileType(type: string, s: Schema, path: string): GbnfExpr | null {
    switch (type) {
      case "string":
        return this.compileString(s, path);
      case "integer":
        return this.compileInteger(s, path);
      case "number":
        return this.compileNumber(s, path);
      case "boolean":
        return jsonBoolean(this.rules);
      case "null":
        return jsonNull();
      case "array":
        return this.compileArray(s, path);
      case "object":
        return this.compileObject(s, path);
      default:
        throw new UnsupportedSchema(path, "type", `the type "${type}" is not a JSON Schema type`);
    }
  }

  // ---- $ref ---------------------------------------------------------------------------------

  private resolvePointer(ref: string, path: string): JsonSchema {
    if (!ref.startsWith("#")) throw new UnsupportedSchema(path, "$ref", "only local references (#...) are supported");
    let node: unknown = this.root;
    const pointer = ref.slice(1);
    if (pointer !== "") {
      if (!pointer.startsWith("/")) throw new UnsupportedSchema(path, "$ref", "anchors are not supported, only JSON pointers");
      for (const raw of pointer.slice(1).split("/")) {
        const part = decodeURIComponent(raw).replace(/~1/g, "/").replace(/~0/g, "~");
        if (!isSchema(node) || !(part in node)) throw new UnsupportedSchema(path, "$ref", `the reference ${ref} does not resolve`);
        node = node[part];
      }
    }
    if (typeof node !== "boolean" && !isSchema(node)) throw new UnsupportedSchema(path, "$ref", `the reference ${ref} is not a schema`);
    return node;
  }

  private compileRef(s: Schema, path: string): GbnfExpr | null {
    const ref = s.$ref;
    if (typeof ref !== "string") throw new UnsupportedSchema(path, "$ref", "$ref must be a string");
    const siblings = constrainingKeys(s).filter((k) => k !== "$ref");
    if (siblings.length) throw new UnsupportedSchema(path, siblings[0], "keywords next to $ref are not supported");
    const target = this.resolvePointer(ref, path);
    const depth = this.refDepth.get(ref) ?? 0;
    // Recursion is unrolled: past the configured depth the recursive branch is simply unavailable.
    if (depth >= this.options.recursionDepth) return null;
    this.refDepth.set(ref, depth + 1);
    try {
      const e = this.compile(target, `${path}/$ref`);
      return e && e.kind !== "ref" && e.kind !== "literal" ? this.rules.add(`${this.hint}-${ref.split("/").pop() || "root"}`, e) : e;
    } finally {
      this.refDepth.set(ref, depth);
    }
  }

  private deref = (s: JsonSchema, path: string): JsonSchema => {
    let current = s;
    for (let i = 0; i < 32 && isSchema(current) && typeof current.$ref === "string"; i++) current = this.resolvePointer(current.$ref, path);
    return current;
  };

  // ---- combinators ------------------------------------------------------------------------

  private compileUnion(s: Schema, path: string): GbnfExpr | null {
    const keyword = s.anyOf !== undefined ? "anyOf" : "oneOf";
    if (s.anyOf !== undefined && s.oneOf !== undefined) throw new UnsupportedSchema(path, "oneOf", "anyOf and oneOf together are not supported");
    const siblings = constrainingKeys(s).filter((k) => k !== keyword);
    if (siblings.length) throw new UnsupportedSchema(path, siblings[0], `keywords next to ${keyword} are not supported`);
    const branches = s[keyword];
    if (!Array.isArray(branches) || branches.length === 0) throw new UnsupportedSchema(path, keyword, `${keyword} must be a non-empty array`);
    if (keyword === "oneOf") {
      for (let i = 0; i < branches.length; i++) {
        for (let j = i + 1; j < branches.length; j++) {
          if (!provablyDisjoint(branches[i] as JsonSchema, branches[j] as JsonSchema, path, this.deref))
            throw new UnsupportedSchema(`${path}/oneOf/${j}`, "oneOf", `branches ${i} and ${j} may both match, which oneOf forbids`);
        }
      }
    }
    const options: GbnfExpr[] = [];
    branches.forEach((b, i) => {
      const e = this.compile(b as JsonSchema, `${path}/${keyword}/${i}`);
      if (e) options.push(e);
    });
    return options.length ? alt(...options) : null;
  }

  private compileEnum(s: Schema, path: string): GbnfExpr | null {
    const keyword = s.const !== undefined ? "const" : "enum";
    const other = constrainingKeys(s).filter((k) => k !== "enum" && k !== "const" && k !== "type");
    if (other.length) throw new UnsupportedSchema(path, other[0], `keywords next to ${keyword} are not supported`);
    let values: unknown[];
    if (s.const !== undefined) values = [s.const];
    else if (Array.isArray(s.enum)) values = s.enum;
    else throw new UnsupportedSchema(path, "enum", "enum must be an array");
    if (s.const !== undefined && Array.isArray(s.enum)) values = values.filter((v) => (s.enum as unknown[]).some((e) => JSON.stringify(e) === JSON.stringify(v)));
    if (s.type !== undefined) {
      const types = (Array.isArray(s.type) ? s.type : [s.type]) as string[];
      values = values.filter((v) => types.some((t) => matchesType(v, t)));
    }
    const texts = [...new Set(values.map((v) => JSON.stringify(v)))];
    if (texts.length === 0) return null;
    const choice = literalChoice(texts.map((text) => ({ text, then: EMPTY })));
    return choice.kind === "literal" ? choice : this.rules.add(`${this.hint}-enum`, choice, `enum|${JSON.stringify(texts)}`);
  }

  // ---- scalars ---------------------------------------------------------------------------

  private compileString(s: Schema, path: string): GbnfExpr | null {
    const minLength = nonNegativeInt(s.minLength, path, "minLength") ?? 0;
    const declaredMax = nonNegativeInt(s.maxLength, path, "maxLength");
    const format = typeof s.format === "string" ? s.format : undefined;
    const pattern = typeof s.pattern === "string" ? s.pattern : undefined;
    if (s.pattern !== undefined && pattern === undefined) throw new UnsupportedSchema(path, "pattern", "pattern must be a string");
    let source: string | undefined;
    if (format && FORMAT_PATTERNS[format]) {
      source = FORMAT_PATTERNS[format];
      if (pattern !== undefined) {
        const within = PATTERNS_WITHIN_FORMAT[format]?.[pattern];
        if (within !== undefined) source = within;
        else this.fallback(`${path}/pattern`, "pattern", `the pattern next to format "${format}" is not enforced; the grammar enforces the format only`);
      }
    } else if (format && AJV_FORMATS.has(format)) {
      throw new UnsupportedSchema(path, "format", `the format "${format}" is not compiled exactly`);
    } else {
      source = pattern;
    }
    // A pattern or format that bounds its own length needs no cap; otherwise the default cap applies.
    const lengths = source === undefined ? null : patternLengths(source);
    let maxLength = declaredMax;
    if (maxLength === undefined) {
      if (lengths && lengths[1] !== Infinity) maxLength = lengths[1];
      else {
        maxLength = Math.max(this.options.maxStringChars, minLength, lengths ? lengths[0] : 0);
        this.cap(path, "string", maxLength);
      }
    }
    if (minLength > maxLength) return null;
    if (source === undefined) return jsonString(this.rules, minLength, maxLength);
    const translated = translatePattern(source, minLength, maxLength, this.rules);
    if (!translated.ok) {
      if (source !== pattern || format !== undefined) throw new UnsupportedSchema(path, "format", `the format "${format}" does not fit lengths ${minLength}..${maxLength}`);
      this.fallback(`${path}/pattern`, "pattern", `${translated.reason}, so it falls back to a plain string of ${minLength}..${maxLength} characters`);
      return jsonString(this.rules, minLength, maxLength);
    }
    if (translated.content === null) return null;
    return this.rules.add(`${this.hint}-pattern`, seq(lit('"'), translated.content, lit('"')), `pattern|${minLength}|${maxLength}|${source}`);
  }

  private checkMultipleOf(s: Schema, path: string, integer: boolean): void {
    if (s.multipleOf === undefined) return;
    if (integer && s.multipleOf === 1) return;
    throw new UnsupportedSchema(path, "multipleOf", "multipleOf is not supported");
  }

  private compileInteger(s: Schema, path: string): GbnfExpr | null {
    this.checkMultipleOf(s, path, true);
    const min = bound(s.minimum, path, "minimum");
    const max = bound(s.maximum, path, "maximum");
    const xmin = bound(s.exclusiveMinimum, path, "exclusiveMinimum");
    const xmax = bound(s.exclusiveMaximum, path, "exclusiveMaximum");
    if (min === undefined && max === undefined && xmin === undefined && xmax === undefined) return jsonInteger(this.rules);
    const los: bigint[] = [];
    const his: bigint[] = [];
    if (min !== undefined) los.push(toBigInt(Math.ceil(min)));
    if (xmin !== undefined) los.push(toBigInt(Math.floor(xmin)) + 1n);
    if (max !== undefined) his.push(toBigInt(Math.floor(max)));
    if (xmax !== undefined) his.push(toBigInt(Math.ceil(xmax)) - 1n);
    const lo = los.length ? los.reduce((a, b) => (a > b ? a : b)) : -(10n ** 16n);
    const hi = his.length ? his.reduce((a, b) => (a < b ? a : b)) : 10n ** 16n;
    const e = integerRange(lo, hi);
    return e && e.kind !== "literal" ? this.rules.add(`int-${signed(lo)}-${signed(hi)}`, e, `int|${lo}|${hi}`) : e;
  }

  private compileNumber(s: Schema, path: string): GbnfExpr | null {
    this.checkMultipleOf(s, path, false);
    const min = bound(s.minimum, path, "minimum");
    const max = bound(s.maximum, path, "maximum");
    const xmin = bound(s.exclusiveMinimum, path, "exclusiveMinimum");
    const xmax = bound(s.exclusiveMaximum, path, "exclusiveMaximum");
    if (min === undefined && max === undefined && xmin === undefined && xmax === undefined) return jsonNumber(this.rules);
    // Bounds are on the parsed double: an exclusive bound moves to the next double, then each side
    // becomes the exact edge of the texts that round into range (double-edges.ts), so the rule
    // accepts a text exactly when ajv accepts the value it parses to.
    const lows = [min, xmin === undefined ? undefined : nextDouble(xmin, 1)].filter((v): v is number => v !== undefined);
    const highs = [max, xmax === undefined ? undefined : nextDouble(xmax, -1)].filter((v): v is number => v !== undefined);
    const lo = lows.length ? Math.max(...lows) : undefined;
    const hi = highs.length ? Math.min(...highs) : undefined;
    if (lo !== undefined && hi !== undefined && lo > hi) return null;
    const e = decimalRange(lo === undefined ? null : lowestTextAtLeast(lo), hi === undefined ? null : highestTextAtMost(hi));
    return e && e.kind !== "literal" ? this.rules.add(`num-${lo === undefined ? "min" : signed(lo)}-${hi === undefined ? "max" : signed(hi)}`, e, `num|${lo}|${hi}`) : e;
  }

  // ---- arrays ------------------------------------------------------------------------------

  private compileArray(s: Schema, path: string): GbnfExpr | null {
    if (s.uniqueItems === true) throw new UnsupportedSchema(path, "uniqueItems", "uniqueItems is not supported");
    const minItems = nonNegativeInt(s.minItems, path, "minItems") ?? 0;
    const prefixRaw = s.prefixItems;
    if (prefixRaw !== undefined && !Array.isArray(prefixRaw)) throw new UnsupportedSchema(path, "prefixItems", "prefixItems must be an array");
    const prefix = (prefixRaw ?? []).map((p, i) => this.compile(p as JsonSchema, `${path}/prefixItems/${i}`));
    const itemsSchema = (s.items ?? true) as JsonSchema;
    const rest = itemsSchema === false ? null : this.compile(itemsSchema, `${path}/items`);
    let maxItems = nonNegativeInt(s.maxItems, path, "maxItems");
    if (maxItems === undefined) {
      if (rest === null) maxItems = prefix.length;
      else {
        maxItems = Math.max(this.options.maxItems, minItems);
        this.cap(path, "array", maxItems);
      }
    }
    if (minItems > maxItems) return null;
    const atom = (e: GbnfExpr) => (e.kind === "seq" || e.kind === "alt" ? this.rules.add(`${this.hint}-item`, e) : e);
    const restAtom = rest && atom(rest);
    const elements = (i: number, first: boolean): GbnfExpr | null => {
      const sep = first ? EMPTY : lit(",");
      if (i < prefix.length) {
        const p = prefix[i];
        const next = i + 1 <= maxItems ? elements(i + 1, false) : null;
        const here = p && next ? seq(sep, atom(p), next) : null;
        if (i >= minItems) return here ? opt(here) : EMPTY;
        return here;
      }
      const lo = Math.max(0, minItems - i);
      const hi = maxItems - i;
      if (!restAtom || hi <= 0) return lo === 0 ? EMPTY : null;
      if (!first) return boundedRepeat(seq(lit(","), restAtom), lo, hi);
      const tail = boundedRepeat(seq(lit(","), restAtom), Math.max(0, lo - 1), hi - 1);
      return lo === 0 ? opt(seq(restAtom, tail)) : seq(restAtom, tail);
    };
    if (maxItems === 0) return lit("[]");
    const body = elements(0, true);
    if (body === null) return null;
    return this.rules.add(`${this.hint}-array`, seq(lit("["), body, lit("]")));
  }

  // ---- objects -----------------------------------------------------------------------------

  private compileObject(s: Schema, path: string): GbnfExpr | null {
    const properties = s.properties ?? {};
    if (!isSchema(properties)) throw new UnsupportedSchema(path, "properties", "properties must be an object");
    const requiredRaw = s.required ?? [];
    if (!Array.isArray(requiredRaw)) throw new UnsupportedSchema(path, "required", "required must be an array");
    const required = [...new Set(requiredRaw.map(String))];
    if (s.propertyNames !== undefined) {
      const pn = s.propertyNames;
      const ok = pn === true || (isSchema(pn) && constrainingKeys(pn).every((k) => k === "type") && (pn.type === undefined || pn.type === "string"));
      if (!ok) throw new UnsupportedSchema(`${path}/propertyNames`, "propertyNames", "only propertyNames {type: string} is supported");
    }
    const additional = (s.additionalProperties ?? true) as JsonSchema;
    const extraValue = additional === false ? null : this.compile(additional, `${path}/additionalProperties`);

    const declared = Object.keys(properties);
    const order = [...declared.filter((k) => required.includes(k)), ...required.filter((k) => !declared.includes(k)), ...declared.filter((k) => !required.includes(k))];
    interface Slot {
      required: boolean;
      expr: GbnfExpr;
    }
    const slots: Slot[] = [];
    for (const key of order) {
      const isRequired = required.includes(key);
      const value = key in properties ? this.compile(properties[key] as JsonSchema, `${path}/properties/${escapePointer(key)}`) : extraValue;
      if (value === null) {
        if (isRequired) return null;
        continue;
      }
      slots.push({ required: isRequired, expr: seq(lit(JSON.stringify(key) + ":"), value) });
    }
    let extra: GbnfExpr | null = null;
    let maxExtra = 0;
    if (extraValue) {
      maxExtra = this.options.maxKeys;
      this.cap(path, "object", maxExtra);
      this.cap(`${path}/propertyNames`, "string", MAX_EXTRA_KEY_CHARS);
      extra = this.rules.add(`${this.hint}-extra`, seq(extraKey(this.rules, [...new Set([...declared, ...required])], MAX_EXTRA_KEY_CHARS), lit(":"), extraValue));
    }
    const comma = (e: GbnfExpr) => seq(lit(","), e);
    const after = (i: number): GbnfExpr => {
      const parts: GbnfExpr[] = [];
      for (let j = i; j < slots.length; j++) parts.push(slots[j].required ? comma(slots[j].expr) : opt(comma(slots[j].expr)));
      if (extra) parts.push(boundedRepeat(comma(extra), 0, maxExtra));
      return seq(...parts);
    };
    const first = (i: number): GbnfExpr => {
      if (i === slots.length) return extra ? opt(seq(extra, boundedRepeat(comma(extra), 0, maxExtra - 1))) : EMPTY;
      const here = seq(slots[i].expr, after(i + 1));
      return slots[i].required ? here : alt(here, first(i + 1));
    };
    const body = first(0);
    return this.rules.add(`${this.hint}-object`, seq(lit("{"), body, lit("}")));
  }

  /** Free-form object args (static mode and fallbacks). */
  anyObjectRule(path: string): GbnfExpr {
    this.cap(path, "object", this.options.maxKeys);
    return anyObject(this.rules, this.freeform());
  }
}

