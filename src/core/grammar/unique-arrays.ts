/**
 * uniqueItems, exactly, where the items' language is a small finite set of values: the array is an
 * automaton over the set of values already written (one rule per reachable set), within a budget.
 * Items of an unbounded domain (any string, any object) stay relaxed: no context-free grammar keeps
 * an unbounded number of unbounded values distinct.
 */
import { EMPTY, lit, seq, type GbnfExpr } from "./gbnf-ast";
import { literalChoice, type LiteralBranch } from "./literal-choice";
import { typesOf } from "./schema-merge";
import { jsonEqual } from "./value-check";
import type { JsonSchema } from "./types";
import { isSchema, type Schema } from "./schema-words";
import type { CompileContext } from "./compile-context";

/** Most candidate values read from one items schema (an integer range counts each of its members). */
const MAX_CANDIDATES = 256;
/** Most rules (sets of written values) one distinct-item array may take. */
const MAX_UNIQUE_STATES = 512;
/** Most item alternatives over all of those rules together. */
const MAX_UNIQUE_EDGES = 4096;
/** How deep combinators are followed when reading an items schema's values. */
const MAX_DEPTH = 8;

/**
 * The JSON texts of the distinct values an items schema allows when it allows only finitely many
 * (enums, consts, booleans, null, bounded integer ranges, and their combinations), or null when its
 * language may be unbounded or a keyword beside those values cannot be decided. Each text is the
 * value's canonical JSON, which is the only text the item grammar admits for it.
 */
export function finiteItemTexts(compiler: CompileContext, schema: JsonSchema, base: string): string[] | null {
  const x = compiler.deref(schema, base);
  if (x === false) return [];
  if (!isSchema(x)) return null;
  const here = compiler.doc.baseOf(x) ?? base;
  const found = candidates(compiler, x, here, 0);
  if (found === null) return null;
  compiler.checker.undecided = null;
  const kept = found.filter((v) => compiler.checker.matches(x, v, here));
  if (compiler.checker.takeUndecided()) return null;
  // One text per distinct value (ajv's equality ignores key order).
  const distinct: unknown[] = [];
  for (const v of kept) if (!distinct.some((d) => jsonEqual(d, v))) distinct.push(v);
  return distinct.map((v) => JSON.stringify(v));
}

/**
 * A superset of the values a schema allows, when a finite one can be read off its keywords; null
 * otherwise. The caller filters the candidates through the value checker.
 */
function candidates(compiler: CompileContext, schema: JsonSchema, base: string, depth: number): unknown[] | null {
  if (schema === false) return [];
  if (!isSchema(schema) || depth > MAX_DEPTH) return null;
  const here = compiler.doc.baseOf(schema) ?? base;
  const n = compiler.normal(schema);
  let best: unknown[] | null = null;
  const take = (c: unknown[] | null) => {
    if (c !== null && c.length <= MAX_CANDIDATES && (best === null || c.length < best.length)) best = c;
  };
  if (Array.isArray(n.enum)) take(n.enum as unknown[]);
  take(typeCandidates(n));
  if (typeof n.$ref === "string") {
    const r = compiler.doc.resolve(n.$ref, here);
    if (typeof r !== "string") take(candidates(compiler, r.schema, r.base, depth + 1));
  }
  // A conjunction allows no more than any one of its parts; a union no more than all of them.
  if (Array.isArray(n.allOf)) for (const part of n.allOf as JsonSchema[]) take(candidates(compiler, part, here, depth + 1));
  for (const key of ["anyOf", "oneOf"] as const) {
    const list = n[key];
    if (!Array.isArray(list)) continue;
    const union: unknown[] = [];
    let finite = true;
    for (const part of list as JsonSchema[]) {
      const c = candidates(compiler, part, here, depth + 1);
      if (c === null || union.length + c.length > MAX_CANDIDATES) {
        finite = false;
        break;
      }
      union.push(...c);
    }
    if (finite) take(union);
  }
  return best;
}

/** The values of a `type` whose members are all finite: booleans, null, integers between two bounds. */
function typeCandidates(n: Schema): unknown[] | null {
  const types = typesOf(n);
  if (types === null) return null;
  const out: unknown[] = [];
  for (const t of new Set(types)) {
    if (t === "boolean") out.push(true, false);
    else if (t === "null") out.push(null);
    else if (t === "integer") {
      const range = integerRange(n);
      if (range === null) return null;
      for (let v = range[0]; v <= range[1]; v++) out.push(v);
    } else return null;
  }
  return out;
}

/** The integers between a node's bounds (already in draft 2020-12's numeric form), when few. */
function integerRange(n: Schema): [number, number] | null {
  const num = (v: unknown) => (typeof v === "number" && Number.isFinite(v) ? v : undefined);
  const lows = [num(n.minimum), num(n.exclusiveMinimum)];
  const highs = [num(n.maximum), num(n.exclusiveMaximum)];
  if (lows.every((v) => v === undefined) || highs.every((v) => v === undefined)) return null;
  let lo = -Infinity;
  let hi = Infinity;
  if (lows[0] !== undefined) lo = Math.max(lo, Math.ceil(lows[0]));
  if (lows[1] !== undefined) lo = Math.max(lo, Math.floor(lows[1]) + 1);
  if (highs[0] !== undefined) hi = Math.min(hi, Math.floor(highs[0]));
  if (highs[1] !== undefined) hi = Math.min(hi, Math.ceil(highs[1]) - 1);
  if (hi < lo) return [0, -1];
  return hi - lo + 1 <= MAX_CANDIDATES ? [lo, hi] : null;
}

/**
 * An array of distinct values from a finite list, exactly: one rule per set of values already
 * written, each offering the values not yet used and, from minItems on, the closing bracket. The
 * sets of maxItems values all allow only the bracket and share one rule. `expr` is null when no
 * array qualifies; the result is null when the automaton would exceed its budget (the caller relaxes).
 */
export function distinctArray(
  compiler: CompileContext,
  texts: string[],
  minItems: number,
  maxItems: number | undefined,
): { expr: GbnfExpr | null } | null {
  const n = texts.length;
  const hi = Math.min(maxItems ?? n, n);
  if (minItems > hi) return { expr: null };
  if (hi === 0) return { expr: lit("[]") };
  // Rules: every set of fewer than hi values, plus the one shared rule for sets of hi.
  let states = 1;
  let edges = 0;
  let level = 1; // C(n, k)
  for (let k = 0; k < hi; k++) {
    states += level;
    edges += level * (n - k);
    if (states > MAX_UNIQUE_STATES || edges > MAX_UNIQUE_EDGES) return null;
    level = (level * (n - k)) / (k + 1);
  }
  const full = lit("]");
  const memo = new Map<string, GbnfExpr>();
  const after = (used: boolean[], written: number): GbnfExpr => {
    if (written === hi) return full;
    const key = used.map((u) => (u ? "1" : "0")).join("");
    const known = memo.get(key);
    if (known) return known;
    const branches: LiteralBranch[] = [];
    if (written >= minItems) branches.push({ text: "]", then: EMPTY });
    texts.forEach((text, i) => {
      if (used[i]) return;
      const next = used.slice();
      next[i] = true;
      branches.push({ text: (written > 0 ? "," : "") + text, then: after(next, written + 1) });
    });
    const e = compiler.rules.add(`${compiler.hint}-unique`, literalChoice(branches));
    memo.set(key, e);
    return e;
  };
  return { expr: seq(lit("["), after(texts.map(() => false), 0)) };
}
