/**
 * Arrays: prefixItems and items with minItems/maxItems (the default cap where no maximum is given),
 * and uniqueItems over a small finite item domain compiled exactly (unique-arrays.ts); with at most
 * one item, uniqueItems holds by itself.
 */
import { EMPTY, lit, opt, seq, type GbnfExpr } from "./gbnf-ast";
import { boundedRepeat } from "./bounded-repeat";
import { distinctArray, finiteItemTexts } from "./unique-arrays";
import type { JsonSchema } from "./types";
import type { Schema } from "./schema-words";
import { type Ctx, type CompileContext, count } from "./compile-context";

export function compileArray(compiler: CompileContext, s: Schema, ctx: Ctx): GbnfExpr | null {
  const minItems = count(s.minItems) ?? 0;
  const prefixRaw = Array.isArray(s.prefixItems) ? (s.prefixItems as unknown[]) : [];
  if (s.uniqueItems === true && prefixRaw.length === 0 && s.items !== undefined && (count(s.maxItems) ?? 2) > 1) {
    const texts = finiteItemTexts(compiler, s.items as JsonSchema, ctx.base);
    const distinct = texts && distinctArray(compiler, texts, minItems, count(s.maxItems));
    if (distinct) return distinct.expr;
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

