/** What a Bases expression sees of the vault: the file it is evaluated for, the base, and note properties as values. */
import { BaseDate, BaseLink, parseDate, type BaseRow, type Value } from "./values";

/** What an expression sees: the file it is evaluated for, the base's formulas and the vault around it. */
export interface Scope {
  /** The file the expression is evaluated for; null for summaries. */
  row: BaseRow | null;
  /** The base file itself (`this`); null when there is none. */
  self: BaseRow | null;
  /** A formula's value for `row`. */
  formula(name: string): Value;
  /** `value`, `index`, `acc` inside list functions, `values` in summaries. */
  locals: Record<string, Value>;
  now: Date;
  /** The vault path a link text reaches from `from`; null when none. */
  resolve(link: string, from: string): string | null;
  /** A file of the vault by path. */
  fileAt(path: string): BaseRow | null;
  /** Paths of notes linking to a path. */
  backlinks(path: string): string[];
}

/** A note property as a Bases value: `[[links]]` become links, ISO date texts dates. */
export function propertyValue(v: unknown, scope: Scope, from: string): Value {
  if (v === undefined || v === null) return null;
  if (Array.isArray(v)) return v.map((x) => propertyValue(x, scope, from));
  if (v instanceof Date) return new BaseDate(v.getTime());
  if (typeof v === "string") {
    const link = /^!?\[\[([^\]|#]*)(?:#[^\]|]*)?(?:\|([^\]]*))?\]\]$/.exec(v.trim());
    if (link) return new BaseLink(link[1], scope.resolve(link[1], from), link[2] ?? null);
    return parseDate(v) ?? v;
  }
  if (typeof v === "object") return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, propertyValue(x, scope, from)]));
  return typeof v === "number" || typeof v === "boolean" ? v : null;
}

/** The note property `name` of a file. */
export function noteProperty(row: BaseRow | null, name: string, scope: Scope): Value {
  const fm = row?.frontmatter;
  return fm && Object.prototype.hasOwnProperty.call(fm, name) ? propertyValue(fm[name], scope, row.path) : null;
}

