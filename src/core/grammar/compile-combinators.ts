/**
 * Conjunctions and unions: `$ref` beside other keywords and `allOf` members are inlined and merged;
 * anyOf, oneOf and dependencies distribute into at most MAX_ALTERNATIVES merged alternatives (past it
 * the union where it ran out is relaxed); oneOf branches are proven disjoint or taken with the others
 * negated; if/then/else becomes a union of disjoint cases (one per tested value for discriminators).
 */
import { alt, type GbnfExpr } from "./gbnf-ast";
import { mergeParts, typesOf, withSchema, type Merged, type Part } from "./schema-merge";
import { GrammarRefusal, type JsonSchema } from "./types";
import { ALL_TYPES, constrainingKeys, escapePointer, isSchema, matchesType, type Schema } from "./schema-words";
import type { Ctx, CompileContext } from "./compile-context";
import { enter, leave } from "./compile-refs";
import { negationContext, negation } from "./compile-negation";

/** Alternatives one node may expand into when unions and dependencies are distributed. */
const MAX_ALTERNATIVES = 64;
/** `$ref`s and `allOf`s inlined into one node's conjunction. */
const MAX_INLINED = 256;
/** Combinations one node may look at while dropping those that admit nothing. */
const MAX_VISITED = 1024;
/** Cases one group of discriminating ifs may expand into (one per tested value, plus three). */
const MAX_CONDITIONAL_CASES = 16;

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

/**
 * Flat parts: every `$ref` beside other keywords and every `allOf` member inlined. Inlined `$ref`
 * targets are added to `targets`, so the caller can count them as open (recursion through a
 * reference with siblings unrolls like any other).
 */
function expand(compiler: CompileContext, parts: Part[], ctx: Ctx, targets?: Set<object>): Part[] {
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
    const fp = fingerprint(compiler, p.schema, p.base);
    if (fp !== null) {
      if (seen.has(fp)) continue;
      seen.add(fp);
    }
    if (!isSchema(p.schema)) {
      out.push(p);
      continue;
    }
    let s = compiler.normal(p.schema);
    if (typeof s.$ref === "string") {
      const { $ref: ref, ...rest } = s;
      s = rest;
      const r = compiler.doc.resolve(String(ref), p.base);
      if (typeof r === "string") compiler.relax(p.pointer, "$ref", `${r}, so that reference is not enforced`);
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
        queue.push({ schema: node, base: compiler.doc.baseOf(node) ?? p.base, pointer: compiler.doc.pointerOf(node) ?? `${p.pointer}/allOf/${i}` });
      });
    }
    if (s.not !== undefined && !bansIntegersOnly(s.not)) {
      // A `not` with an exact positive form becomes that form (unions distribute like any other).
      // (`not {type: integer}` stays for applyNot: its positive form holds it again.)
      const positive = negation(compiler, s.not as JsonSchema, p.base);
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

/** True for `not {type: integer}` (integer banned, number not): applyNot keeps such numbers to non-integers. */
function bansIntegersOnly(x: unknown): boolean {
  if (!isSchema(x) || constrainingKeys(x).length !== 1) return false;
  const types = typesOf(x);
  return !!types && types.includes("integer") && !types.includes("number");
}

/** A document subschema's shape with its base, for telling equal subschemas apart (null for synthetic ones). */
function fingerprint(compiler: CompileContext, schema: JsonSchema, base: string): string | null {
  if (typeof schema !== "object" || compiler.doc.pointerOf(schema) === undefined) return null;
  return `${base}|${compiler.shapes.shape(schema, base)}`;
}

/**
 * The merged alternatives of a conjunction within MAX_ALTERNATIVES. When distributing would exceed
 * that, the union or dependency where it ran out is left unenforced (and reported) and the
 * distribution starts again without it, so the work stays linear in the keywords relaxed.
 */
function alternativesWithin(compiler: CompileContext, parts: Part[], ctx: Ctx): Alternative[] {
  const skipped = new Set<string>();
  // The conjunction's own unions and dependencies multiply: the last ones past the limit are given
  // up on at once (what the retries below would conclude one by one).
  const sites: Array<{ site: string; pointer: string; keyword: string; branches: number }> = [];
  for (const p of expand(compiler, parts, ctx)) {
    if (!isSchema(p.schema)) continue;
    for (const k of ["anyOf", "oneOf"] as const) {
      const list = p.schema[k];
      if (Array.isArray(list) && list.length > 0) sites.push({ site: `${p.pointer}|${k}`, pointer: p.pointer, keyword: k, branches: list.length });
    }
    for (const k of ["dependentRequired", "dependentSchemas"] as const) {
      const deps = p.schema[k];
      if (isSchema(deps)) for (const name of Object.keys(deps)) sites.push({ site: `${dependencyPointer(compiler, p.pointer, k, name)}|${k}`, pointer: dependencyPointer(compiler, p.pointer, k, name), keyword: k, branches: 2 });
    }
  }
  let product = sites.reduce((n, x) => n * x.branches, 1);
  for (let i = sites.length - 1; i >= 0 && product > MAX_ALTERNATIVES; i--) {
    product /= sites[i].branches;
    skipped.add(sites[i].site);
    compiler.relax(sites[i].pointer, sites[i].keyword, `combining its ${sites[i].branches} branches with the rest of the schema would exceed ${MAX_ALTERNATIVES} alternatives, so it is not enforced`);
  }
  for (;;) {
    try {
      return alternatives(compiler, parts, ctx, { left: MAX_ALTERNATIVES, skipped, visited: 0 });
    } catch (err) {
      if (!(err instanceof TooManyAlternatives) || skipped.has(err.site)) throw err;
      skipped.add(err.site);
      compiler.relax(err.pointer, err.keyword, `combining its ${err.branches} branches with the rest of the schema would exceed ${MAX_ALTERNATIVES} alternatives, so it is not enforced`);
    }
  }
}

function alternatives(compiler: CompileContext, parts: Part[], ctx: Ctx, budget: Budget, inherited: Set<object> = new Set()): Alternative[] {
  compiler.tick(ctx.pointer);
  const targets = new Set(inherited);
  const flat = conditionals(compiler, expand(compiler, parts, ctx, targets));
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
      const kept = Object.entries(deps).filter(([name]) => !budget.skipped.has(`${dependencyPointer(compiler, p.pointer, k, name)}|${k}`));
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
      branches = list.map((b, k) => [{ schema: b as JsonSchema, base: compiler.doc.baseOf(b as JsonSchema) ?? p.base, pointer: compiler.doc.pointerOf(b as JsonSchema) ?? `${p.pointer}/${keyword}/${k}` }]);
      site = `${p.pointer}|${keyword}`;
    } else {
      // One dependency: either the key is absent, or it is present with what it requires.
      const entries = Object.entries(value as Record<string, unknown>);
      const [name, dep] = entries[0];
      const remaining = Object.fromEntries(entries.slice(1));
      if (entries.length > 1) others[i] = withSchema(others[i], { ...rest, [keyword]: remaining });
      const where = dependencyPointer(compiler, p.pointer, keyword, name);
      site = `${where}|${keyword}`;
      sitePointer = where;
      const present: JsonSchema =
        keyword === "dependentRequired"
          ? { required: [name, ...(Array.isArray(dep) ? dep.map(String) : [])] }
          : { allOf: [{ required: [name] }, dep as JsonSchema] };
      branches = [
        [{ schema: { properties: { [name]: false } }, base: p.base, pointer: where }],
        [{ schema: present, base: compiler.doc.baseOf(dep as JsonSchema) ?? p.base, pointer: where }],
      ];
    }
    // Too many combinations (a branch left with no budget): this union or dependency is given up on (see alternativesWithin).
    const explore = (list: Part[][]): Alternative[][] =>
      list.map((b) => {
        if (budget.left <= 0) throw new TooManyAlternatives(site, sitePointer, keyword, branches.length);
        return alternatives(compiler, [...others, ...b], ctx, budget, targets);
      });
    let perBranch = explore(branches);
    // Branches disjoint on their own stay disjoint beside anything; otherwise judge them with the rest.
    if (keyword === "oneOf" && !oneOfDisjoint(compiler, value as JsonSchema[], p) && !branchesDisjoint(compiler, perBranch.map((list) => list.map((a) => a.merged)))) {
      // Overlapping branches: branch i is taken with every other branch negated, when each negation is exact.
      // Inside branch i, a closed object (from the branch or its siblings) names the keys the others' negations may use.
      const negated = branches.map((b, bi) => {
        const context = negationContext(compiler, [...others, ...b]);
        return branches.map((other, j) => (j === bi ? true : negation(compiler, other[0].schema, other[0].base, 0, context)));
      });
      if (negated.every((row) => row.every((n) => n !== null))) {
        perBranch = explore(branches.map((b, bi) => [...b, ...negated[bi].flatMap((n, j) => (j === bi ? [] : [{ schema: n, base: branches[j][0].base, pointer: `${p.pointer}/oneOf/${j}` }]))]));
      } else compiler.relax(p.pointer, "oneOf", "its branches may overlap, so the grammar allows a value that matches several (as anyOf)");
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

function dependencyPointer(compiler: CompileContext, pointer: string, keyword: string, name: string): string {
  return `${pointer}/${compiler.doc.draft <= 7 ? "dependencies" : keyword}/${escapePointer(name)}`;
}

/**
 * if/then/else rewritten as a union of disjoint cases, which then distributes like any other:
 * tests of one property against constants (the usual discriminator) become one case per value
 * (plus "absent", "another value" and "not an object"), each with the thens and elses that case
 * selects; any other `if` whose negation is exact becomes (if and then) or (not if and else).
 * An `if` with neither is left in place (relaxed later).
 */
function conditionals(compiler: CompileContext, flat: Part[]): Part[] {
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
    const test = discriminator(compiler, cond as JsonSchema, p.base);
    if (test) {
      const list = groups.get(test.property) ?? [];
      list.push({ test, then: then as JsonSchema | undefined, otherwise: otherwise as JsonSchema | undefined, part: p });
      groups.set(test.property, list);
      // The rest of the part stays; its if/then/else joins the group's cases.
      out.push(withSchema(p, rest));
      continue;
    }
    const negated = negation(compiler, cond as JsonSchema, p.base);
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
function discriminator(compiler: CompileContext, cond0: JsonSchema, base: string): DiscriminatorTest | null {
  const cond = compiler.deref(cond0, base);
  if (!isSchema(cond)) return null;
  const n = compiler.normal(cond);
  const keys = constrainingKeys(n);
  if (keys.length === 1 && keys[0] === "anyOf" && Array.isArray(n.anyOf) && n.anyOf.length > 0) {
    const tests = n.anyOf.map((b) => discriminator(compiler, b as JsonSchema, base));
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
  const test = compiler.deref(test0 as JsonSchema, base);
  if (!isSchema(test)) return null;
  const t = compiler.normal(test);
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

/** True when no value can match two branches of this oneOf list, judged on the branches alone. */
function oneOfDisjoint(compiler: CompileContext, list: JsonSchema[], part: Part): boolean {
  let disjoint = compiler.oneOfChecked.get(list);
  if (disjoint === undefined) {
    // Judged on each branch's merged form (its references inlined, not compiled).
    const at = (b: JsonSchema, k: number): Part => ({ schema: b, base: compiler.doc.baseOf(b) ?? part.base, pointer: compiler.doc.pointerOf(b) ?? `${part.pointer}/oneOf/${k}` });
    const ctx = { base: part.base, pointer: part.pointer };
    compiler.judging++;
    try {
      // First without distributing the branches' own unions and dependencies (each merged form is
      // then a superset of its branch, so disjoint supersets settle it cheaply), then distributed.
      const loose = list.map((b, k) => [mergeParts(expand(compiler, [at(b, k)], ctx).map(withoutDistributed))]);
      disjoint = branchesDisjoint(compiler, loose) || branchesDisjoint(compiler, list.map((b, k) => alternativesWithin(compiler, [at(b, k)], ctx).map((a) => a.merged)));
    } finally {
      compiler.judging--;
    }
    compiler.oneOfChecked.set(list, disjoint);
  }
  return disjoint;
}

/** True when no value can match two of the branches (each given as its merged alternatives). */
function branchesDisjoint(compiler: CompileContext, perBranch: Merged[][]): boolean {
  for (let i = 0; i < perBranch.length; i++) {
    for (let j = i + 1; j < perBranch.length; j++) {
      for (const a of perBranch[i]) for (const b of perBranch[j]) if (!compiler.pairDisjoint(a.schema, b.schema)) return false;
    }
  }
  return true;
}

export function conjunction(compiler: CompileContext, parts: Part[], ctx: Ctx, bare = true): GbnfExpr | null {
  const union = bare ? bareUnion(compiler, parts) : null;
  if (union) return compileUnion(compiler, union, ctx);
  const options: GbnfExpr[] = [];
  for (const { merged, targets } of alternativesWithin(compiler, parts, ctx)) {
    // A branch that re-enters a reference past the unrolling depth is unavailable, like a bare recursive $ref.
    const over = [...targets].find((t) => (compiler.open.get(t) ?? 0) >= compiler.options.recursionDepth);
    if (over) {
      compiler.cap(compiler.doc.pointerOf(over as JsonSchema) ?? ctx.pointer, "depth", compiler.options.recursionDepth);
      continue;
    }
    for (const t of targets) enter(compiler, t);
    try {
      const e = compiler.flat(merged, ctx);
      if (e) options.push(e);
    } finally {
      for (const t of targets) leave(compiler, t);
    }
  }
  return options.length ? alt(...options) : null;
}

/** A node that is only an anyOf/oneOf (nothing beside it constrains): its branches compile on their own. */
function bareUnion(compiler: CompileContext, parts: Part[]): { keyword: "anyOf" | "oneOf"; part: Part } | null {
  if (parts.length !== 1 || !isSchema(parts[0].schema)) return null;
  const s = parts[0].schema;
  const keys = constrainingKeys(s);
  if (keys.length !== 1 || (keys[0] !== "anyOf" && keys[0] !== "oneOf") || !Array.isArray(s[keys[0]]) || (s[keys[0]] as unknown[]).length === 0) return null;
  return { keyword: keys[0], part: parts[0] };
}

function compileUnion(compiler: CompileContext, u: { keyword: "anyOf" | "oneOf"; part: Part }, ctx: Ctx): GbnfExpr | null {
  const list = (u.part.schema as Schema)[u.keyword] as JsonSchema[];
  const at = (b: JsonSchema, k: number): Ctx => ({ base: compiler.doc.baseOf(b) ?? u.part.base, pointer: compiler.doc.pointerOf(b) ?? `${u.part.pointer}/${u.keyword}/${k}` });
  // Overlapping branches need the others negated: the general path.
  if (u.keyword === "oneOf" && !oneOfDisjoint(compiler, list, u.part)) return conjunction(compiler, [u.part], ctx, false);
  const options: GbnfExpr[] = [];
  list.forEach((b, k) => {
    const e = compiler.value(b, at(b, k));
    if (e) options.push(e);
  });
  return options.length ? alt(...options) : null;
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

/** A part without the keywords alternatives() distributes (a superset of it). */
function withoutDistributed(p: Part): Part {
  if (!isSchema(p.schema)) return p;
  const { anyOf: _a, oneOf: _o, dependentRequired: _r, dependentSchemas: _s, ...rest } = p.schema;
  return withSchema(p, rest);
}
