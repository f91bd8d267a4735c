/** Named rules under construction: llama.cpp-safe unique names, identical bodies shared. */
import type { GbnfExpr, GbnfGrammar } from "./gbnf-ast";
import { ref } from "./gbnf-ast";
import { printExpr } from "./gbnf-printer";

/** Maps any text to a llama.cpp rule name: letters, digits and single dashes only. */
export function ruleNameFor(text: string): string {
  const known = ruleNames.get(text);
  if (known !== undefined) return known;
  const name = ruleNameUncached(text);
  if (ruleNames.size > 10_000) ruleNames.clear();
  ruleNames.set(text, name);
  return name;
}

/** Hints recur (every object of a tool is "<tool>-object"), so their names are kept. */
const ruleNames = new Map<string, string>();

function ruleNameUncached(text: string): string {
  const cleaned = text
    .replace(/[^A-Za-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .toLowerCase();
  return cleaned === "" ? "r" : /^[0-9]/.test(cleaned) ? `r-${cleaned}` : cleaned;
}

export class RuleSet {
  /** Rule name → body, in definition order. */
  readonly rules = new Map<string, GbnfExpr>();
  /** Body key → name, so rules known to be identical are emitted once. */
  private byKey = new Map<string, string>();
  /** Next numeric suffix to try per derived name. */
  private suffixes = new Map<string, number>();
  /** Inline expressions built from these rules, by a key that determines them (see `remember`). */
  private derived = new Map<string, GbnfExpr | null>();

  /** A name not used yet, derived deterministically from the hint. */
  reserve(hint: string): string {
    // Names starting with "json-" belong to shared rules; derived names never take them.
    const derived = ruleNameFor(hint);
    const base = derived.startsWith("json-") ? `x-${derived}` : derived;
    let name = base;
    // Suffixes continue where the last reservation of this base stopped (no rescanning from 2).
    for (let i = this.suffixes.get(base) ?? 2; this.rules.has(name) || name === "root"; i++) {
      name = `${base}-${i}`;
      this.suffixes.set(base, i + 1);
    }
    this.rules.set(name, { kind: "seq", items: [] });
    return name;
  }

  /** Fills a reserved name (used for rules that are referenced before they are built). */
  define(name: string, body: GbnfExpr): void {
    this.rules.set(name, body);
  }

  /**
   * A reference to a new rule with this body. With a `key` (a string that determines the body, such
   * as "string|0|512"), a rule added earlier under the same key is reused instead.
   */
  add(hint: string, body: GbnfExpr, key?: string): GbnfExpr {
    if (key !== undefined) {
      const existing = this.byKey.get(key);
      if (existing) return ref(existing);
    }
    const name = this.reserve(hint);
    this.rules.set(name, body);
    if (key !== undefined) this.byKey.set(key, name);
    return ref(name);
  }

  /** The reference to a rule added earlier under this key, if any (saves rebuilding its body). */
  lookup(key: string): GbnfExpr | undefined {
    const name = this.byKey.get(key);
    return name === undefined ? undefined : ref(name);
  }

  /** The expression remembered under this key: undefined when none, null when it was "nothing". */
  recall(key: string): GbnfExpr | null | undefined {
    return this.derived.get(key);
  }

  /**
   * Remembers an inline expression (one printed where it is used, not a rule) under a key that
   * determines it, so a part built alike for another object is not built again. A rollback forgets
   * them all, since they may name rules it removes.
   */
  remember(key: string, e: GbnfExpr | null): void {
    this.derived.set(key, e);
  }

  /** How many rules exist so far. */
  get size(): number {
    return this.rules.size;
  }

  /** A point to roll back to: rules added after it can be removed again. */
  mark(): number {
    return this.rules.size;
  }

  /** Removes every rule added after the mark (a tool whose schema was refused leaves nothing behind). */
  rollback(mark: number): void {
    const names = [...this.rules.keys()].slice(mark);
    for (const n of names) this.rules.delete(n);
    if (names.length) this.derived.clear();
    const gone = new Set(names);
    for (const [k, n] of [...this.byKey]) if (gone.has(n)) this.byKey.delete(k);
  }

  /** True when a rule of this exact name exists. */
  has(name: string): boolean {
    return this.rules.has(name);
  }

  /** Defines a fixed-name shared rule once (names start with `json-`, e.g. `json-char`) and returns a reference. */
  shared(name: string, build: () => GbnfExpr): GbnfExpr {
    if (!this.rules.has(name)) this.rules.set(name, build());
    return ref(name);
  }

  /** The finished grammar; repeated groups that would expand into many llama.cpp rules become named rules first. */
  grammar(root: GbnfExpr): GbnfGrammar {
    // Rule bodies share subexpressions (a member written once, used by several member rules), so each
    // node is hoisted once; a node with nothing to hoist is kept as it is rather than copied.
    const hoisted = new Map<GbnfExpr, GbnfExpr>();
    const hoistedRoot = this.hoist(root, hoisted);
    for (const [n, b] of [...this.rules]) this.rules.set(n, this.hoist(b, hoisted));
    const rules = new Map<string, GbnfExpr>([["root", hoistedRoot]]);
    for (const [n, b] of this.rules) rules.set(n, b);
    return { rules, root: "root" };
  }

  /**
   * llama.cpp refuses a quantifier on a parenthesized group when the rules generated inside the group
   * times the repetition exceed 2000 ("exceeds sane defaults"). A group that itself holds a group or
   * a repetition is therefore moved into its own rule, which llama.cpp counts as one.
   */
  private hoist(e: GbnfExpr, done: Map<GbnfExpr, GbnfExpr>): GbnfExpr {
    if (e.kind !== "seq" && e.kind !== "alt" && e.kind !== "repeat") return e;
    const known = done.get(e);
    if (known !== undefined) return known;
    let out: GbnfExpr = e;
    switch (e.kind) {
      case "seq": {
        const items = this.hoistAll(e.items, done);
        if (items !== e.items) out = { kind: "seq", items };
        break;
      }
      case "alt": {
        const options = this.hoistAll(e.options, done);
        if (options !== e.options) out = { kind: "alt", options };
        break;
      }
      case "repeat": {
        let item = this.hoist(e.item, done);
        const printsAsGroup = item.kind === "alt" || (item.kind === "seq" && item.items.length > 1);
        // Groups written alike (an optional member repeated across objects) share one rule.
        if (printsAsGroup && generatesRules(item)) item = this.add("group", item, `group|${printExpr(item)}`);
        if (item !== e.item) out = { kind: "repeat", item, min: e.min, max: e.max };
        break;
      }
    }
    done.set(e, out);
    return out;
  }

  /** The hoisted list, or the list itself when no member changed. */
  private hoistAll(list: GbnfExpr[], done: Map<GbnfExpr, GbnfExpr>): GbnfExpr[] {
    let out: GbnfExpr[] | null = null;
    for (let i = 0; i < list.length; i++) {
      const h = this.hoist(list[i], done);
      if (out === null && h !== list[i]) out = list.slice(0, i);
      if (out !== null) out.push(h);
    }
    return out ?? list;
  }
}

/** True when llama.cpp would generate extra rules for nested groups or repetitions inside this expression. */
function generatesRules(e: GbnfExpr): boolean {
  switch (e.kind) {
    case "seq":
      return e.items.some((i) => i.kind === "alt" || i.kind === "repeat" || generatesRules(i));
    case "alt":
      return e.options.some((o) => o.kind === "alt" || o.kind === "repeat" || (o.kind === "seq" && generatesRules(o)));
    case "repeat":
      return true;
    default:
      return false;
  }
}
