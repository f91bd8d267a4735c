/** The oneOf disjointness proof, over schemas with $refs resolved by the caller. */
import type { JsonSchema } from "./types";
import { isSchema, type Schema } from "./schema-words";
import { patternsDisjoint } from "./pattern-overlap";
import { jsonEqual } from "./value-check";

/** Resolves local $refs (following chains) to the schema they name. */
export type Deref = (schema: JsonSchema, path: string) => JsonSchema;
/** False only when the value certainly does not match the schema. */
export type MayMatch = (schema: JsonSchema, value: unknown) => boolean;

/** True only when no value can match both schemas (a conservative proof). */
export function provablyDisjoint(a0: JsonSchema, b0: JsonSchema, path: string, deref: Deref, mayMatch?: MayMatch): boolean {
  const a = deref(a0, path);
  const b = deref(b0, path);
  if (a === false || b === false) return true;
  if (a === true || b === true) return false;
  const va = a.const !== undefined || Array.isArray(a.enum);
  const vb = b.const !== undefined || Array.isArray(b.enum);
  if (va && vb && !listed(a).some((v) => listed(b).some((w) => jsonEqual(v, w)))) return true;
  // A finite branch is disjoint from another when none of its values fits the other.
  if (mayMatch && va && listed(a).every((v) => !mayMatch(b, v))) return true;
  if (mayMatch && vb && listed(b).every((v) => !mayMatch(a, v))) return true;
  const types = (s: Schema): Set<string> | null => {
    if (s.type === undefined) return null;
    const list = (Array.isArray(s.type) ? s.type : [s.type]) as string[];
    return new Set(list.map((t) => (t === "integer" ? "number" : t)));
  };
  const ta = types(a);
  const tb = types(b);
  if (ta && tb && ![...ta].some((t) => tb.has(t))) return true;
  // Strings only, and no string matches both patterns.
  if (ta && tb && [...ta].every((t) => !tb.has(t) || t === "string") && typeof a.pattern === "string" && typeof b.pattern === "string" && patternsDisjoint(a.pattern, b.pattern)) return true;
  // The object keywords below decide only objects: every other value both allow satisfies them both.
  const common = ta && tb ? [...ta].filter((t) => tb.has(t)) : ta ? [...ta] : tb ? [...tb] : null;
  if (common === null || common.some((t) => t !== "object")) return false;
  const props = (s: Schema) => (isSchema(s.properties) ? s.properties : {});
  const req = (s: Schema) => (Array.isArray(s.required) ? (s.required as string[]) : []);
  // A key one requires must fit both: its value there and what the other allows for that key (a
  // declared property, or additionalProperties when no pattern may apply) admit nothing in common.
  const allowed = (s: Schema, k: string): JsonSchema | undefined => (k in props(s) ? (props(s)[k] as JsonSchema) : s.patternProperties === undefined ? ((s.additionalProperties ?? true) as JsonSchema) : undefined);
  for (const [x, y] of [[a, b], [b, a]] as const) {
    for (const k of req(x)) {
      const there = allowed(y, k);
      if (k in props(x) && there !== undefined && provablyDisjoint(props(x)[k] as JsonSchema, there, path, deref, mayMatch)) return true;
    }
  }
  if (a.additionalProperties === false && req(b).some((k) => !(k in props(a)))) return true;
  if (b.additionalProperties === false && req(a).some((k) => !(k in props(b)))) return true;
  return false;
}

/** The values a const or enum lists. */
function listed(s: Schema): unknown[] {
  return s.const !== undefined ? [s.const] : Array.isArray(s.enum) ? s.enum : [];
}
