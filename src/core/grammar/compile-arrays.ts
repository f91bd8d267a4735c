/**
 * Arrays: prefixItems and items with minItems/maxItems (the default cap where no maximum is given),
 * and uniqueItems over a few listed values compiled exactly (one rule per set of values written).
 */
import { EMPTY, alt, lit, opt, seq, type GbnfExpr } from "./gbnf-ast";
import { boundedRepeat } from "./bounded-repeat";
import { typesOf } from "./schema-merge";
import { jsonEqual } from "./value-check";
import type { JsonSchema } from "./types";
import { constrainingKeys, isSchema, type Schema } from "./schema-words";
import { type Ctx, type CompileContext, count } from "./compile-context";

/** Distinct-item arrays over at most this many listed values are compiled exactly (2^n rules). */
const MAX_UNIQUE_VALUES = 8;

export function compileArray(compiler: CompileContext, s: Schema, ctx: Ctx): GbnfExpr | null {
  const minItems = count(s.minItems) ?? 0;
  const prefixRaw = Array.isArray(s.prefixItems) ? (s.prefixItems as unknown[]) : [];
  if (s.uniqueItems === true && prefixRaw.length === 0 && s.items !== undefined) {
    const values = finiteValues(compiler, s.items as JsonSchema, ctx.base);
    if (values && values.length <= MAX_UNIQUE_VALUES) return uniqueArray(compiler, values, minItems, count(s.maxItems));
  }
  const prefix = prefixRaw.map((p, i) => compiler.value(p as JsonSchema, { base: ctx.base, pointer: `${ctx.pointer}/prefixItems/${i}` }));
  const itemsSchema = (s.items ?? true) as JsonSchema;
  const rest = itemsSchema === false ? null : compiler.value(itemsSchema, { base: ctx.base, pointer: `${ctx.pointer}/items` });
  let maxItems = count(s.maxItems);
  if (maxItems === undefined) {
    if (rest === null) maxItems = prefix.length;
    else {
      maxItems = Math.max(compiler.options.maxItems, minItems);
      compiler.cap(ctx.pointer, "array", maxItems);
    }
  }
  if (s.uniqueItems === true && maxItems > 1) compiler.relax(ctx.pointer, "uniqueItems", "uniqueItems is not enforced by the grammar");
  if (minItems > maxItems) return null;
  const atom = (e: GbnfExpr) => (e.kind === "seq" || e.kind === "alt" ? compiler.rules.add(`${compiler.hint}-item`, e) : e);
  const restAtom = rest && atom(rest);
  const elements = (i: number, first: boolean): GbnfExpr | null => {
    const sep = first ? EMPTY : lit(",");
    if (i < prefix.length) {
      const p = prefix[i];
      const next = i + 1 <= maxItems ? elements(i + 1, false) : null;
      const here = p && next ? seq(sep, atom(p), next) : null;
      if (i >= minItems) return here ? opt(here) : EMPTY;
      return here;
    }
    const lo = Math.max(0, minItems - i);
    const hi = maxItems - i;
    if (!restAtom || hi <= 0) return lo === 0 ? EMPTY : null;
    if (!first) return boundedRepeat(seq(lit(","), restAtom), lo, hi);
    const tail = boundedRepeat(seq(lit(","), restAtom), Math.max(0, lo - 1), hi - 1);
    return lo === 0 ? opt(seq(restAtom, tail)) : seq(restAtom, tail);
  };
  if (maxItems === 0) return lit("[]");
  const body = elements(0, true);
  if (body === null) return null;
  return compiler.rules.add(`${compiler.hint}-array`, seq(lit("["), body, lit("]")));
}

/**
 * The JSON texts of every value a schema allows when it allows only a few listed ones (an enum, a
 * const, booleans or null), or null when it is not of that form or a keyword beside the enum
 * cannot be decided.
 */
function finiteValues(compiler: CompileContext, schema: JsonSchema, base: string): string[] | null {
  const x = compiler.deref(schema, base);
  if (x === false) return [];
  if (!isSchema(x)) return null;
  const n = compiler.normal(x);
  if (Array.isArray(n.enum)) {
    compiler.checker.undecided = null;
    const kept = (n.enum as unknown[]).filter((v) => compiler.checker.matches(x, v, compiler.doc.baseOf(x) ?? base));
    if (compiler.checker.takeUndecided()) return null;
    // One text per distinct value (ajv's equality ignores key order).
    const distinct: unknown[] = [];
    for (const v of kept) if (!distinct.some((d) => jsonEqual(d, v))) distinct.push(v);
    return distinct.map((v) => JSON.stringify(v));
  }
  const types = typesOf(n);
  if (!types || !constrainingKeys(n).every((k) => k === "type") || !types.every((t) => t === "boolean" || t === "null")) return null;
  return [...(types.includes("boolean") ? ["true", "false"] : []), ...(types.includes("null") ? ["null"] : [])];
}

/**
 * An array of distinct values from a short list, exactly: one rule per set of values already
 * written, each offering the values not yet used (2^n rules for n values).
 */
function uniqueArray(compiler: CompileContext, texts: string[], minItems: number, maxItems: number | undefined): GbnfExpr | null {
  const hi = Math.min(maxItems ?? texts.length, texts.length);
  if (minItems > hi) return null;
  if (hi === 0) return lit("[]");
  const memo = new Map<number, GbnfExpr | null>();
  const after = (used: number, written: number): GbnfExpr | null => {
    if (memo.has(used)) return memo.get(used)!;
    const options: GbnfExpr[] = [];
    if (written >= minItems) options.push(lit("]"));
    if (written < hi) {
      texts.forEach((text, i) => {
        if (used & (1 << i)) return;
        const next = after(used | (1 << i), written + 1);
        if (next) options.push(seq(lit((written > 0 ? "," : "") + text), next));
      });
    }
    const e = options.length === 0 ? null : options.length === 1 ? options[0] : compiler.rules.add(`${compiler.hint}-unique`, alt(...options));
    memo.set(used, e);
    return e;
  };
  const body = after(0, 0);
  return body && seq(lit("["), body);
}
