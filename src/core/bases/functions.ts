/**
 * The functions of the Bases help's Functions page that can be computed exactly headlessly, by the type they apply
 * to. `filter`, `map`, `reduce` and `if` take unevaluated arguments and live in the evaluator.
 */
import { noteProperty, type Scope } from "./scope";
import {
  BaseDate, BaseError, BaseFile, BaseLink, compare, Duration, durationMs, equals, formatDate, isEmpty, isObject, parseDate, parseDuration, pathOf,
  toText, truthy, typeOf, type BaseRow, type Value,
} from "./values";

/** Functions Obsidian documents that this evaluator refuses, with the sentence that says why. */
export const REFUSED: Record<string, string> = {
  html: "The Bases function html() is not supported here: it renders HTML in Obsidian's view, which a headless query has not.",
  image: "The Bases function image() is not supported here: it renders an image in Obsidian's view, which a headless query has not.",
  icon: "The Bases function icon() is not supported here: it renders an icon in Obsidian's view, which a headless query has not.",
  relative: "The Bases function relative() is not supported here: its wording (\"3 days ago\") depends on moment.js's rounding, which is not reproduced exactly.",
};

/** The supported functions by the type they apply to (documented in docs/vault-files.md). */
export const SUPPORTED = {
  global: ["date", "duration", "escapeHTML", "file", "if", "link", "list", "max", "min", "now", "number", "random", "today"],
  any: ["isEmpty", "isTruthy", "isType", "toString"],
  string: ["contains", "containsAll", "containsAny", "endsWith", "lower", "replace", "repeat", "reverse", "slice", "split", "startsWith", "title", "trim", "length"],
  number: ["abs", "ceil", "floor", "round", "toFixed"],
  list: ["contains", "containsAll", "containsAny", "filter", "flat", "join", "map", "mean", "reduce", "reverse", "slice", "sort", "unique", "length"],
  date: ["date", "format", "time", "year", "month", "day", "hour", "minute", "second", "millisecond"],
  link: ["asFile", "linksTo"],
  file: ["asLink", "hasLink", "hasProperty", "hasTag", "inFolder"],
  object: ["keys", "values"],
  regexp: ["matches"],
};

const num = (v: Value, what: string): number => {
  if (typeof v !== "number") throw new BaseError(`${what} needs a number, not a ${typeOf(v)}.`);
  return v;
};
const str = (v: Value, what: string): string => {
  if (typeof v !== "string") throw new BaseError(`${what} needs a text, not a ${typeOf(v)}.`);
  return v;
};

function dayStart(ms: number): BaseDate {
  const d = new Date(ms);
  return new BaseDate(new Date(d.getFullYear(), d.getMonth(), d.getDate()).getTime(), false);
}

function fileOf(v: Value, scope: Scope): BaseRow | null {
  if (v instanceof BaseFile) return v.row;
  const path = v instanceof BaseLink ? v.resolved : typeof v === "string" ? (scope.fileAt(v) ? v : scope.resolve(v.replace(/^\[\[|\]\]$/g, ""), scope.row?.path ?? "")) : null;
  return path ? scope.fileAt(path) : null;
}

function linkTo(v: Value, display: Value, scope: Scope): BaseLink {
  if (v instanceof BaseFile) return new BaseLink(v.row.path, v.row.path, display === null ? null : toText(display));
  if (v instanceof BaseLink) return new BaseLink(v.target, v.resolved, display === null ? v.display : toText(display));
  const text = str(v, "link()").replace(/^!?\[\[|\]\]$/g, "");
  const [target, alias] = text.split("|");
  const isUrl = /^[a-z][a-z0-9+.-]*:/i.test(target);
  return new BaseLink(target, isUrl ? null : scope.resolve(target.replace(/#.*$/, ""), scope.row?.path ?? ""), display === null ? (alias ?? null) : toText(display));
}

export function callGlobal(name: string, a: Value[], scope: Scope): Value {
  switch (name) {
    case "date": {
      if (a[0] instanceof BaseDate) return a[0];
      const d = parseDate(str(a[0], "date()"));
      if (!d) throw new BaseError(`date() cannot read "${a[0] as string}"; write it as YYYY-MM-DD or YYYY-MM-DD HH:mm:ss.`);
      return d;
    }
    case "duration": {
      const d = parseDuration(str(a[0], "duration()"));
      if (!d) throw new BaseError(`duration() cannot read "${a[0] as string}"; write it as "1d", "2 weeks" or "3h".`);
      return d;
    }
    case "escapeHTML": return str(a[0], "escapeHTML()").replace(/[&<>"']/g, (c) => `&${({ "&": "amp", "<": "lt", ">": "gt", '"': "quot", "'": "#39" } as Record<string, string>)[c]};`);
    case "file": {
      const row = fileOf(a[0], scope);
      return row ? new BaseFile(row) : null;
    }
    case "link": return linkTo(a[0], a[1] ?? null, scope);
    case "list": return Array.isArray(a[0]) ? a[0] : [a[0] ?? null];
    case "max": case "min": return a.length ? (Math[name])(...a.map((v) => num(v, `${name}()`))) : null;
    case "now": return new BaseDate(scope.now.getTime());
    case "today": return dayStart(scope.now.getTime());
    case "number": return toNumber(a[0] ?? null);
    case "random": return Math.random();
  }
  throw new BaseError(REFUSED[name] ?? `${name}() is not a Bases function.`);
}

function toNumber(v: Value): Value {
  if (v === null || typeof v === "number") return v;
  if (typeof v === "boolean") return v ? 1 : 0;
  if (v instanceof BaseDate) return v.ms;
  if (v instanceof Duration) return durationMs(v);
  const n = typeof v === "string" && v.trim() !== "" ? Number(v) : NaN;
  if (Number.isNaN(n)) throw new BaseError(`number() cannot read "${toText(v)}" as a number.`);
  return n;
}

/** A file's field (`file.name`, `file.tags`...) or, for any other name, its note property. */
export function fileField(row: BaseRow, key: string, scope: Scope): Value {
  const name = row.path.split("/").pop() ?? row.path;
  const dot = name.lastIndexOf(".");
  const links = (embed: boolean) => row.links.filter((l) => l.embed === embed).map((l) => new BaseLink(l.target, l.resolved));
  switch (key) {
    case "file": return new BaseFile(row);
    case "name": return name;
    case "basename": return dot > 0 ? name.slice(0, dot) : name;
    case "path": return row.path;
    case "folder": return row.path.includes("/") ? row.path.slice(0, row.path.lastIndexOf("/")) : "/";
    case "ext": return dot > 0 ? name.slice(dot + 1) : "";
    case "size": return row.size;
    case "ctime": return new BaseDate(row.ctime);
    case "mtime": return new BaseDate(row.mtime);
    case "properties": return Object.fromEntries(Object.keys(row.frontmatter ?? {}).map((k) => [k, noteProperty(row, k, scope)]));
    case "tags": return [...row.tags];
    case "links": return links(false);
    case "embeds": return links(true);
    case "backlinks": return scope.backlinks(row.path).map((p) => new BaseLink(p, p));
  }
  return noteProperty(row, key, scope);
}

function fileMethod(row: BaseRow, name: string, a: Value[], scope: Scope): Value {
  switch (name) {
    case "asLink": return linkTo(new BaseFile(row), a[0] ?? null, scope);
    case "hasProperty": return !!row.frontmatter && Object.prototype.hasOwnProperty.call(row.frontmatter, str(a[0], "hasProperty()"));
    case "inFolder": {
      const folder = str(a[0], "inFolder()").replace(/^\/+|\/+$/g, "");
      return folder === "" || row.path.startsWith(`${folder}/`);
    }
    case "hasTag": {
      const tags = row.tags.map((t) => t.replace(/^#/, "").toLowerCase());
      return a.some((v) => {
        const want = str(v, "hasTag()").replace(/^#/, "").toLowerCase();
        return tags.some((t) => t === want || t.startsWith(`${want}/`));
      });
    }
    case "hasLink": {
      const other = a[0] ?? null;
      const path = typeof other === "string" ? (scope.fileAt(other) ? other : scope.resolve(other.replace(/^\[\[|\]\]$/g, ""), row.path)) : pathOf(other);
      return row.links.some((l) => (path !== null ? l.resolved === path : typeof other === "string" && l.target === other));
    }
  }
  return undefined as unknown as Value;
}

function listMethod(list: Value[], name: string, a: Value[]): Value {
  const has = (v: Value) => list.some((x) => equals(x, v));
  switch (name) {
    case "contains": return has(a[0] ?? null);
    case "containsAll": return a.every(has);
    case "containsAny": return a.some(has);
    case "mean": {
      const n = list.filter((x): x is number => typeof x === "number");
      return n.length ? n.reduce((t, x) => t + x, 0) / n.length : null;
    }
    case "flat": return list.flat<Value[]>();
    case "join": return list.map(toText).join(a.length ? toText(a[0]) : ",");
    case "reverse": return [...list].reverse();
    case "slice": return list.slice(a[0] === undefined ? undefined : num(a[0], "slice()"), a[1] === undefined ? undefined : num(a[1], "slice()"));
    case "sort": return [...list].sort((x, y) => compare(x, y) ?? (toText(x) < toText(y) ? -1 : toText(x) > toText(y) ? 1 : 0));
    case "unique": return list.filter((x, i) => list.findIndex((y) => equals(x, y)) === i);
  }
  return undefined as unknown as Value;
}

function stringMethod(s: string, name: string, a: Value[]): Value {
  const texts = () => a.map((v) => str(v, `${name}()`));
  switch (name) {
    case "contains": return s.includes(str(a[0], "contains()"));
    case "containsAll": return texts().every((t) => s.includes(t));
    case "containsAny": return texts().some((t) => s.includes(t));
    case "endsWith": return s.endsWith(str(a[0], "endsWith()"));
    case "startsWith": return s.startsWith(str(a[0], "startsWith()"));
    case "lower": return s.toLowerCase();
    case "title": return s.replace(/(^|\s)(\S)/g, (_m, sp: string, c: string) => sp + c.toUpperCase());
    case "trim": return s.trim();
    case "repeat": return s.repeat(num(a[0], "repeat()"));
    case "reverse": return [...s].reverse().join("");
    case "slice": return s.slice(num(a[0], "slice()"), a[1] === undefined ? undefined : num(a[1], "slice()"));
    case "replace": {
      const p = a[0];
      const by = str(a[1], "replace()");
      return p instanceof RegExp ? s.replace(p, by) : s.split(str(p, "replace()")).join(by);
    }
    case "split": {
      const sep = a[0] instanceof RegExp ? a[0] : str(a[0], "split()");
      return s.split(sep, a[1] === undefined ? undefined : num(a[1], "split()"));
    }
  }
  return undefined as unknown as Value;
}

function typedMethod(self: Value, name: string, a: Value[], scope: Scope): Value {
  if (typeof self === "string") return stringMethod(self, name, a);
  if (Array.isArray(self)) return listMethod(self, name, a);
  if (self instanceof BaseFile) return fileMethod(self.row, name, a, scope);
  if (typeof self === "number") {
    switch (name) {
      case "abs": case "ceil": case "floor": return Math[name](self);
      case "round": {
        const f = 10 ** (a[0] === undefined ? 0 : num(a[0], "round()"));
        return Math.round(self * f) / f;
      }
      case "toFixed": return self.toFixed(num(a[0] ?? 0, "toFixed()"));
    }
  }
  if (self instanceof BaseDate) {
    if (name === "date") return dayStart(self.ms);
    if (name === "format") return formatDate(self.ms, str(a[0], "format()"));
    if (name === "time") return formatDate(self.ms, "HH:mm:ss");
  }
  if (self instanceof BaseLink) {
    const row = self.resolved ? scope.fileAt(self.resolved) : null;
    if (name === "asFile") return row ? new BaseFile(row) : null;
    if (name === "linksTo") return !!row && fileMethod(row, "hasLink", a, scope) === true;
  }
  if (isObject(self) && (name === "keys" || name === "values")) return name === "keys" ? Object.keys(self) : Object.values(self);
  if (self instanceof RegExp && name === "matches") {
    self.lastIndex = 0;
    return self.test(str(a[0], "matches()"));
  }
  return undefined as unknown as Value;
}

/** `value.name(args)`: the type's method, else one that works on any value. */
export function callMethod(self: Value, name: string, a: Value[], scope: Scope): Value {
  switch (name) {
    case "isEmpty": return isEmpty(self);
    case "isTruthy": return truthy(self);
    case "isType": return typeOf(self) === str(a[0], "isType()").toLowerCase();
    case "toString": return toText(self);
  }
  if (REFUSED[name]) throw new BaseError(REFUSED[name]);
  if (!Object.values(SUPPORTED).some((names) => names.includes(name))) throw new BaseError(`${name}() is not a Bases function.`);
  if (self === null) return null;
  const out = typedMethod(self, name, a, scope);
  if (out === undefined) throw new BaseError(`${name}() is not a Bases function for a ${typeOf(self)}.`);
  return out;
}
