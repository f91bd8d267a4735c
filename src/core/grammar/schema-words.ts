/** JSON Schema vocabulary the compiler knows, and small checks on keyword values. */

export type Schema = Record<string, unknown>;

/**
 * Keywords that constrain a value (validation and applicator vocabularies of drafts 04 to 2020-12).
 * Everything else — annotations, `$defs`, `$id`, and unknown keywords such as `javaName` or
 * `x-kubernetes-*` — is ignored, as the specification says.
 */
export const VOCABULARY = new Set([
  "type", "enum", "const", "anyOf", "oneOf", "allOf", "not", "$ref", "$recursiveRef", "$dynamicRef", "if", "then", "else",
  "properties", "required", "additionalProperties", "patternProperties", "propertyNames", "minProperties", "maxProperties",
  "dependencies", "dependentRequired", "dependentSchemas", "unevaluatedProperties",
  "items", "prefixItems", "additionalItems", "contains", "minContains", "maxContains", "minItems", "maxItems", "uniqueItems", "unevaluatedItems",
  "minLength", "maxLength", "pattern", "format",
  "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf",
]);
export const ALL_TYPES = ["object", "array", "string", "number", "boolean", "null"];
/** Longest extra key of an object that allows additional properties. */
export const MAX_EXTRA_KEY_CHARS = 64;

export const isSchema = (s: unknown): s is Schema => typeof s === "object" && s !== null && !Array.isArray(s);
export const escapePointer = (k: string) => k.replace(/~/g, "~0").replace(/\//g, "~1");

export function constrainingKeys(s: Schema): string[] {
  return Object.keys(s).filter((k) => VOCABULARY.has(k));
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
