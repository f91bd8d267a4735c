/** Evaluates a parsed Bases expression for one file: properties, operators, date arithmetic, functions and methods. */
import type { Expr } from "./expression";
import { callGlobal, callMethod, fileField } from "./functions";
import { noteProperty, type Scope } from "./scope";
import {
  BaseDate, BaseError, BaseFile, Duration, compare, durationMs, equals, isObject, parseDate, parseDuration, shiftDate, toText, truthy,
  typeOf, type Value,
} from "./values";

/** The value of `key` on a value (`.field` or `[index]`). */
function member(obj: Value, key: Value, scope: Scope): Value {
  if (obj instanceof BaseFile) return typeof key === "string" ? fileField(obj.row, key, scope) : null;
  if (Array.isArray(obj)) {
    if (key === "length") return obj.length;
    return typeof key === "number" ? (obj[key < 0 ? obj.length + key : key] ?? null) : null;
  }
  if (typeof obj === "string") return key === "length" ? obj.length : typeof key === "number" ? (obj[key] ?? null) : null;
  if (obj instanceof BaseDate && typeof key === "string") {
    const d = new Date(obj.ms);
    const fields: Record<string, number> = {
      year: d.getFullYear(), month: d.getMonth() + 1, day: d.getDate(), hour: d.getHours(), minute: d.getMinutes(), second: d.getSeconds(), millisecond: d.getMilliseconds(),
    };
    return fields[key] ?? null;
  }
  if (isObject(obj) && typeof key === "string") return obj[key] ?? null;
  return null;
}

function asDuration(v: Value): Duration | null {
  return v instanceof Duration ? v : typeof v === "string" ? parseDuration(v) : null;
}

const NUMERIC: Record<string, (a: number, b: number) => number> = { "-": (a, b) => a - b, "*": (a, b) => a * b, "/": (a, b) => a / b, "%": (a, b) => a % b };

/** `+ - * / %` over numbers, texts, dates and durations. */
function arithmetic(op: string, a: Value, b: Value): Value {
  if (op === "+" || op === "-") {
    const sign = op === "+" ? 1 : -1;
    if (a instanceof BaseDate) {
      if (op === "-" && (b instanceof BaseDate || (typeof b === "string" && parseDate(b)))) return a.ms - (b instanceof BaseDate ? b : parseDate(b)!).ms;
      const d = asDuration(b);
      if (d) return shiftDate(a, d, sign);
    }
    if (a instanceof Duration && b instanceof Duration) return new Duration(a.months + sign * b.months, a.days + sign * b.days, a.ms + sign * b.ms);
  }
  // A missing value stays missing through arithmetic; text on the left still joins with it.
  if (a === null) return null;
  if (op === "+" && (typeof a === "string" || typeof b === "string")) return toText(a) + toText(b);
  if (op === "+" && Array.isArray(a) && Array.isArray(b)) return [...a, ...b];
  if (b === null) return null;
  if (a instanceof Duration && typeof b === "number" && (op === "*" || op === "/")) {
    const f = op === "*" ? b : 1 / b;
    return new Duration(a.months * f, a.days * f, a.ms * f);
  }
  const x = a instanceof Duration ? durationMs(a) : a;
  const y = b instanceof Duration ? durationMs(b) : b;
  if (typeof x === "number" && typeof y === "number") return op === "+" ? x + y : NUMERIC[op](x, y);
  throw new BaseError(`"${op}" cannot combine a ${typeOf(a)} and a ${typeOf(b)}.`);
}

function binary(op: string, l: Value, r: Value): Value {
  switch (op) {
    case "==": return equals(l, r);
    case "!=": return !equals(l, r);
    case "<": case ">": case "<=": case ">=": {
      const c = compare(l, r);
      if (c === null) return false;
      return op === "<" ? c < 0 : op === ">" ? c > 0 : op === "<=" ? c <= 0 : c >= 0;
    }
    default: return arithmetic(op, l, r);
  }
}

/** List methods whose argument is an expression evaluated per element. */
const PER_ELEMENT = new Set(["filter", "map", "reduce"]);

function perElement(name: string, list: Value[], args: Expr[], scope: Scope): Value {
  const at = (value: Value, index: number, acc?: Value) => evaluate(args[0], { ...scope, locals: { ...scope.locals, value, index, ...(acc === undefined ? {} : { acc }) } });
  if (!args[0]) throw new BaseError(`${name}() needs an expression, e.g. ${name}(value > 2).`);
  if (name === "filter") return list.filter((v, i) => truthy(at(v, i)));
  if (name === "map") return list.map((v, i) => at(v, i));
  let acc: Value = args[1] ? evaluate(args[1], scope) : null;
  list.forEach((v, i) => (acc = at(v, i, acc)));
  return acc;
}

function call(fn: Expr, args: Expr[], scope: Scope): Value {
  if (fn.k === "id" && !(fn.name in scope.locals)) {
    if (fn.name === "if") {
      const cond = args[0] ? evaluate(args[0], scope) : null;
      const pick = truthy(cond) ? args[1] : args[2];
      return pick ? evaluate(pick, scope) : null;
    }
    return callGlobal(fn.name, args.map((a) => evaluate(a, scope)), scope);
  }
  if (fn.k === "get" && fn.key.k === "lit" && typeof fn.key.v === "string") {
    const self = evaluate(fn.obj, scope);
    if (PER_ELEMENT.has(fn.key.v) && Array.isArray(self)) return perElement(fn.key.v, self, args, scope);
    return callMethod(self, fn.key.v, args.map((a) => evaluate(a, scope)), scope);
  }
  throw new BaseError("Only functions and methods can be called.");
}

/** The value of an expression in a scope; throws a BaseError for a type error or an unknown function. */
export function evaluate(e: Expr, scope: Scope): Value {
  switch (e.k) {
    case "lit": return e.v;
    case "id":
      if (e.name in scope.locals) return scope.locals[e.name];
      if (e.name === "file") return scope.row ? new BaseFile(scope.row) : null;
      if (e.name === "this") return scope.self ? new BaseFile(scope.self) : null;
      return noteProperty(scope.row, e.name, scope);
    case "get": {
      if (e.obj.k === "id" && !(e.obj.name in scope.locals) && (e.obj.name === "note" || e.obj.name === "formula")) {
        const key = evaluate(e.key, scope);
        if (typeof key !== "string") return null;
        return e.obj.name === "note" ? noteProperty(scope.row, key, scope) : scope.formula(key);
      }
      return member(evaluate(e.obj, scope), evaluate(e.key, scope), scope);
    }
    case "call": return call(e.fn, e.args, scope);
    case "not": return !truthy(evaluate(e.x, scope));
    case "neg": {
      const v = evaluate(e.x, scope);
      if (typeof v !== "number") throw new BaseError(`"-" needs a number, not a ${typeOf(v)}.`);
      return -v;
    }
    case "bin": {
      const l = evaluate(e.l, scope);
      if (e.op === "&&") return truthy(l) ? evaluate(e.r, scope) : l;
      if (e.op === "||") return truthy(l) ? l : evaluate(e.r, scope);
      return binary(e.op, l, evaluate(e.r, scope));
    }
    case "list": return e.items.map((x) => evaluate(x, scope));
    case "obj": return Object.fromEntries(e.entries.map(([k, x]) => [k, evaluate(x, scope)]));
  }
}
