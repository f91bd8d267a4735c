/**
 * Runs a base's view over the vault's files: the base's and the view's filters (joined with and), formulas, sort,
 * group-by, limit and summaries, as Obsidian's Bases lists them. Without a `.base` file the same runs an ad-hoc query.
 */
import type { VaultPort } from "../ports/vault";
import type { BaseSpec, FilterNode, SortKey } from "./base-file";
import { evaluate } from "./evaluate";
import { parseExpression, type Expr } from "./expression";
import { fileField } from "./functions";
import { noteProperty, type Scope } from "./scope";
import { BaseDate, BaseError, compare, equals, isEmpty, toText, type BaseRow, type Value } from "./values";

/** Extra conditions and shape of a query beyond (or instead of) a view. */
export interface QueryOptions {
  /** The view's name; the first view when absent. */
  view?: string;
  /** More filters, joined with the view's by and. */
  filters?: FilterNode[];
  /** Replaces the view's sort. */
  sort?: SortKey[];
  limit?: number;
  groupBy?: SortKey;
  /** Property → summary name, added to the view's. */
  summaries?: Record<string, string>;
  /** Properties shown; the view's order (else file.name) when absent. */
  properties?: string[];
  now: Date;
  /** The base file itself (`this`). */
  self?: BaseRow | null;
  /** Summaries and groups over every match, not only the rows the limit keeps (ad-hoc queries). Default false. */
  summarizeAll?: boolean;
}

export interface QueryRow {
  path: string;
  /** Shown property → value. */
  values: Record<string, Value>;
}

export interface QueryGroup {
  key: Value;
  rows: QueryRow[];
  summaries: Record<string, Value>;
}

export interface QueryResult {
  view: string | null;
  columns: string[];
  rows: QueryRow[];
  /** Rows that matched before the limit. */
  matched: number;
  groups: QueryGroup[] | null;
  /** "Sum of budget" → value, over the shown rows. */
  summaries: Record<string, Value>;
  /** Formulas that failed for some rows, one sentence each. */
  errors: string[];
}

/** Every file of the vault the tools may name, with its note metadata, as rows. */
export async function loadRows(vault: VaultPort, admit: (path: string) => boolean = () => true): Promise<BaseRow[]> {
  const files = (await vault.list()).filter((f) => admit(f.path));
  return Promise.all(
    files.map(async (f) => {
      const meta = f.path.endsWith(".md") ? await vault.metadata(f.path) : null;
      const links = (meta?.links ?? []).map((l) => ({ target: l.target, resolved: l.resolved, embed: l.embed }));
      // file.links includes the links in properties, as Obsidian's does.
      for (const m of JSON.stringify(meta?.frontmatter ?? {}).matchAll(/\[\[([^\]|#]+)/g)) {
        links.push({ target: m[1], resolved: await vault.resolveLink(m[1], f.path), embed: false });
      }
      return { path: f.path, size: f.size, ctime: f.ctime, mtime: f.mtime, frontmatter: meta ? (meta.frontmatter ?? {}) : null, tags: meta?.tags ?? [], links };
    }),
  );
}

/** Link resolution over the rows: exact path, path without `.md`, then file name (shortest path first). */
function resolver(rows: BaseRow[]): (link: string) => string | null {
  const byPath = new Map(rows.map((r) => [r.path.toLowerCase(), r.path]));
  const byName = new Map<string, string>();
  for (const r of [...rows].sort((a, b) => a.path.length - b.path.length)) {
    const name = (r.path.split("/").pop() ?? "").toLowerCase();
    for (const k of [name, name.replace(/\.md$/, "")]) if (!byName.has(k)) byName.set(k, r.path);
  }
  return (link) => {
    const t = link.trim().replace(/^\/+/, "").toLowerCase();
    return byPath.get(t) ?? byPath.get(`${t}.md`) ?? (t.includes("/") ? null : (byName.get(t) ?? null));
  };
}

/** A shown property's value: `formula.x`, `file.x`, `note.x` or a bare note property. */
function propertyOf(name: string, scope: Scope): Value {
  if (name.startsWith("formula.")) return scope.formula(name.slice(8));
  if (name.startsWith("file.")) return scope.row ? fileField(scope.row, name.slice(5), scope) : null;
  return noteProperty(scope.row, name.startsWith("note.") ? name.slice(5) : name, scope);
}

function compiled(cache: Map<string, Expr>, src: string): Expr {
  let e = cache.get(src);
  if (!e) {
    const p = parseExpression(src);
    if (!p.ok) throw new BaseError(p.error);
    cache.set(src, (e = p.expr));
  }
  return e;
}

function passes(f: FilterNode, scope: Scope, cache: Map<string, Expr>): boolean {
  if (typeof f === "string") {
    const expr = compiled(cache, f);
    try {
      const v = evaluate(expr, scope);
      return typeof v === "object" ? v !== null : Boolean(v);
    } catch (err) {
      // A filter that fails for a file (a method its value lacks) leaves that file out, as in Obsidian.
      if (err instanceof BaseError && !/not a Bases function\.|not supported here/.test(err.message)) return false;
      throw err;
    }
  }
  if ("and" in f) return f.and.every((x) => passes(x, scope, cache));
  if ("or" in f) return f.or.some((x) => passes(x, scope, cache));
  return !f.not.some((x) => passes(x, scope, cache));
}

/** Sort order of two values: comparable values by value, empty last, others by their text. */
function order(a: Value, b: Value, dir: "ASC" | "DESC"): number {
  if (isEmpty(a) || isEmpty(b)) return Number(isEmpty(a)) - Number(isEmpty(b));
  const c = compare(a, b) ?? toText(a).localeCompare(toText(b));
  return dir === "DESC" ? -c : c;
}

const numbers = (vs: Value[]) => vs.filter((v): v is number => typeof v === "number" && Number.isFinite(v));
const dates = (vs: Value[]) => vs.filter((v): v is BaseDate => v instanceof BaseDate).sort((a, b) => a.ms - b.ms);

/** The built-in summaries (the Bases syntax page's table) plus Count and Distinct; null when the name is none of them. */
export function builtinSummary(name: string, values: Value[]): Value | undefined {
  const n = numbers(values);
  const sum = n.reduce((s, x) => s + x, 0);
  const mean = n.length ? sum / n.length : null;
  const sorted = [...n].sort((a, b) => a - b);
  const filled = values.filter((v) => !isEmpty(v));
  const distinct = filled.filter((v, i) => filled.findIndex((w) => equals(v, w)) === i);
  const d = dates(values);
  switch (name.toLowerCase()) {
    case "count": return values.length;
    case "sum": return sum;
    case "average": case "mean": return mean;
    case "min": return n.length ? sorted[0] : (d[0] ?? null);
    case "max": return n.length ? sorted[sorted.length - 1] : (d[d.length - 1] ?? null);
    case "range": return n.length ? sorted[sorted.length - 1] - sorted[0] : d.length ? d[d.length - 1].ms - d[0].ms : null;
    case "median": return n.length ? (n.length % 2 ? sorted[(n.length - 1) / 2] : (sorted[n.length / 2 - 1] + sorted[n.length / 2]) / 2) : null;
    case "stddev": return mean === null ? null : Math.sqrt(n.reduce((s, x) => s + (x - mean) ** 2, 0) / n.length);
    case "earliest": return d[0] ?? null;
    case "latest": return d[d.length - 1] ?? null;
    case "checked": return values.filter((v) => v === true).length;
    case "unchecked": return values.filter((v) => v === false).length;
    case "empty": return values.length - filled.length;
    case "filled": return filled.length;
    case "unique": return distinct.length;
    case "distinct": return distinct;
  }
  return undefined;
}

interface Run {
  base: BaseSpec;
  rows: BaseRow[];
  options: QueryOptions;
  cache: Map<string, Expr>;
  errors: Set<string>;
}

/** A scope per row whose formulas are computed once and refuse to refer to themselves. */
function scopeFor(run: Run, row: BaseRow | null, shared: Omit<Scope, "row" | "formula" | "locals">): Scope {
  const values = new Map<string, Value>();
  const busy = new Set<string>();
  const scope: Scope = {
    ...shared,
    row,
    locals: {},
    formula: (name) => {
      if (values.has(name)) return values.get(name) ?? null;
      const src = run.base.formulas[name];
      if (src === undefined) throw new BaseError(`The base has no formula "${name}".`);
      if (busy.has(name)) throw new BaseError(`The formula "${name}" refers to itself.`);
      busy.add(name);
      let v: Value = null;
      try {
        v = evaluate(compiled(run.cache, src), scope);
      } catch (err) {
        if (!(err instanceof BaseError)) throw err;
        run.errors.add(`formula.${name}: ${err.message}`);
      }
      busy.delete(name);
      values.set(name, v);
      return v;
    },
  };
  return scope;
}

function summarize(run: Run, spec: Record<string, string>, scopes: Scope[], shared: Omit<Scope, "row" | "formula" | "locals">): Record<string, Value> {
  const out: Record<string, Value> = {};
  for (const [prop, name] of Object.entries(spec)) {
    const values = scopes.map((s) => propertyOf(prop, s));
    let v = builtinSummary(name, values);
    if (v === undefined) {
      const src = run.base.summaries[name];
      if (src === undefined) throw new BaseError(`"${name}" is not a summary: use Count, Sum, Average, Min, Max, Range, Median, Stddev, Earliest, Latest, Checked, Unchecked, Empty, Filled, Unique, Distinct or a formula under summaries.`);
      v = evaluate(compiled(run.cache, src), { ...scopeFor(run, null, shared), locals: { values } });
    }
    out[`${name} of ${prop}`] = v;
  }
  return out;
}

/** Evaluates a view (or the ad-hoc query the options describe) over the rows. */
export function runQuery(base: BaseSpec, rows: BaseRow[], options: QueryOptions): QueryResult {
  const view = options.view === undefined ? base.views[0] : base.views.find((v) => v.name === options.view);
  if (options.view !== undefined && !view) {
    throw new BaseError(`The base has no view "${options.view}"; its views are ${base.views.map((v) => `"${v.name}"`).join(", ") || "none"}.`);
  }
  const run: Run = { base, rows, options, cache: new Map(), errors: new Set() };
  const resolve = resolver(rows);
  const byPath = new Map(rows.map((r) => [r.path, r]));
  let back: Map<string, string[]> | null = null;
  const shared = {
    self: options.self ?? null,
    now: options.now,
    resolve: (link: string) => resolve(link),
    fileAt: (p: string) => byPath.get(p) ?? null,
    backlinks: (p: string) => {
      if (!back) {
        back = new Map();
        for (const r of rows) for (const l of r.links) if (l.resolved && !l.embed && !back.get(l.resolved)?.includes(r.path)) back.set(l.resolved, [...(back.get(l.resolved) ?? []), r.path]);
      }
      return back.get(p) ?? [];
    },
  };
  const filters = [base.filters, view?.filters, ...(options.filters ?? [])].filter((f): f is FilterNode => f !== undefined);
  let scopes = rows.map((r) => scopeFor(run, r, shared)).filter((s) => filters.every((f) => passes(f, s, run.cache)));
  const sort = options.sort ?? view?.sort ?? [];
  const groupBy = options.groupBy ?? view?.groupBy;
  const keys = groupBy ? [groupBy, ...sort] : sort;
  if (keys.length) {
    const cached = scopes.map((s) => ({ s, v: keys.map((k) => propertyOf(k.property, s)) }));
    cached.sort((a, b) => keys.reduce((c, k, i) => c || order(a.v[i], b.v[i], k.direction), 0));
    scopes = cached.map((c) => c.s);
  }
  const matched = scopes.length;
  const limit = options.limit ?? view?.limit;
  const all = scopes;
  if (limit !== undefined) scopes = scopes.slice(0, limit);
  // A view summarizes the rows it shows, as Obsidian's table does; an ad-hoc query may summarize every match.
  const basis = options.summarizeAll ? all : scopes;
  const columns = options.properties ?? (view?.order?.length ? view.order : ["file.name"]);
  const toRow = (s: Scope): QueryRow => ({ path: s.row?.path ?? "", values: Object.fromEntries(columns.map((c) => [c, propertyOf(c, s)])) });
  const summarySpec = { ...(view?.summaries ?? {}), ...(options.summaries ?? {}) };
  let groups: QueryGroup[] | null = null;
  if (groupBy) {
    groups = [];
    for (const s of basis) {
      const key = propertyOf(groupBy.property, s);
      let g = groups.find((x) => equals(x.key, key));
      if (!g) groups.push((g = { key, rows: [], summaries: {} }));
      g.rows.push(toRow(s));
    }
    for (const g of groups) g.summaries = summarize(run, summarySpec, basis.filter((s) => equals(propertyOf(groupBy.property, s), g.key)), shared);
  }
  const summaries = summarize(run, summarySpec, basis, shared);
  return { view: view?.name ?? null, columns, rows: scopes.map(toRow), matched, groups, summaries, errors: [...run.errors] };
}
