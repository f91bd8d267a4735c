/**
 * Reading one schema node across drafts, and merging the conjunction of several nodes (allOf, `$ref`
 * with siblings, a union branch with the keywords beside it) into one flat node that the type
 * compilers read. Keywords that constrain in ways a flat node cannot hold (`not`, `if`, unions,
 * dependencies) are collected for the compiler to handle or relax.
 */
import type { JsonSchema } from "./types";
import { isSchema, type Schema } from "./schema-words";
import { jsonEqual } from "./value-check";
import type { Draft } from "./schema-document";

/** A subschema with the context it is read in. */
export interface Part {
  schema: JsonSchema;
  base: string;
  pointer: string;
}

/**
 * The part with another schema in its place. Written out rather than spread: parts spread from parts
 * of varied origins made every later read of them slow.
 */
export function withSchema(p: Part, schema: JsonSchema): Part {
  return { schema, base: p.base, pointer: p.pointer };
}

/** Number keywords whose tighter value is the larger one. */
const LOWER = ["minimum", "exclusiveMinimum", "minLength", "minItems", "minProperties", "minContains"];
/** Number keywords whose tighter value is the smaller one. */
const UPPER = ["maximum", "exclusiveMaximum", "maxLength", "maxItems", "maxProperties", "maxContains"];
/** Keywords gathered into lists on the merged node (each entry keeps the pointer it came from). */
export const COLLECTED = ["not", "if", "contains", "unevaluatedProperties", "unevaluatedItems"] as const;

/** Keywords whose subschemas' bases are remembered. */
const SUBSCHEMA_KEYWORDS = ["properties", "patternProperties", "additionalProperties", "items", "prefixItems", "propertyNames", "dependentSchemas"];
const DEPENDENCY_KEYWORDS = ["dependentRequired", "dependentSchemas"];
/** Groups of keywords a merge reads, as bits (see mergeParts). */
const SUBSCHEMAS = 1;
const BOUNDS = 2;
const DEPENDENCIES = 4;
const COLLECTED_GROUP = 8;
const GROUP_OF = new Map<string, number>();
for (const k of SUBSCHEMA_KEYWORDS) GROUP_OF.set(k, SUBSCHEMAS);
for (const k of [...LOWER, ...UPPER]) GROUP_OF.set(k, (GROUP_OF.get(k) ?? 0) | BOUNDS);
for (const k of DEPENDENCY_KEYWORDS) GROUP_OF.set(k, (GROUP_OF.get(k) ?? 0) | DEPENDENCIES);
for (const k of COLLECTED) GROUP_OF.set(k, (GROUP_OF.get(k) ?? 0) | COLLECTED_GROUP);

/** One node, rewritten into draft 2020-12's vocabulary (draft-04 boolean exclusives, tuple items, dependencies). */
export function normalizeNode(s: Schema, draft: Draft): Schema {
  const out: Schema = { ...s };
  for (const [flag, bound] of [
    ["exclusiveMinimum", "minimum"],
    ["exclusiveMaximum", "maximum"],
  ] as const) {
    if (typeof out[flag] === "boolean") {
      if (out[flag] === true && typeof out[bound] === "number") {
        out[flag] = out[bound];
        delete out[bound];
      } else delete out[flag];
    }
  }
  if (Array.isArray(out.items)) {
    out.prefixItems = out.items;
    if (out.additionalItems !== undefined) out.items = out.additionalItems;
    else delete out.items;
  }
  delete out.additionalItems;
  if (isSchema(out.dependencies)) {
    const req: Record<string, unknown> = { ...(isSchema(out.dependentRequired) ? out.dependentRequired : {}) };
    const sch: Record<string, unknown> = { ...(isSchema(out.dependentSchemas) ? out.dependentSchemas : {}) };
    for (const [k, v] of Object.entries(out.dependencies)) {
      if (Array.isArray(v)) req[k] = v;
      else sch[k] = v;
    }
    if (Object.keys(req).length) out.dependentRequired = req;
    if (Object.keys(sch).length) out.dependentSchemas = sch;
    delete out.dependencies;
  }
  if (out.$ref === undefined && typeof (out.$recursiveRef ?? out.$dynamicRef) === "string") {
    // Without dynamic scopes these resolve like a plain reference.
    out.$ref = out.$recursiveRef ?? out.$dynamicRef;
  }
  delete out.$recursiveRef;
  delete out.$dynamicRef;
  // Keywords beside $ref apply in every draft here: before 2019-09 the specification ignores them, but
  // ajv (the gatekeeper) applies them, and applying them only narrows what the grammar allows.
  void draft;
  if (out.const !== undefined) {
    out.enum = Array.isArray(out.enum) ? out.enum.filter((v) => jsonEqual(v, out.const)) : [out.const];
    delete out.const;
  }
  return out;
}

/** The types a node allows (integer folded into number when both are present), or null for all. */
export function typesOf(s: Schema): string[] | null {
  if (s.type === undefined) return null;
  const list = (Array.isArray(s.type) ? s.type : [s.type]).filter((t): t is string => typeof t === "string");
  return list;
}

function intersectTypes(a: string[] | null, b: string[] | null): string[] | null {
  if (a === null) return b;
  if (b === null) return a;
  const out: string[] = [];
  for (const t of a) {
    if (b.includes(t)) out.push(t);
    else if (t === "integer" && b.includes("number")) out.push("integer");
    else if (t === "number" && b.includes("integer")) out.push("integer");
  }
  return [...new Set(out)];
}

/** A merged node plus what it could not merge: extra patterns/formats/multiples (enforced loosely). */
export interface Merged {
  schema: Schema;
  /** Patterns beyond the first; each still holds. */
  extraPatterns: Array<{ pattern: string; pointer: string }>;
  /** Formats beyond the first. */
  extraFormats: Array<{ format: string; pointer: string }>;
  /** multipleOf values beyond the first. */
  extraMultiples: Array<{ value: number; pointer: string }>;
  /** Collected keywords with where they came from. */
  collected: Array<{ keyword: (typeof COLLECTED)[number]; part: Part }>;
  /** Per-part object keywords, for additionalProperties across parts. */
  objectParts: Array<{ properties: Record<string, unknown>; patterns: string[]; additional: unknown }>;
  /** Base URI of each merged property/items subschema that came from a part with another base. */
  bases: Map<unknown, string>;
}

/**
 * Merges flat parts (no `$ref`, `allOf` or unions left at their top) into one node. Subschemas that
 * meet under one name are joined with a synthetic `allOf`.
 */
export function mergeParts(parts: Part[]): Merged {
  const m: Merged = { schema: {}, extraPatterns: [], extraFormats: [], extraMultiples: [], collected: [], objectParts: [], bases: new Map() };
  const s = m.schema;
  // Equal subschemas meet as themselves (A and A is A), which keeps later equality checks simple.
  const both = (a: unknown, b: unknown) =>
    a === undefined ? b : b === undefined || a === b || jsonEqual(a, b) ? a : a === false || b === false ? false : { allOf: [a, b] };
  let types: string[] | null = null;
  for (const part of parts) {
    const p = part.schema;
    if (p === true) continue;
    if (p === false) {
      types = [];
      continue;
    }
    // Which groups of keywords below this part has at all (most parts hold a few keywords; looking up
    // every keyword of every group on each of them was most of a merge).
    let groups = 0;
    for (const k in p) groups |= GROUP_OF.get(k) ?? 0;
    for (const sub of groups & SUBSCHEMAS ? SUBSCHEMA_KEYWORDS : []) {
      // Remember each subschema's base, since the merged node no longer says where it came from.
      const v = p[sub];
      if (isSchema(v) && (sub === "properties" || sub === "patternProperties" || sub === "dependentSchemas")) for (const c of Object.values(v)) m.bases.set(c, part.base);
      else if (Array.isArray(v)) for (const c of v) m.bases.set(c, part.base);
      else if (v !== undefined) m.bases.set(v, part.base);
    }
    types = intersectTypes(types, typesOf(p));
    if (Array.isArray(p.enum)) {
      const values: unknown[] = p.enum;
      const prev = s.enum as unknown[] | undefined;
      s.enum = prev === undefined ? [...values] : prev.filter((v) => values.some((w) => jsonEqual(v, w)));
    }
    if (groups & BOUNDS) {
      for (const k of LOWER) {
        const v = p[k];
        const prev = s[k];
        if (typeof v === "number") s[k] = typeof prev === "number" ? Math.max(prev, v) : v;
      }
      for (const k of UPPER) {
        const v = p[k];
        const prev = s[k];
        if (typeof v === "number") s[k] = typeof prev === "number" ? Math.min(prev, v) : v;
      }
    }
    if (typeof p.pattern === "string") {
      if (s.pattern === undefined) s.pattern = p.pattern;
      else if (s.pattern !== p.pattern) m.extraPatterns.push({ pattern: p.pattern, pointer: `${part.pointer}/pattern` });
    }
    if (typeof p.format === "string") {
      if (s.format === undefined) s.format = p.format;
      else if (s.format !== p.format) m.extraFormats.push({ format: p.format, pointer: `${part.pointer}/format` });
    }
    if (typeof p.multipleOf === "number") {
      const prev = s.multipleOf as number | undefined;
      if (prev === undefined) s.multipleOf = p.multipleOf;
      else if (Number.isInteger(prev / p.multipleOf)) {
        // prev is already a multiple of this one.
      } else if (Number.isInteger(p.multipleOf / prev)) s.multipleOf = p.multipleOf;
      else m.extraMultiples.push({ value: p.multipleOf, pointer: `${part.pointer}/multipleOf` });
    }
    if (p.uniqueItems === true) s.uniqueItems = true;
    if (Array.isArray(p.required)) s.required = [...new Set([...((s.required as string[]) ?? []), ...p.required.map(String)])];
    if (isSchema(p.properties)) {
      // The first part's properties are copied whole (merging each name into an empty record gives
      // the same), unless a name is also one of Object.prototype's, which the merge below meets.
      if (s.properties === undefined && !namesInherited(p.properties)) s.properties = { ...p.properties };
      else {
        const props = { ...((s.properties as Record<string, unknown>) ?? {}) };
        for (const [k, v] of Object.entries(p.properties)) props[k] = both(props[k], v);
        s.properties = props;
      }
    }
    if (isSchema(p.patternProperties)) {
      const pp = { ...((s.patternProperties as Record<string, unknown>) ?? {}) };
      for (const [k, v] of Object.entries(p.patternProperties)) pp[k] = both(pp[k], v);
      s.patternProperties = pp;
    }
    if (isSchema(p.properties) || isSchema(p.patternProperties) || p.additionalProperties !== undefined) {
      m.objectParts.push({
        properties: isSchema(p.properties) ? p.properties : {},
        patterns: isSchema(p.patternProperties) ? Object.keys(p.patternProperties) : [],
        additional: p.additionalProperties,
      });
    }
    if (p.additionalProperties !== undefined) s.additionalProperties = both(s.additionalProperties, p.additionalProperties);
    if (p.propertyNames !== undefined) s.propertyNames = both(s.propertyNames, p.propertyNames);
    if (p.items !== undefined || Array.isArray(p.prefixItems)) {
      // Position i of each part: its prefixItems[i], else its items (absent = anything).
      const prevPrefix = (s.prefixItems as unknown[] | undefined) ?? [];
      const prevItems = s.items;
      const prefix = (p.prefixItems as unknown[] | undefined) ?? [];
      const n = Math.max(prevPrefix.length, prefix.length);
      const merged: unknown[] = [];
      for (let i = 0; i < n; i++) merged.push(both(i < prevPrefix.length ? prevPrefix[i] : prevItems, i < prefix.length ? prefix[i] : p.items));
      if (merged.length) s.prefixItems = merged;
      const items = both(prevItems, p.items);
      if (items !== undefined) s.items = items;
    }
    for (const k of groups & DEPENDENCIES ? DEPENDENCY_KEYWORDS : []) {
      if (isSchema(p[k])) {
        const prev = (s[k] as Record<string, unknown>) ?? {};
        const next = { ...prev };
        for (const [name, v] of Object.entries(p[k])) {
          next[name] = k === "dependentRequired" ? [...new Set([...((prev[name] as string[]) ?? []), ...(v as string[])])] : both(prev[name], v);
        }
        s[k] = next;
      }
    }
    for (const k of groups & COLLECTED_GROUP ? COLLECTED : []) {
      if (p[k] === undefined) continue;
      const sub: JsonSchema = k === "if" ? { if: p.if, then: p.then, else: p.else } : (p[k] as JsonSchema);
      m.collected.push({ keyword: k, part: { schema: sub, base: part.base, pointer: `${part.pointer}/${k}` } });
      if (k === "contains") {
        if (typeof p.minContains === "number") m.collected[m.collected.length - 1].part.schema = { contains: p.contains, minContains: p.minContains, maxContains: p.maxContains };
      }
    }
  }
  if (types !== null) s.type = types;
  // A key declared by one part but not another must satisfy the other's additionalProperties.
  if (m.objectParts.length > 1 && isSchema(s.properties)) {
    const props = s.properties;
    for (const op of m.objectParts) {
      if (op.additional === undefined || op.additional === true) continue;
      for (const k of Object.keys(props)) {
        if (k in op.properties) continue;
        if (op.patterns.some((pat) => safeTest(pat, k))) continue;
        props[k] = op.additional === false ? false : both(props[k], op.additional);
      }
    }
  }
  return m;
}

/** True when a name of the record is also a property of every object (`constructor`, `__proto__`...). */
function namesInherited(record: Record<string, unknown>): boolean {
  for (const k in record) if (k in Object.prototype) return true;
  return false;
}

function safeTest(pattern: string, key: string): boolean {
  try {
    return new RegExp(pattern, "u").test(key);
  } catch {
    return false;
  }
}
