/**
 * A parser for the regex subset JSON Schema patterns commonly use (ECMAScript with the `u` flag):
 * literals, classes, \d \w \s (and negations), `.`, groups, alternation, ? * + {m,n}, with ^ and $
 * only at the edges of a top-level alternative. Anything else is reported as untranslatable.
 */
import { complement, normalize, type CharRanges } from "./char-set";

export type RegexNode =
  | { kind: "set"; ranges: CharRanges }
  | { kind: "seq"; items: RegexNode[] }
  | { kind: "alt"; options: RegexNode[] }
  | { kind: "repeat"; item: RegexNode; min: number; max: number };

/** A top-level alternative and whether it was anchored at each end. */
export interface AnchoredBranch {
  node: RegexNode;
  start: boolean;
  end: boolean;
}

/** Thrown for a construct outside the subset; the message names it. */
export class UntranslatableRegex extends Error {}

const DIGIT: CharRanges = [[0x30, 0x39]];
const WORD: CharRanges = [
  [0x30, 0x39],
  [0x41, 0x5a],
  [0x5f, 0x5f],
  [0x61, 0x7a],
];
const SPACE: CharRanges = normalize([
  [0x09, 0x0d],
  [0x20, 0x20],
  [0xa0, 0xa0],
  [0x1680, 0x1680],
  [0x2000, 0x200a],
  [0x2028, 0x2029],
  [0x202f, 0x202f],
  [0x205f, 0x205f],
  [0x3000, 0x3000],
  [0xfeff, 0xfeff],
]);
/** `.` without the s flag: everything but line terminators. */
const DOT: CharRanges = complement([
  [0x0a, 0x0a],
  [0x0d, 0x0d],
  [0x2028, 0x2029],
]);

const single = (cp: number): CharRanges => [[cp, cp]];

/** Groups nested deeper than this are refused (the parser recurses once per group). */
const MAX_GROUP_DEPTH = 64;
/** Patterns longer than this are refused. */
const MAX_PATTERN_CHARS = 8192;

class RegexParser {
  private pos = 0;
  private depth = 0;
  constructor(private readonly src: string) {
    if (src.length > MAX_PATTERN_CHARS) throw new UntranslatableRegex(`a pattern longer than ${MAX_PATTERN_CHARS} characters`);
    checkBalance(src);
  }

  parseTop(): AnchoredBranch[] {
    const branches: AnchoredBranch[] = [];
    for (;;) {
      let start = false;
      if (this.peek() === "^") {
        start = true;
        this.pos++;
      }
      const items: RegexNode[] = [];
      let end = false;
      while (this.pos < this.src.length && this.peek() !== "|") {
        if (this.peek() === "$") {
          this.pos++;
          if (this.pos < this.src.length && this.peek() !== "|") throw new UntranslatableRegex("`$` in the middle of the pattern");
          end = true;
          break;
        }
        items.push(this.parseQuantified());
      }
      branches.push({ node: { kind: "seq", items }, start, end });
      if (this.pos >= this.src.length) break;
      this.pos++; // "|"
    }
    return branches;
  }

  private peek(): string {
    return this.src[this.pos];
  }

  private parseAlternation(): RegexNode {
    const options: RegexNode[] = [this.parseSequence()];
    while (this.peek() === "|") {
      this.pos++;
      options.push(this.parseSequence());
    }
    return options.length === 1 ? options[0] : { kind: "alt", options };
  }

  private parseSequence(): RegexNode {
    const items: RegexNode[] = [];
    while (this.pos < this.src.length && this.peek() !== "|" && this.peek() !== ")") items.push(this.parseQuantified());
    return { kind: "seq", items };
  }

  private parseQuantified(): RegexNode {
    const atom = this.parseAtom();
    const c = this.peek();
    let min: number;
    let max: number;
    if (c === "?") [min, max] = [0, 1];
    else if (c === "*") [min, max] = [0, Infinity];
    else if (c === "+") [min, max] = [1, Infinity];
    else if (c === "{") {
      const m = /^\{(\d+)(,(\d*))?\}/.exec(this.src.slice(this.pos));
      if (!m) throw new UntranslatableRegex("a `{` that is not a quantifier");
      min = Number(m[1]);
      max = m[2] === undefined ? min : m[3] === "" ? Infinity : Number(m[3]);
      if (max < min) throw new UntranslatableRegex("a quantifier with inverted bounds");
      this.pos += m[0].length - 1;
    } else return atom;
    this.pos++;
    if (this.peek() === "?") this.pos++; // lazy: same language
    if (this.peek() === "?" || this.peek() === "*" || this.peek() === "+" || this.peek() === "{")
      throw new UntranslatableRegex("a possessive or doubled quantifier");
    return { kind: "repeat", item: atom, min, max };
  }

  private parseAtom(): RegexNode {
    const c = this.peek();
    if (c === "(") {
      this.pos++;
      if (this.src.startsWith("?:", this.pos)) this.pos += 2;
      else if (this.src.startsWith("?<", this.pos) && !"=!".includes(this.src[this.pos + 2] ?? "=")) {
        // A named group; `(?<=` and `(?<!` are lookbehinds, refused below.
        const close = this.src.indexOf(">", this.pos);
        if (close < 0) throw new UntranslatableRegex("an unterminated group name");
        this.pos = close + 1;
      } else if (this.peek() === "?") throw new UntranslatableRegex("a lookaround or inline flag group");
      if (++this.depth > MAX_GROUP_DEPTH) throw new UntranslatableRegex(`groups nested more than ${MAX_GROUP_DEPTH} deep`);
      const inner = this.parseAlternation();
      this.depth--;
      if (this.peek() !== ")") throw new UntranslatableRegex("an unbalanced parenthesis");
      this.pos++;
      return inner;
    }
    if (c === "[") return { kind: "set", ranges: this.parseClass() };
    if (c === ".") {
      this.pos++;
      return { kind: "set", ranges: DOT };
    }
    if (c === "\\") return { kind: "set", ranges: this.parseEscape(false) };
    if (c === "^" || c === "$") throw new UntranslatableRegex("an anchor inside the pattern");
    if (c === ")" || c === "*" || c === "+" || c === "?" || c === "{" || c === "}" || c === "]" || c === "|")
      throw new UntranslatableRegex(`a stray \`${c}\``);
    const cp = this.src.codePointAt(this.pos)!;
    this.pos += cp > 0xffff ? 2 : 1;
    return { kind: "set", ranges: single(cp) };
  }

  /** After a backslash; inClass changes the meaning of \b. */
  private parseEscape(inClass: boolean): CharRanges {
    this.pos++;
    const c = this.src[this.pos++];
    if (c === undefined) throw new UntranslatableRegex("a trailing backslash");
    switch (c) {
      case "d":
        return DIGIT;
      case "D":
        return complement(DIGIT);
      case "w":
        return WORD;
      case "W":
        return complement(WORD);
      case "s":
        return SPACE;
      case "S":
        return complement(SPACE);
      case "n":
        return single(0x0a);
      case "r":
        return single(0x0d);
      case "t":
        return single(0x09);
      case "f":
        return single(0x0c);
      case "v":
        return single(0x0b);
      case "0":
        if (/[0-9]/.test(this.src[this.pos] ?? "")) throw new UntranslatableRegex("an octal escape");
        return single(0);
      case "b":
        if (inClass) return single(0x08);
        throw new UntranslatableRegex("a word boundary `\\b`");
      case "x": {
        const h = /^[0-9a-fA-F]{2}/.exec(this.src.slice(this.pos));
        if (!h) throw new UntranslatableRegex("a malformed `\\x` escape");
        this.pos += 2;
        return single(parseInt(h[0], 16));
      }
      case "u": {
        const braced = /^\{([0-9a-fA-F]{1,6})\}/.exec(this.src.slice(this.pos));
        if (braced) {
          this.pos += braced[0].length;
          return single(parseInt(braced[1], 16));
        }
        const h = /^[0-9a-fA-F]{4}/.exec(this.src.slice(this.pos));
        if (!h) throw new UntranslatableRegex("a malformed `\\u` escape");
        this.pos += 4;
        const cp = parseInt(h[0], 16);
        if (cp >= 0xd800 && cp <= 0xdfff) throw new UntranslatableRegex("a surrogate escape");
        return single(cp);
      }
      default:
        if (/[\^$\\.*+?()[\]{}|/-]/.test(c)) return single(c.codePointAt(0)!);
        // Other punctuation escaped (`\,` `\:` `\"`) is an error under the u flag; without it, as
        // pattern checks fall back to (see patternRegex), it is the character itself.
        if (/^[^\p{L}\p{N}_]$/u.test(c)) return single(c.codePointAt(0)!);
        throw new UntranslatableRegex(`the escape \`\\${c}\``);
    }
  }

  private parseClass(): CharRanges {
    this.pos++; // "["
    let negated = false;
    if (this.peek() === "^") {
      negated = true;
      this.pos++;
    }
    const ranges: CharRanges = [];
    let first = true;
    while (this.peek() !== "]" || first) {
      if (this.pos >= this.src.length) throw new UntranslatableRegex("an unterminated class");
      if (this.peek() === "]" && first) throw new UntranslatableRegex("an empty class");
      first = false;
      const lo = this.classAtom();
      if (this.peek() === "-" && this.src[this.pos + 1] !== "]" && this.pos + 1 < this.src.length) {
        this.pos++;
        const hi = this.classAtom();
        if (lo.length !== 1 || hi.length !== 1 || lo[0][0] !== lo[0][1] || hi[0][0] !== hi[0][1])
          throw new UntranslatableRegex("a class range between sets");
        if (hi[0][0] < lo[0][0]) throw new UntranslatableRegex("a class range out of order");
        ranges.push([lo[0][0], hi[0][0]]);
      } else ranges.push(...lo);
    }
    this.pos++; // "]"
    return negated ? complement(ranges) : normalize(ranges);
  }

  private classAtom(): CharRanges {
    if (this.peek() === "\\") return this.parseEscape(true);
    if (this.peek() === "[") throw new UntranslatableRegex("a nested class");
    const cp = this.src.codePointAt(this.pos)!;
    this.pos += cp > 0xffff ? 2 : 1;
    return single(cp);
  }
}

/** Parentheses must pair up (outside classes and escapes); reported before anything else. */
function checkBalance(src: string): void {
  let open = 0;
  let inClass = false;
  for (let i = 0; i < src.length; i++) {
    const c = src[i];
    if (c === "\\") i++;
    else if (inClass) inClass = c !== "]";
    else if (c === "[") inClass = true;
    else if (c === "(") open++;
    else if (c === ")" && --open < 0) throw new UntranslatableRegex("an unbalanced parenthesis (a `)` without its `(`)");
  }
  if (inClass) throw new UntranslatableRegex("an unterminated class");
  if (open > 0) throw new UntranslatableRegex("an unbalanced parenthesis (a `(` without its `)`)");
}

export function parseRegex(source: string): AnchoredBranch[] {
  return new RegexParser(source).parseTop();
}

/** Shortest and longest match in code points (Infinity when unbounded). */
export function lengthRange(node: RegexNode): [number, number] {
  switch (node.kind) {
    case "set":
      return [1, 1];
    case "seq":
      return node.items.reduce<[number, number]>(
        (acc, item) => {
          const [a, b] = lengthRange(item);
          return [acc[0] + a, acc[1] + b];
        },
        [0, 0],
      );
    case "alt": {
      const ranges = node.options.map(lengthRange);
      return [Math.min(...ranges.map((r) => r[0])), Math.max(...ranges.map((r) => r[1]))];
    }
    case "repeat": {
      const [a, b] = lengthRange(node.item);
      return [a * node.min, b === 0 ? 0 : b * node.max];
    }
  }
}

/**
 * A node whose language is a subset of `node`'s with every match length in [lo, hi], or null when
 * that cannot be guaranteed by narrowing quantifiers.
 */
export function boundLength(node: RegexNode, lo: number, hi: number): RegexNode | null {
  if (++narrowing.steps > MAX_NARROWING_STEPS || narrowing.depth > MAX_NARROWING_DEPTH) throw new UntranslatableRegex("quantifiers too intricate to narrow to the string's length bounds");
  narrowing.depth++;
  try {
    return boundLengthOnce(node, lo, hi);
  } finally {
    narrowing.depth--;
  }
}

/**
 * Work done by the current narrowing; bounded so that no pattern can exhaust time or the stack.
 * `lossy` records that some narrowing left out strings of the allowed lengths (two unbounded pieces
 * sharing one length bound, or a repeated item of varying length), so the result is not exact.
 */
const narrowing = { steps: 0, depth: 0, lossy: false };
const MAX_NARROWING_STEPS = 20_000;
const MAX_NARROWING_DEPTH = 200;

/** Starts a fresh work budget for one pattern. */
export function resetNarrowing(): void {
  narrowing.steps = 0;
  narrowing.depth = 0;
  narrowing.lossy = false;
}

/** True when the narrowing since the last reset left out some strings of the allowed lengths. */
export function narrowingWasLossy(): boolean {
  return narrowing.lossy;
}

function boundLengthOnce(node: RegexNode, lo: number, hi: number): RegexNode | null {
  const [min, max] = lengthRange(node);
  if (min >= lo && max <= hi) return node;
  if (min > hi || max < lo) return null;
  switch (node.kind) {
    case "set":
      return null;
    case "alt": {
      const options = node.options.map((o) => boundLength(o, lo, hi)).filter((o): o is RegexNode => o !== null);
      return options.length === 0 ? null : options.length === 1 ? options[0] : { kind: "alt", options };
    }
    case "seq":
      return boundSequence(node.items, lo, hi);
    case "repeat": {
      const [imin, imax] = lengthRange(node.item);
      if (imax === 0) return lo === 0 ? node : null;
      if (node.max === 1) {
        const item = boundLength(node.item, lo, hi);
        if (node.min === 1 || lo > 0) return item;
        return item ? { kind: "repeat", item, min: 0, max: 1 } : { kind: "seq", items: [] };
      }
      if (imin === imax) {
        const cMin = Math.max(node.min, Math.ceil(lo / imin));
        const cMax = Math.min(node.max, Math.floor(hi / imin));
        return cMin > cMax ? null : { kind: "repeat", item: node.item, min: cMin, max: cMax };
      }
      if (hi < imin) return lo <= 0 && node.min === 0 ? { kind: "seq", items: [] } : null;
      // Variable-length item repeated a few times: unroll (x x (x (x)?)?) so the sequence split stays exact.
      const most = imin > 0 ? Math.min(node.max, Math.floor(hi / imin)) : node.max;
      if (most <= 8 && most >= node.min) {
        let tail: RegexNode = { kind: "seq", items: [] };
        for (let k = most - node.min; k > 0; k--) tail = { kind: "repeat", item: { kind: "seq", items: [node.item, tail] }, min: 0, max: 1 };
        const unrolled: RegexNode = { kind: "seq", items: [...Array.from({ length: node.min }, () => node.item), tail] };
        return boundSequence(unrolled.kind === "seq" ? unrolled.items : [unrolled], lo, hi);
      }
      // Variable-length item: bound each iteration by hi, then choose counts that keep the total inside.
      const item = boundLength(node.item, imin, Math.min(imax, hi));
      if (!item) return null;
      const [bmin, bmax] = lengthRange(item);
      const cMax = Math.min(node.max, bmin === 0 ? node.max : Math.floor(hi / bmin), Math.floor(hi / bmax));
      if (cMax < Math.min(node.max, bmin === 0 ? node.max : Math.floor(hi / bmin))) narrowing.lossy = true;
      if (bmin === 0 && lo > 0) return null;
      const cMin = Math.max(node.min, bmin === 0 ? 0 : Math.ceil(lo / bmin));
      // Longer iterations reach lo in fewer: requiring lo / bmin of them leaves those strings out.
      if (bmin !== bmax && cMin > Math.max(node.min, Math.ceil(lo / bmax))) narrowing.lossy = true;
      if (cMin > cMax || cMax === Infinity) return null;
      return { kind: "repeat", item, min: cMin, max: cMax };
    }
  }
}

/** Splits on the first item's length when it has at most this many possible lengths. */
const MAX_LENGTH_SPLIT = 32;

/**
 * A sequence narrowed to total lengths [lo, hi]. Exact when at most one item has a wide length range
 * (the others are split by their length); otherwise the room above the minimums is shared out in
 * order, which stays sound but may drop some strings.
 */
function boundSequence(items: RegexNode[], lo: number, hi: number): RegexNode | null {
  if (items.length === 0) return lo <= 0 && hi >= 0 ? { kind: "seq", items: [] } : null;
  if (items.length === 1) return boundLength(items[0], lo, hi);
  const [first, ...rest] = items;
  const [amin, amax] = lengthRange(first);
  const [rmin, rmax] = lengthRange({ kind: "seq", items: rest });
  const join = (a: RegexNode, b: RegexNode): RegexNode => ({ kind: "seq", items: [a, ...(b.kind === "seq" ? b.items : [b])] });
  if (rmin === rmax) {
    const a = boundLength(first, lo - rmin, hi - rmin);
    return a ? join(a, { kind: "seq", items: rest }) : null;
  }
  const top = Math.min(amax, hi - rmin);
  if (top - amin + 1 <= MAX_LENGTH_SPLIT) {
    const options: RegexNode[] = [];
    for (let len = amin; len <= top; len++) {
      const a = boundLength(first, len, len);
      const b = a && boundSequence(rest, lo - len, hi - len);
      if (a && b) options.push(join(a, b));
    }
    return options.length === 0 ? null : options.length === 1 ? options[0] : { kind: "alt", options };
  }
  void rmax;
  const ranges = items.map(lengthRange);
  const mins = ranges.map((r) => r[0]);
  const maxs = ranges.map((r) => Math.min(r[1], hi));
  let slack = hi - mins.reduce((sum, x) => sum + x, 0);
  if (slack < 0) return null;
  // Items with a finite maximum get their full room first; unbounded ones share what is left.
  const order = [...items.keys()].sort((x, y) => Number(ranges[x][1] === Infinity) - Number(ranges[y][1] === Infinity));
  for (const i of order) {
    const grant = Math.min(maxs[i] - mins[i], slack);
    maxs[i] = mins[i] + grant;
    slack -= grant;
  }
  let deficit = lo - mins.reduce((sum, x) => sum + x, 0);
  // Raising one item's minimum leaves out strings whose length another item could have supplied.
  if (deficit > 0 && maxs.filter((m, i) => m > mins[i]).length > 1) narrowing.lossy = true;
  for (let i = 0; i < mins.length && deficit > 0; i++) {
    const raise = Math.min(maxs[i] - mins[i], deficit);
    mins[i] += raise;
    deficit -= raise;
  }
  if (deficit > 0) return null;
  // An item denied room it could use on its own (the others at their minimums) loses strings.
  const least = mins.reduce((a, b) => a + b, 0);
  if (ranges.some((r, i) => maxs[i] < Math.min(r[1], hi - (least - mins[i])))) narrowing.lossy = true;
  const out: RegexNode[] = [];
  for (let i = 0; i < items.length; i++) {
    const b = boundLength(items[i], mins[i], maxs[i]);
    if (!b) return null;
    out.push(b);
  }
  return { kind: "seq", items: out };
}

/** The node with each unbounded quantifier capped at `k` more repetitions than its minimum. */
export function capQuantifiers(node: RegexNode, k: number): RegexNode {
  switch (node.kind) {
    case "set":
      return node;
    case "seq":
      return { kind: "seq", items: node.items.map((i) => capQuantifiers(i, k)) };
    case "alt":
      return { kind: "alt", options: node.options.map((o) => capQuantifiers(o, k)) };
    case "repeat":
      return { kind: "repeat", item: capQuantifiers(node.item, k), min: node.min, max: node.max === Infinity ? node.min + k : node.max };
  }
}

/** A node whose language is this one's without the empty string (null when only the empty string is left). */
export function withoutEmpty(node: RegexNode): RegexNode | null {
  if (lengthRange(node)[0] > 0) return node;
  switch (node.kind) {
    case "set":
      return node;
    case "alt": {
      const options = node.options.map(withoutEmpty).filter((o): o is RegexNode => o !== null);
      return options.length === 0 ? null : options.length === 1 ? options[0] : { kind: "alt", options };
    }
    case "seq": {
      // Every item can be empty: the first non-empty item decides, what follows stays as it is.
      const options: RegexNode[] = [];
      node.items.forEach((item, i) => {
        const first = withoutEmpty(item);
        if (first) options.push({ kind: "seq", items: [first, ...node.items.slice(i + 1)] });
      });
      return options.length === 0 ? null : options.length === 1 ? options[0] : { kind: "alt", options };
    }
    case "repeat": {
      // (x){m,n} with x nullable: the empty iterations add nothing, so (x minus empty){1,n}.
      const item = withoutEmpty(node.item);
      return item && node.max > 0 ? { kind: "repeat", item, min: 1, max: node.max } : null;
    }
  }
}
