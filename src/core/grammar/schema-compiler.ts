/**
 * JSON Schema (drafts 04, 06, 07, 2019-09, 2020-12) → GBNF rules. Exact wherever it can be; where a
 * keyword cannot be expressed (uniqueItems, most `not`s, if/then/else, a pattern outside the regex
 * subset…) only that subschema is loosened and the relaxation is reported with its JSON pointer.
 * Unknown keywords are annotations and ignored, as the specification says. `null` from a compile step
 * means "no value qualifies" (an empty language), which lets unrolled recursion and impossible
 * branches drop out soundly. Work is bounded: a step and rule budget, nesting guards, and iterative
 * indexing; past them the schema is refused with a sentence naming the pointer.
 */
import { alt, lit, type GbnfExpr } from "./gbnf-ast";
import { anyObject } from "./any-value";
import { jsonBoolean, jsonNull } from "./json-text";
import { typesOf, type Merged } from "./schema-merge";
import { GrammarRefusal, type JsonSchema } from "./types";
import { ALL_TYPES, constrainingKeys, isSchema, type Schema } from "./schema-words";
import { CompileContext, type Ctx, type Compiled } from "./compile-context";
import { chainLength, compileRef } from "./compile-refs";
import { conjunction } from "./compile-combinators";
import { applyNot } from "./compile-negation";
import { compileEnum, compileString, compileInteger, compileNumber } from "./compile-scalars";
import { compileArray } from "./compile-arrays";
import { compileObject } from "./compile-objects";

export { MAX_EXTRA_KEY_CHARS } from "./schema-words";
export { BudgetExceeded, type CompileReport } from "./compile-context";

/** Subschemas nested deeper than this on one compile path are refused. */
const MAX_NESTING = 200;

/** Compiles schemas of one tool (or one bare schema) into a shared RuleSet. */
export class SchemaCompiler extends CompileContext {
  /** The value rule for the document's root (or a subschema of it); null when no value qualifies. */
  compile(schema: JsonSchema, path: string): GbnfExpr | null {
    return this.value(schema, { base: this.doc.baseOf(schema) ?? this.doc.baseOf(this.root) ?? "", pointer: path });
  }

  value(schema: JsonSchema, ctx0: Ctx): GbnfExpr | null {
    this.tick(ctx0.pointer);
    if (schema === true) return this.anyValueCapped(ctx0.pointer);
    if (schema === false) return null;
    if (!isSchema(schema)) throw new GrammarRefusal(ctx0.pointer, "schema", "a schema must be an object or a boolean");
    const ctx = this.at(schema, ctx0);
    if (this.nesting >= MAX_NESTING) throw new GrammarRefusal(ctx.pointer, "schema", `subschemas nest more than ${MAX_NESTING} levels deep`);
    // A subschema's rule depends only on what it says and on how deep the reference cycles it can
    // reach are open, so a subschema written alike elsewhere (or compiled again) reuses it.
    const key = `${this.shapes.shape(schema, ctx.base)}|${ctx.base}|${chainLength(this, schema, ctx.base)}`;
    const known = this.valueMemo.get(key);
    if (known) {
      this.replay(known, ctx.pointer);
      return known.expr;
    }
    const relaxedBefore = this.report.relaxations.length;
    const cappedBefore = this.report.caps.length;
    this.nesting++;
    let expr: GbnfExpr | null;
    try {
      const s = this.normal(schema);
      if (typeof s.$ref === "string" && constrainingKeys(s).length === 1) expr = compileRef(this, s.$ref, ctx);
      else expr = conjunction(this, [{ schema: s, base: ctx.base, pointer: ctx.pointer }], ctx);
    } finally {
      this.nesting--;
    }
    this.valueMemo.set(key, { expr, pointer: ctx.pointer, relaxations: this.report.relaxations.slice(relaxedBefore), caps: this.report.caps.slice(cappedBefore) });
    return expr;
  }

  /** Reports what a reused subschema reported, at the pointer it is reused under. */
  private replay(known: Compiled, pointer: string): void {
    if (known.pointer === pointer || (known.relaxations.length === 0 && known.caps.length === 0)) return;
    const move = (p: string) => (p === known.pointer || p.startsWith(`${known.pointer}/`) ? pointer + p.slice(known.pointer.length) : p);
    for (const r of known.relaxations) this.relax(move(r.pointer), r.keyword, r.reason);
    for (const c of known.caps) this.cap(move(c.path), c.kind, c.cap);
  }

  // ---- one merged node ---------------------------------------------------------------------

  flat(m: Merged, ctx: Ctx): GbnfExpr | null {
    const s: Schema = { ...m.schema };
    if (Array.isArray(s.enum)) return compileEnum(this, s, m, ctx);
    for (const x of m.extraPatterns) this.relax(x.pointer, "pattern", "several patterns apply to this string; only the first is enforced");
    for (const x of m.extraFormats) this.relax(x.pointer, "format", "several formats apply to this string; only the first is enforced");
    for (const x of m.extraMultiples) this.relax(x.pointer, "multipleOf", "several multipleOf values apply; only the first is considered");
    for (const c of m.collected) {
      const sub = c.part.schema;
      switch (c.keyword) {
        case "not":
          applyNot(this, s, c.part);
          break;
        case "if": {
          const cond = sub as Schema;
          if (cond.then === undefined && cond.else === undefined) break;
          this.relax(c.part.pointer, "if", "if/then/else is not enforced by the grammar");
          break;
        }
        case "contains": {
          const cs = isSchema(sub) && "contains" in sub ? sub : { contains: sub };
          if (cs.minContains === 0 && cs.maxContains === undefined) break;
          this.relax(c.part.pointer, "contains", "contains is not enforced by the grammar");
          break;
        }
        default:
          if (sub === true) break;
          this.relax(c.part.pointer, c.keyword, `${c.keyword} is not enforced by the grammar`);
      }
    }
    let types = typesOf(s) ?? ALL_TYPES;
    if (types.length === 0) return null;
    if (types.includes("number")) types = types.filter((t) => t !== "integer");
    if (s.type === undefined && !TYPED_KEYWORDS.some((k) => s[k] !== undefined)) return this.anyValueCapped(ctx.pointer);
    const options: GbnfExpr[] = [];
    for (const t of types) {
      const e = this.compileType(t, s, ctx);
      if (e) options.push(e);
    }
    return options.length ? alt(...options) : null;
  }

  private compileType(type: string, s: Schema, ctx: Ctx): GbnfExpr | null {
    switch (type) {
      case "string":
        return compileString(this, s, ctx);
      case "integer":
        return compileInteger(this, s, ctx);
      case "number":
        return compileNumber(this, s, ctx);
      case "boolean":
        if (this.excludedBoolean.has(s)) return lit(this.excludedBoolean.get(s) ? "false" : "true");
        return jsonBoolean(this.rules);
      case "null":
        return jsonNull();
      case "array":
        return compileArray(this, s, ctx);
      case "object":
        return compileObject(this, s, ctx);
      default:
        this.relax(ctx.pointer, "type", `"${type}" is not a JSON Schema type, so it is ignored`);
        return null;
    }
  }

  /** Free-form object args (static mode and whole-tool relaxations). */
  anyObjectRule(path: string): GbnfExpr {
    this.cap(path, "depth", this.options.anyValueDepth);
    return anyObject(this.rules, this.freeform());
  }
}

/** Keywords that constrain only values of some type (their presence means "not any value"). */
const TYPED_KEYWORDS = [
  "minLength", "maxLength", "pattern", "format", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf",
  "items", "prefixItems", "minItems", "maxItems", "uniqueItems", "properties", "required", "additionalProperties",
  "patternProperties", "propertyNames", "minProperties", "maxProperties",
];
