/**
 * Walks a GBNF grammar one code point at a time and says what may come next: the text the grammar
 * forces (exactly one character admitted, again and again), the small set of characters a choice
 * admits, and whether the text so far is complete. The engine uses it to append forced text without
 * sampling and to precompute token masks for small choices. Positions are immutable values; parse
 * stacks are interned for the walker's lifetime, so equal positions get equal keys across generations.
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

export class GbnfWalker {
  private readonly program: Program;
  private run: Run;
  private generation = 0;

  constructor(grammar: GbnfGrammar | string) {
    this.program = new Program(typeof grammar === "string" ? parseGbnf(grammar) : grammar);
    this.run = new Run(this.program);
  }

  /** The position before any text. */
  start(): WalkPosition {
    if (this.run.size > MAX_INTERNED_STACKS) {
      this.run = new Run(this.program);
      this.generation++;
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

  /** A key equal for equal positions (same stacks, same completeness) of this walker. */
  key(pos: WalkPosition): string {
    const ids = pos.threads.map((f) => f.id).sort((a, b) => a - b);
    return `${pos.generation}:${pos.accepted ? 1 : 0}:${ids.join(",")}`;
  }
}
