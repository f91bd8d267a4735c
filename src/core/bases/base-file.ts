/**
 * A `.base` file as the Bases syntax page defines it: global filters, formulas, properties, summary formulas and
 * views (type, name, filters, order, sort, limit, groupBy, summaries). YAML is read and written through the host's
 * parser (Obsidian's parseYaml headed in, the `yaml` package headless); this module only checks the structure and
 * that every expression parses.
 */
import type { YamlPort } from "../ports/yaml";
import { parseExpression } from "./expression";

export type FilterNode = string | { and: FilterNode[] } | { or: FilterNode[] } | { not: FilterNode[] };

export interface SortKey {
  property: string;
  direction: "ASC" | "DESC";
}

export interface BaseView {
  /** table, cards, list, map or a plugin's type. */
  type: string;
  name: string;
  filters?: FilterNode;
  /** The properties shown, in order. */
  order?: string[];
  sort?: SortKey[];
  limit?: number;
  groupBy?: SortKey;
  /** Property → summary name (a built-in such as Average, or a key of the base's `summaries`). */
  summaries?: Record<string, string>;
}

export interface BaseSpec {
  filters?: FilterNode;
  formulas: Record<string, string>;
  properties: Record<string, { displayName?: string }>;
  /** Custom summary formulas over `values`. */
  summaries: Record<string, string>;
  views: BaseView[];
}

export type BaseRead = { ok: true; base: BaseSpec } | { ok: false; error: string };

class Invalid extends Error {}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

function expression(src: unknown, where: string): string {
  if (typeof src === "number" || typeof src === "boolean") return String(src);
  if (typeof src !== "string") throw new Invalid(`${where} must be an expression in quotes.`);
  const parsed = parseExpression(src);
  if (!parsed.ok) throw new Invalid(`${where}: ${parsed.error}`);
  return src;
}

/** A filter: an expression, or `and` / `or` / `not` with a list of filters. */
export function readFilter(v: unknown, where: string): FilterNode {
  if (!isRecord(v)) return expression(v, where);
  const keys = Object.keys(v);
  const key = keys[0];
  if (keys.length !== 1 || !["and", "or", "not"].includes(key)) throw new Invalid(`${where} must be an expression or one of and, or, not (found ${keys.join(", ") || "nothing"}).`);
  const list = v[key];
  if (!Array.isArray(list)) throw new Invalid(`${where}.${key} must be a list of filters.`);
  return { [key]: list.map((x, i) => readFilter(x, `${where}.${key}[${i}]`)) } as FilterNode;
}

function sortKey(v: unknown, where: string): SortKey {
  if (!isRecord(v) || typeof v.property !== "string") throw new Invalid(`${where} needs a property.`);
  const dir = typeof v.direction === "string" ? v.direction.toUpperCase() : v.direction === undefined ? "ASC" : "";
  if (dir !== "ASC" && dir !== "DESC") throw new Invalid(`${where}.direction must be ASC or DESC.`);
  return { property: v.property, direction: dir };
}

function stringMap(v: unknown, where: string, check: (x: unknown, w: string) => string): Record<string, string> {
  if (v === undefined || v === null) return {};
  if (!isRecord(v)) throw new Invalid(`${where} must map names to values.`);
  return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, check(x, `${where}.${k}`)]));
}

function named(x: unknown, where: string): string {
  if (typeof x !== "string") throw new Invalid(`${where} must name a summary.`);
  return x;
}

function readView(v: unknown, i: number): BaseView {
  const where = `views[${i}]`;
  if (!isRecord(v)) throw new Invalid(`${where} must be a view with a type and a name.`);
  const view: BaseView = { type: typeof v.type === "string" ? v.type : "table", name: typeof v.name === "string" ? v.name : `View ${i + 1}` };
  if (v.filters !== undefined && v.filters !== null) view.filters = readFilter(v.filters, `${where}.filters`);
  if (v.order !== undefined) {
    if (!Array.isArray(v.order) || v.order.some((x) => typeof x !== "string")) throw new Invalid(`${where}.order must be a list of property names.`);
    view.order = v.order as string[];
  }
  if (v.sort !== undefined) {
    if (!Array.isArray(v.sort)) throw new Invalid(`${where}.sort must be a list of {property, direction}.`);
    view.sort = v.sort.map((s, j) => sortKey(s, `${where}.sort[${j}]`));
  }
  if (v.limit !== undefined) {
    if (typeof v.limit !== "number" || !Number.isInteger(v.limit) || v.limit < 1) throw new Invalid(`${where}.limit must be a whole number above 0.`);
    view.limit = v.limit;
  }
  if (v.groupBy !== undefined) view.groupBy = sortKey(v.groupBy, `${where}.groupBy`);
  if (v.summaries !== undefined) view.summaries = stringMap(v.summaries, `${where}.summaries`, named);
  return view;
}

/** Checks a parsed `.base` document; the error names the field. */
export function readBase(data: unknown): BaseRead {
  try {
    if (data === null || data === undefined) data = {};
    if (!isRecord(data)) throw new Invalid("A base must be a YAML mapping with filters, formulas, properties and views.");
    const properties: BaseSpec["properties"] = {};
    if (data.properties !== undefined && data.properties !== null) {
      if (!isRecord(data.properties)) throw new Invalid("properties must map property names to their settings.");
      for (const [k, x] of Object.entries(data.properties)) properties[k] = isRecord(x) && typeof x.displayName === "string" ? { displayName: x.displayName } : {};
    }
    if (data.views !== undefined && data.views !== null && !Array.isArray(data.views)) throw new Invalid("views must be a list of views.");
    return {
      ok: true,
      base: {
        filters: data.filters === undefined || data.filters === null ? undefined : readFilter(data.filters, "filters"),
        formulas: stringMap(data.formulas, "formulas", expression),
        properties,
        summaries: stringMap(data.summaries, "summaries", expression),
        views: ((data.views as unknown[] | undefined) ?? []).map(readView),
      },
    };
  } catch (err) {
    if (err instanceof Invalid) return { ok: false, error: err.message };
    throw err;
  }
}

/** A base's text parsed and checked. */
export function parseBaseText(text: string, yaml: YamlPort): BaseRead {
  let data: unknown;
  try {
    data = yaml.parse(text);
  } catch (err) {
    return { ok: false, error: `The base is not valid YAML: ${err instanceof Error ? err.message.split("\n")[0] : String(err)}` };
  }
  return readBase(data);
}

/** A filter in words: "all of: a; any of: b". */
export function filterWords(f: FilterNode): string {
  if (typeof f === "string") return f;
  const [key, list] = Object.entries(f)[0];
  const words = { and: "all of", or: "any of", not: "none of" }[key];
  return `${words} (${list.map(filterWords).join("; ")})`;
}

const sortWords = (s: SortKey) => `${s.property} ${s.direction === "DESC" ? "descending" : "ascending"}`;

/** The base in plain words, for base:read. */
export function describeBase(base: BaseSpec): string {
  const lines: string[] = [];
  lines.push(base.filters ? `Filters for every view: ${filterWords(base.filters)}.` : "No filters for every view: the base starts from every file in the vault.");
  const formulas = Object.entries(base.formulas);
  if (formulas.length) lines.push(`Formulas:\n${formulas.map(([k, v]) => `- formula.${k} = ${v}`).join("\n")}`);
  const props = Object.entries(base.properties).filter(([, p]) => p.displayName);
  if (props.length) lines.push(`Display names: ${props.map(([k, p]) => `${k} as "${p.displayName}"`).join(", ")}.`);
  const sums = Object.entries(base.summaries);
  if (sums.length) lines.push(`Summary formulas: ${sums.map(([k, v]) => `${k} = ${v}`).join("; ")}.`);
  lines.push(base.views.length ? `Views (${base.views.length}):` : "No views.");
  base.views.forEach((v, i) => {
    const parts = [`${i + 1}. ${v.type} "${v.name}"`];
    if (v.filters) parts.push(`filters: ${filterWords(v.filters)}`);
    if (v.order?.length) parts.push(`shows ${v.order.join(", ")}`);
    if (v.sort?.length) parts.push(`sorted by ${v.sort.map(sortWords).join(", then ")}`);
    if (v.groupBy) parts.push(`grouped by ${sortWords(v.groupBy)}`);
    if (v.limit) parts.push(`first ${v.limit} rows`);
    const s = Object.entries(v.summaries ?? {});
    if (s.length) parts.push(`summaries: ${s.map(([k, x]) => `${x} of ${k}`).join(", ")}`);
    lines.push(parts.join("; "));
  });
  return lines.join("\n");
}
