/** The oneOf disjointness proof, over schemas with $refs resolved by the caller. */
import type { JsonSchema } from "./types";
import { isSchema, type Schema } from "./schema-words";

/** Resolves local $refs (following chains) to the schema they name. */
export type Deref = (schema: JsonSchema, path: string) => JsonSchema;

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
