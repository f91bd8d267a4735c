/**
 * Random instances of a schema, drawn from the domain the grammar claims (lengths and counts within
 * the caps, numbers without exponents, canonical JSON). Candidates are not trusted: callers keep only
 * those ajv validates.
 */
import { parseRegex, type RegexNode } from "../../../../src/core/grammar/regex";
import { patternLengths } from "../../../../src/core/grammar/json-string-pattern";
import { FORMAT_PATTERNS } from "../../../../src/core/grammar/formats";
import { TRICKY_STRINGS } from "./schema-arbitrary";

type Schema = Record<string, unknown>;

/** The caps the grammar was compiled with. */
export interface InstanceCaps {
  maxStringChars: number;
  maxItems: number;
  maxKeys: number;
  recursionDepth: number;
}

const CHAR_POOL = [..."abcxyzABZ019 _-./:@#", '"', "\\", "\n", "\t", "\u0001", "\u001f", "\u007f", "é", "ß", "中", "€", "😀", "𝄞", "\u2028"];

class Failed extends Error {}

export class InstanceGenerator {
  private refDepth = new Map<string, number>();

  constructor(
    private readonly root: Schema | boolean,
    private readonly caps: InstanceCaps,
    private readonly random: () => number,
  ) {}

  /** One candidate, or undefined when the walk hit an impossible branch. */
  next(): unknown {
    this.refDepth.clear();
    try {
      return this.value(this.root, this.caps.recursionDepth);
    } catch (err) {
      if (err instanceof Failed) return undefined;
      throw err;
    }
  }

  private int(lo: number, hi: number): number {
    return lo + Math.floor(this.random() * (hi - lo + 1));
  }

  private pick<T>(xs: readonly T[]): T {
    if (xs.length === 0) throw new Failed();
    return xs[this.int(0, xs.length - 1)];
  }

  private count(lo: number, hi: number): number {
    const r = this.random();
    if (r < 0.2) return lo;
    if (r < 0.35) return hi;
    return this.int(lo, hi);
  }

  private any(depth: number): unknown {
    const kinds = depth > 0 ? ["s", "n", "b", "z", "o", "a"] : ["s", "n", "b", "z"];
    switch (this.pick(kinds)) {
      case "s":
        return this.text(0, Math.min(this.caps.maxStringChars, 6));
      case "n":
        return this.random() < 0.5 ? this.int(-1000, 1000) : Number((this.random() * 200 - 100).toFixed(3));
      case "b":
        return this.random() < 0.5;
      case "z":
        return null;
      case "o": {
        const o: Record<string, unknown> = {};
        const n = this.count(0, Math.min(this.caps.maxKeys, 3));
        for (let i = 0; i < n; i++) o[this.pick(TRICKY_STRINGS)] = this.any(depth - 1);
        return o;
      }
      default:
        return Array.from({ length: this.count(0, Math.min(this.caps.maxItems, 3)) }, () => this.any(depth - 1));
    }
  }

  private text(min: number, max: number): string {
    const n = this.count(min, max);
    let s = "";
    for (let i = 0; i < n; i++) s += this.pick(CHAR_POOL);
    return s;
  }

  private resolve(ref: string): Schema | boolean {
    let node: unknown = this.root;
    for (const part of ref.slice(2).split("/")) node = (node as Schema)[part];
    return node as Schema | boolean;
  }

  private value(s: Schema | boolean, anyDepth: number): unknown {
    if (s === true) return this.any(anyDepth);
    if (s === false) throw new Failed();
    if (typeof s.$ref === "string") {
      const d = this.refDepth.get(s.$ref) ?? 0;
      if (d >= this.caps.recursionDepth) throw new Failed();
      this.refDepth.set(s.$ref, d + 1);
      try {
        return this.value(this.resolve(s.$ref), anyDepth);
      } finally {
        this.refDepth.set(s.$ref, d);
      }
    }
    if (s.if !== undefined && (s.then !== undefined || s.else !== undefined)) {
      // One of the two outcomes, merged into the rest (ajv decides whether the draw fits).
      const { if: test, then, else: otherwise, ...rest } = s;
      // A draw whose outcome disagrees with the test is drawn again (it would fit neither case's caps).
      for (let attempt = 0; attempt < 8; attempt++) {
        const taken = this.random() < 0.5;
        const branch = (taken ? then : otherwise) as Schema | boolean | undefined;
        const value = this.value(mergeLoosely(rest, branch ?? true), anyDepth);
        if (simpleTest(test, value) !== !taken) return value;
      }
      throw new Failed();
    }
    const union = (s.anyOf ?? s.oneOf) as Array<Schema | boolean> | undefined;
    if (union) {
      const order = [...union].sort(() => this.random() - 0.5);
      for (const b of order) {
        try {
          return this.value(b, anyDepth);
        } catch (err) {
          if (!(err instanceof Failed)) throw err;
        }
      }
      throw new Failed();
    }
    if (Array.isArray(s.allOf)) {
      const { allOf, ...own } = s;
      for (let attempt = 0; attempt < 8; attempt++) {
        const outcomes: Array<{ test: unknown; taken: boolean }> = [];
        const parts = [own, ...(allOf as Schema[])].map((p) => {
          if (p.if === undefined) return p;
          const { if: test, then, else: otherwise, ...rest } = p;
          const taken = this.random() < 0.5;
          outcomes.push({ test, taken });
          const merged = mergeLoosely(rest, ((taken ? then : otherwise) as Schema | boolean | undefined) ?? true);
          return typeof merged === "boolean" ? {} : merged;
        });
        const value = this.objectOfParts(parts, anyDepth);
        if (!outcomes.some(({ test, taken }) => simpleTest(test, value) === !taken)) return value;
      }
      throw new Failed();
    }
    return this.plain(s, anyDepth);
  }

  private objectOfParts(parts: Schema[], anyDepth: number): unknown {
    return this.value(
      {
        type: "object",
        properties: Object.assign({}, ...parts.map((p) => p.properties ?? {})),
        required: parts.flatMap((p) => (p.required as string[]) ?? []),
        additionalProperties: parts.some((p) => p.additionalProperties === false) ? false : true,
      },
      anyDepth,
    );
  }

  private plain(s: Schema, anyDepth: number): unknown {
    if (s.const !== undefined) return s.const;
    if (Array.isArray(s.enum)) return this.pick(s.enum);
    const types = s.type === undefined ? (Object.keys(s).some((k) => k !== "description") ? ["string", "number", "boolean", "null", "object", "array"] : null) : Array.isArray(s.type) ? (s.type as string[]) : [s.type as string];
    if (types === null) return this.any(anyDepth);
    switch (this.pick(types)) {
      case "string":
        return this.string(s);
      case "integer":
        return this.integer(s);
      case "number":
        return this.number(s);
      case "boolean":
        return this.random() < 0.5;
      case "null":
        return null;
      case "array":
        return this.array(s, anyDepth);
      case "object":
        return this.object(s, anyDepth);
      default:
        throw new Failed();
    }
  }

  private string(s: Schema): string {
    const min = (s.minLength as number | undefined) ?? 0;
    // The grammar's domain: a pattern or format bounds its own length, else the default cap applies.
    const source = typeof s.format === "string" ? FORMAT_PATTERNS[s.format] : (s.pattern as string | undefined);
    const own = source === undefined ? null : patternLengths(source);
    const max = (s.maxLength as number | undefined) ?? (own && own[1] !== Infinity ? own[1] : Math.max(this.caps.maxStringChars, min, own ? own[0] : 0));
    // Formats draw until a value fits the lengths (a zone like "+05:30" may not fit a small cap).
    const fits = (draw: () => string) => {
      for (let tries = 0; tries < 20; tries++) {
        const text = draw();
        const n = [...text].length;
        if (n <= max && n >= min) return text;
      }
      throw new Failed();
    };
    if (s.format === "date") return fits(() => this.date());
    if (s.format === "time") return fits(() => this.time());
    if (s.format === "date-time") return fits(() => `${this.date()}T${this.time()}`);
    if (s.format === "uuid") return Array.from({ length: 32 }, () => this.pick([..."0123456789abcdefABCDEF"])).join("").replace(/^(.{8})(.{4})(.{4})(.{4})/, "$1-$2-$3-$4-");
    if (typeof s.pattern === "string") {
      for (let tries = 0; tries < 20; tries++) {
        const text = this.fromRegex(s.pattern);
        const len = [...text].length;
        if (len >= min && len <= max && new RegExp(s.pattern, "u").test(text)) return text;
      }
      throw new Failed();
    }
    return this.text(min, Math.min(max, min + 30));
  }

  private fromRegex(pattern: string): string {
    const branch = this.pick(parseRegex(pattern));
    const out: string[] = [];
    if (!branch.start && this.random() < 0.5) out.push(this.text(0, 2));
    this.walk(branch.node, out);
    if (!branch.end && this.random() < 0.5) out.push(this.text(0, 2));
    return out.join("");
  }

  private walk(n: RegexNode, out: string[]): void {
    switch (n.kind) {
      case "set": {
        const candidates = CHAR_POOL.map((c) => c.codePointAt(0)!).filter((cp) => n.ranges.some(([a, b]) => cp >= a && cp <= b));
        if (candidates.length && this.random() < 0.5) out.push(String.fromCodePoint(this.pick(candidates)));
        else {
          const [a, b] = this.pick(n.ranges);
          let cp = this.int(a, Math.min(b, a + 300));
          if (cp >= 0xd800 && cp <= 0xdfff) cp = 0x41;
          out.push(String.fromCodePoint(cp));
        }
        return;
      }
      case "seq":
        n.items.forEach((i) => this.walk(i, out));
        return;
      case "alt":
        this.walk(this.pick(n.options), out);
        return;
      case "repeat": {
        const k = this.count(n.min, n.max === Infinity ? n.min + 5 : n.max);
        for (let i = 0; i < k; i++) this.walk(n.item, out);
      }
    }
  }

  private date(): string {
    const y = this.pick([1900, 2000, 2023, 2024, 1999, this.int(0, 9999)]);
    const m = this.int(1, 12);
    const days = [31, y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][m - 1];
    const d = this.random() < 0.3 ? days : this.int(1, days);
    return `${String(y).padStart(4, "0")}-${String(m).padStart(2, "0")}-${String(d).padStart(2, "0")}`;
  }

  private time(): string {
    const p = (n: number) => String(n).padStart(2, "0");
    const frac = this.random() < 0.3 ? `.${this.int(0, 999)}` : "";
    const zone = this.pick(["Z", "z", "+01:00", "-05:30", "+0530", "+02"]);
    return `${p(this.int(0, 23))}:${p(this.int(0, 59))}:${p(this.int(0, 59))}${frac}${zone}`;
  }

  private integer(s: Schema): number {
    let lo = -1e15;
    let hi = 1e15;
    if (typeof s.minimum === "number") lo = Math.max(lo, Math.ceil(s.minimum));
    if (typeof s.exclusiveMinimum === "number") lo = Math.max(lo, Math.floor(s.exclusiveMinimum) + 1);
    if (typeof s.maximum === "number") hi = Math.min(hi, Math.floor(s.maximum));
    if (typeof s.exclusiveMaximum === "number") hi = Math.min(hi, Math.ceil(s.exclusiveMaximum) - 1);
    if (lo > hi) throw new Failed();
    const r = this.random();
    if (r < 0.25) return lo;
    if (r < 0.5) return hi;
    if (r < 0.6 && lo <= 0 && hi >= 0) return 0;
    return lo + Math.floor(this.random() * (hi - lo + 1));
  }

  private number(s: Schema): number {
    let lo = -1e9;
    let hi = 1e9;
    let loOpen = false;
    let hiOpen = false;
    if (typeof s.minimum === "number" && s.minimum >= lo) lo = s.minimum;
    if (typeof s.exclusiveMinimum === "number" && s.exclusiveMinimum >= lo) [lo, loOpen] = [s.exclusiveMinimum, true];
    if (typeof s.maximum === "number" && s.maximum <= hi) hi = s.maximum;
    if (typeof s.exclusiveMaximum === "number" && s.exclusiveMaximum <= hi) [hi, hiOpen] = [s.exclusiveMaximum, true];
    // At most 6 decimals: JSON.stringify then writes no exponent and no long binary tails.
    const digits = this.random() < 0.5 ? this.int(0, 2) : 6;
    const step = 10 ** -digits;
    const round = (v: number) => Number(v.toFixed(digits));
    let first = round(Math.ceil(lo / step) * step);
    if (first < lo || (loOpen && first <= lo)) first = round(first + step);
    let last = round(Math.floor(hi / step) * step);
    if (last > hi || (hiOpen && last >= hi)) last = round(last - step);
    if (first > last) throw new Failed();
    const r = this.random();
    const out = r < 0.25 ? first : r < 0.5 ? last : round(first + Math.floor(this.random() * ((last - first) / step + 1)) * step);
    const inside =
      (typeof s.minimum !== "number" || out >= s.minimum) &&
      (typeof s.maximum !== "number" || out <= s.maximum) &&
      (typeof s.exclusiveMinimum !== "number" || out > s.exclusiveMinimum) &&
      (typeof s.exclusiveMaximum !== "number" || out < s.exclusiveMaximum);
    if (!inside) throw new Failed();
    return out;
  }

  private array(s: Schema, anyDepth: number): unknown[] {
    const prefix = (s.prefixItems as Array<Schema | boolean> | undefined) ?? [];
    const min = (s.minItems as number | undefined) ?? 0;
    const items = (s.items ?? true) as Schema | boolean;
    const max = (s.maxItems as number | undefined) ?? (items === false ? prefix.length : Math.max(this.caps.maxItems, min));
    const n = this.count(min, Math.min(max, min + 4));
    const out: unknown[] = [];
    for (let i = 0; i < n; i++) out.push(this.value(i < prefix.length ? prefix[i] : items, anyDepth - 1));
    return out;
  }

  private object(s: Schema, anyDepth: number): Record<string, unknown> {
    const props = (s.properties as Record<string, Schema | boolean> | undefined) ?? {};
    const required = (s.required as string[] | undefined) ?? [];
    const additional = (s.additionalProperties ?? true) as Schema | boolean;
    const out: Record<string, unknown> = {};
    // Declared order: required first, then optional, as the grammar writes them.
    const declared = Object.keys(props);
    const order = [...declared.filter((k) => required.includes(k)), ...declared.filter((k) => !required.includes(k))];
    for (const k of order) {
      if (required.includes(k)) out[k] = this.value(props[k], anyDepth - 1);
      else if (this.random() < 0.5) {
        try {
          out[k] = this.value(props[k], anyDepth - 1);
        } catch (err) {
          if (!(err instanceof Failed)) throw err;
        }
      }
    }
    if (additional !== false && this.random() < 0.5) {
      const n = this.int(1, Math.min(2, this.caps.maxKeys));
      for (let i = 0; i < n; i++) {
        const key = this.pick(["extra", "zz", "ключ", "k\"q", "pa", "nam", "names", "x y"]);
        if (key in props || key in out) continue;
        out[key] = this.value(additional, anyDepth - 1);
      }
    }
    return out;
  }
}

/** Two schemas' keywords in one node (object members and required keys joined); a draft, not a conjunction. */
function mergeLoosely(a: Schema, b: Schema | boolean): Schema | boolean {
  if (b === true) return a;
  if (b === false) return false;
  return {
    ...a,
    ...b,
    properties: { ...((a.properties) ?? {}), ...((b.properties) ?? {}) },
    required: [...((a.required as string[]) ?? []), ...((b.required as string[]) ?? [])],
  };
}

/** The outcome of an if of the simple forms the arbitrary draws (a type, or constants on one property), or undefined. */
function simpleTest(test: unknown, value: unknown): boolean | undefined {
  if (test === null || typeof test !== "object") return undefined;
  const t = test as Schema;
  if (Array.isArray(t.anyOf)) {
    const outcomes = t.anyOf.map((b) => simpleTest(b, value));
    return outcomes.some((o) => o === undefined) ? undefined : outcomes.some(Boolean);
  }
  if (t.type === "string" && Object.keys(t).length === 1) return typeof value === "string";
  if (t.properties === undefined) return undefined;
  if (value === null || typeof value !== "object" || Array.isArray(value)) return true;
  const obj = value as Schema;
  for (const [k, p] of Object.entries(t.properties as Schema)) {
    const ps = p as Schema;
    const values = ps.const !== undefined ? [ps.const] : (ps.enum as unknown[] | undefined);
    if (!values) return undefined;
    if (k in obj) {
      if (!values.includes(obj[k])) return false;
    } else if (Array.isArray(t.required) && t.required.includes(k)) return false;
  }
  return true;
}
