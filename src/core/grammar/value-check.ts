/**
 * Checks one concrete JSON value against a schema, for the places where the compiler must decide
 * about a known value (enum and const members next to other keywords, declared names against
 * `propertyNames`). Covers the applicator and validation vocabularies; a keyword it cannot decide
 * (an unparsable pattern) answers "matches", and the caller reports that as a relaxation.
 */
import type { JsonSchema } from "./types";
import { isSchema, matchesType, type Schema } from "./schema-words";
import type { SchemaDocument } from "./schema-document";
import { FORMAT_PATTERNS } from "./formats";

/** Nesting beyond which the check gives up (answers "matches"). */
const MAX_DEPTH = 64;

/** Deep equality of JSON values, key order ignored (JSON Schema's `enum`/`const` equality). */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a === "number" && typeof b === "number") return a === b;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    return a.every((x, i) => jsonEqual(x, b[i]));
  }
  if (isSchema(a) && isSchema(b)) {
    const ka = Object.keys(a);
    if (ka.length !== Object.keys(b).length) return false;
    return ka.every((k) => Object.prototype.hasOwnProperty.call(b, k) && jsonEqual(a[k], b[k]));
  }
  return false;
}

const regexCache = new Map<string, RegExp | null>();
/** The pattern as an ECMAScript `u` regex, or null when it does not parse. */
export function patternRegex(pattern: string): RegExp | null {
  if (regexCache.has(pattern)) return regexCache.get(pattern)!;
  let re: RegExp | null;
  try {
    re = new RegExp(pattern, "u");
  } catch {
    try {
      re = new RegExp(pattern);
    } catch {
      re = null;
    }
  }
  if (regexCache.size > 2000) regexCache.clear();
  regexCache.set(pattern, re);
  return re;
}

const codePoints = (s: string) => [...s].length;

export class ValueChecker {
  /** Set when a keyword could not be decided. */
  undecided: string | null = null;

  /**
   * @param checkFormats false: string formats answer "matches" (the format languages are within
   *   ajv's, so a value they refuse may still be one ajv accepts).
   */
  constructor(
    private readonly doc: SchemaDocument,
    private readonly checkFormats = true,
  ) {}

  /** The undecided keyword since the last call, and resets it. */
  takeUndecided(): string | null {
    const u = this.undecided;
    this.undecided = null;
    return u;
  }

  matches(schema: JsonSchema, value: unknown, base: string, depth = 0): boolean {
    if (schema === true) return true;
    if (schema === false) return false;
    if (!isSchema(schema) || depth > MAX_DEPTH) return true;
    const s: Schema = schema;
    const here = this.doc.baseOf(s) ?? base;
    if (typeof s.$ref === "string") {
      const r = this.doc.resolve(s.$ref, here);
      if (typeof r === "string") this.undecided = "$ref";
      else if (!this.matches(r.schema, value, r.base, depth + 1)) return false;
      if (this.doc.draft <= 7) return true;
    }
    const sub = (x: unknown, v: unknown) => this.matches(x as JsonSchema, v, here, depth + 1);
    if (Array.isArray(s.allOf) && !s.allOf.every((p) => sub(p, value))) return false;
    if (Array.isArray(s.anyOf) && !s.anyOf.some((p) => sub(p, value))) return false;
    if (Array.isArray(s.oneOf) && s.oneOf.filter((p) => sub(p, value)).length !== 1) return false;
    if (s.not !== undefined && sub(s.not, value)) return false;
    if (s.if !== undefined) {
      const branch = sub(s.if, value) ? s.then : s.else;
      if (branch !== undefined && !sub(branch, value)) return false;
    }
    if (s.type !== undefined) {
      const types = (Array.isArray(s.type) ? s.type : [s.type]) as string[];
      if (!types.some((t) => matchesType(value, t) || (t === "number" && matchesType(value, "integer")))) return false;
    }
    if (s.const !== undefined && !jsonEqual(s.const, value)) return false;
    if (Array.isArray(s.enum) && !s.enum.some((e) => jsonEqual(e, value))) return false;
    if (typeof value === "number") return this.number(s, value);
    if (typeof value === "string") return this.string(s, value);
    if (Array.isArray(value)) return this.array(s, value, sub);
    if (isSchema(value)) return this.object(s, value, sub);
    return true;
  }

  private number(s: Schema, v: number): boolean {
    const num = (x: unknown) => (typeof x === "number" ? x : undefined);
    const min = num(s.minimum);
    const max = num(s.maximum);
    if (min !== undefined && (s.exclusiveMinimum === true ? v <= min : v < min)) return false;
    if (max !== undefined && (s.exclusiveMaximum === true ? v >= max : v > max)) return false;
    const xmin = num(s.exclusiveMinimum);
    const xmax = num(s.exclusiveMaximum);
    if (xmin !== undefined && v <= xmin) return false;
    if (xmax !== undefined && v >= xmax) return false;
    const m = num(s.multipleOf);
    if (m !== undefined && m > 0) {
      const q = v / m;
      if (Math.abs(q - Math.round(q)) > 1e-9) return false;
    }
    if (s.format === "int32" && !(Number.isInteger(v) && v >= -(2 ** 31) && v <= 2 ** 31 - 1)) return false;
    if (s.format === "int64" && !Number.isInteger(v)) return false;
    return true;
  }

  private string(s: Schema, v: string): boolean {
    const n = codePoints(v);
    if (typeof s.minLength === "number" && n < s.minLength) return false;
    if (typeof s.maxLength === "number" && n > s.maxLength) return false;
    if (typeof s.pattern === "string") {
      const re = patternRegex(s.pattern);
      if (re === null) this.undecided = "pattern";
      else if (!re.test(v)) return false;
    }
    if (this.checkFormats && typeof s.format === "string" && FORMAT_PATTERNS[s.format]) {
      const re = patternRegex(FORMAT_PATTERNS[s.format]);
      if (re && !re.test(v)) return false;
    }
    return true;
  }

  private array(s: Schema, v: unknown[], sub: (x: unknown, v: unknown) => boolean): boolean {
    if (typeof s.minItems === "number" && v.length < s.minItems) return false;
    if (typeof s.maxItems === "number" && v.length > s.maxItems) return false;
    const prefix = Array.isArray(s.prefixItems) ? s.prefixItems : Array.isArray(s.items) ? s.items : [];
    const rest = Array.isArray(s.items) ? s.additionalItems : s.items;
    for (let i = 0; i < v.length; i++) {
      const itemSchema: unknown = i < prefix.length ? prefix[i] : rest;
      if (itemSchema !== undefined && !sub(itemSchema, v[i])) return false;
    }
    if (s.uniqueItems === true) {
      for (let i = 0; i < v.length; i++) for (let j = i + 1; j < v.length; j++) if (jsonEqual(v[i], v[j])) return false;
    }
    if (s.contains !== undefined) {
      const count = v.filter((x) => sub(s.contains, x)).length;
      const lo = typeof s.minContains === "number" ? s.minContains : 1;
      if (count < lo) return false;
      if (typeof s.maxContains === "number" && count > s.maxContains) return false;
    }
    return true;
  }

  private object(s: Schema, v: Schema, sub: (x: unknown, v: unknown) => boolean): boolean {
    const keys = Object.keys(v);
    if (typeof s.minProperties === "number" && keys.length < s.minProperties) return false;
    if (typeof s.maxProperties === "number" && keys.length > s.maxProperties) return false;
    if (Array.isArray(s.required) && !s.required.every((k) => Object.prototype.hasOwnProperty.call(v, String(k)))) return false;
    const props = isSchema(s.properties) ? s.properties : {};
    const patterns = isSchema(s.patternProperties) ? Object.entries(s.patternProperties) : [];
    for (const k of keys) {
      let matched = false;
      if (Object.prototype.hasOwnProperty.call(props, k)) {
        matched = true;
        if (!sub(props[k], v[k])) return false;
      }
      for (const [p, ps] of patterns) {
        const re = patternRegex(p);
        if (re === null) {
          this.undecided = "patternProperties";
          continue;
        }
        if (re.test(k)) {
          matched = true;
          if (!sub(ps, v[k])) return false;
        }
      }
      if (!matched && s.additionalProperties !== undefined && !sub(s.additionalProperties, v[k])) return false;
      if (s.propertyNames !== undefined && !sub(s.propertyNames, k)) return false;
    }
    const deps = { ...(isSchema(s.dependencies) ? s.dependencies : {}), ...(isSchema(s.dependentRequired) ? s.dependentRequired : {}), ...(isSchema(s.dependentSchemas) ? s.dependentSchemas : {}) };
    for (const [k, d] of Object.entries(deps)) {
      if (!Object.prototype.hasOwnProperty.call(v, k)) continue;
      if (Array.isArray(d)) {
        if (!d.every((r) => Object.prototype.hasOwnProperty.call(v, String(r)))) return false;
      } else if (!sub(d, v)) return false;
    }
    return true;
  }
}
