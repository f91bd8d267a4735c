/**
 * A choice between literal texts, factored into a prefix tree so llama.cpp keeps one live stack per
 * character instead of one per alternative (`"vault:` is matched once for every vault tool).
 */
import { EMPTY, alt, cls, isEmpty, lit, seq, type GbnfExpr } from "./gbnf-ast";
import { normalize } from "./char-set";

/** One alternative: its literal text and what follows it. */
export interface LiteralBranch {
  text: string;
  then: GbnfExpr;
}

export function literalChoice(branches: LiteralBranch[]): GbnfExpr {
  return build(branches.map((b) => ({ chars: [...b.text], then: b.then })), 0);
}

function build(branches: Array<{ chars: string[]; then: GbnfExpr }>, at: number): GbnfExpr {
  const options: GbnfExpr[] = [];
  const groups = new Map<string, Array<{ chars: string[]; then: GbnfExpr }>>();
  for (const b of branches) {
    if (b.chars.length === at) {
      options.push(b.then);
      continue;
    }
    const c = b.chars[at];
    const group = groups.get(c) ?? [];
    group.push(b);
    groups.set(c, group);
  }
  // Alternatives that are one final character with nothing after them become a single class.
  const finals: number[] = [];
  for (const [, group] of groups) {
    if (group.length === 1 && group[0].chars.length === at + 1 && isEmpty(group[0].then)) {
      finals.push(group[0].chars[at].codePointAt(0)!);
      continue;
    }
    if (group.length === 1) {
      options.push(seq(lit(group[0].chars.slice(at).join("")), group[0].then));
      continue;
    }
    // Extend the shared prefix as far as every member of the group agrees.
    let end = at + 1;
    while (group.every((b) => b.chars.length > end && b.chars[end] === group[0].chars[end])) end++;
    options.push(seq(lit(group[0].chars.slice(at, end).join("")), build(group, end)));
  }
  if (finals.length === 1) options.push(lit(String.fromCodePoint(finals[0])));
  else if (finals.length > 1) options.push(cls(normalize(finals.map((c) => [c, c] as [number, number]))));
  return options.length ? alt(...options) : EMPTY;
}
