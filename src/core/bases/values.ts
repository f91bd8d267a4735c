/**
 * The values of Obsidian Bases expressions: JSON-like values plus dates, durations, links, files and regular
 * expressions. Dates are local time, as Obsidian shows them.
 */

/** A date; `time` false for a date without a time of day (`2026-03-01`, `today()`). */
export class BaseDate {
  constructor(
    /** Milliseconds since the epoch. */
    readonly ms: number,
    readonly time = true,
  ) {}
}

/** A duration: calendar months and days (as moment adds them) plus milliseconds. */
export class Duration {
  constructor(
    readonly months: number,
    readonly days: number,
    readonly ms: number,
  ) {}
}

/** A link to a note or URL. */
export class BaseLink {
  constructor(
    /** The link text without brackets, alias or heading. */
    readonly target: string,
    /** The vault path it resolves to; null when no file has that name. */
    readonly resolved: string | null,
    readonly display: string | null = null,
  ) {}
}

/** One file of the vault: a row of a base. */
export interface BaseRow {
  path: string;
  size: number;
  ctime: number;
  mtime: number;
  /** Note properties; null for files that are not notes. */
  frontmatter: Record<string, unknown> | null;
  /** Tags with their leading `#`, from the body and the properties. */
  tags: string[];
  /** Outgoing links (embeds included) with their resolved paths. */
  links: { target: string; resolved: string | null; embed: boolean }[];
}

/** A file object (`file`, `this.file`, `link.asFile()`). */
export class BaseFile {
  constructor(readonly row: BaseRow) {}
}

export type Value = null | string | number | boolean | BaseDate | Duration | BaseLink | BaseFile | RegExp | Value[] | { [key: string]: Value };

/** An expression that cannot be evaluated: one sentence. */
export class BaseError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "BaseError";
  }
}

export const isObject = (v: Value): v is { [key: string]: Value } =>
  typeof v === "object" && v !== null && !Array.isArray(v) && Object.getPrototypeOf(v) === Object.prototype;

/** The type name `isType()` compares with. */
export function typeOf(v: Value): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return "list";
  if (v instanceof BaseDate) return "date";
  if (v instanceof Duration) return "duration";
  if (v instanceof BaseLink) return "link";
  if (v instanceof BaseFile) return "file";
  if (v instanceof RegExp) return "regexp";
  return typeof v === "object" ? "object" : typeof v;
}

/** Empty as the Empty/Filled summaries and `isEmpty()` count it: null, "", [] and {}. */
export function isEmpty(v: Value): boolean {
  if (v === null || v === "") return true;
  if (Array.isArray(v)) return v.length === 0;
  return isObject(v) && Object.keys(v).length === 0;
}

/** JavaScript truthiness, as the Bases help says functions follow. */
export function truthy(v: Value): boolean {
  return typeof v === "object" ? v !== null : Boolean(v);
}

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,3}))?)?)?(Z|[+-]\d{2}:?\d{2})?$/;

/** `YYYY-MM-DD`, `YYYY-MM-DD HH:mm[:ss]` or ISO text as a date; null when it is not one. */
export function parseDate(text: string): BaseDate | null {
  const m = ISO_DATE.exec(text.trim());
  if (!m) return null;
  const [y, mo, d, h, mi, s] = m.slice(1, 7).map((x) => Number(x ?? 0));
  if (m[8]) {
    const t = Date.parse(text.trim().replace(" ", "T"));
    return Number.isNaN(t) ? null : new BaseDate(t);
  }
  const date = new Date(y, mo - 1, d, h, mi, s, Number((m[7] ?? "0").padEnd(3, "0")));
  return date.getMonth() === mo - 1 ? new BaseDate(date.getTime(), m[4] !== undefined) : null;
}

const UNITS: Record<string, [number, number, number]> = { y: [12, 0, 0], M: [1, 0, 0], w: [0, 7, 0], d: [0, 1, 0], h: [0, 0, 3600e3], m: [0, 0, 60e3], s: [0, 0, 1e3], ms: [0, 0, 1] };
const UNIT_NAMES: Record<string, string> = { year: "y", month: "M", week: "w", day: "d", hour: "h", minute: "m", second: "s", millisecond: "ms" };

/** "1M", "2 weeks", "-3d 4h" as a duration; null when it is not one. */
export function parseDuration(text: string): Duration | null {
  const parts = text.trim().match(/[+-]?\s*\d+(?:\.\d+)?\s*[A-Za-z]+/g);
  if (!parts || parts.join("").replace(/\s/g, "") !== text.replace(/\s/g, "")) return null;
  let [months, days, ms] = [0, 0, 0];
  for (const p of parts) {
    const m = /^([+-]?)\s*(\d+(?:\.\d+)?)\s*([A-Za-z]+)$/.exec(p);
    if (!m) return null;
    const word = m[3].length > 2 ? UNIT_NAMES[m[3].toLowerCase().replace(/s$/, "")] : m[3];
    const unit = UNITS[word ?? ""];
    if (!unit) return null;
    const n = Number(m[2]) * (m[1] === "-" ? -1 : 1);
    [months, days, ms] = [months + unit[0] * n, days + unit[1] * n, ms + unit[2] * n];
  }
  return new Duration(months, days, ms);
}

/** A date moved by a duration (times `sign`), calendar-wise for months and days. */
export function shiftDate(date: BaseDate, d: Duration, sign = 1): BaseDate {
  const t = new Date(date.ms);
  if (d.months) t.setMonth(t.getMonth() + sign * d.months);
  if (d.days) t.setDate(t.getDate() + sign * d.days);
  return new BaseDate(t.getTime() + sign * d.ms, date.time || d.ms % 864e5 !== 0);
}

/** A duration's length in milliseconds (a month as 30 days). */
export const durationMs = (d: Duration): number => (d.months * 30 + d.days) * 864e5 + d.ms;

const MONTHS = "January February March April May June July August September October November December".split(" ");
const DAYS = "Sunday Monday Tuesday Wednesday Thursday Friday Saturday".split(" ");
const TOKENS = /\[([^\]]*)\]|YYYY|YY|MMMM|MMM|MM|M|Do|DD|D|dddd|ddd|HH|H|hh|h|mm|m|ss|s|SSS|A|a|X|x/g;

/** A date in a moment.js format (the tokens above; other letters are kept as written). */
export function formatDate(ms: number, format: string): string {
  const t = new Date(ms);
  const pad = (n: number, w = 2) => String(n).padStart(w, "0");
  const [y, mo, d, h] = [t.getFullYear(), t.getMonth(), t.getDate(), t.getHours()];
  const h12 = h % 12 || 12;
  const th = d % 100 >= 11 && d % 100 <= 13 ? "th" : (["th", "st", "nd", "rd"][d % 10] ?? "th");
  const values: Record<string, string> = {
    YYYY: String(y), YY: pad(y % 100), MMMM: MONTHS[mo], MMM: MONTHS[mo].slice(0, 3), MM: pad(mo + 1), M: String(mo + 1),
    Do: `${d}${th}`, DD: pad(d), D: String(d), dddd: DAYS[t.getDay()], ddd: DAYS[t.getDay()].slice(0, 3), HH: pad(h), H: String(h),
    hh: pad(h12), h: String(h12), mm: pad(t.getMinutes()), m: String(t.getMinutes()), ss: pad(t.getSeconds()), s: String(t.getSeconds()),
    SSS: pad(t.getMilliseconds(), 3), A: h < 12 ? "AM" : "PM", a: h < 12 ? "am" : "pm", X: String(Math.floor(ms / 1000)), x: String(ms),
  };
  return format.replace(TOKENS, (token: string, literal?: string) => literal ?? values[token]);
}

/** The text a value shows as (`toString()`, concatenation, rows printed). */
export function toText(v: Value): string {
  if (v === null) return "";
  if (Array.isArray(v)) return v.map(toText).join(", ");
  if (v instanceof BaseDate) return formatDate(v.ms, v.time ? "YYYY-MM-DD HH:mm:ss" : "YYYY-MM-DD");
  if (v instanceof Duration) return String(durationMs(v));
  if (v instanceof BaseLink) return v.display ?? v.target;
  if (v instanceof BaseFile) return v.row.path;
  if (v instanceof RegExp) return String(v);
  if (isObject(v)) return JSON.stringify(toJson(v));
  return String(v);
}

/** A value as plain JSON (dates as ISO-like text, links as `[[target]]`), for tool results and the CLI. */
export function toJson(v: Value): unknown {
  if (Array.isArray(v)) return v.map(toJson);
  if (v instanceof BaseLink) return `[[${v.target}${v.display ? `|${v.display}` : ""}]]`;
  if (isObject(v)) return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, toJson(x)]));
  return v === null || typeof v !== "object" ? v : toText(v);
}

/** Path of the file a value names: a file, a resolved link, or a path text; null otherwise. */
export function pathOf(v: Value): string | null {
  if (v instanceof BaseFile) return v.row.path;
  if (v instanceof BaseLink) return v.resolved;
  return null;
}

/** `==` as Bases reads it: same type and value; dates by instant; links (and files) by the file they point to. */
export function equals(a: Value, b: Value): boolean {
  if (a === b) return true;
  if (a === null || b === null) return false;
  const pa = pathOf(a);
  const pb = pathOf(b);
  if (pa !== null || pb !== null) {
    if (pa !== null && pa === pb) return true;
    return a instanceof BaseLink && b instanceof BaseLink && a.resolved === null && b.resolved === null && a.target === b.target;
  }
  if (a instanceof BaseDate && b instanceof BaseDate) return a.ms === b.ms;
  if (a instanceof Duration && b instanceof Duration) return durationMs(a) === durationMs(b);
  if (a instanceof RegExp && b instanceof RegExp) return String(a) === String(b);
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => equals(x, b[i]));
  if (isObject(a) && isObject(b)) {
    const keys = Object.keys(a);
    return keys.length === Object.keys(b).length && keys.every((k) => k in b && equals(a[k], b[k]));
  }
  return false;
}

/** Order of two values for `<`, sorting and min/max: numbers, dates (or date texts), strings; null when not comparable. */
export function compare(a: Value, b: Value): number | null {
  if (typeof a === "number" && typeof b === "number") return a - b;
  if (typeof a === "boolean" && typeof b === "boolean") return Number(a) - Number(b);
  const da = a instanceof BaseDate ? a : typeof a === "string" && b instanceof BaseDate ? parseDate(a) : null;
  const db = b instanceof BaseDate ? b : typeof b === "string" && a instanceof BaseDate ? parseDate(b) : null;
  if (da && db) return da.ms - db.ms;
  if (a instanceof Duration && b instanceof Duration) return durationMs(a) - durationMs(b);
  if (typeof a === "string" && typeof b === "string") return a < b ? -1 : a > b ? 1 : 0;
  if ((a instanceof BaseLink || a instanceof BaseFile) && (b instanceof BaseLink || b instanceof BaseFile)) return compare(toText(a), toText(b));
  return null;
}
