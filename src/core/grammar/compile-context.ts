/**
 * What every part of a schema compile shares: the document, the rule set and options, the value
 * checkers, the memos and open-reference counts, and the report of relaxations and caps. The keyword
 * families (compile-refs, compile-combinators, compile-negation, compile-scalars, compile-arrays,
 * compile-objects) are functions over this context; SchemaCompiler (schema-compiler.ts) ties them
 * together through `value` and `flat`.
 */
import type { GbnfExpr } from "./gbnf-ast";
import { anyValue, type FreeformLimits } from "./any-value";
import { provablyDisjoint } from "./schema-combinators";
import { SchemaDocument } from "./schema-document";
import { SchemaShapes } from "./schema-shapes";
import { normalizeNode, type Merged } from "./schema-merge";
import { ValueChecker } from "./value-check";
import type { RuleSet } from "./rule-set";
import type { GrammarCap, GrammarRelaxation, JsonSchema, ResolvedGrammarOptions } from "./types";
import { MAX_EXTRA_KEY_CHARS, constrainingKeys, isSchema, type Schema } from "./schema-words";

/** The compile ran out of its step or rule budget at this pointer (the caller may retry shallower). */
export class BudgetExceeded extends Error {
  constructor(
    readonly pointer: string,
    readonly limit: "maxRules" | "steps",
  ) {
    super(`budget ${limit} exceeded at ${pointer || "/"}`);
  }
}

/** Where a subschema is read: its base URI and JSON pointer. */
export interface Ctx {
  base: string;
  pointer: string;
}

/** A compiled subschema and what its compile reported (replayed where it is reused). */
export interface Compiled {
  expr: GbnfExpr | null;
  pointer: string;
  relaxations: GrammarRelaxation[];
  caps: GrammarCap[];
}

/** What a compile reports. */
export interface CompileReport {
  relaxations: GrammarRelaxation[];
  caps: GrammarCap[];
  tool?: string;
}
/** The state one compile shares across keyword families; `value` and `flat` are SchemaCompiler's. */
export abstract class CompileContext {
  readonly doc: SchemaDocument;
  readonly checker: ValueChecker;
  /** Decides "certainly not a value of" for disjointness proofs (formats not checked). */
  readonly looseChecker: ValueChecker;
  readonly shapes: SchemaShapes;
  /** How many times each `$ref` target is open on the current path (recursion unrolling). */
  readonly open = new Map<object, number>();
  /** Open `$ref` targets per reference cycle (only targets on a cycle can recur). */
  readonly openCycles = new Map<number, number>();
  readonly refMemo = new Map<object, Map<string, GbnfExpr | null>>();
  /** Compiled subschemas by shape, base and chain length: equal subschemas compile once. */
  readonly valueMemo = new Map<string, Compiled>();
  readonly reported = new Set<string>();
  /** oneOf lists already judged (a union compiled again under another recursion depth is the same union). */
  readonly oneOfChecked = new Map<unknown, boolean>();
  /** Strings and booleans a `not {enum}` leaves out of a merged node's rules. */
  readonly excludedStrings = new WeakMap<Schema, string[]>();
  readonly excludedBoolean = new WeakMap<Schema, boolean>();
  /** Merged nodes whose numbers a `not {type: integer}` keeps to non-integers (the pointer of that not). */
  readonly nonInteger = new WeakMap<Schema, string>();
  /** Patterns a `not {pattern}` leaves out of a merged node's strings. */
  readonly excludedPatterns = new WeakMap<Schema, string[]>();
  /** Each node in draft 2020-12's vocabulary, made once (a node is read again in every conjunction that holds it). */
  readonly normalized = new WeakMap<Schema, Schema>();
  nesting = 0;
  judging = 0;
  steps = 0;
  readonly rulesAtStart: number;

  constructor(
    readonly rules: RuleSet,
    readonly options: ResolvedGrammarOptions,
    readonly root: JsonSchema,
    readonly hint: string,
    readonly report: CompileReport,
  ) {
    this.doc = new SchemaDocument(root);
    this.shapes = new SchemaShapes(this.doc);
    this.checker = new ValueChecker(this.doc);
    this.looseChecker = new ValueChecker(this.doc, false);
    this.rulesAtStart = rules.size;
  }

  /** Limits for free-form values. */
  freeform(): FreeformLimits {
    return {
      depth: this.options.anyValueDepth,
      maxStringChars: this.options.maxStringChars,
      maxItems: this.options.anyValueMembers,
      maxKeys: this.options.anyValueMembers,
      maxKeyChars: MAX_EXTRA_KEY_CHARS,
    };
  }

  cap(pointer: string, kind: GrammarCap["kind"], cap: number): void {
    const key = `cap|${pointer}|${kind}`;
    if (this.reported.has(key)) return;
    this.reported.add(key);
    const entry: GrammarCap = { path: pointer, kind, cap };
    if (this.report.tool !== undefined) entry.tool = this.report.tool;
    this.report.caps.push(entry);
  }

  /** Reports a local relaxation once per pointer and keyword. */
  relax(pointer: string, keyword: string, reason: string): void {
    // A compile only to judge (disjointness) reports nothing: the real compile reports its own.
    if (this.judging > 0) return;
    const key = `relax|${pointer}|${keyword}`;
    if (this.reported.has(key)) return;
    this.reported.add(key);
    const entry: GrammarRelaxation = { pointer, keyword, reason };
    if (this.report.tool !== undefined) entry.tool = this.report.tool;
    this.report.relaxations.push(entry);
  }

  /** normalizeNode, once per node; the result is shared, so it is never changed in place. */
  normal(s: Schema): Schema {
    let n = this.normalized.get(s);
    if (n === undefined) {
      n = normalizeNode(s, this.doc.draft);
      this.normalized.set(s, n);
    }
    return n;
  }

  tick(pointer: string): void {
    if (++this.steps > this.options.maxSteps) throw new BudgetExceeded(pointer, "steps");
    if (this.rules.size - this.rulesAtStart > this.options.maxRules) throw new BudgetExceeded(pointer, "maxRules");
  }

  at(schema: JsonSchema, ctx: Ctx): Ctx {
    return { base: this.doc.baseOf(schema) ?? ctx.base, pointer: this.doc.pointerOf(schema) ?? ctx.pointer };
  }

  anyValueCapped(pointer: string): GbnfExpr {
    this.cap(pointer, "depth", this.options.anyValueDepth);
    return anyValue(this.rules, this.freeform());
  }

  /** A subschema with `$ref`-only wrappers followed. */
  deref(x0: JsonSchema, base: string): JsonSchema {
    let x = x0;
    for (let i = 0; i < 16 && isSchema(x) && typeof x.$ref === "string" && constrainingKeys(x).length === 1; i++) {
      const r = this.doc.resolve(x.$ref, this.doc.baseOf(x) ?? base);
      if (typeof r === "string") return x;
      x = r.schema;
    }
    return x;
  }

  /** True only when no value matches both schemas. */
  pairDisjoint(a: JsonSchema, b: JsonSchema): boolean {
    // A reference with siblings is read as its target alone: a looser schema, so a proof still holds.
    const deref = (s: JsonSchema): JsonSchema => {
      let cur = s;
      for (let i = 0; i < 16 && isSchema(cur) && typeof cur.$ref === "string"; i++) {
        const r = this.doc.resolve(cur.$ref, this.doc.baseOf(cur) ?? "");
        if (typeof r === "string") return true;
        cur = r.schema;
      }
      return cur;
    };
    const mayMatch = (schema: JsonSchema, value: unknown): boolean => {
      this.looseChecker.undecided = null;
      const matched = this.looseChecker.matches(schema, value, "");
      return matched || this.looseChecker.takeUndecided() !== null;
    };
    return provablyDisjoint(a, b, "", deref, mayMatch);
  }

  /** The value rule for a subschema read at `ctx`; null when no value qualifies. */
  abstract value(schema: JsonSchema, ctx: Ctx): GbnfExpr | null;

  /** The rule for one merged alternative of a conjunction. */
  abstract flat(m: Merged, ctx: Ctx): GbnfExpr | null;
}

/** A non-negative integer keyword value, or undefined when absent or malformed (then ignored, as ajv's strict: false would not). */
export function count(v: unknown): number | undefined {
  return typeof v === "number" && Number.isFinite(v) && v >= 0 ? Math.floor(v) : undefined;
}

export function num(v: unknown): number | undefined {
  return typeof v === "number" && Number.isFinite(v) ? v : undefined;
}
