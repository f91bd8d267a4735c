/**
 * Walks a GBNF grammar one code point at a time and says what may come next: the text the grammar
 * forces (exactly one character admitted, again and again), the small set of characters a choice
 * admits, and whether the text so far is complete. The engine uses it to append forced text without
 * sampling and to precompute token masks for small choices. Positions are immutable values; parse
 * stacks are interned for the walker's lifetime, so equal positions get equal keys across generations.
 *
 * Keys can look only a bounded distance ahead: a bounded repetition `x{1500,1999}` reaches a new
 * stack at every repetition count, but within `horizon` characters only the counts near its bounds
 * behave differently, so the counter is keyed by how far it stands from each bound, capped at the
 * horizon. A mask cached under such a key is then computed once per grammar position, not once per
 * count.
 */
import type { GbnfGrammar } from "./gbnf-ast";
import { parseGbnf } from "./gbnf-parser";
import { Program, Run, type CharElem, type Frame } from "./recognizer";

/** Where a text leaves the grammar. */
export interface WalkPosition {
  /** Parse stacks, each waiting on a terminal; none when nothing more may follow. */
  readonly threads: readonly Frame[];
  /** The text so far is a whole sentence of the grammar. */
  readonly accepted: boolean;
  /** The interning generation the threads belong to (keys of different generations never match). */
  readonly generation: number;
}

/** Interned stacks kept before the walker starts a fresh generation (bounds memory on long use). */
const MAX_INTERNED_STACKS = 200_000;

/** The repetition element of a sequence (the recognizer's shape, read structurally). */
interface RepetitionElem {
  t: 2;
  rule: RuleShape;
  min: number;
  max: number;
}
interface RuleShape {
  alts: ReadonlyArray<{ elems: ReadonlyArray<{ t: number; rule?: RuleShape; min?: number }> }>;
}

/** Canonical stack ids for one horizon, by frame id, and the stacks they stand for. */
interface CanonicalTable {
  ids: number[];
  interned: Map<string, number>;
}

export class GbnfWalker {
  private readonly program: Program;
  private run: Run;
  private generation = 0;
  /** Canonical stack ids per horizon (reset with each generation). */
  private canonical = new Map<number, CanonicalTable>();
  /** Whether a rule can match the empty text. */
  private readonly nullable = new Map<RuleShape, boolean>();
  /** By stack: whether it runs inside a marked rule. */
  private readonly inMarked = new WeakMap<Frame, boolean>();

  constructor(
    grammar: GbnfGrammar | string,
    /** Rules whose stacks `marked(pos)` reports (the vault's grounded rules); none by default. */
    private readonly markedRule: (name: string) => boolean = () => false,
  ) {
    this.program = new Program(typeof grammar === "string" ? parseGbnf(grammar) : grammar);
    this.run = new Run(this.program);
  }

  /** Whether some stack of the position runs inside a marked rule (at any depth). */
  marked(pos: WalkPosition): boolean {
    return pos.threads.some((f) => this.frameMarked(f));
  }

  private frameMarked(f: Frame): boolean {
    let known = this.inMarked.get(f);
    if (known === undefined) {
      known = this.markedRule(f.seq.rule) || (f.parent !== null && this.frameMarked(f.parent));
      this.inMarked.set(f, known);
    }
    return known;
  }

  /** The position before any text. */
  start(): WalkPosition {
    if (this.run.size > MAX_INTERNED_STACKS) {
      this.run = new Run(this.program);
      this.generation++;
      this.canonical = new Map();
    }
    const threads = this.run.start();
    return { threads, accepted: this.run.accepted, generation: this.generation };
  }

  /** The position after one more code point; `dead(...)` when the grammar rejects it. */
  step(pos: WalkPosition, cp: number): WalkPosition {
    if (pos.threads.length === 0) return { threads: [], accepted: false, generation: pos.generation };
    const threads = this.run.step(pos.threads as Frame[], cp);
    return { threads, accepted: this.run.accepted, generation: pos.generation };
  }

  /** The position after the text, or null when the grammar rejects some character of it. */
  advance(pos: WalkPosition, text: string): WalkPosition | null {
    let p = pos;
    for (const ch of text) {
      p = this.step(p, ch.codePointAt(0)!);
      if (this.dead(p)) return null;
    }
    return p;
  }

  /** Nothing can follow and the text is not complete: the last character was rejected. */
  dead(pos: WalkPosition): boolean {
    return pos.threads.length === 0 && !pos.accepted;
  }

  /** The text is complete and nothing more may follow. */
  complete(pos: WalkPosition): boolean {
    return pos.threads.length === 0 && pos.accepted;
  }

  /** The one code point every stack admits next, or -1 when there is a choice (ending counts as one). */
  forcedChar(pos: WalkPosition): number {
    if (pos.accepted || pos.threads.length === 0) return -1;
    let cp = -1;
    for (const f of pos.threads) {
      const el = f.seq.elems[f.i] as CharElem;
      if (el.negated || el.ranges.length === 0) return -1;
      for (const [a, b] of el.ranges) {
        if (a !== b || (cp !== -1 && a !== cp)) return -1;
        cp = a;
      }
    }
    return cp;
  }

  /** The longest text (up to `limit` code points) the grammar forces from here, and the position after it. */
  forcedText(pos: WalkPosition, limit = 256): { text: string; pos: WalkPosition } {
    let text = "";
    let p = pos;
    for (let n = 0; n < limit; n++) {
      const cp = this.forcedChar(p);
      if (cp < 0) break;
      text += String.fromCodePoint(cp);
      p = this.step(p, cp);
    }
    return { text, pos: p };
  }

  /**
   * The code points that may come next when they are few (at most `max`, no negated class), sorted;
   * null when the choice is large (free text).
   */
  nextChars(pos: WalkPosition, max: number): number[] | null {
    const set = new Set<number>();
    for (const f of pos.threads) {
      const el = f.seq.elems[f.i] as CharElem;
      if (el.negated) return null;
      for (const [a, b] of el.ranges) {
        if (b - a + 1 + set.size > max) return null;
        for (let c = a; c <= b; c++) set.add(c);
      }
      if (set.size > max) return null;
    }
    return [...set].sort((x, y) => x - y);
  }

  /**
   * A key equal for equal positions (same stacks, same completeness) of this walker. With a
   * `horizon`, positions that no text of up to `horizon` code points tells apart may share a key
   * (repetition counters far from their bounds are not told apart), so anything cached under it must
   * only depend on that many characters ahead.
   */
  key(pos: WalkPosition, horizon = Infinity): string {
    let ids: number[];
    if (horizon === Infinity) ids = pos.threads.map((f) => f.id);
    else {
      const table = this.table(horizon);
      ids = [...new Set(pos.threads.map((f) => this.canonicalId(f, horizon, table)))];
    }
    ids.sort((a, b) => a - b);
    return `${pos.generation}:${pos.accepted ? 1 : 0}:${ids.join(",")}`;
  }

  /** Distinct canonical stacks interned for this horizon in the current generation (a measure of key work). */
  canonicalStacks(horizon: number): number {
    return this.canonical.get(horizon)?.interned.size ?? 0;
  }

  private table(horizon: number): CanonicalTable {
    let table = this.canonical.get(horizon);
    if (!table) this.canonical.set(horizon, (table = { ids: [], interned: new Map() }));
    return table;
  }

  /**
   * A stack's id up to what `horizon` characters can tell. A frame inside a repetition whose item
   * reads at least one character per round can count up at most `horizon` more times within that
   * many characters, so only its distance to the minimum and to the maximum, each capped at
   * horizon + 1, decide what follows. Items that can be empty keep their exact count.
   */
  private canonicalId(frame: Frame, horizon: number, table: CanonicalTable): number {
    const known = table.ids[frame.id];
    if (known !== undefined) return known;
    const parent = frame.parent ? this.canonicalId(frame.parent, horizon, table) : -1;
    const el = frame.seq.elems[frame.i] as unknown as RepetitionElem | undefined;
    let count = String(frame.n);
    if (el && el.t === 2 && !this.isNullable(el.rule)) {
      const cap = horizon + 1;
      const toMin = Math.min(Math.max(el.min - frame.n, 0), cap);
      const room = el.max === Infinity ? -1 : Math.min(el.max - frame.n, cap);
      count = `${toMin}/${room}`;
    }
    const key = `${frame.seq.id},${frame.i},${count},${parent}`;
    let id = table.interned.get(key);
    if (id === undefined) table.interned.set(key, (id = table.interned.size));
    table.ids[frame.id] = id;
    return id;
  }

  /** Whether the rule matches the empty text (a rule met again while deciding counts as not: only left recursion loops there). */
  private isNullable(rule: RuleShape): boolean {
    const known = this.nullable.get(rule);
    if (known !== undefined) return known;
    this.nullable.set(rule, false);
    const result = rule.alts.some((alt) =>
      alt.elems.every((el) => (el.t === 0 ? false : el.t === 1 ? this.isNullable(el.rule!) : el.min === 0 || this.isNullable(el.rule!))),
    );
    this.nullable.set(rule, result);
    return result;
  }
}
