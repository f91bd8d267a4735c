/** allOf merging and the oneOf disjointness proof, over schemas with $refs resolved by the caller. */
import type { JsonSchema } from "./types";
import { OBJECT_KEYS, UnsupportedSchema, constrainingKeys, isSchema, type Schema } from "./schema-words";

/** Resolves local $refs (following chains) to the schema they name. */
export type Deref = (schema: JsonSchema, path: string) => JsonSchema;

/** allOf over object schemas: properties united, keys allowed only where every part allows them. */
export function mergeAllOf(s: Schema, path: string, deref: Deref): JsonSchema {
  const partsRaw = s.allOf;
  if (!Array.isArray(partsRaw) || partsRaw.length === 0) throw new UnsupportedSchema(path, "allOf", "allOf must be a non-empty array");
  const { allOf: _drop, ...rest } = s;
  const parts = [rest, ...(partsRaw as unknown[])].map((p, i) => {
    const d = deref(p as JsonSchema, `${path}/allOf/${i}`);
    if (d === true) return {};
    if (!isSchema(d)) throw new UnsupportedSchema(`${path}/allOf/${i}`, "allOf", "a false schema in allOf accepts nothing");
    return d;
  });
  const objectParts = parts.filter((p) => constrainingKeys(p).length > 0);
  for (const [i, p] of objectParts.entries()) {
    for (const k of constrainingKeys(p)) {
      if (!OBJECT_KEYS.includes(k) && !(k === "type" && p.type === "object"))
        throw new UnsupportedSchema(`${path}/allOf/${i}`, k, "allOf is merged only for object schemas");
    }
    if (p.additionalProperties !== undefined && typeof p.additionalProperties !== "boolean")
      throw new UnsupportedSchema(`${path}/allOf/${i}`, "additionalProperties", "allOf with an additionalProperties schema is not merged");
    if (p.propertyNames !== undefined) throw new UnsupportedSchema(`${path}/allOf/${i}`, "propertyNames", "allOf with propertyNames is not merged");
  }
  const allowed = (p: Schema, key: string) => p.additionalProperties !== false || (isSchema(p.properties) && key in p.properties);
  const properties: Record<string, unknown> = {};
  const required = new Set<string>();
  for (const p of objectParts) {
    for (const [k, v] of Object.entries(isSchema(p.properties) ? p.properties : {})) {
      properties[k] = k in properties ? { allOf: [properties[k], v] } : v;
    }
    for (const r of Array.isArray(p.required) ? p.required : []) required.add(String(r));
  }
  for (const k of Object.keys(properties)) {
    if (!objectParts.every((p) => allowed(p, k))) {
      // A required key another part forbids: no object satisfies every part.
      if (required.has(k)) return false;
      delete properties[k];
    }
  }
  const closed = objectParts.some((p) => p.additionalProperties === false);
  const merged: Schema = { type: "object", properties, required: [...required] };
  if (closed) merged.additionalProperties = false;
  return merged;
}

/** True only when no value can match both schemas (a conservative proof). */
export function provablyDisjoint(a0: JsonSchema, b0: JsonSchema, path: string, deref: Deref): boolean {
  const a = deref(a0, path);
  const b = deref(b0, path);
  if (a === false || b === false) return true;
  if (a === true || b === true) return false;
  const values = (s: Schema): string[] | null =>
    s.const !== undefined ? [JSON.stringify(s.const)] : Array.isArray(s.enum) ? s.enum.map((v) => JSON.stringify(v)) : null;
  const va = values(a);
  const vb = values(b);
  if (va && vb && !va.some((v) => vb.includes(v))) return true;
  const types = (s: Schema): Set<string> | null => {
    if (s.type === undefined) return null;
    const list = (Array.isArray(s.type) ? s.type : [s.type]) as string[];
    return new Set(list.map((t) => (t === "integer" ? "number" : t)));
  };
  const ta = types(a);
  const tb = types(b);
  if (ta && tb && ![...ta].some((t) => tb.has(t))) return true;
  const props = (s: Schema) => (isSchema(s.properties) ? s.properties : {});
  const req = (s: Schema) => (Array.isArray(s.required) ? (s.required as string[]) : []);
  for (const k of req(a)) {
    if (req(b).includes(k) && k in props(a) && k in props(b) && provablyDisjoint(props(a)[k] as JsonSchema, props(b)[k] as JsonSchema, path, deref)) return true;
  }
  if (a.additionalProperties === false && req(b).some((k) => !(k in props(a)))) return true;
  if (b.additionalProperties === false && req(a).some((k) => !(k in props(b)))) return true;
  return false;
}
