/**
 * The strings a pattern matches, minus those some negated patterns match, whose length is within
 * bounds, built exactly: each pattern's automaton is made deterministic over character atoms they
 * share, the product (pattern and not each negation) is minimized, and its product with a length
 * counter is minimized layer by layer and printed as right-linear GBNF rules. With a maximum length
 * the counter runs 0..maxLength, so the grammar has no loop; under the default cap only the minimum
 * is counted (the counter saturates there), loops of several states are unrolled MAX_LOOP_TURNS times
 * and each single-state loop is capped on its own, like a default-capped pattern. Null when a state budget is exceeded (the caller relaxes and reports).
 */
import { EMPTY, alt, seq, type GbnfExpr } from "./gbnf-ast";
import { MAX_CODE_POINT, type CharRanges } from "./char-set";
import { boundedRepeat } from "./bounded-repeat";
import { encodeCharSet, sharedRule, type RuleDefs } from "./json-string-pattern";
import { branchesAutomaton, closure, type Nfa } from "./pattern-overlap";
import type { AnchoredBranch } from "./regex";
import type { RuleSet } from "./rule-set";

/** States one deterministic automaton (a pattern's, or the product of them) may have. */
const MAX_DFA_STATES = 2000;
/** States × atoms the length product may look at. */
const MAX_PRODUCT_WORK = 1_500_000;
/** Rules one string language may print. */
export const MAX_LANGUAGE_RULES = 1500;

/** A deterministic automaton over atoms: `next[state * atoms + atom]`, -1 for no move. */
interface Dfa {
  next: Int32Array;
  accept: Uint8Array;
  size: number;
  start: number;
}

/** What the strings are: a pattern (null: any string), negated patterns, and the length bounds. */
export interface StringLanguage {
  pattern: AnchoredBranch[] | null;
  negated: AnchoredBranch[][];
  minLength: number;
  /** Infinity under the default cap (then `loopCap` bounds each loop). */
  maxLength: number;
  loopCap: number;
}

/** The atoms: code-point ranges no move of any automaton splits, as the sorted list of their first code points. */
function atomCuts(nfas: Nfa[]): number[] {
  const cuts = new Set<number>([0]);
  for (const n of nfas) {
    for (const list of n.moves) {
      for (const m of list) {
        for (const [a, b] of m.on) {
          cuts.add(a);
          if (b < MAX_CODE_POINT) cuts.add(b + 1);
        }
      }
    }
  }
  return [...cuts].sort((x, y) => x - y);
}

/** The atoms a range list covers. */
function atomsOf(on: CharRanges, cuts: number[]): number[] {
  const out: number[] = [];
  for (const [a, b] of on) {
    let lo = 0;
    let hi = cuts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (cuts[mid] <= a) lo = mid;
      else hi = mid - 1;
    }
    for (let i = lo; i < cuts.length && cuts[i] <= b; i++) out.push(i);
  }
  return out;
}

/** Subset construction over the atoms; null past MAX_DFA_STATES. */
function determinize(n: Nfa, cuts: number[]): Dfa | null {
  const atoms = cuts.length;
  const moveAtoms = n.moves.map((list) => list.map((m) => ({ atoms: atomsOf(m.on, cuts), to: m.to })));
  const ids = new Map<string, number>();
  const sets: number[][] = [];
  const next: number[] = [];
  const accept: number[] = [];
  const idOf = (states: number[]): number => {
    const sorted = [...states].sort((x, y) => x - y);
    const key = sorted.join(",");
    let id = ids.get(key);
    if (id === undefined) {
      id = sets.length;
      ids.set(key, id);
      sets.push(sorted);
      accept.push(sorted.includes(n.accept) ? 1 : 0);
    }
    return id;
  };
  const start = idOf(closure(n, [n.start]));
  for (let d = 0; d < sets.length; d++) {
    if (sets.length > MAX_DFA_STATES) return null;
    const buckets: number[][] = Array.from({ length: atoms }, () => []);
    for (const s of sets[d]) for (const m of moveAtoms[s]) for (const a of m.atoms) buckets[a].push(m.to);
    for (let a = 0; a < atoms; a++) next[d * atoms + a] = buckets[a].length ? idOf(closure(n, buckets[a])) : -1;
  }
  return { next: Int32Array.from(next), accept: Uint8Array.from(accept), size: sets.length, start };
}

/** The product: strings the first automaton accepts and none of the others does; null past MAX_DFA_STATES. */
function difference(pos: Dfa, negs: Dfa[], atoms: number): Dfa | null {
  const ids = new Map<string, number>();
  const tuples: number[][] = [];
  const next: number[] = [];
  const accept: number[] = [];
  const idOf = (t: number[]): number => {
    const key = t.join(",");
    let id = ids.get(key);
    if (id === undefined) {
      id = tuples.length;
      ids.set(key, id);
      tuples.push(t);
      accept.push(pos.accept[t[0]] && negs.every((d, i) => t[i + 1] < 0 || !d.accept[t[i + 1]]) ? 1 : 0);
    }
    return id;
  };
  const start = idOf([pos.start, ...negs.map((d) => d.start)]);
  for (let s = 0; s < tuples.length; s++) {
    if (tuples.length > MAX_DFA_STATES) return null;
    const t = tuples[s];
    for (let a = 0; a < atoms; a++) {
      const p = pos.next[t[0] * atoms + a];
      next[s * atoms + a] = p < 0 ? -1 : idOf([p, ...negs.map((d, i) => (t[i + 1] < 0 ? -1 : d.next[t[i + 1] * atoms + a]))]);
    }
  }
  return { next: Int32Array.from(next), accept: Uint8Array.from(accept), size: tuples.length, start };
}

/** The minimal automaton: states that cannot reach acceptance dropped, equivalent states merged (Moore). */
function minimize(d: Dfa, atoms: number): Dfa {
  const live = new Uint8Array(d.size);
  const back: number[][] = Array.from({ length: d.size }, () => []);
  for (let s = 0; s < d.size; s++) for (let a = 0; a < atoms; a++) if (d.next[s * atoms + a] >= 0) back[d.next[s * atoms + a]].push(s);
  const stack: number[] = [];
  const mark = (s: number) => {
    if (live[s]) return;
    live[s] = 1;
    stack.push(s);
  };
  for (let s = 0; s < d.size; s++) if (d.accept[s]) mark(s);
  while (stack.length) for (const p of back[stack.pop()!]) mark(p);
  let cls = Int32Array.from(d.accept, (x, s) => (live[s] ? x : -1));
  let count = -1;
  for (;;) {
    const ids = new Map<string, number>();
    const fresh = new Int32Array(d.size);
    for (let s = 0; s < d.size; s++) {
      if (cls[s] < 0) {
        fresh[s] = -1;
        continue;
      }
      let key = String(cls[s]);
      for (let a = 0; a < atoms; a++) {
        const t = d.next[s * atoms + a];
        key += `,${t < 0 ? -1 : cls[t]}`;
      }
      let id = ids.get(key);
      if (id === undefined) ids.set(key, (id = ids.size));
      fresh[s] = id;
    }
    cls = fresh;
    if (ids.size === count) break;
    count = ids.size;
  }
  const size = Math.max(0, count);
  const next = new Int32Array(size * atoms).fill(-1);
  const accept = new Uint8Array(size);
  for (let s = 0; s < d.size; s++) {
    const c = cls[s];
    if (c < 0) continue;
    accept[c] = d.accept[s];
    for (let a = 0; a < atoms; a++) {
      const t = d.next[s * atoms + a];
      next[c * atoms + a] = t < 0 ? -1 : cls[t];
    }
  }
  return { next, accept, size, start: cls[d.start] };
}

/** The length product has more distinct states than could ever be printed. */
class TooManyStates extends Error {}

/** Times a default-capped string may go round a loop of several states (as capped quantifiers, at least 64). */
const MAX_LOOP_TURNS = 64;

/** The edges that close loops of several states (to a state still open in a depth-first walk), by source. */
function backEdges(d: Dfa, atoms: number): Array<Set<number>> {
  const back = Array.from({ length: d.size }, () => new Set<number>());
  const color = new Uint8Array(d.size);
  const stack: Array<[number, number]> = [[d.start, 0]];
  color[d.start] = 1;
  while (stack.length) {
    const top = stack[stack.length - 1];
    const [q, a] = top;
    if (a === atoms) {
      color[q] = 2;
      stack.pop();
      continue;
    }
    top[1]++;
    const t = d.next[q * atoms + a];
    if (t < 0 || t === q) continue;
    if (color[t] === 1) back[q].add(t);
    else if (color[t] === 0) {
      color[t] = 1;
      stack.push([t, 0]);
    }
  }
  return back;
}

/**
 * The automaton with each loop of several states taken at most MAX_LOOP_TURNS times in all (states
 * (q, turns)), so only single-state loops remain; itself when it has no such loop. Null past MAX_DFA_STATES.
 */
function boundLoops(d: Dfa, atoms: number): Dfa | null {
  const back = backEdges(d, atoms);
  if (back.every((b) => b.size === 0)) return d;
  const turns = MAX_LOOP_TURNS + 1;
  if (d.size * turns > MAX_DFA_STATES * 4) return null;
  const next = new Int32Array(d.size * turns * atoms).fill(-1);
  const accept = new Uint8Array(d.size * turns);
  for (let q = 0; q < d.size; q++) {
    for (let j = 0; j < turns; j++) {
      const s = q * turns + j;
      accept[s] = d.accept[q];
      for (let a = 0; a < atoms; a++) {
        const t = d.next[q * atoms + a];
        if (t < 0) continue;
        const k = back[q].has(t) ? j + 1 : j;
        if (k < turns) next[s * atoms + a] = t * turns + k;
      }
    }
  }
  return minimize({ next, accept, size: d.size * turns, start: d.start * turns }, atoms);
}

/**
 * The automaton over classes of atoms every state moves alike on (\\S and \\s are two classes, however
 * many ranges they span), with each class's atoms.
 */
function atomClasses(d: Dfa, atoms: number): { dfa: Dfa; members: number[][] } {
  const ids = new Map<string, number>();
  const members: number[][] = [];
  const classOf = new Int32Array(atoms);
  for (let a = 0; a < atoms; a++) {
    let key = "";
    for (let q = 0; q < d.size; q++) key += `${d.next[q * atoms + a]},`;
    let id = ids.get(key);
    if (id === undefined) {
      ids.set(key, (id = members.length));
      members.push([]);
    }
    members[id].push(a);
    classOf[a] = id;
  }
  const k = members.length;
  const next = new Int32Array(d.size * k);
  for (let q = 0; q < d.size; q++) for (let c = 0; c < k; c++) next[q * k + c] = d.next[q * atoms + members[c][0]];
  return { dfa: { next, accept: d.accept, size: d.size, start: d.start }, members };
}

/** One state of the length product, after merging: acceptance and a move per atom (0: no move). */
interface Layered {
  accept: boolean[];
  moves: Int32Array[];
}

/**
 * The product with the length counter, minimized: states (q, n) numbered by their future, so equal
 * futures share one number. Number 0 is "no string", 1 "only the empty string". Returns the start's number.
 */
function lengthProduct(d: Dfa, atoms: number, lo: number, hi: number, out: Layered): number | null {
  const top = hi === Infinity ? lo : hi;
  if (d.size * (top + 1) * atoms > MAX_PRODUCT_WORK) return null;
  const ids = new Map<string, number>();
  const intern = (accept: boolean, moves: Int32Array): number => {
    const key = `${accept ? 1 : 0}:${moves.join(",")}`;
    let id = ids.get(key);
    if (id === undefined) {
      if (out.accept.length > 4 * MAX_LANGUAGE_RULES) throw new TooManyStates();
      id = out.accept.length;
      ids.set(key, id);
      out.accept.push(accept);
      out.moves.push(moves);
    }
    return id;
  };
  intern(false, new Int32Array(atoms));
  intern(true, new Int32Array(atoms));
  let layer = new Int32Array(d.size);
  if (hi === Infinity) {
    // The counter saturates at lo: there the automaton itself, its states numbered after the others.
    const base = out.accept.length;
    for (let q = 0; q < d.size; q++) {
      out.accept.push(d.accept[q] === 1);
      out.moves.push(Int32Array.from({ length: atoms }, (_, a) => (d.next[q * atoms + a] < 0 ? 0 : base + d.next[q * atoms + a])));
      layer[q] = base + q;
    }
  } else for (let q = 0; q < d.size; q++) layer[q] = d.accept[q] && top >= lo ? 1 : 0;
  for (let n = top - 1; n >= 0; n--) {
    const below = new Int32Array(d.size);
    for (let q = 0; q < d.size; q++) {
      const moves = new Int32Array(atoms);
      let any = false;
      for (let a = 0; a < atoms; a++) {
        const t = d.next[q * atoms + a];
        moves[a] = t < 0 ? 0 : layer[t];
        if (moves[a] !== 0) any = true;
      }
      const accept = d.accept[q] === 1 && n >= lo;
      below[q] = !any ? (accept ? 1 : 0) : intern(accept, moves);
    }
    layer = below;
  }
  return layer[d.start];
}

/** The states reachable from the start, children before parents; null when a loop spans several states. */
function printOrder(l: Layered, start: number): number[] | null {
  const order: number[] = [];
  const state = new Map<number, 1 | 2>();
  const stack: Array<[number, number]> = [[start, 0]];
  state.set(start, 1);
  while (stack.length) {
    const top = stack[stack.length - 1];
    const [s, a] = top;
    if (a === l.moves[s].length) {
      stack.pop();
      state.set(s, 2);
      order.push(s);
      continue;
    }
    top[1]++;
    const t = l.moves[s][a];
    if (t <= 1 || t === s) continue;
    const seen = state.get(t);
    if (seen === 1) return null;
    if (seen === undefined) {
      state.set(t, 1);
      stack.push([t, 0]);
    }
    if (state.size > MAX_LANGUAGE_RULES) return null;
  }
  return order;
}

/** The code-point ranges of some atoms (ascending). */
function rangesOf(atomList: number[], cuts: number[]): CharRanges {
  const out: CharRanges = [];
  for (const a of atomList) {
    const from = cuts[a];
    const to = a + 1 < cuts.length ? cuts[a + 1] - 1 : MAX_CODE_POINT;
    const last = out[out.length - 1];
    if (last && last[1] + 1 === from) last[1] = to;
    else out.push([from, to]);
  }
  return out;
}

/** The GBNF of the product: one rule per state, each a choice of character then next state. */
function print(l: Layered, start: number, rangesOfAtoms: (atoms: number[]) => CharRanges, loopCap: number, defs: RuleDefs): GbnfExpr | null | undefined {
  if (start === 0) return null;
  if (start === 1) return EMPTY;
  const order = printOrder(l, start);
  if (!order) return undefined;
  const named = new Map<number, GbnfExpr>();
  for (const s of order) {
    const groups = new Map<number, number[]>();
    l.moves[s].forEach((t, a) => {
      if (t === 0) return;
      const list = groups.get(t);
      if (list) list.push(a);
      else groups.set(t, [a]);
    });
    const options: GbnfExpr[] = [];
    for (const [t, atomList] of groups) {
      if (t === s) continue;
      const chars = encodeCharSet(rangesOfAtoms(atomList));
      if (chars) options.push(t === 1 ? chars : seq(chars, named.get(t)!));
    }
    if (l.accept[s]) options.push(EMPTY);
    let body = options.length ? alt(...options) : EMPTY;
    const loop = groups.get(s);
    if (loop) {
      const chars = encodeCharSet(rangesOfAtoms(loop));
      if (chars) body = seq(boundedRepeat(chars.kind === "alt" ? sharedRule("pchar", chars, defs) : chars, 0, loopCap), body);
    }
    named.set(s, sharedRule("pstate", body, defs));
  }
  return named.get(start)!;
}

/** Built languages with the rules they reference, by key. */
const built = new Map<string, { content: GbnfExpr | null; defs: RuleDefs } | undefined>();

/**
 * JSON string content (between the quotes) for the language, its rules added to `rules`; undefined
 * when it is past a budget, `content: null` when no string qualifies. `key` determines the language.
 */
export function stringLanguage(key: string, lang: StringLanguage, rules: RuleSet): { content: GbnfExpr | null } | undefined {
  let done = built.get(key);
  if (!built.has(key)) {
    done = buildLanguage(lang);
    if (built.size >= 500) built.delete(built.keys().next().value!);
    built.set(key, done);
  }
  if (!done) return undefined;
  for (const [name, body] of done.defs) rules.shared(name, () => body);
  return { content: done.content };
}

function buildLanguage(lang: StringLanguage): { content: GbnfExpr | null; defs: RuleDefs } | undefined {
  const any: AnchoredBranch[] = [{ node: { kind: "seq", items: [] }, start: false, end: false }];
  const nfas = [lang.pattern ?? any, ...lang.negated].map(branchesAutomaton);
  if (nfas.some((n) => n === null)) return undefined;
  const cuts = atomCuts(nfas as Nfa[]);
  const dfas: Dfa[] = [];
  for (const n of nfas as Nfa[]) {
    const d = determinize(n, cuts);
    if (!d) return undefined;
    dfas.push(d);
  }
  const diff = dfas.length === 1 ? dfas[0] : difference(dfas[0], dfas.slice(1), cuts.length);
  if (!diff) return undefined;
  const minimal = minimize(diff, cuts.length);
  const defs: RuleDefs = new Map();
  if (minimal.start < 0) return { content: null, defs };
  const { dfa: compact, members } = atomClasses(minimal, cuts.length);
  const atoms = members.length;
  const d = lang.maxLength === Infinity ? boundLoops(compact, atoms) : compact;
  if (!d) return undefined;
  const layered: Layered = { accept: [], moves: [] };
  let start: number | null;
  try {
    start = lengthProduct(d, atoms, lang.minLength, lang.maxLength, layered);
  } catch (err) {
    if (err instanceof TooManyStates) return undefined;
    throw err;
  }
  if (start === null) return undefined;
  const content = print(layered, start, (list) => rangesOf(list.flatMap((c) => members[c]).sort((x, y) => x - y), cuts), lang.loopCap, defs);
  return content === undefined ? undefined : { content, defs };
}
