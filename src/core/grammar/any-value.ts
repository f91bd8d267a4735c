/** Free-form JSON values with bounded depth, keys, items and string lengths (the fallback and static-mode rules). */
import { alt, lit, opt, ref, seq, type GbnfExpr } from "./gbnf-ast";
import { boundedRepeat } from "./bounded-repeat";
import { jsonBoolean, jsonNull, jsonNumber, jsonString } from "./json-text";
import type { RuleSet } from "./rule-set";
import { printExpr } from "./gbnf-printer";

/** Sizes for free-form values. */
export interface FreeformLimits {
  /** Nesting levels of objects/arrays allowed below this value. */
  depth: number;
  maxStringChars: number;
  maxItems: number;
  maxKeys: number;
  /** Longest key of a free-form object. */
  maxKeyChars: number;
}

function list(item: GbnfExpr, max: number, open: string, close: string): GbnfExpr {
  if (max === 0) return lit(open + close);
  return seq(lit(open), opt(seq(item, boundedRepeat(seq(lit(","), item), 0, max - 1))), lit(close));
}

/** Any JSON value nesting at most `limits.depth` containers deep. */
export function anyValue(rules: RuleSet, limits: FreeformLimits): GbnfExpr {
  const name = `json-value-${limits.depth}-${limits.maxStringChars}-${limits.maxItems}-${limits.maxKeys}`;
  if (rules.has(name)) return ref(name);
  const scalars = [jsonString(rules, 0, limits.maxStringChars), jsonNumber(rules), jsonBoolean(rules), jsonNull()];
  if (limits.depth <= 0) return rules.shared(name, () => alt(...scalars));
  const inner = anyValue(rules, { ...limits, depth: limits.depth - 1 });
  return rules.shared(name, () => alt(anyObjectWith(rules, limits, inner), anyArrayWith(limits, inner), ...scalars));
}

function anyObjectWith(rules: RuleSet, limits: FreeformLimits, inner: GbnfExpr): GbnfExpr {
  const member = rules.add("json-member", seq(jsonString(rules, 0, limits.maxKeyChars), lit(":"), inner), `member|${limits.maxKeyChars}|${printExpr(inner)}`);
  return list(member, limits.maxKeys, "{", "}");
}

function anyArrayWith(limits: FreeformLimits, inner: GbnfExpr): GbnfExpr {
  return list(inner, limits.maxItems, "[", "]");
}

/** Any JSON object whose values nest at most `limits.depth - 1` containers deep. */
export function anyObject(rules: RuleSet, limits: FreeformLimits): GbnfExpr {
  const name = `json-object-${limits.depth}-${limits.maxStringChars}-${limits.maxItems}-${limits.maxKeys}`;
  if (rules.has(name)) return ref(name);
  const inner = anyValue(rules, { ...limits, depth: Math.max(0, limits.depth - 1) });
  return rules.shared(name, () => anyObjectWith(rules, limits, inner));
}

