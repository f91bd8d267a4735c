/** JSON Schema vocabulary the compiler knows, and small checks on keyword values. */

/** A keyword the compiler cannot compile exactly. */
export class UnsupportedSchema extends Error {
  constructor(
    readonly path: string,
    readonly keyword: string,
    readonly reason: string,
  ) {
    super(`${path || "/"}: ${keyword}: ${reason}`);
  }
}

export type Schema = Record<string, unknown>;

/** Keywords that never constrain a value. */
export const ANNOTATIONS = new Set([
  "$schema", "$id", "$anchor", "$comment", "$defs", "definitions", "title", "description", "default", "examples",
  "deprecated", "readOnly", "writeOnly", "contentMediaType", "contentEncoding", "id",
]);
const STRING_KEYS = ["minLength", "maxLength", "pattern", "format"];
const NUMBER_KEYS = ["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"];
const ARRAY_KEYS = ["items", "prefixItems", "minItems", "maxItems", "uniqueItems"];
export const OBJECT_KEYS = ["properties", "required", "additionalProperties", "propertyNames"];
const STRUCTURE_KEYS = ["type", "enum", "const", "anyOf", "oneOf", "allOf", "$ref"];
export const KNOWN = new Set([...ANNOTATIONS, ...STRING_KEYS, ...NUMBER_KEYS, ...ARRAY_KEYS, ...OBJECT_KEYS, ...STRUCTURE_KEYS]);
export const ALL_TYPES = ["object", "array", "string", "number", "boolean", "null"];
/** Longest extra key of an object that allows additional properties. */
export const MAX_EXTRA_KEY_CHARS = 64;

export const isSchema = (s: unknown): s is Schema => typeof s === "object" && s !== null && !Array.isArray(s);
export const escapePointer = (k: string) => k.replace(/~/g, "~0").replace(/\//g, "~1");

export function constrainingKeys(s: Schema): string[] {
  return Object.keys(s).filter((k) => !ANNOTATIONS.has(k));
}

/** A bound for a rule name: "m" marks a negative value, since names cannot hold "-" as a sign. */
export function signed(v: bigint | number): string {
  return v < 0 ? `m${String(v).slice(1)}` : String(v);
}

export function matchesType(v: unknown, t: string): boolean {
  switch (t) {
    case "null":
      return v === null;
    case "boolean":
      return typeof v === "boolean";
    case "string":
      return typeof v === "string";
    case "number":
      return typeof v === "number" && Number.isFinite(v);
    case "integer":
      return typeof v === "number" && Number.isInteger(v);
    case "array":
      return Array.isArray(v);
    case "object":
      return typeof v === "object" && v !== null && !Array.isArray(v);
    default:
      return false;
  }
}

export function nonNegativeInt(v: unknown, path: string, keyword: string): number | undefined {
  if (v === undefined) return undefined;
  if (typeof v !== "number" || !Number.isInteger(v) || v < 0) throw new UnsupportedSchema(path, keyword, `${keyword} must be a non-negative integer`);
  return v;
}

export function bound(v: unknown, path: string, keyword: string): number | undefined {
  if (v === undefined) return undefined;
  if (typeof v !== "number" || !Number.isFinite(v)) throw new UnsupportedSchema(path, keyword, `${keyword} must be a finite number`);
  return v;
}

export function toBigInt(v: number): bigint {
  const cap = 10n ** 17n;
  if (v > 1e17) return cap;
  if (v < -1e17) return -cap;
  return BigInt(v);
}

/** The adjacent double above (dir 1) or below (dir -1). */
export function nextDouble(v: number, dir: 1 | -1): number {
  if (v === 0) return dir * Number.MIN_VALUE;
  const buf = new DataView(new ArrayBuffer(8));
  buf.setFloat64(0, v);
  const bits = buf.getBigUint64(0);
  const away = (v > 0) === (dir > 0);
  buf.setBigUint64(0, away ? bits + 1n : bits - 1n);
  return buf.getFloat64(0);
}
