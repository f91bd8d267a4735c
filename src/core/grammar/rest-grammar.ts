/**
 * The grammar of what may follow a text: from a walker position (its parse stacks), GBNF whose language is every
 * continuation the original grammar admits there. A server that only constrains from the root of a grammar
 * (llama-server) can then go on from a partial reply sent as part of the prompt.
 */
import type { CharElem, Frame } from "./recognizer";
import type { WalkPosition } from "./gbnf-walker";

/** A rule of the walker's flattened grammar (the recognizer's shape, read structurally). */
interface RuleShape {
  alts: ReadonlyArray<SeqShape>;
}
interface SeqShape {
  elems: ReadonlyArray<ElemShape>;
}
type ElemShape = CharElem | { t: 1; rule: RuleShape } | { t: 2; rule: RuleShape; min: number; max: number };

/** GBNF for the continuations of `pos`; the empty text is admitted when `pos` is already a whole sentence. */
export function restGrammar(pos: WalkPosition): string {
  return new RestPrinter().print(pos);
}

class RestPrinter {
  private readonly ruleNames = new Map<RuleShape, string>();
  private readonly pending: RuleShape[] = [];
  /** Continuation rules by frame id (stacks share their parents). */
  private readonly continuations = new Map<number, string>();
  private readonly lines: string[] = [];

  print(pos: WalkPosition): string {
    const alts = (pos.threads as Frame[]).map((f) => this.line(f.seq as SeqShape, f.i, f.n, this.continuation(f.parent)));
    const body = alts.length === 0 ? '""' : alts.map((a) => a || '""').join(" | ");
    const root = `root ::= ${pos.accepted && alts.length > 0 ? `(${body})?` : body}`;
    while (this.pending.length > 0) {
      const rule = this.pending.pop()!;
      this.lines.push(`${this.ruleNames.get(rule)} ::= ${rule.alts.map((s) => this.line(s, 0, 0, null) || '""').join(" | ")}`);
    }
    return [root, ...this.lines].join("\n") + "\n";
  }

  /** The name of the rule for what follows once frame `p`'s current element is done; null at the root's end. */
  private continuation(p: Frame | null): string | null {
    if (!p) return null;
    const known = this.continuations.get(p.id);
    if (known) return known;
    const name = `k${p.id}`;
    this.continuations.set(p.id, name);
    const seq = p.seq as SeqShape;
    const el = seq.elems[p.i];
    // As the recognizer counts: one more round of a repetition, or the next element after a rule.
    const text =
      el.t === 2 ? this.line(seq, p.i, el.max === Infinity ? Math.min(p.n + 1, el.min) : p.n + 1, this.continuation(p.parent)) : this.line(seq, p.i + 1, 0, this.continuation(p.parent));
    this.lines.push(`${name} ::= ${text || '""'}`);
    return name;
  }

  /** Elements `from`.. of a sequence (the one at `from` with `done` rounds of its repetition done), then `then`. */
  private line(seq: SeqShape, from: number, done: number, then: string | null): string {
    const parts: string[] = [];
    for (let i = from; i < seq.elems.length; i++) {
      const el = seq.elems[i];
      if (el.t === 0) parts.push(charClass(el));
      else if (el.t === 1) parts.push(this.ruleName(el.rule));
      else {
        const n = i === from ? done : 0;
        const min = Math.max(0, el.min - n);
        const max = el.max === Infinity ? Infinity : el.max - n;
        if (max > 0) parts.push(`${this.ruleName(el.rule)}{${min},${max === Infinity ? "" : max}}`);
      }
    }
    if (then) parts.push(then);
    return parts.join(" ");
  }

  private ruleName(rule: RuleShape): string {
    let name = this.ruleNames.get(rule);
    if (!name) {
      name = `r${this.ruleNames.size}`;
      this.ruleNames.set(rule, name);
      this.pending.push(rule);
    }
    return name;
  }
}

function charClass(el: CharElem): string {
  if (el.ranges.length === 0) return el.negated ? "." : "[^\\x00-\\U0010FFFF]";
  if (!el.negated && el.ranges.length === 1 && el.ranges[0][0] === el.ranges[0][1]) return `"${escape(el.ranges[0][0], '"')}"`;
  const inner = el.ranges.map(([a, b]) => (a === b ? escape(a, "]") : `${escape(a, "]")}-${escape(b, "]")}`)).join("");
  return `[${el.negated ? "^" : ""}${inner}]`;
}

/** A code point as GBNF text inside a literal or class: plain ASCII as is, anything that could be read as syntax escaped. */
function escape(cp: number, quote: string): string {
  const ch = String.fromCodePoint(cp);
  if (/[A-Za-z0-9 _.,:;!?'#$%&*+=<>@{}()|~`/]/.test(ch) && ch !== quote) return ch;
  if (cp < 0x100) return `\\x${cp.toString(16).padStart(2, "0")}`;
  if (cp < 0x10000) return `\\u${cp.toString(16).padStart(4, "0")}`;
  return `\\U${cp.toString(16).padStart(8, "0")}`;
}
