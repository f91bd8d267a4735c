/** The GBNF model shared by the compiler (builds it), the printer, the parser and the recognizer. */

/** One GBNF expression. Character classes hold inclusive code point ranges. */
export type GbnfExpr =
  | { kind: "literal"; text: string }
  | { kind: "class"; negated: boolean; ranges: Array<[number, number]> }
  | { kind: "any" }
  | { kind: "ref"; name: string }
  | { kind: "seq"; items: GbnfExpr[] }
  | { kind: "alt"; options: GbnfExpr[] }
  | { kind: "repeat"; item: GbnfExpr; min: number; max: number };

/** A grammar: named rules, the start rule is `root`. */
export interface GbnfGrammar {
  /** Rule name → body, in definition order. */
  rules: Map<string, GbnfExpr>;
  /** The start rule's name. */
  root: string;
}

export const EMPTY: GbnfExpr = { kind: "seq", items: [] };

export function lit(text: string): GbnfExpr {
  return text === "" ? EMPTY : { kind: "literal", text };
}

export function cls(ranges: Array<[number, number]>, negated = false): GbnfExpr {
  return { kind: "class", negated, ranges };
}

/** A class of single characters given as a string, e.g. `chars("0123456789")`. */
export function chars(set: string): GbnfExpr {
  return cls([...set].map((c) => [c.codePointAt(0)!, c.codePointAt(0)!] as [number, number]));
}

export function ref(name: string): GbnfExpr {
  return { kind: "ref", name };
}

/** A sequence, flattened; adjacent literals merged. */
export function seq(...items: GbnfExpr[]): GbnfExpr {
  const out: GbnfExpr[] = [];
  for (const item of items) {
    if (item.kind === "seq") for (const p of item.items) pushItem(out, p);
    else pushItem(out, item);
  }
  return out.length === 1 ? out[0] : { kind: "seq", items: out };
}

/** Appends one sequence item, merging it into a literal just before it. */
function pushItem(out: GbnfExpr[], p: GbnfExpr): void {
  const last = out.length ? out[out.length - 1] : undefined;
  if (p.kind === "literal" && last?.kind === "literal") out[out.length - 1] = lit(last.text + p.text);
  else out.push(p);
}

/** An alternation, flattened; a single option is returned as is. */
export function alt(...options: GbnfExpr[]): GbnfExpr {
  const out: GbnfExpr[] = [];
  for (const o of options) {
    if (o.kind === "alt") out.push(...o.options);
    else out.push(o);
  }
  return out.length === 1 ? out[0] : { kind: "alt", options: out };
}

/** `item{min,max}` (max may be Infinity); trivial bounds are simplified. */
export function rep(item: GbnfExpr, min: number, max: number): GbnfExpr {
  if (max === 0) return EMPTY;
  if (min === 1 && max === 1) return item;
  return { kind: "repeat", item, min, max };
}

export function opt(item: GbnfExpr): GbnfExpr {
  return rep(item, 0, 1);
}

export function isEmpty(e: GbnfExpr): boolean {
  return e.kind === "seq" && e.items.length === 0;
}
