/**
 * Whether two `pattern`s can match one string: a search over the product of their automata (each
 * pattern read as ECMAScript does, an unanchored side open to anything). Used to prove oneOf branches
 * disjoint; "may overlap" is the answer whenever a pattern is outside the regex subset or the search
 * would be too large.
 */
import { intersect, type CharRanges } from "./char-set";
import { parseRegex, UntranslatableRegex, type AnchoredBranch, type RegexNode } from "./regex";

/** Automaton states one pattern may expand into (bounded quantifiers are unrolled). */
const MAX_STATES = 4000;
/** State pairs the product search may visit. */
const MAX_PAIRS = 100_000;

const ANY: CharRanges = [[0, 0x10ffff]];

export interface Nfa {
  /** Epsilon moves per state. */
  eps: number[][];
  /** Character moves per state. */
  moves: Array<Array<{ on: CharRanges; to: number }>>;
  start: number;
  accept: number;
}

class TooLarge extends Error {}

class Builder {
  readonly eps: number[][] = [];
  readonly moves: Array<Array<{ on: CharRanges; to: number }>> = [];

  state(): number {
    if (this.eps.length >= MAX_STATES) throw new TooLarge();
    this.eps.push([]);
    this.moves.push([]);
    return this.eps.length - 1;
  }

  /** Wires `node` from state `from`; returns its end state. */
  build(node: RegexNode, from: number): number {
    switch (node.kind) {
      case "set": {
        const to = this.state();
        this.moves[from].push({ on: node.ranges, to });
        return to;
      }
      case "seq":
        return node.items.reduce((at, item) => this.build(item, at), from);
      case "alt": {
        const end = this.state();
        for (const option of node.options) this.eps[this.build(option, from)].push(end);
        return end;
      }
      case "repeat": {
        let at = from;
        for (let i = 0; i < node.min; i++) at = this.build(node.item, at);
        if (node.max === Infinity) {
          const loop = this.state();
          this.eps[at].push(loop);
          this.eps[this.build(node.item, loop)].push(loop);
          return loop;
        }
        const end = this.state();
        for (let i = node.min; i < node.max; i++) {
          this.eps[at].push(end);
          at = this.build(node.item, at);
        }
        this.eps[at].push(end);
        return end;
      }
    }
  }
}

function automaton(pattern: string): Nfa | null {
  try {
    return branchesAutomaton(parseRegex(pattern));
  } catch (err) {
    if (err instanceof UntranslatableRegex) return null;
    throw err;
  }
}

/** The automaton of a parsed pattern's branches (an unanchored side open to anything); null past MAX_STATES. */
export function branchesAutomaton(branches: AnchoredBranch[]): Nfa | null {
  try {
    const b = new Builder();
    const start = b.state();
    const accept = b.state();
    for (const branch of branches) {
      let at = start;
      if (!branch.start) at = b.build({ kind: "repeat", item: { kind: "set", ranges: ANY }, min: 0, max: Infinity }, at);
      at = b.build(branch.node, at);
      if (!branch.end) at = b.build({ kind: "repeat", item: { kind: "set", ranges: ANY }, min: 0, max: Infinity }, at);
      b.eps[at].push(accept);
    }
    return { eps: b.eps, moves: b.moves, start, accept };
  } catch (err) {
    if (err instanceof TooLarge) return null;
    throw err;
  }
}

/** The states reachable from these by epsilon moves (themselves included). */
export function closure(n: Nfa, states: number[]): number[] {
  const seen = new Set(states);
  const stack = [...states];
  while (stack.length) {
    for (const t of n.eps[stack.pop()!]) {
      if (seen.has(t)) continue;
      seen.add(t);
      stack.push(t);
    }
  }
  return [...seen];
}

/** True only when no string matches both patterns. */
export function patternsDisjoint(a: string, b: string): boolean {
  const x = automaton(a);
  const y = automaton(b);
  if (!x || !y) return false;
  const seen = new Set<number>();
  const queue: Array<[number, number]> = [];
  const push = (p: number, q: number) => {
    const key = p * MAX_STATES * 2 + q;
    if (seen.has(key)) return;
    seen.add(key);
    queue.push([p, q]);
  };
  for (const p of closure(x, [x.start])) for (const q of closure(y, [y.start])) push(p, q);
  while (queue.length) {
    if (seen.size > MAX_PAIRS) return false;
    const [p, q] = queue.pop()!;
    if (p === x.accept && q === y.accept) return false;
    for (const m of x.moves[p]) {
      for (const k of y.moves[q]) {
        if (intersect(m.on, k.on).length === 0) continue;
        for (const p2 of closure(x, [m.to])) for (const q2 of closure(y, [k.to])) push(p2, q2);
      }
    }
  }
  return true;
}
