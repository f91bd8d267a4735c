/**
 * JSON Schema (drafts 04, 06, 07, 2019-09, 2020-12) → GBNF rules. Exact wherever it can be; where a
 * keyword cannot be expressed (uniqueItems, most `not`s, if/then/else, a pattern outside the regex
 * subset…) only that subschema is loosened and the relaxation is reported with its JSON pointer.
 * Unknown keywords are annotations and ignored, as the specification says. `null` from a compile step
 * means "no value qualifies" (an empty language), which lets unrolled recursion and impossible
 * branches drop out soundly. Work is bounded: a step and rule budget, nesting guards, and iterative
 * indexing; past them the schema is refused with a sentence naming the pointer.
 */
import { EMPTY, alt, lit, opt, seq, type GbnfExpr } from "./gbnf-ast";
import { boundedRepeat } from "./bounded-repeat";
import { anyObject, anyValue, type FreeformLimits } from "./any-value";
import { extraKey } from "./extra-key";
import { AJV_FORMATS, FORMAT_MAX_LENGTH, FORMAT_PATTERNS, NUMBER_FORMATS, PATTERNS_WITHIN_FORMAT } from "./formats";
import { integerRange } from "./integer-range";
import { decimalRange } from "./decimal-range";
import { highestTextAtMost, lowestTextAtLeast } from "./double-edges";
import { jsonBoolean, jsonInteger, jsonNull, jsonNumber, jsonString } from "./json-text";
import { literalChoice } from "./literal-choice";
import { patternLengths, translatePattern, translatePatternCapped } from "./json-string-pattern";
import { provablyDisjoint } from "./schema-combinators";
import { MAX_OUTSIDE_LANGUAGES, anyKeyLanguage, containedClassOf, keysWithout, boundKeyLanguage, disjointKeyLanguages, isEveryKey, keyInLanguage, keyLanguageOf, keyRule, keyRuleOutside, type KeyLanguage } from "./key-language";
import { SchemaDocument } from "./schema-document";
import { SchemaShapes } from "./schema-shapes";
import { mergeParts, normalizeNode, typesOf, withSchema, type Merged, type Part } from "./schema-merge";
import { ValueChecker, jsonEqual, patternRegex } from "./value-check";
import type { RuleSet } from "./rule-set";
import { GrammarRefusal, type GrammarCap, type GrammarRelaxation, type JsonSchema, type ResolvedGrammarOptions } from "./types";
import { ALL_TYPES, MAX_EXTRA_KEY_CHARS, constrainingKeys, escapePointer, isSchema, matchesType, nextDouble, signed, toBigInt, type Schema } from "./schema-words";

export { MAX_EXTRA_KEY_CHARS } from "./schema-words";

/** Subschemas nested deeper than this on one compile path are refused. */
const MAX_NESTING = 200;
/** Alternatives one node may expand into when unions and dependencies are distributed. */
const MAX_ALTERNATIVES = 64;
/** `$ref`s and `allOf`s inlined into one node's conjunction. */
const MAX_INLINED = 256;
/** Distinct-item arrays over at most this many listed values are compiled exactly (2^n rules). */
const MAX_UNIQUE_VALUES = 8;
/** Combinations one node may look at while dropping those that admit nothing. */
const MAX_VISITED = 1024;
/** Cases one group of discriminating ifs may expand into (one per tested value, plus three). */
const MAX_CONDITIONAL_CASES = 16;
/** Objects with more count states (min/maxProperties) than this relax the counts. */
const MAX_COUNT_STATES = 4096;
/** Optional members per named tail rule of a long object (see compileObject). */
const TAIL_CHUNK = 8;
/** A count keyword's type and its opposite bound (negating `minLength: c` leaves `maxLength: c - 1`). */
const COUNT_OPPOSITES: Record<string, [string, string]> = {
  minLength: ["string", "maxLength"],
  maxLength: ["string", "minLength"],
  minItems: ["array", "maxItems"],
  maxItems: ["array", "minItems"],
  minProperties: ["object", "maxProperties"],
  maxProperties: ["object", "minProperties"],
};

/** The compile ran out of its step or rule budget at this pointer (the caller may retry shallower). */
export class BudgetExceeded extends Error {
  constructor(
    readonly pointer: string,
    readonly limit: "maxRules" | "steps",
  ) {
    super(`budget ${limit} exceeded at ${pointer || "/"}`);
  }
}

/** Extra keys of an object: a key language (or the keys outside some languages) and their value schema. */
interface Extra {
  lang: KeyLanguage;
  /** Keys in none of these languages (and in `lang`). */
  outside?: KeyLanguage[];
  /** Keys the pattern matches (instead of `lang`). */
  regex?: string;
  value: JsonSchema;
  pointer: string;
}

/** What the conjunction a negation is used in says about the object (see negationContext). */
interface NegationContext {
  closedKeys: string[] | null;
  properties: Record<string, JsonSchema>;
  /** Keys every object there has. */
  required: string[];
  /** The types its values may have (null: any). */
  types: string[] | null;
}

/** Distributing unions and dependencies ran past MAX_ALTERNATIVES at this site. */
class TooManyAlternatives extends Error {
  constructor(
    readonly site: string,
    readonly pointer: string,
    readonly keyword: string,
    readonly branches: number,
  ) {
    super(`too many alternatives at ${pointer || "/"}`);
  }
}

/** An `if` that tests one property against constants. */
interface DiscriminatorTest {
  property: string;
  /** The constants (JSON text → value) that make the test true. */
  values: Map<string, unknown>;
  /** The test fails when the property is absent. */
  requiresProperty: boolean;
  /** The test fails on non-objects. */
  objectOnly: boolean;
}

/** How many more alternatives one node may expand into, and how many combinations were looked at. */
interface Budget {
  left: number;
  /** Union and dependency sites given up on (see alternativesWithin). */
  skipped: Set<string>;
  visited?: number;
}

/** One merged alternative and the `$ref` targets inlined into it. */
interface Alternative {
  merged: Merged;
  targets: Set<object>;
}

/** A compiled subschema and what its compile reported (replayed where it is reused). */
interface Compiled {
  expr: GbnfExpr | null;
  pointer: string;
  relaxations: GrammarRelaxation[];
  caps: GrammarCap[];
}

/** Where a subschema is read: its base URI and JSON pointer. */
/** One declared or required member of an object: `"name":value`, and whether it must appear. */
interface Slot {
  required: boolean;
  expr: GbnfExpr;
}

/** What an object's member list is built from (see SchemaCompiler.members). */
interface MemberPlan {
  slots: Slot[];
  /** One undeclared member, when any is allowed. */
  extraRule: GbnfExpr | null;
  maxExtra: number;
  minP: number;
  maxP: number;
  /** Members counted up to this many; past it only "at least one" matters. */
  top: number;
  /** members(i, c) by i * (top + 1) + c. */
  memo: Map<number, GbnfExpr | null>;
}

/** `,` then the member. */
function comma(e: GbnfExpr): GbnfExpr {
  return seq(lit(","), e);
}

interface Ctx {
  base: string;
  pointer: string;
}

/** What a compile reports. */
export interface CompileReport {
  relaxations: GrammarRelaxation[];
  caps: GrammarCap[];
  tool?: string;
}

/** Compiles schemas of one tool (or one bare schema) into a shared RuleSet. */
export class SchemaCompiler {
  private readonly doc: SchemaDocument;
  private readonly checker: ValueChecker;
  /** Decides "certainly not a value of" for disjointness proofs (formats not checked). */
  private readonly looseChecker: ValueChecker;
  private readonly shapes: SchemaShapes;
  /** How many times each `$ref` target is open on the current path (recursion unrolling). */
  private readonly open = new Map<object, number>();
  /** Open `$ref` targets per reference cycle (only targets on a cycle can recur). */
  private readonly openCycles = new Map<number, number>();
  private readonly refMemo = new Map<object, Map<string, GbnfExpr | null>>();
  /** Compiled subschemas by shape, base and chain length: equal subschemas compile once. */
  private readonly valueMemo = new Map<string, Compiled>();
  private readonly reported = new Set<string>();
  /** oneOf lists already judged (a union compiled again under another recursion depth is the same union). */
  private readonly oneOfChecked = new Map<unknown, boolean>();
  /** Strings and booleans a `not {enum}` leaves out of a merged node's rules. */
  private readonly excludedStrings = new WeakMap<Schema, string[]>();
  private readonly excludedBoolean = new WeakMap<Schema, boolean>();
  /** Each node in draft 2020-12's vocabulary, made once (a node is read again in every conjunction that holds it). */
  private readonly normalized = new WeakMap<Schema, Schema>();
  private nesting = 0;
  private judging = 0;
  private steps = 0;
  private readonly rulesAtStart: number;

  constructor(
    private readonly rules: RuleSet,
    private readonly options: ResolvedGrammarOptions,
    private readonly root: JsonSchema,
    private readonly hint: string,
    private readonly report: CompileReport,
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

  private cap(pointer: string, kind: GrammarCap["kind"], cap: number): void {
    const key = `cap|${pointer}|${kind}`;
    if (this.reported.has(key)) return;
    this.reported.add(key);
    const entry: GrammarCap = { path: pointer, kind, cap };
    if (this.report.tool !== undefined) entry.tool = this.report.tool;
    this.report.caps.push(entry);
  }

  /** Reports a local relaxation once per pointer and keyword. */
  private relax(pointer: string, keyword: string, reason: string): void {
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
  private normal(s: Schema): Schema {
    let n = this.normalized.get(s);
    if (n === undefined) {
      n = normalizeNode(s, this.doc.draft);
      this.normalized.set(s, n);
    }
    return n;
  }

  private tick(pointer: string): void {
    if (++this.steps > this.options.maxSteps) throw new BudgetExceeded(pointer, "steps");
    if (this.rules.size - this.rulesAtStart > this.options.maxRules) throw new BudgetExceeded(pointer, "maxRules");
  }

  /** The value rule for the document's root (or a subschema of it); null when no value qualifies. */
  compile(schema: JsonSchema, path: string): GbnfExpr | null {
    return this.value(schema, { base: this.doc.baseOf(schema) ?? this.doc.baseOf(this.root) ?? "", pointer: path });
  }

  private at(schema: JsonSchema, ctx: Ctx): Ctx {
    return { base: this.doc.baseOf(schema) ?? ctx.base, pointer: this.doc.pointerOf(schema) ?? ctx.pointer };
  }

  private value(schema: JsonSchema, ctx0: Ctx): GbnfExpr | null {
    this.tick(ctx0.pointer);
    if (schema === true) return this.anyValueCapped(ctx0.pointer);
    if (schema === false) return null;
    if (!isSchema(schema)) throw new GrammarRefusal(ctx0.pointer, "schema", "a schema must be an object or a boolean");
    const ctx = this.at(schema, ctx0);
    if (this.nesting >= MAX_NESTING) throw new GrammarRefusal(ctx.pointer, "schema", `subschemas nest more than ${MAX_NESTING} levels deep`);
    // A subschema's rule depends only on what it says and on how deep the reference cycles it can
    // reach are open, so a subschema written alike elsewhere (or compiled again) reuses it.
    const key = `${this.shapes.shape(schema, ctx.base)}|${ctx.base}|${this.chain(schema, ctx.base)}`;
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
      if (typeof s.$ref === "string" && constrainingKeys(s).length === 1) expr = this.ref(s.$ref, ctx);
      else expr = this.conjunction([{ schema: s, base: ctx.base, pointer: ctx.pointer }], ctx);
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

  private enter(target: object): void {
    this.open.set(target, (this.open.get(target) ?? 0) + 1);
    const cycle = this.shapes.cycle(target);
    if (cycle !== undefined) this.openCycles.set(cycle, (this.openCycles.get(cycle) ?? 0) + 1);
  }

  private leave(target: object): void {
    const n = (this.open.get(target) ?? 1) - 1;
    if (n > 0) this.open.set(target, n);
    else this.open.delete(target);
    const cycle = this.shapes.cycle(target);
    if (cycle !== undefined) this.openCycles.set(cycle, (this.openCycles.get(cycle) ?? 1) - 1);
  }

  private anyValueCapped(pointer: string): GbnfExpr {
    this.cap(pointer, "depth", this.options.anyValueDepth);
    return anyValue(this.rules, this.freeform());
  }

  // ---- $ref ---------------------------------------------------------------------------------

  /**
   * How deep the current path already is in the reference cycles a subschema can reach (the open
   * `$ref` targets on those cycles). A subschema's rule is kept per chain length only, so a large
   * family of mutually recursive definitions costs (definitions × chain lengths) compiles, not one
   * per path. Reusing a rule built under another path only moves where recursion is cut, which
   * keeps the grammar sound and finite.
   */
  private chain(node: object, base: string): number {
    if (this.openCycles.size === 0) return 0;
    const bits = this.shapes.reach(node, base);
    if (bits === 0n) return 0;
    let n = 0;
    for (const [cycle, count] of this.openCycles) if (count > 0 && (bits >> BigInt(cycle)) & 1n) n += count;
    return n;
  }

  private ref(ref: string, ctx: Ctx): GbnfExpr | null {
    const r = this.doc.resolve(ref, ctx.base);
    if (typeof r === "string") {
      this.relax(ctx.pointer, "$ref", `${r}, so any JSON value is allowed there`);
      return this.anyValueCapped(ctx.pointer);
    }
    const target = r.schema;
    if (typeof target !== "object") return this.value(target, { base: r.base, pointer: r.pointer });
    const depth = this.open.get(target) ?? 0;
    const chain = this.chain(target, r.base);
    // Recursion is unrolled: past the configured depth (or a chain of mutually recursive references
    // two longer than that) the recursive branch is simply unavailable.
    if (depth >= this.options.recursionDepth || chain >= this.options.recursionDepth + 2) {
      this.cap(r.pointer, "depth", this.options.recursionDepth);
      return null;
    }
    const key = String(chain);
    let memo = this.refMemo.get(target);
    if (memo?.has(key)) return memo.get(key)!;
    this.enter(target);
    let e: GbnfExpr | null;
    try {
      e = this.value(target, { base: r.base, pointer: r.pointer });
    } finally {
      this.leave(target);
    }
    const name = r.pointer.split("/").pop() || "root";
    const named = e && e.kind !== "ref" && e.kind !== "literal" ? this.rules.add(`${this.hint}-${name}`, e) : e;
    if (!memo) {
      memo = new Map<string, GbnfExpr | null>();
      this.refMemo.set(target, memo);
    }
    memo.set(key, named);
    return named;
  }

  // ---- conjunctions: $ref with siblings, allOf, unions, dependencies -----------------------

  /**
   * Flat parts: every `$ref` beside other keywords and every `allOf` member inlined. Inlined `$ref`
   * targets are added to `targets`, so the caller can count them as open (recursion through a
   * reference with siblings unrolls like any other).
   */
  private expand(parts: Part[], ctx: Ctx, targets?: Set<object>): Part[] {
    const out: Part[] = [];
    const queue = [...parts];
    const inlined = new Set<object>();
    const seen = new Set<string>();
    let count = 0;
    while (queue.length) {
      const p = queue.shift()!;
      if (p.schema === true) continue;
      // Two equal subschemas in one conjunction are one (A and A is A): common where a declared
      // property also matches a pattern with the same schema.
      const fp = this.fingerprint(p.schema, p.base);
      if (fp !== null) {
        if (seen.has(fp)) continue;
        seen.add(fp);
      }
      if (!isSchema(p.schema)) {
        out.push(p);
        continue;
      }
      let s = this.normal(p.schema);
      if (typeof s.$ref === "string") {
        const { $ref: ref, ...rest } = s;
        s = rest;
        const r = this.doc.resolve(String(ref), p.base);
        if (typeof r === "string") this.relax(p.pointer, "$ref", `${r}, so that reference is not enforced`);
        else if (typeof r.schema !== "object" || !inlined.has(r.schema)) {
          // A target already in this conjunction adds nothing (A and A is A), which also ends allOf cycles.
          if (typeof r.schema === "object") {
            inlined.add(r.schema);
            targets?.add(r.schema);
          }
          queue.push({ schema: r.schema, base: r.base, pointer: r.pointer });
        }
      }
      if (Array.isArray(s.allOf)) {
        const { allOf, ...rest } = s;
        s = rest;
        (allOf as unknown[]).forEach((item, i) => {
          const node = item as JsonSchema;
          if (typeof node === "object" && inlined.has(node)) return;
          if (typeof node === "object") inlined.add(node);
          queue.push({ schema: node, base: this.doc.baseOf(node) ?? p.base, pointer: this.doc.pointerOf(node) ?? `${p.pointer}/allOf/${i}` });
        });
      }
      if (s.not !== undefined) {
        // A `not` with an exact positive form becomes that form (unions distribute like any other).
        const positive = this.negation(s.not as JsonSchema, p.base);
        if (positive !== null && !(isSchema(positive) && positive.not !== undefined)) {
          const { not: _dropped, ...rest } = s;
          s = rest;
          queue.push({ schema: positive, base: p.base, pointer: `${p.pointer}/not` });
        }
      }
      if (++count > MAX_INLINED) throw new GrammarRefusal(ctx.pointer, "allOf", `more than ${MAX_INLINED} subschemas are combined in one place`);
      out.push(withSchema(p, s));
    }
    return out;
  }

  /** A document subschema's shape with its base, for telling equal subschemas apart (null for synthetic ones). */
  private fingerprint(schema: JsonSchema, base: string): string | null {
    if (typeof schema !== "object" || this.doc.pointerOf(schema) === undefined) return null;
    return `${base}|${this.shapes.shape(schema, base)}`;
  }


  /**
   * The merged alternatives of a conjunction, with unions and dependencies distributed. Each carries
   * the `$ref` targets inlined into it, which count as open while it compiles.
   */
  /**
   * The merged alternatives of a conjunction within MAX_ALTERNATIVES. When distributing would exceed
   * that, the union or dependency where it ran out is left unenforced (and reported) and the
   * distribution starts again without it, so the work stays linear in the keywords relaxed.
   */
  private alternativesWithin(parts: Part[], ctx: Ctx): Alternative[] {
    const skipped = new Set<string>();
    // The conjunction's own unions and dependencies multiply: the last ones past the limit are given
    // up on at once (what the retries below would conclude one by one).
    const sites: Array<{ site: string; pointer: string; keyword: string; branches: number }> = [];
    for (const p of this.expand(parts, ctx)) {
      if (!isSchema(p.schema)) continue;
      for (const k of ["anyOf", "oneOf"] as const) {
        const list = p.schema[k];
        if (Array.isArray(list) && list.length > 0) sites.push({ site: `${p.pointer}|${k}`, pointer: p.pointer, keyword: k, branches: list.length });
      }
      for (const k of ["dependentRequired", "dependentSchemas"] as const) {
        const deps = p.schema[k];
        if (isSchema(deps)) for (const name of Object.keys(deps)) sites.push({ site: `${this.dependencyPointer(p.pointer, k, name)}|${k}`, pointer: this.dependencyPointer(p.pointer, k, name), keyword: k, branches: 2 });
      }
    }
    let product = sites.reduce((n, x) => n * x.branches, 1);
    for (let i = sites.length - 1; i >= 0 && product > MAX_ALTERNATIVES; i--) {
      product /= sites[i].branches;
      skipped.add(sites[i].site);
      this.relax(sites[i].pointer, sites[i].keyword, `combining its ${sites[i].branches} branches with the rest of the schema would exceed ${MAX_ALTERNATIVES} alternatives, so it is not enforced`);
    }
    for (;;) {
      try {
        return this.alternatives(parts, ctx, { left: MAX_ALTERNATIVES, skipped, visited: 0 });
      } catch (err) {
        if (!(err instanceof TooManyAlternatives) || skipped.has(err.site)) throw err;
        skipped.add(err.site);
        this.relax(err.pointer, err.keyword, `combining its ${err.branches} branches with the rest of the schema would exceed ${MAX_ALTERNATIVES} alternatives, so it is not enforced`);
      }
    }
  }

  private alternatives(parts: Part[], ctx: Ctx, budget: Budget, inherited: Set<object> = new Set()): Alternative[] {
    this.tick(ctx.pointer);
    const targets = new Set(inherited);
    const flat = this.conditionals(this.expand(parts, ctx, targets));
    for (let i = 0; i < flat.length; i++) {
      const p = flat[i];
      if (!isSchema(p.schema)) continue;
      let s = p.schema;
      // Unions and dependencies given up on in an earlier attempt are dropped here.
      for (const k of ["anyOf", "oneOf"] as const) {
        if (Array.isArray(s[k]) && budget.skipped.has(`${p.pointer}|${k}`)) {
          const { [k]: _dropped, ...kept } = s;
          s = kept;
        }
      }
      for (const k of ["dependentRequired", "dependentSchemas"] as const) {
        const deps = s[k];
        if (!isSchema(deps)) continue;
        const kept = Object.entries(deps).filter(([name]) => !budget.skipped.has(`${this.dependencyPointer(p.pointer, k, name)}|${k}`));
        if (kept.length === Object.keys(deps).length) continue;
        const { [k]: _dropped, ...others } = s;
        s = kept.length ? { ...others, [k]: Object.fromEntries(kept) } : others;
      }
      if (s !== p.schema) flat[i] = withSchema(p, s);
      const keyword = Array.isArray(s.anyOf) ? "anyOf" : Array.isArray(s.oneOf) ? "oneOf" : isSchema(s.dependentRequired) ? "dependentRequired" : isSchema(s.dependentSchemas) ? "dependentSchemas" : null;
      if (!keyword) continue;
      const { [keyword]: value, ...rest } = s;
      const others = flat.map((q, j) => (j === i ? withSchema(q, rest) : q));
      let branches: Part[][];
      let site: string;
      let sitePointer = p.pointer;
      if (keyword === "anyOf" || keyword === "oneOf") {
        const list = value as unknown[];
        if (list.length === 0) throw new GrammarRefusal(p.pointer, keyword, `${keyword} must not be empty`);
        branches = list.map((b, k) => [{ schema: b as JsonSchema, base: this.doc.baseOf(b as JsonSchema) ?? p.base, pointer: this.doc.pointerOf(b as JsonSchema) ?? `${p.pointer}/${keyword}/${k}` }]);
        site = `${p.pointer}|${keyword}`;
      } else {
        // One dependency: either the key is absent, or it is present with what it requires.
        const entries = Object.entries(value as Record<string, unknown>);
        const [name, dep] = entries[0];
        const remaining = Object.fromEntries(entries.slice(1));
        if (entries.length > 1) others[i] = withSchema(others[i], { ...rest, [keyword]: remaining });
        const where = this.dependencyPointer(p.pointer, keyword, name);
        site = `${where}|${keyword}`;
        sitePointer = where;
        const present: JsonSchema =
          keyword === "dependentRequired"
            ? { required: [name, ...(Array.isArray(dep) ? dep.map(String) : [])] }
            : { allOf: [{ required: [name] }, dep as JsonSchema] };
        branches = [
          [{ schema: { properties: { [name]: false } }, base: p.base, pointer: where }],
          [{ schema: present, base: this.doc.baseOf(dep as JsonSchema) ?? p.base, pointer: where }],
        ];
      }
      // Too many combinations (a branch left with no budget): this union or dependency is given up on (see alternativesWithin).
      const explore = (list: Part[][]): Alternative[][] =>
        list.map((b) => {
          if (budget.left <= 0) throw new TooManyAlternatives(site, sitePointer, keyword, branches.length);
          return this.alternatives([...others, ...b], ctx, budget, targets);
        });
      let perBranch = explore(branches);
      // Branches disjoint on their own stay disjoint beside anything; otherwise judge them with the rest.
      if (keyword === "oneOf" && !this.oneOfDisjoint(value as JsonSchema[], p) && !this.disjoint(perBranch.map((list) => list.map((a) => a.merged)))) {
        // Overlapping branches: branch i is taken with every other branch negated, when each negation is exact.
        // Inside branch i, a closed object (from the branch or its siblings) names the keys the others' negations may use.
        const negated = branches.map((b, bi) => {
          const context = this.negationContext([...others, ...b]);
          return branches.map((other, j) => (j === bi ? true : this.negation(other[0].schema, other[0].base, 0, context)));
        });
        if (negated.every((row) => row.every((n) => n !== null))) {
          perBranch = explore(branches.map((b, bi) => [...b, ...negated[bi].flatMap((n, j) => (j === bi ? [] : [{ schema: n, base: branches[j][0].base, pointer: `${p.pointer}/oneOf/${j}` }]))]));
        } else this.relax(p.pointer, "oneOf", "its branches may overlap, so the grammar allows a value that matches several (as anyOf)");
      }
      const all: Alternative[] = [];
      for (const list of perBranch) for (const a of list) all.push(a);
      return all;
    }
    const merged = mergeParts(flat);
    // A combination that plainly admits nothing is dropped without using the budget (within a bound on all visited).
    if (budget.visited !== undefined && ++budget.visited <= MAX_VISITED && admitsNothing(merged.schema)) return [];
    budget.left--;
    return [{ merged, targets }];
  }

  private dependencyPointer(pointer: string, keyword: string, name: string): string {
    return `${pointer}/${this.doc.draft <= 7 ? "dependencies" : keyword}/${escapePointer(name)}`;
  }

  /**
   * if/then/else rewritten as a union of disjoint cases, which then distributes like any other:
   * tests of one property against constants (the usual discriminator) become one case per value
   * (plus "absent", "another value" and "not an object"), each with the thens and elses that case
   * selects; any other `if` whose negation is exact becomes (if and then) or (not if and else).
   * An `if` with neither is left in place (relaxed later).
   */
  private conditionals(flat: Part[]): Part[] {
    const out: Part[] = [];
    const groups = new Map<string, Array<{ test: DiscriminatorTest; then?: JsonSchema; otherwise?: JsonSchema; part: Part }>>();
    for (const p of flat) {
      if (!isSchema(p.schema) || p.schema.if === undefined) {
        out.push(p);
        continue;
      }
      const { if: cond, then, else: otherwise, ...rest } = p.schema;
      if (then === undefined && otherwise === undefined) {
        out.push(withSchema(p, rest));
        continue;
      }
      const test = this.discriminator(cond as JsonSchema, p.base);
      if (test) {
        const list = groups.get(test.property) ?? [];
        list.push({ test, then: then as JsonSchema | undefined, otherwise: otherwise as JsonSchema | undefined, part: p });
        groups.set(test.property, list);
        // The rest of the part stays; its if/then/else joins the group's cases.
        out.push(withSchema(p, rest));
        continue;
      }
      const negated = this.negation(cond as JsonSchema, p.base);
      if (negated === null) {
        out.push(p);
        continue;
      }
      out.push(withSchema(p, rest));
      const both = (a: JsonSchema, b: unknown): JsonSchema => (b === undefined ? a : { allOf: [a, b] });
      out.push({ schema: { anyOf: [both(cond as JsonSchema, then), both(negated, otherwise)] }, base: p.base, pointer: `${p.pointer}/if` });
    }
    for (const [property, list] of groups) {
      const universe = new Map<string, unknown>();
      for (const { test } of list) for (const [text, v] of test.values) universe.set(text, v);
      if (universe.size + 3 > MAX_CONDITIONAL_CASES) {
        // Too many cases to compile each: these ifs stay in place (relaxed).
        for (const { part } of list) {
          const { if: cond, then, else: otherwise } = part.schema as Schema;
          out.push(withSchema(part, { if: cond, then, else: otherwise }));
        }
        continue;
      }
      // Values alike for every test share one case.
      const bySignature = new Map<string, unknown[]>();
      for (const [text, v] of universe) {
        const sig = list.map(({ test }) => (test.values.has(text) ? "1" : "0")).join("");
        bySignature.set(sig, [...(bySignature.get(sig) ?? []), v]);
      }
      const pick = (holds: (t: DiscriminatorTest, i: number) => boolean, condition: JsonSchema): JsonSchema => {
        const chosen = list.map((e, i) => (holds(e.test, i) ? e.then : e.otherwise)).filter((x): x is JsonSchema => x !== undefined);
        return chosen.length ? { allOf: [condition, ...chosen] } : condition;
      };
      const cases: JsonSchema[] = [
        pick((t) => !t.objectOnly, { type: ALL_TYPES.filter((t) => t !== "object") }),
        pick((t) => !t.requiresProperty, { type: "object", properties: { [property]: false } }),
        ...[...bySignature].map(([sig, values]) => pick((_, i) => sig[i] === "1", { type: "object", required: [property], properties: { [property]: { enum: values } } })),
        pick(() => false, { type: "object", required: [property], properties: { [property]: { not: { enum: [...universe.values()] } } } }),
      ];
      const first = list[0].part;
      out.push({ schema: { anyOf: cases }, base: first.base, pointer: `${first.pointer}/if` });
    }
    return out;
  }

  /**
   * An `if` that only tests one property against constants (`{properties: {type: {const: "x"}}}`,
   * optionally requiring it or the value to be an object, or an anyOf of such tests), or null.
   */
  private discriminator(cond0: JsonSchema, base: string): DiscriminatorTest | null {
    const cond = this.deref(cond0, base);
    if (!isSchema(cond)) return null;
    const n = this.normal(cond);
    const keys = constrainingKeys(n);
    if (keys.length === 1 && keys[0] === "anyOf" && Array.isArray(n.anyOf) && n.anyOf.length > 0) {
      const tests = n.anyOf.map((b) => this.discriminator(b as JsonSchema, base));
      const t0 = tests[0];
      if (!t0 || !tests.every((t) => t && t.property === t0.property && t.requiresProperty === t0.requiresProperty && t.objectOnly === t0.objectOnly)) return null;
      const values = new Map<string, unknown>();
      for (const t of tests) for (const [k, v] of t!.values) values.set(k, v);
      return { ...t0, values };
    }
    if (!keys.includes("properties") || !keys.every((k) => k === "properties" || k === "required" || k === "type")) return null;
    const props = isSchema(n.properties) ? Object.entries(n.properties) : [];
    if (props.length !== 1) return null;
    const [property, test0] = props[0];
    const required = Array.isArray(n.required) ? n.required.map(String) : [];
    if (required.some((k) => k !== property)) return null;
    const types = typesOf(n);
    if (types !== null && !(types.length === 1 && types[0] === "object")) return null;
    const test = this.deref(test0 as JsonSchema, base);
    if (!isSchema(test)) return null;
    const t = this.normal(test);
    const tkeys = constrainingKeys(t);
    if (!Array.isArray(t.enum) || !tkeys.every((k) => k === "enum" || k === "type")) return null;
    const vtypes = typesOf(t);
    const values = new Map<string, unknown>();
    for (const v of t.enum as unknown[]) {
      if (v !== null && typeof v === "object") return null;
      if (vtypes && !vtypes.some((ty) => matchesType(v, ty) || (ty === "number" && matchesType(v, "integer")))) continue;
      values.set(JSON.stringify(v), v);
    }
    return { property, values, requiresProperty: required.length > 0, objectOnly: types !== null };
  }

  /**
   * What a conjunction's own parts say about an object, for negating another branch inside it: the
   * keys it may have when some part closes it (additionalProperties false, no patterns), and the
   * schema each declared property must satisfy there.
   */
  private negationContext(parts: Part[]): NegationContext {
    let closedKeys: string[] | null = null;
    const properties: Record<string, JsonSchema> = {};
    const required: string[] = [];
    let types: string[] | null = null;
    for (const p of parts) {
      const s = this.deref(p.schema, p.base);
      if (!isSchema(s)) continue;
      const own = typesOf(this.normal(s));
      if (own) types = types === null ? own : types.filter((t) => own.includes(t) || (t === "integer" && own.includes("number"))).concat(own.includes("integer") && types.includes("number") && !types.includes("integer") ? ["integer"] : []);
      if (Array.isArray(s.required)) required.push(...s.required.map(String));
      const declared = isSchema(s.properties) ? s.properties : {};
      for (const [k, v] of Object.entries(declared)) if (!(k in properties)) properties[k] = v as JsonSchema;
      if (s.additionalProperties !== false || s.patternProperties !== undefined) continue;
      if (closedKeys === null || Object.keys(declared).length < closedKeys.length) closedKeys = Object.keys(declared);
    }
    return { closedKeys, properties, required, types };
  }

  /** A subschema with `$ref`-only wrappers followed. */
  private deref(x0: JsonSchema, base: string): JsonSchema {
    let x = x0;
    for (let i = 0; i < 16 && isSchema(x) && typeof x.$ref === "string" && constrainingKeys(x).length === 1; i++) {
      const r = this.doc.resolve(x.$ref, this.doc.baseOf(x) ?? base);
      if (typeof r === "string") return x;
      x = r.schema;
    }
    return x;
  }

  /** True when no value can match two branches of this oneOf list, judged on the branches alone. */
  private oneOfDisjoint(list: JsonSchema[], part: Part): boolean {
    let disjoint = this.oneOfChecked.get(list);
    if (disjoint === undefined) {
      // Judged on each branch's merged form (its references inlined, not compiled).
      const at = (b: JsonSchema, k: number): Part => ({ schema: b, base: this.doc.baseOf(b) ?? part.base, pointer: this.doc.pointerOf(b) ?? `${part.pointer}/oneOf/${k}` });
      const ctx = { base: part.base, pointer: part.pointer };
      this.judging++;
      try {
        // First without distributing the branches' own unions and dependencies (each merged form is
        // then a superset of its branch, so disjoint supersets settle it cheaply), then distributed.
        const loose = list.map((b, k) => [mergeParts(this.expand([at(b, k)], ctx).map(withoutDistributed))]);
        disjoint = this.disjoint(loose) || this.disjoint(list.map((b, k) => this.alternativesWithin([at(b, k)], ctx).map((a) => a.merged)));
      } finally {
        this.judging--;
      }
      this.oneOfChecked.set(list, disjoint);
    }
    return disjoint;
  }

  /** True when no value can match two of the branches (each given as its merged alternatives). */
  private disjoint(perBranch: Merged[][]): boolean {
    for (let i = 0; i < perBranch.length; i++) {
      for (let j = i + 1; j < perBranch.length; j++) {
        for (const a of perBranch[i]) for (const b of perBranch[j]) if (!this.pairDisjoint(a.schema, b.schema)) return false;
      }
    }
    return true;
  }

  /** True only when no value matches both schemas. */
  private pairDisjoint(a: JsonSchema, b: JsonSchema): boolean {
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

  /**
   * An equivalent positive schema for `not x`, or null when there is none in the compiler's terms.
   * Covers anyOf/allOf (De Morgan), `not`, and nodes of types, enums, required keys, property values
   * (recursively), length, count and range bounds, one keyword at a time. `additionalProperties` is
   * negated only with `closedKeys`: every key the value can have (the context closes the object).
   */
  private negation(x0: JsonSchema, base: string, depth = 0, context: NegationContext | null = null): JsonSchema | null {
    let x = x0;
    for (let i = 0; i < 16 && isSchema(x) && typeof x.$ref === "string" && constrainingKeys(x).length === 1; i++) {
      const r = this.doc.resolve(x.$ref, this.doc.baseOf(x) ?? base);
      if (typeof r === "string") return null;
      x = r.schema;
    }
    if (x === true) return false;
    if (x === false) return true;
    if (!isSchema(x) || depth > 8) return null;
    const n = this.normal(x);
    const keys = constrainingKeys(n);
    if (keys.length === 0) return false;
    const all = (list: unknown[]) => list.map((b) => this.negation(b as JsonSchema, base, depth + 1));
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
      if (types.includes("integer") && !types.includes("number")) return null;
      const rest = ALL_TYPES.filter((t) => !types.includes(t) && !(t === "number" && types.includes("integer")));
      if (rest.length) options.push({ type: rest });
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
            if (here !== undefined && this.pairDisjoint(here, sub as JsonSchema)) {
              fails("object", { required: [name] });
              continue;
            }
            const neg = this.negation(sub as JsonSchema, base, depth + 1);
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
          const neg = this.negation(v as JsonSchema, base, depth + 1);
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
        default:
          return null;
      }
    }
    return options.length === 0 ? false : options.length === 1 ? options[0] : { anyOf: options };
  }

  private conjunction(parts: Part[], ctx: Ctx, bare = true): GbnfExpr | null {
    const union = bare ? this.bareUnion(parts) : null;
    if (union) return this.union(union, ctx);
    const options: GbnfExpr[] = [];
    for (const { merged, targets } of this.alternativesWithin(parts, ctx)) {
      // A branch that re-enters a reference past the unrolling depth is unavailable, like a bare recursive $ref.
      const over = [...targets].find((t) => (this.open.get(t) ?? 0) >= this.options.recursionDepth);
      if (over) {
        this.cap(this.doc.pointerOf(over as JsonSchema) ?? ctx.pointer, "depth", this.options.recursionDepth);
        continue;
      }
      for (const t of targets) this.enter(t);
      try {
        const e = this.flat(merged, ctx);
        if (e) options.push(e);
      } finally {
        for (const t of targets) this.leave(t);
      }
    }
    return options.length ? alt(...options) : null;
  }

  /** A node that is only an anyOf/oneOf (nothing beside it constrains): its branches compile on their own. */
  private bareUnion(parts: Part[]): { keyword: "anyOf" | "oneOf"; part: Part } | null {
    if (parts.length !== 1 || !isSchema(parts[0].schema)) return null;
    const s = parts[0].schema;
    const keys = constrainingKeys(s);
    if (keys.length !== 1 || (keys[0] !== "anyOf" && keys[0] !== "oneOf") || !Array.isArray(s[keys[0]]) || (s[keys[0]] as unknown[]).length === 0) return null;
    return { keyword: keys[0], part: parts[0] };
  }

  private union(u: { keyword: "anyOf" | "oneOf"; part: Part }, ctx: Ctx): GbnfExpr | null {
    const list = (u.part.schema as Schema)[u.keyword] as JsonSchema[];
    const at = (b: JsonSchema, k: number): Ctx => ({ base: this.doc.baseOf(b) ?? u.part.base, pointer: this.doc.pointerOf(b) ?? `${u.part.pointer}/${u.keyword}/${k}` });
    // Overlapping branches need the others negated: the general path.
    if (u.keyword === "oneOf" && !this.oneOfDisjoint(list, u.part)) return this.conjunction([u.part], ctx, false);
    const options: GbnfExpr[] = [];
    list.forEach((b, k) => {
      const e = this.value(b, at(b, k));
      if (e) options.push(e);
    });
    return options.length ? alt(...options) : null;
  }

  // ---- one merged node ---------------------------------------------------------------------

  private flat(m: Merged, ctx: Ctx): GbnfExpr | null {
    const s: Schema = { ...m.schema };
    if (Array.isArray(s.enum)) return this.compileEnum(s, m, ctx);
    for (const x of m.extraPatterns) this.relax(x.pointer, "pattern", "several patterns apply to this string; only the first is enforced");
    for (const x of m.extraFormats) this.relax(x.pointer, "format", "several formats apply to this string; only the first is enforced");
    for (const x of m.extraMultiples) this.relax(x.pointer, "multipleOf", "several multipleOf values apply; only the first is considered");
    for (const c of m.collected) {
      const sub = c.part.schema;
      switch (c.keyword) {
        case "not":
          this.applyNot(s, c.part);
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

  /** `not` that can be expressed exactly narrows the node; any other `not` is dropped and reported. */
  private applyNot(s: Schema, part: Part): void {
    let n = part.schema;
    for (let i = 0; i < 16 && isSchema(n) && typeof n.$ref === "string" && constrainingKeys(n).length === 1; i++) {
      const r = this.doc.resolve(n.$ref, part.base);
      if (typeof r === "string") break;
      n = r.schema;
    }
    if (n === false) return;
    if (n === true || (isSchema(n) && constrainingKeys(n).length === 0)) {
      s.type = [];
      return;
    }
    if (!isSchema(n)) return;
    n = this.normal(n);
    const keys = constrainingKeys(n);
    if (keys.length === 1 && keys[0] === "enum" && Array.isArray(n.enum) && this.excludeValues(s, n.enum)) return;
    if (keys.length === 1 && keys[0] === "type") {
      const banned = typesOf(n) ?? [];
      const current = typesOf(s) ?? ALL_TYPES;
      if (banned.includes("integer") && !banned.includes("number") && current.includes("number")) {
        this.relax(part.pointer, "not", "not {type: integer} beside number is not enforced");
        return;
      }
      s.type = current.filter((t) => !banned.includes(t) && !(t === "integer" && banned.includes("number")));
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
      (n.anyOf as unknown[]).forEach((b, i) => this.applyNot(s, { schema: b as JsonSchema, base: part.base, pointer: `${part.pointer}/anyOf/${i}` }));
      return;
    }
    this.relax(part.pointer, "not", "this not is not enforced by the grammar");
  }

  /**
   * `not {enum}` on a node without an enum of its own: the listed strings are left out of the
   * string rule, null and booleans out of theirs. False (nothing changed) when a listed number,
   * array or object could be a value here, since those rules cannot leave out one value.
   */
  private excludeValues(s: Schema, values: unknown[]): boolean {
    const types = typesOf(s) ?? ALL_TYPES;
    const allows = (v: unknown) => types.some((t) => matchesType(v, t) || (t === "number" && matchesType(v, "integer")));
    if (values.some((v) => allows(v) && (typeof v === "number" || (typeof v === "object" && v !== null)))) return false;
    const strings = values.filter((v): v is string => typeof v === "string");
    let kept = types.filter((t) => !(t === "null" && values.includes(null)));
    if (values.includes(true) && values.includes(false)) kept = kept.filter((t) => t !== "boolean");
    else if (values.includes(true) || values.includes(false)) this.excludedBoolean.set(s, values.includes(true));
    if (strings.length) this.excludedStrings.set(s, [...(this.excludedStrings.get(s) ?? []), ...strings]);
    s.type = kept;
    return true;
  }

  private compileType(type: string, s: Schema, ctx: Ctx): GbnfExpr | null {
    switch (type) {
      case "string":
        return this.compileString(s, ctx);
      case "integer":
        return this.compileInteger(s, ctx);
      case "number":
        return this.compileNumber(s, ctx);
      case "boolean":
        if (this.excludedBoolean.has(s)) return lit(this.excludedBoolean.get(s) ? "false" : "true");
        return jsonBoolean(this.rules);
      case "null":
        return jsonNull();
      case "array":
        return this.compileArray(s, ctx);
      case "object":
        return this.compileObject(s, ctx);
      default:
        this.relax(ctx.pointer, "type", `"${type}" is not a JSON Schema type, so it is ignored`);
        return null;
    }
  }

  private compileEnum(s: Schema, m: Merged, ctx: Ctx): GbnfExpr | null {
    const { enum: values, ...rest } = s;
    // Every other keyword of the node decides membership of each listed value exactly.
    const check: Schema = { ...rest };
    const extra: JsonSchema[] = [
      ...m.collected.map((c) => (c.keyword === "if" ? c.part.schema : c.keyword === "contains" && isSchema(c.part.schema) && "contains" in c.part.schema ? c.part.schema : { [c.keyword]: c.part.schema })),
      ...m.extraPatterns.map((x) => ({ pattern: x.pattern })),
      ...m.extraFormats.map((x) => ({ format: x.format })),
      ...m.extraMultiples.map((x) => ({ multipleOf: x.value })),
    ];
    if (extra.length) check.allOf = extra;
    if (isSchema(check.dependentRequired) || isSchema(check.dependentSchemas)) check.dependencies = { ...(check.dependentRequired as object), ...(check.dependentSchemas as object) };
    this.checker.undecided = null;
    const kept = (values as unknown[]).filter((v) => this.checker.matches(check, v, ctx.base));
    const undecided = this.checker.takeUndecided();
    if (undecided) this.relax(ctx.pointer, undecided, `some ${undecided} beside enum could not be checked, so every listed value is allowed`);
    const texts = [...new Set(kept.map((v) => JSON.stringify(v)))];
    if (texts.length === 0) return null;
    const choice = literalChoice(texts.map((text) => ({ text, then: EMPTY })));
    return choice.kind === "literal" ? choice : this.rules.add(`${this.hint}-enum`, choice, `enum|${JSON.stringify(texts)}`);
  }

  // ---- scalars ---------------------------------------------------------------------------

  private compileString(s: Schema, ctx: Ctx): GbnfExpr | null {
    const minLength = count(s.minLength) ?? 0;
    const format = typeof s.format === "string" ? s.format : undefined;
    const formatMax = format === undefined ? undefined : FORMAT_MAX_LENGTH[format];
    const declaredMax = formatMax === undefined ? count(s.maxLength) : Math.min(formatMax, count(s.maxLength) ?? formatMax);
    const pattern = typeof s.pattern === "string" ? s.pattern : undefined;
    let source: string | undefined = pattern;
    if (format && FORMAT_PATTERNS[format]) {
      source = FORMAT_PATTERNS[format];
      if (pattern !== undefined) {
        const within = PATTERNS_WITHIN_FORMAT[format]?.[pattern];
        if (within !== undefined) source = within;
        else this.relax(ctx.pointer, "pattern", `the pattern next to format "${format}" is not enforced; the grammar enforces the format only`);
      }
    } else if (format && AJV_FORMATS.has(format) && !NUMBER_FORMATS.has(format)) {
      this.relax(ctx.pointer, "format", `the format "${format}" is not enforced by the grammar`);
    }
    // A pattern or format that bounds its own length needs no cap; otherwise the default cap applies.
    const lengths = source === undefined ? null : patternLengths(source);
    let maxLength = declaredMax;
    let capped = false;
    if (maxLength === undefined) {
      if (lengths && lengths[1] !== Infinity) maxLength = lengths[1];
      else {
        maxLength = Math.max(this.options.maxStringChars, minLength, lengths ? lengths[0] : 0);
        capped = true;
        this.cap(ctx.pointer, "string", maxLength);
      }
    }
    if (minLength > maxLength) return null;
    const excluded = this.excludedStrings.get(s);
    if (excluded) {
      // Any string of these lengths but the listed ones, each written in its one canonical spelling.
      const lang = boundKeyLanguage(anyKeyLanguage(maxLength), minLength, maxLength);
      if (source === undefined) return lang && keyRule(this.rules, excluded, lang, "string-except");
      this.relax(ctx.pointer, "not", "the strings this not leaves out are not left out of the pattern's strings");
    }
    if (source === undefined) return jsonString(this.rules, minLength, maxLength);
    // Under the default cap only output size matters, so each unbounded quantifier gets its own cap
    // instead of narrowing the pattern to a total length (which can drop strings the pattern allows).
    const translated = capped ? translatePatternCapped(source, minLength, maxLength, this.rules) : translatePattern(source, minLength, maxLength, this.rules);
    if (!translated.ok) {
      const keyword = source === pattern ? "pattern" : "format";
      this.relax(`${ctx.pointer}`, keyword, `${translated.reason}, so the grammar allows any string of ${minLength}..${maxLength} characters there`);
      return jsonString(this.rules, minLength, maxLength);
    }
    if (translated.content === null) return null;
    if (translated.lengthsLoosened) {
      const what = source === pattern ? "pattern" : "format";
      this.relax(ctx.pointer, "maxLength", `the ${what}'s pieces cannot share the length bounds exactly, so each piece is bounded on its own and the string's length is left to the validator`);
    }
    return this.rules.add(`${this.hint}-pattern`, seq(lit('"'), translated.content, lit('"')), `pattern|${minLength}|${maxLength}|${capped}|${source}`);
  }

  private multipleOf(s: Schema, ctx: Ctx, integer: boolean): void {
    if (s.multipleOf === undefined) return;
    if (integer && typeof s.multipleOf === "number" && (s.multipleOf === 1 || s.multipleOf === 0.5 || s.multipleOf === 0.25)) return;
    this.relax(ctx.pointer, "multipleOf", "multipleOf is not enforced by the grammar");
  }

  private compileInteger(s: Schema, ctx: Ctx): GbnfExpr | null {
    this.multipleOf(s, ctx, true);
    const min = num(s.minimum);
    const max = num(s.maximum);
    const xmin = num(s.exclusiveMinimum);
    const xmax = num(s.exclusiveMaximum);
    const los: bigint[] = [];
    const his: bigint[] = [];
    if (s.format === "int32") {
      los.push(-(2n ** 31n));
      his.push(2n ** 31n - 1n);
    }
    if (min === undefined && max === undefined && xmin === undefined && xmax === undefined && los.length === 0) return jsonInteger(this.rules);
    if (min !== undefined) los.push(toBigInt(Math.ceil(min)));
    if (xmin !== undefined) los.push(toBigInt(Math.floor(xmin)) + 1n);
    if (max !== undefined) his.push(toBigInt(Math.floor(max)));
    if (xmax !== undefined) his.push(toBigInt(Math.ceil(xmax)) - 1n);
    const lo = los.length ? los.reduce((a, b) => (a > b ? a : b)) : -(10n ** 16n);
    const hi = his.length ? his.reduce((a, b) => (a < b ? a : b)) : 10n ** 16n;
    const e = cachedIntegerRange(lo, hi);
    return e && e.kind !== "literal" ? this.rules.add(`int-${signed(lo)}-${signed(hi)}`, e, `int|${lo}|${hi}`) : e;
  }

  private compileNumber(s: Schema, ctx: Ctx): GbnfExpr | null {
    if (s.format === "int32" || s.format === "int64") return this.compileInteger(s, ctx);
    this.multipleOf(s, ctx, false);
    const min = num(s.minimum);
    const max = num(s.maximum);
    const xmin = num(s.exclusiveMinimum);
    const xmax = num(s.exclusiveMaximum);
    if (min === undefined && max === undefined && xmin === undefined && xmax === undefined) return jsonNumber(this.rules);
    // Bounds are on the parsed double: an exclusive bound moves to the next double, then each side
    // becomes the exact edge of the texts that round into range (double-edges.ts), so the rule
    // accepts a text exactly when ajv accepts the value it parses to.
    const lows = [min, xmin === undefined ? undefined : nextDouble(xmin, 1)].filter((v): v is number => v !== undefined);
    const highs = [max, xmax === undefined ? undefined : nextDouble(xmax, -1)].filter((v): v is number => v !== undefined);
    const lo = lows.length ? Math.max(...lows) : undefined;
    const hi = highs.length ? Math.min(...highs) : undefined;
    if (lo !== undefined && hi !== undefined && lo > hi) return null;
    const e = decimalRange(lo === undefined ? null : lowestTextAtLeast(lo), hi === undefined ? null : highestTextAtMost(hi));
    return e && e.kind !== "literal" ? this.rules.add(`num-${lo === undefined ? "min" : signed(lo)}-${hi === undefined ? "max" : signed(hi)}`, e, `num|${lo}|${hi}`) : e;
  }

  // ---- arrays ------------------------------------------------------------------------------

  private compileArray(s: Schema, ctx: Ctx): GbnfExpr | null {
    const minItems = count(s.minItems) ?? 0;
    const prefixRaw = Array.isArray(s.prefixItems) ? (s.prefixItems as unknown[]) : [];
    if (s.uniqueItems === true && prefixRaw.length === 0 && s.items !== undefined) {
      const values = this.finiteValues(s.items as JsonSchema, ctx.base);
      if (values && values.length <= MAX_UNIQUE_VALUES) return this.uniqueArray(values, minItems, count(s.maxItems));
    }
    const prefix = prefixRaw.map((p, i) => this.value(p as JsonSchema, { base: ctx.base, pointer: `${ctx.pointer}/prefixItems/${i}` }));
    const itemsSchema = (s.items ?? true) as JsonSchema;
    const rest = itemsSchema === false ? null : this.value(itemsSchema, { base: ctx.base, pointer: `${ctx.pointer}/items` });
    let maxItems = count(s.maxItems);
    if (maxItems === undefined) {
      if (rest === null) maxItems = prefix.length;
      else {
        maxItems = Math.max(this.options.maxItems, minItems);
        this.cap(ctx.pointer, "array", maxItems);
      }
    }
    if (s.uniqueItems === true && maxItems > 1) this.relax(ctx.pointer, "uniqueItems", "uniqueItems is not enforced by the grammar");
    if (minItems > maxItems) return null;
    const atom = (e: GbnfExpr) => (e.kind === "seq" || e.kind === "alt" ? this.rules.add(`${this.hint}-item`, e) : e);
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
    return this.rules.add(`${this.hint}-array`, seq(lit("["), body, lit("]")));
  }

  /**
   * The JSON texts of every value a schema allows when it allows only a few listed ones (an enum, a
   * const, booleans or null), or null when it is not of that form or a keyword beside the enum
   * cannot be decided.
   */
  private finiteValues(schema: JsonSchema, base: string): string[] | null {
    const x = this.deref(schema, base);
    if (x === false) return [];
    if (!isSchema(x)) return null;
    const n = this.normal(x);
    if (Array.isArray(n.enum)) {
      this.checker.undecided = null;
      const kept = (n.enum as unknown[]).filter((v) => this.checker.matches(x, v, this.doc.baseOf(x) ?? base));
      if (this.checker.takeUndecided()) return null;
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
  private uniqueArray(texts: string[], minItems: number, maxItems: number | undefined): GbnfExpr | null {
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
      const e = options.length === 0 ? null : options.length === 1 ? options[0] : this.rules.add(`${this.hint}-unique`, alt(...options));
      memo.set(used, e);
      return e;
    };
    const body = after(0, 0);
    return body && seq(lit("["), body);
  }

  // ---- objects -----------------------------------------------------------------------------

  /**
   * The extra keys: key languages with their value schemas, from propertyNames, patternProperties and
   * additionalProperties. With patterns, extra keys come from the patterns' languages (keys matching no
   * pattern are left out: a narrowing, never a loosening); overlapping or complex patterns relax.
   */
  private extras(s: Schema, ctx: Ctx): Extra[] {
    let lang: KeyLanguage | null = anyKeyLanguage(MAX_EXTRA_KEY_CHARS);
    const additional = (s.additionalProperties ?? true) as JsonSchema;
    const patterns = isSchema(s.patternProperties) ? Object.entries(s.patternProperties) : [];
    const pn = s.propertyNames;
    if (pn !== undefined && pn !== true) {
      const names = this.namesLanguage(pn as JsonSchema, ctx);
      if (names === null) return [];
      lang = names;
    }
    if (patterns.length === 0) return additional === false ? [] : [{ lang, value: additional, pointer: `${ctx.pointer}/additionalProperties` }];
    // Every pattern and additionalProperties give extra keys one schema: which pattern a key matches does not matter.
    if (additional !== false && patterns.every(([, v]) => jsonEqual(v, additional))) return [{ lang, value: additional, pointer: `${ctx.pointer}/additionalProperties` }];
    const contained = patterns.length === 1 && isEveryKey(lang) ? containedClassOf(patterns[0][0]) : null;
    if (contained) {
      // "Contains a character of C": keys without one take additionalProperties, the others the pattern's schema.
      const without = keysWithout(contained, MAX_EXTRA_KEY_CHARS);
      const matched: Extra = { lang, outside: [without], value: patterns[0][1] as JsonSchema, pointer: `${ctx.pointer}/patternProperties/${escapePointer(patterns[0][0])}` };
      return isTrivialFalse(additional) ? [matched] : [matched, { lang: without, value: additional, pointer: `${ctx.pointer}/additionalProperties` }];
    }
    const langs = patterns.map(([pattern]) => keyLanguageOf(pattern, MAX_EXTRA_KEY_CHARS));
    const every = langs.findIndex((l) => l !== null && isEveryKey(l));
    if (every >= 0) {
      // One pattern matches every key: every extra key takes it (and any other pattern it matches).
      const [pattern, value] = patterns[every];
      const others = patterns.filter((_, k) => k !== every).map(([, v]) => v as JsonSchema);
      if (others.length && !others.every(isTrivial)) {
        this.relax(`${ctx.pointer}/patternProperties`, "patternProperties", "extra keys are not matched against the other patterns");
      }
      return [{ lang, value: value as JsonSchema, pointer: `${ctx.pointer}/patternProperties/${escapePointer(pattern)}` }];
    }
    if (isEveryKey(lang) && langs.every((l) => l !== null) && langs.every((a, x) => langs.every((b, y) => x >= y || disjointKeyLanguages(a, b)))) {
      // Keys come from the patterns' languages only: a narrowing where a language is only part of its
      // pattern's, or where additionalProperties allows keys that match no pattern.
      if (langs.some((l) => !l.exact)) this.relax(`${ctx.pointer}/patternProperties`, "patternProperties", "only keys anchored at the start are offered for an unanchored pattern");
      const out: Extra[] = patterns.map(([pattern, value], k) => ({ lang: langs[k], value: value as JsonSchema, pointer: `${ctx.pointer}/patternProperties/${escapePointer(pattern)}` }));
      if (isTrivialFalse(additional)) return out;
      // Keys matching no pattern take additionalProperties.
      if (langs.every((l) => l.exact) && langs.length <= MAX_OUTSIDE_LANGUAGES) return [...out, { lang, outside: langs, value: additional, pointer: `${ctx.pointer}/additionalProperties` }];
      this.relax(`${ctx.pointer}/additionalProperties`, "additionalProperties", "keys that match none of the patterns are not offered");
      return out;
    }
    if (patterns.every(([, v]) => isTrivial(v)) && isTrivial(additional)) return [{ lang, value: true, pointer: `${ctx.pointer}/patternProperties` }];
    // The only extra keys are one pattern's, which no declared name matches: keys are written by the pattern itself.
    const declaredNames = [...Object.keys(isSchema(s.properties) ? s.properties : {}), ...(Array.isArray(s.required) ? s.required.map(String) : [])];
    const re = patterns.length === 1 ? patternRegex(patterns[0][0]) : null;
    if (re && isEveryKey(lang) && isTrivialFalse(additional) && !declaredNames.some((k) => re.test(k))) {
      return [{ lang, regex: patterns[0][0], value: patterns[0][1] as JsonSchema, pointer: `${ctx.pointer}/patternProperties/${escapePointer(patterns[0][0])}` }];
    }
    // Overlapping or complex patterns: keys are not told apart by the grammar.
    this.relax(`${ctx.pointer}`, "patternProperties", "extra keys are not matched against their patterns; each may take any of the patterns' value schemas");
    const values = patterns.map(([, v]) => v as JsonSchema);
    if (additional !== false) values.push(additional);
    return [{ lang, value: values.length === 1 ? values[0] : { anyOf: values }, pointer: `${ctx.pointer}/patternProperties` }];
  }

  /** Keys allowed by a propertyNames schema (pattern and lengths); null when none. */
  private namesLanguage(pn: JsonSchema, ctx: Ctx): KeyLanguage | null {
    if (pn === false) return null;
    let lang: KeyLanguage | null = anyKeyLanguage(MAX_EXTRA_KEY_CHARS);
    if (!isSchema(pn)) return lang;
    const listed = this.listedOrPattern(pn, ctx.base);
    if (listed) return listed;
    const s = this.normal(pn);
    const known = ["type", "pattern", "minLength", "maxLength", "format"];
    const other = constrainingKeys(s).filter((k) => !known.includes(k));
    if (other.length) this.relax(`${ctx.pointer}/propertyNames`, other[0], `propertyNames ${other[0]} is not enforced on extra keys`);
    if (typeof s.pattern === "string") {
      const pl = keyLanguageOf(s.pattern, MAX_EXTRA_KEY_CHARS);
      if (pl) lang = pl;
      else this.relax(`${ctx.pointer}/propertyNames`, "pattern", "the propertyNames pattern is not enforced on extra keys");
      if (pl && !pl.exact) this.relax(`${ctx.pointer}/propertyNames`, "pattern", "only extra keys anchored at the start are offered for the unanchored propertyNames pattern");
    }
    if (lang && (typeof s.minLength === "number" || typeof s.maxLength === "number")) lang = boundKeyLanguage(lang, count(s.minLength) ?? 0, Math.min(count(s.maxLength) ?? MAX_EXTRA_KEY_CHARS, MAX_EXTRA_KEY_CHARS));
    return lang;
  }

  /** `"..."`: a key the pattern matches (each quantifier capped like a default-capped string); null when none. */
  private patternKey(pattern: string, pointer: string): GbnfExpr | null {
    const translated = translatePatternCapped(pattern, 0, MAX_EXTRA_KEY_CHARS, this.rules);
    if (!translated.ok) {
      this.relax(pointer, "patternProperties", `${translated.reason}, so extra keys may be any key`);
      return extraKey(this.rules, [], MAX_EXTRA_KEY_CHARS);
    }
    return translated.content && this.rules.add("pattern-key", seq(lit('"'), translated.content, lit('"')));
  }

  /**
   * propertyNames `oneOf: [{enum: names}, {pattern}]` where every listed name matches the pattern
   * (a list of exceptions to it): the pattern's keys without the listed ones. Null for other forms.
   */
  private listedOrPattern(pn: Schema, base: string): KeyLanguage | null {
    const s = this.normal(pn);
    if (!Array.isArray(s.oneOf) || s.oneOf.length !== 2 || constrainingKeys(s).some((k) => k !== "oneOf" && !(k === "type" && s.type === "string"))) return null;
    const [x, y] = (s.oneOf as JsonSchema[]).map((b) => this.deref(b, base)).map((b) => (isSchema(b) ? this.normal(b) : null));
    if (!x || !y) return null;
    const isList = (b: Schema) => Array.isArray(b.enum) && constrainingKeys(b).every((k) => k === "enum" || (k === "type" && b.type === "string"));
    const isPattern = (b: Schema) => typeof b.pattern === "string" && constrainingKeys(b).every((k) => k === "pattern" || (k === "type" && b.type === "string"));
    const [list, pat] = isList(x) && isPattern(y) ? [x, y] : isList(y) && isPattern(x) ? [y, x] : [null, null];
    if (!list || !pat) return null;
    const lang = keyLanguageOf(pat.pattern as string, MAX_EXTRA_KEY_CHARS);
    const re = patternRegex(pat.pattern as string);
    const names = (list.enum as unknown[]).filter((v): v is string => typeof v === "string");
    if (!lang || !lang.exact || !re || !names.every((n) => re.test(n) && keyInLanguage(lang, n))) return null;
    return { fixed: lang.fixed, tail: lang.tail, tailMax: lang.tailMax, excluded: names };
  }

  private compileObject(s0: Schema, ctx: Ctx): GbnfExpr | null {
    const s: Schema = { ...s0 };
    const properties: Record<string, unknown> = { ...((isSchema(s.properties) ? s.properties : {}) as Record<string, unknown>) };
    const required = [...new Set((Array.isArray(s.required) ? s.required : []).map(String))];
    const patterns = isSchema(s.patternProperties) ? Object.entries(s.patternProperties) : [];
    // Declared keys that match a pattern must satisfy the pattern's schema too.
    for (const key of Object.keys(properties)) {
      for (const [pattern, ps] of patterns) {
        const re = patternRegex(pattern);
        if (re === null) this.relax(`${ctx.pointer}/patternProperties`, "patternProperties", `the pattern "${pattern}" is not a valid regular expression here`);
        else if (re.test(key) && !isTrivial(ps)) properties[key] = { allOf: [properties[key], ps] };
      }
    }
    // Declared names propertyNames rules out can never appear.
    if (s.propertyNames !== undefined && s.propertyNames !== true) {
      const names = this.namesLanguage(s.propertyNames as JsonSchema, ctx);
      for (const key of [...Object.keys(properties), ...required]) if (names === null || !keyInLanguage(names, key)) properties[key] = false;
    }
    const declared = Object.keys(properties);
    const extras = this.extras(s, ctx);
    const valueOfUndeclared = (key: string): JsonSchema | false => {
      const matching = patterns.filter(([p]) => patternRegex(p)?.test(key)).map(([, v]) => v as JsonSchema);
      if (matching.length) return matching.length === 1 ? matching[0] : { allOf: matching };
      if (s.propertyNames !== undefined && s.propertyNames !== true) {
        const names = this.namesLanguage(s.propertyNames as JsonSchema, ctx);
        if (names === null || !keyInLanguage(names, key)) return false;
      }
      return (s.additionalProperties ?? true) as JsonSchema;
    };

    const order = [...declared.filter((k) => required.includes(k)), ...required.filter((k) => !declared.includes(k)), ...declared.filter((k) => !required.includes(k))];
    const slots: Slot[] = [];
    for (const key of order) {
      const isRequired = required.includes(key);
      const schema = key in properties ? (properties[key] as JsonSchema) : valueOfUndeclared(key);
      const pointer = key in properties ? `${ctx.pointer}/properties/${escapePointer(key)}` : `${ctx.pointer}/required`;
      const value = schema === false ? null : this.value(schema, { base: ctx.base, pointer });
      if (value === null) {
        if (isRequired) return null;
        continue;
      }
      slots.push({ required: isRequired, expr: seq(lit(JSON.stringify(key) + ":"), value) });
    }
    let extraRule: GbnfExpr | null = null;
    let maxExtra = 0;
    const members: GbnfExpr[] = [];
    const taken = [...new Set([...declared, ...required])];
    for (const extra of extras) {
      const value = this.value(extra.value, { base: ctx.base, pointer: extra.pointer });
      if (!value) continue;
      const key = extra.regex !== undefined ? this.patternKey(extra.regex, extra.pointer) : extra.outside ? keyRuleOutside(this.rules, taken, extra.outside, MAX_EXTRA_KEY_CHARS) : isEveryKey(extra.lang) ? extraKey(this.rules, taken, extra.lang.tailMax) : keyRule(this.rules, taken, extra.lang);
      if (key) members.push(seq(key, lit(":"), value));
    }
    if (members.length) {
      maxExtra = this.options.maxKeys;
      this.cap(ctx.pointer, "object", maxExtra);
      this.cap(`${ctx.pointer}/propertyNames`, "string", MAX_EXTRA_KEY_CHARS);
      extraRule = this.rules.add(`${this.hint}-extra`, alt(...members));
    }
    let minP = count(s.minProperties) ?? 0;
    let maxP = count(s.maxProperties) ?? Infinity;
    const most = slots.length + (extraRule ? maxExtra : 0);
    if (maxP >= most) maxP = Infinity;
    if (minP > most) return null;
    const requiredCount = slots.filter((x) => x.required).length;
    if (minP <= requiredCount) minP = 0;
    let top = maxP === Infinity ? Math.max(minP, 1) : maxP;
    if ((slots.length + 1) * (top + 1) > MAX_COUNT_STATES) {
      if (minP > 1) this.relax(ctx.pointer, "minProperties", "minProperties is not enforced beyond one member");
      if (maxP !== Infinity) this.relax(ctx.pointer, "maxProperties", "maxProperties is not enforced by the grammar");
      minP = Math.min(minP, 1);
      maxP = Infinity;
      top = 1;
    }
    const body = this.members({ slots, extraRule, maxExtra, minP, maxP, top, memo: new Map() }, 0, 0);
    if (body === null) return null;
    return this.rules.add(`${this.hint}-object`, seq(lit("{"), body, lit("}")));
  }

  /** members(m, i, c): an object's members from slot i on, c members written so far (saturating at `top`). */
  private members(m: MemberPlan, i: number, c: number): GbnfExpr | null {
    // c never exceeds top, so this numbers each (i, c) once.
    const key = i * (m.top + 1) + c;
    if (m.memo.has(key)) return m.memo.get(key)!;
    const { slots, extraRule, maxExtra, minP, maxP, top } = m;
    let e: GbnfExpr | null;
    if (i === slots.length) {
      const lo = Math.max(0, minP - c);
      const hi = Math.min(maxExtra, maxP - c);
      if (!extraRule) e = lo === 0 ? EMPTY : null;
      else if (lo > hi) e = null;
      else if (c > 0) e = boundedRepeat(comma(extraRule), lo, hi);
      else if (hi === 0) e = EMPTY;
      else {
        const tail = boundedRepeat(comma(extraRule), Math.max(0, lo - 1), hi - 1);
        e = lo === 0 ? opt(seq(extraRule, tail)) : seq(extraRule, tail);
      }
    } else if (c > 0 && top === 1 && minP <= 1) {
      // Past the first member with nothing to count, each later member is independently there or not.
      // Tails of long member lists are named every TAIL_CHUNK slots and shared, so an object's rules
      // grow linearly with its properties (inlining every tail made them quadratic).
      const end = Math.min(slots.length, (Math.floor(i / TAIL_CHUNK) + 1) * TAIL_CHUNK);
      const tail = end === slots.length ? this.members(m, slots.length, 1) : this.members(m, end, 1);
      const here = slots.slice(i, end).map((x) => (x.required ? comma(x.expr) : opt(comma(x.expr))));
      e = tail && seq(...here, tail);
      if (e && i % TAIL_CHUNK === 0 && slots.length > TAIL_CHUNK) e = this.rules.add(`${this.hint}-tail`, e);
    } else {
      const slot = slots[i];
      const next = c + 1 > maxP ? null : this.members(m, i + 1, Math.min(c + 1, top));
      const present = next ? seq(c > 0 ? lit(",") : EMPTY, slot.expr, next) : null;
      if (slot.required) e = present;
      else {
        const absent = this.members(m, i + 1, c);
        // Small objects inline the choice (as the reviewed grammars do); larger ones name it, which keeps the grammar linear.
        e = present && absent ? (slots.length <= 8 ? alt(present, absent) : this.rules.add(`${this.hint}-members`, alt(present, absent))) : (present ?? absent);
      }
    }
    m.memo.set(key, e);
    return e;
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

/** integerRange results are pure and recur (the same bounds across schemas), so they are kept. */
const integerRanges = new Map<string, GbnfExpr | null>();
function cachedIntegerRange(lo: bigint, hi: bigint): GbnfExpr | null {
  const key = `${lo}|${hi}`;
  if (!integerRanges.has(key)) {
    if (integerRanges.size > 500) integerRanges.clear();
    integerRanges.set(key, integerRange(lo, hi));
  }
  return integerRanges.get(key)!;
}

/**
 * True when a merged node plainly admits no value: no type left, an empty enum, or (for a node that
 * only allows objects) a required key that may not appear.
 */
function admitsNothing(s: Schema): boolean {
  const types = typesOf(s);
  if (types !== null && types.length === 0) return true;
  if (Array.isArray(s.enum) && s.enum.length === 0) return true;
  if (types === null || types.some((t) => t !== "object")) return false;
  const props = isSchema(s.properties) ? s.properties : {};
  return Array.isArray(s.required) && s.required.some((k) => props[String(k)] === false);
}

/** additionalProperties that admits no value (false, or a schema that is `not {}`). */
function isTrivialFalse(s: unknown): boolean {
  return s === false || (isSchema(s) && constrainingKeys(s).length === 1 && isSchema(s.not) && constrainingKeys(s.not).length === 0);
}

/** A part without the keywords alternatives() distributes (a superset of it). */
function withoutDistributed(p: Part): Part {
  if (!isSchema(p.schema)) return p;
  const { anyOf: _a, oneOf: _o, dependentRequired: _r, dependentSchemas: _s, ...rest } = p.schema;
  return withSchema(p, rest);
}

function isTrivial(s: unknown): boolean {
  return s === true || s === undefined || (isSchema(s) && constrainingKeys(s).length === 0);
}

/** A non-negative integer keyword value, or undefined when absent or malformed (then ignored, as ajv's strict: false would not). */
function count(v: unknown): number | undefined {
  return typeof v === "number" && Number.isFinite(v) && v >= 0 ? Math.floor(v) : undefined;
}

function num(v: unknown): number | undefined {
  return typeof v === "number" && Number.isFinite(v) ? v : undefined;
}
