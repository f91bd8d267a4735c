/**
 * `not`: a negation with an exact positive form becomes that form (De Morgan over anyOf/allOf, and
 * one keyword at a time for types, enums, required keys, property values, lengths, counts and
 * ranges); a merged node's own `not` narrows it where it can, and is relaxed otherwise.
 */
import { typesOf, type Part } from "./schema-merge";
import type { JsonSchema } from "./types";
import { ALL_TYPES, constrainingKeys, isSchema, matchesType, type Schema } from "./schema-words";
import { type CompileContext, count, num } from "./compile-context";

/** A count keyword's type and its opposite bound (negating `minLength: c` leaves `maxLength: c - 1`). */
const COUNT_OPPOSITES: Record<string, [string, string]> = {
  minLength: ["string", "maxLength"],
  maxLength: ["string", "minLength"],
  minItems: ["array", "maxItems"],
  maxItems: ["array", "minItems"],
  minProperties: ["object", "maxProperties"],
  maxProperties: ["object", "minProperties"],
};

/** Most subschemas one negation visits (nested property values included). */
const MAX_NEGATION_NODES = 200;
/** Subschemas visited by the negation under way, per compile. */
const negationWork = new WeakMap<CompileContext, number>();

/** What the conjunction a negation is used in says about the object (see negationContext). */
export interface NegationContext {
  closedKeys: string[] | null;
  properties: Record<string, JsonSchema>;
  /** Keys every object there has. */
  required: string[];
  /** The types its values may have (null: any). */
  types: string[] | null;
}

/**
 * What a conjunction's own parts say about an object, for negating another branch inside it: the
 * keys it may have when some part closes it (additionalProperties false, no patterns), and the
 * schema each declared property must satisfy there.
 */
export function negationContext(compiler: CompileContext, parts: Part[]): NegationContext {
  let closedKeys: string[] | null = null;
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  let types: string[] | null = null;
  for (const p of parts) {
    const s = compiler.deref(p.schema, p.base);
    if (!isSchema(s)) continue;
    const own = typesOf(compiler.normal(s));
    if (own) types = types === null ? own : types.filter((t) => own.includes(t) || (t === "integer" && own.includes("number"))).concat(own.includes("integer") && types.includes("number") && !types.includes("integer") ? ["integer"] : []);
    if (Array.isArray(s.required)) required.push(...s.required.map(String));
    const declared = isSchema(s.properties) ? s.properties : {};
    for (const [k, v] of Object.entries(declared)) if (!(k in properties)) properties[k] = v as JsonSchema;
    if (s.additionalProperties !== false || s.patternProperties !== undefined) continue;
    if (closedKeys === null || Object.keys(declared).length < closedKeys.length) closedKeys = Object.keys(declared);
  }
  return { closedKeys, properties, required, types };
}

/**
 * An equivalent positive schema for `not x`, or null when there is none in the compiler's terms.
 * Covers anyOf/allOf (De Morgan), `not`, and nodes of types, enums, required keys, property values
 * (recursively), length, count and range bounds, one keyword at a time. `additionalProperties` is
 * negated only with `closedKeys`: every key the value can have (the context closes the object).
 */
export function negation(compiler: CompileContext, x0: JsonSchema, base: string, depth = 0, context: NegationContext | null = null): JsonSchema | null {
  // Property values negate recursively, so one negation may visit many nodes: past a budget there is none.
  if (depth === 0) negationWork.set(compiler, 0);
  const work = (negationWork.get(compiler) ?? 0) + 1;
  negationWork.set(compiler, work);
  if (work > MAX_NEGATION_NODES) return null;
  let x = x0;
  for (let i = 0; i < 16 && isSchema(x) && typeof x.$ref === "string" && constrainingKeys(x).length === 1; i++) {
    const r = compiler.doc.resolve(x.$ref, compiler.doc.baseOf(x) ?? base);
    if (typeof r === "string") return null;
    x = r.schema;
  }
  if (x === true) return false;
  if (x === false) return true;
  if (!isSchema(x) || depth > 8) return null;
  const n = compiler.normal(x);
  const keys = constrainingKeys(n);
  if (keys.length === 0) return false;
  const all = (list: unknown[]) => list.map((b) => negation(compiler, b as JsonSchema, base, depth + 1));
  if (keys.length === 1 && keys[0] === "anyOf" && Array.isArray(n.anyOf)) {
    const parts = all(n.anyOf);
    return parts.every((q) => q !== null) ? { allOf: parts } : null;
  }
  if (keys.length === 1 && keys[0] === "allOf" && Array.isArray(n.allOf)) {
    const parts = all(n.allOf);
    return parts.every((q) => q !== null) ? { anyOf: parts } : null;
  }
  if (keys.length === 1 && keys[0] === "enum") return { not: n };
  if (keys.length === 1 && keys[0] === "not") return n.not as JsonSchema;
  // not (k1 and k2 and ...) is (not k1) or (not k2) or ...; each keyword fails only on values of its type.
  const options: JsonSchema[] = [];
  const types = typesOf(n);
  const declared0 = isSchema(n.properties) ? Object.keys(n.properties) : [];
  if (n.additionalProperties === false && n.patternProperties === undefined && context?.required.some((key) => !declared0.includes(key))) {
    // The context requires a key this schema refuses: every object there fails it, whatever its other keywords.
    if (types === null) return { type: "object" };
    const rest = ALL_TYPES.filter((t) => t === "object" || (!types.includes(t) && !(t === "number" && types.includes("integer"))));
    if (types.includes("integer") && !types.includes("number")) return null;
    return rest.length === ALL_TYPES.length ? true : { type: rest };
  }
  // Where the context's values all have one of these types, failing the type is not an option.
  const within = !!types && !!context?.types && context.types.every((t) => types.includes(t) || (t === "integer" && types.includes("number")));
  if (types && !within) {
    const rest = ALL_TYPES.filter((t) => !types.includes(t) && !(t === "number" && types.includes("integer")));
    if (rest.length) options.push({ type: rest });
    // Failing `integer` (without `number`) is also being a number that is not whole.
    if (types.includes("integer") && !types.includes("number")) options.push({ type: "number", not: { type: "integer" } });
  }
  const fails = (type: string, flipped: Schema) => options.push({ type, ...flipped });
  for (const k of keys) {
    const v = n[k];
    const c = count(v);
    switch (k) {
      case "type":
        break;
      case "enum":
        options.push({ not: { enum: v } });
        break;
      case "required":
        for (const r of Array.isArray(v) ? v.map(String) : []) fails("object", { properties: { [r]: false } });
        break;
      case "properties":
        for (const [name, sub] of Object.entries(isSchema(v) ? v : {})) {
          // In context: a key the object cannot have never fails; a key whose value there can never fit fails whenever present.
          if (context?.closedKeys && !context.closedKeys.includes(name)) continue;
          const here = context?.properties[name];
          if (here !== undefined && compiler.pairDisjoint(here, sub as JsonSchema)) {
            fails("object", { required: [name] });
            continue;
          }
          const neg = negation(compiler, sub as JsonSchema, base, depth + 1);
          if (neg === null) return null;
          if (neg !== false) fails("object", { required: [name], properties: { [name]: neg } });
        }
        break;
      case "additionalProperties": {
        // Some key beyond the declared ones, with a value the schema refuses: only nameable when the
        // context closes the object (then the candidate keys are its keys).
        if (v === true || (isSchema(v) && constrainingKeys(v).length === 0)) break;
        const closedKeys = context?.closedKeys;
        if (!closedKeys || n.patternProperties !== undefined) return null;
        const declared = isSchema(n.properties) ? Object.keys(n.properties) : [];
        const neg = negation(compiler, v as JsonSchema, base, depth + 1);
        if (neg === null) return null;
        for (const extra of closedKeys.filter((key) => !declared.includes(key))) fails("object", neg === true ? { required: [extra] } : { required: [extra], properties: { [extra]: neg } });
        break;
      }
      case "minLength":
      case "maxLength":
      case "minItems":
      case "maxItems":
      case "minProperties":
      case "maxProperties": {
        if (c === undefined) return null;
        // A count bound fails where the opposite bound, one past it, holds (a minimum of 0 never fails).
        const [type, opposite] = COUNT_OPPOSITES[k];
        if (k.startsWith("min")) {
          if (c > 0) fails(type, { [opposite]: c - 1 });
        } else fails(type, { [opposite]: c + 1 });
        break;
      }
      case "minimum":
      case "maximum":
      case "exclusiveMinimum":
      case "exclusiveMaximum": {
        if (num(v) === undefined) return null;
        const flip = { minimum: "exclusiveMaximum", maximum: "exclusiveMinimum", exclusiveMinimum: "maximum", exclusiveMaximum: "minimum" }[k];
        fails("number", { [flip]: v });
        break;
      }
      case "multipleOf":
        // A step of 1 fails exactly on numbers that are not whole; other steps have no positive form here.
        if (v !== 1) return null;
        options.push({ type: "number", not: { type: "integer" } });
        break;
      default:
        return null;
    }
  }
  return options.length === 0 ? false : options.length === 1 ? options[0] : { anyOf: options };
}

/** `not` that can be expressed exactly narrows the node; any other `not` is dropped and reported. */
export function applyNot(compiler: CompileContext, s: Schema, part: Part): void {
  let n = part.schema;
  for (let i = 0; i < 16 && isSchema(n) && typeof n.$ref === "string" && constrainingKeys(n).length === 1; i++) {
    const r = compiler.doc.resolve(n.$ref, part.base);
    if (typeof r === "string") break;
    n = r.schema;
  }
  if (n === false) return;
  if (n === true || (isSchema(n) && constrainingKeys(n).length === 0)) {
    s.type = [];
    return;
  }
  if (!isSchema(n)) return;
  n = compiler.normal(n);
  const keys = constrainingKeys(n);
  if (keys.length === 1 && keys[0] === "enum" && Array.isArray(n.enum) && excludeValues(compiler, s, n.enum)) return;
  if (keys.length === 1 && keys[0] === "type") {
    const banned = typesOf(n) ?? [];
    const current = typesOf(s) ?? ALL_TYPES;
    if (banned.includes("integer") && !banned.includes("number") && current.includes("number")) {
      // Numbers stay, as non-integers only (see compileNumber).
      compiler.nonInteger.set(s, part.pointer);
      s.type = current.filter((t) => !banned.includes(t));
      return;
    }
    s.type = current.filter((t) => !banned.includes(t) && !(t === "integer" && banned.includes("number")));
    return;
  }
  if (keys.length === 1 && keys[0] === "pattern" && typeof n.pattern === "string") {
    // Vacuously true for non-strings, so only strings the pattern does not match pass (see compileString).
    s.type = (typesOf(s) ?? ALL_TYPES).filter((t) => t === "string");
    compiler.excludedPatterns.set(s, [...(compiler.excludedPatterns.get(s) ?? []), n.pattern]);
    return;
  }
  if (keys.length === 1 && keys[0] === "required" && Array.isArray(n.required) && n.required.length === 1) {
    // Vacuously true for non-objects, so only objects without the key pass.
    const k = String(n.required[0]);
    s.type = (typesOf(s) ?? ALL_TYPES).filter((t) => t === "object");
    s.properties = { ...(isSchema(s.properties) ? s.properties : {}), [k]: false };
    return;
  }
  if (keys.length === 1 && keys[0] === "anyOf" && Array.isArray(n.anyOf)) {
    // not (A or B) = not A and not B.
    (n.anyOf as unknown[]).forEach((b, i) => applyNot(compiler, s, { schema: b as JsonSchema, base: part.base, pointer: `${part.pointer}/anyOf/${i}` }));
    return;
  }
  compiler.relax(part.pointer, "not", "this not is not enforced by the grammar");
}

/**
 * `not {enum}` on a node without an enum of its own: the listed strings are left out of the
 * string rule, null and booleans out of theirs. False (nothing changed) when a listed number,
 * array or object could be a value here, since those rules cannot leave out one value.
 */
function excludeValues(compiler: CompileContext, s: Schema, values: unknown[]): boolean {
  const types = typesOf(s) ?? ALL_TYPES;
  const allows = (v: unknown) => types.some((t) => matchesType(v, t) || (t === "number" && matchesType(v, "integer")));
  if (values.some((v) => allows(v) && (typeof v === "number" || (typeof v === "object" && v !== null)))) return false;
  const strings = values.filter((v): v is string => typeof v === "string");
  let kept = types.filter((t) => !(t === "null" && values.includes(null)));
  if (values.includes(true) && values.includes(false)) kept = kept.filter((t) => t !== "boolean");
  else if (values.includes(true) || values.includes(false)) compiler.excludedBoolean.set(s, values.includes(true));
  if (strings.length) compiler.excludedStrings.set(s, [...(compiler.excludedStrings.get(s) ?? []), ...strings]);
  s.type = kept;
  return true;
}
