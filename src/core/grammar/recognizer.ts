/**
 * Decides membership in a GBNF grammar's language, the way llama.cpp does: a set of parse stacks
 * advanced one code point at a time. Repetitions keep a counter instead of being expanded, so
 * `x{0,1999}` costs nothing extra; identical stacks are shared (interned) so the set stays small.
 */
import type { GbnfExpr, GbnfGrammar } from "./gbnf-ast";
import { parseGbnf } from "./gbnf-parser";

/** A terminal: matches one code point. */
export interface CharElem {
  t: 0;
  ranges: Array<[number, number]>;
  negated: boolean;
}
/** A rule (named or anonymous) used once. */
interface RefElem {
  t: 1;
  rule: Rule;
}
/** A rule repeated min..max times. */
interface RepElem {
  t: 2;
  rule: Rule;
  min: number;
  max: number;
}
type Elem = CharElem | RefElem | RepElem;
interface Rule {
  alts: Seq[];
}
interface Seq {
  id: number;
  elems: Elem[];
  /** The named rule this sequence belongs to (an anonymous group belongs to the rule it is written in). */
  rule: string;
}

/** A parse stack: position in a sequence, repetitions done there, and the frame to return to. */
export interface Frame {
  id: number;
  seq: Seq;
  i: number;
  n: number;
  parent: Frame | null;
}

/** The grammar flattened for matching (shared with gbnf-walker.ts). */
export class Program {
  private seqCount = 0;
  private named = new Map<string, Rule>();
  /** The named rule whose body is being flattened. */
  private current = "";
  readonly root: Rule;

  constructor(private readonly grammar: GbnfGrammar) {
    this.root = this.rule(grammar.root);
  }

  private rule(name: string): Rule {
    let r = this.named.get(name);
    if (r) return r;
    r = { alts: [] };
    this.named.set(name, r);
    const body = this.grammar.rules.get(name);
    if (!body) throw new Error(`The grammar has no rule "${name}".`);
    const outer = this.current;
    this.current = name;
    r.alts = this.alternatives(body);
    this.current = outer;
    return r;
  }

  private alternatives(e: GbnfExpr): Seq[] {
    const options = e.kind === "alt" ? e.options : [e];
    return options.map((o) => {
      const rule = this.current;
      return { id: this.seqCount++, elems: this.elems(o), rule };
    });
  }

  private anon(e: GbnfExpr): Rule {
    return { alts: this.alternatives(e) };
  }

  private elems(e: GbnfExpr): Elem[] {
    switch (e.kind) {
      case "literal":
        return [...e.text].map((ch) => {
          const cp = ch.codePointAt(0)!;
          return { t: 0, ranges: [[cp, cp]], negated: false };
        });
      case "class":
        return [{ t: 0, ranges: e.ranges, negated: e.negated }];
      case "any":
        return [{ t: 0, ranges: [], negated: true }];
      case "ref":
        return [{ t: 1, rule: this.rule(e.name) }];
      case "seq":
        return e.items.flatMap((i) => this.elems(i));
      case "alt":
        return [{ t: 1, rule: this.anon(e) }];
      case "repeat":
        return [{ t: 2, rule: e.item.kind === "ref" ? this.rule(e.item.name) : this.anon(e.item), min: e.min, max: e.max }];
    }
  }
}

export function matches(el: CharElem, cp: number): boolean {
  let inside = false;
  for (const [a, b] of el.ranges) {
    if (cp >= a && cp <= b) {
      inside = true;
      break;
    }
  }
  return inside !== el.negated;
}

/** Nesting of rule entries within one character step beyond which the grammar must be left-recursive. */
const MAX_EXPANSION_DEPTH = 2000;

/** Where a frame leads without reading a character: the stacks waiting on a terminal, and whether the root can end. */
interface Expansion {
  out: Frame[];
  accepted: boolean;
}

/**
 * One run over a text: frames are interned per run, and so is what each frame expands to, so a
 * step over known stacks allocates only its result (the walker takes a step per character of every
 * produced token, and per character of every token it checks for a mask).
 */
export class Run {
  private frames = new Map<string, Frame>();
  private nextId = 0;
  /** True when the last closure reached the end of the root rule. */
  accepted = false;
  private visited = new Set<number>();
  private out: Frame[] = [];
  /** By frame id: its expansion, and the frame after its terminal. */
  private readonly expansions: Array<Expansion | undefined> = [];
  private readonly successors: Array<Frame | undefined> = [];
  /** By frame id: the step that last took the frame into its result (dedupes without a set per step). */
  private readonly taken: number[] = [];
  private stamp = 0;

  constructor(private readonly program: Program) {}

  /** Distinct parse stacks interned so far. */
  get size(): number {
    return this.frames.size;
  }

  private frame(seq: Seq, i: number, n: number, parent: Frame | null): Frame {
    const key = `${seq.id},${i},${n},${parent ? parent.id : -1}`;
    let f = this.frames.get(key);
    if (!f) {
      f = { id: this.nextId++, seq, i, n, parent };
      this.frames.set(key, f);
    }
    return f;
  }

  start(): Frame[] {
    const out: Frame[] = [];
    this.stamp++;
    let accepted = false;
    for (const s of this.program.root.alts) accepted = this.take(this.expansion(this.frame(s, 0, 0, null)), out) || accepted;
    this.accepted = accepted;
    return out;
  }

  step(threads: Frame[], cp: number): Frame[] {
    const out: Frame[] = [];
    this.stamp++;
    let accepted = false;
    for (const f of threads) {
      if (!matches(f.seq.elems[f.i] as CharElem, cp)) continue;
      let next = this.successors[f.id];
      if (!next) this.successors[f.id] = next = this.frame(f.seq, f.i + 1, 0, f.parent);
      accepted = this.take(this.expansion(next), out) || accepted;
    }
    this.accepted = accepted;
    return out;
  }

  /** Adds an expansion's stacks not yet in this step's result; returns whether it reaches the end. */
  private take(e: Expansion, out: Frame[]): boolean {
    for (const t of e.out) {
      if (this.taken[t.id] === this.stamp) continue;
      this.taken[t.id] = this.stamp;
      out.push(t);
    }
    return e.accepted;
  }

  private expansion(f: Frame): Expansion {
    let e = this.expansions[f.id];
    if (!e) {
      this.accepted = false;
      this.visited = new Set();
      this.out = [];
      this.expand(f);
      e = { out: this.out, accepted: this.accepted };
      this.expansions[f.id] = e;
    }
    return e;
  }

  /** Follows rule entries and exits until every stack waits on a terminal. */
  private expand(f: Frame, depth = 0): void {
    if (this.visited.has(f.id)) return;
    // Only a left-recursive rule can nest this deep without reading a character.
    if (depth > MAX_EXPANSION_DEPTH) throw new Error("The grammar is left-recursive (a rule can reach itself without reading a character); rewrite it without left recursion.");
    this.visited.add(f.id);
    if (f.i === f.seq.elems.length) {
      const p = f.parent;
      if (!p) {
        this.accepted = true;
        return;
      }
      const el = p.seq.elems[p.i];
      if (el.t === 2) {
        // Counts above the minimum only matter for a bounded maximum; saturate the rest so loops end.
        const n = el.max === Infinity ? Math.min(p.n + 1, el.min) : p.n + 1;
        this.expand(this.frame(p.seq, p.i, n, p.parent), depth + 1);
      } else this.expand(this.frame(p.seq, p.i + 1, 0, p.parent), depth + 1);
      return;
    }
    const el = f.seq.elems[f.i];
    if (el.t === 0) {
      this.out.push(f);
    } else if (el.t === 1) {
      for (const s of el.rule.alts) this.expand(this.frame(s, 0, 0, f), depth + 1);
    } else {
      if (f.n < el.max) for (const s of el.rule.alts) this.expand(this.frame(s, 0, 0, f), depth + 1);
      if (f.n >= el.min) this.expand(this.frame(f.seq, f.i + 1, 0, f.parent), depth + 1);
    }
  }
}

/** A position in a parse: the live stacks after some text (opaque; from `begin`/`advance`). */
export interface RecognizerState {
  readonly accepted: boolean;
  readonly run: unknown;
  readonly threads: unknown;
}

/** Decides whether text belongs to a grammar's language, or can still be completed. */
export class GbnfRecognizer {
  /** The parsed grammar. */
  readonly grammar: GbnfGrammar;
  /** The grammar flattened for matching. */
  private readonly program: Program;

  constructor(grammar: GbnfGrammar | string) {
    this.grammar = typeof grammar === "string" ? parseGbnf(grammar) : grammar;
    this.program = new Program(this.grammar);
  }

  /** True when the whole text is in the language. */
  accepts(text: string): boolean {
    const r = this.run(text);
    return r !== null && r.accepted;
  }

  /** True when the text can still be completed to a text in the language (the empty text included). */
  acceptsPrefix(text: string): boolean {
    const r = this.run(text);
    return r !== null && (r.accepted || r.live);
  }

  /** Length in code points of the longest prefix of the text the grammar can still complete. */
  longestViablePrefix(text: string): number {
    const run = new Run(this.program);
    let threads = run.start();
    let n = 0;
    for (const ch of text) {
      threads = run.step(threads, ch.codePointAt(0)!);
      if (threads.length === 0 && !run.accepted) return n;
      n++;
    }
    return n;
  }

  /** The state before any text. States can be advanced many times (branching searches share them). */
  begin(): RecognizerState {
    const run = new Run(this.program);
    const threads = run.start();
    return { accepted: run.accepted, run, threads };
  }

  /** The state after more text, or null when no completion of it is in the language. */
  advance(state: RecognizerState, text: string): RecognizerState | null {
    const run = state.run as Run;
    let threads = state.threads as Frame[];
    let accepted = state.accepted;
    for (let i = 0; i < text.length; ) {
      const cp = text.codePointAt(i)!;
      i += cp > 0xffff ? 2 : 1;
      if (threads.length === 0) return null;
      threads = run.step(threads, cp);
      accepted = run.accepted;
      if (threads.length === 0 && !accepted) return null;
    }
    return { accepted, run, threads };
  }

  private run(text: string): { accepted: boolean; live: boolean } | null {
    const run = new Run(this.program);
    let threads = run.start();
    for (let i = 0; i < text.length; ) {
      const cp = text.codePointAt(i)!;
      i += cp > 0xffff ? 2 : 1;
      if (threads.length === 0) return null;
      threads = run.step(threads, cp);
    }
    return { accepted: run.accepted, live: threads.length > 0 };
  }
}
