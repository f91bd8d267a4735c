/**
 * Object keys from a simple regular language — fixed characters, then a run of one class — that
 * are none of the declared names. This is what `patternProperties` and `propertyNames` patterns
 * usually are (`^[a-zA-Z0-9_]*$`, `^x-`, `.*`); keys are written raw, or with JSON.stringify's one
 * escape for `"`, `\` and control characters, so a declared name can never come back as an extra key.
 */
import { alt, cls, lit, seq, type GbnfExpr } from "./gbnf-ast";
import { complement, contains, intersect, normalize, type CharRanges } from "./char-set";
import { boundedRepeat } from "./bounded-repeat";
import { literalChoice } from "./literal-choice";
import { parseRegex, UntranslatableRegex, type RegexNode } from "./regex";
import type { RuleSet } from "./rule-set";

/** Keys: `fixed[i]` at position i, then up to `tailMax` characters of `tail`. */
export interface KeyLanguage {
  fixed: CharRanges[];
  tail: CharRanges;
  tailMax: number;
  /** Keys left out of the language. */
  excluded?: string[];
}

const ANY: CharRanges = [[0, 0x10ffff]];

/** Every key of at most maxChars characters. */
export function anyKeyLanguage(maxChars: number): KeyLanguage {
  return { fixed: [], tail: ANY, tailMax: maxChars };
}

/** Length bounds applied to a key language (null when no key fits). */
export function boundKeyLanguage(l: KeyLanguage, minLength: number, maxLength: number): KeyLanguage | null {
  if (l.fixed.length > maxLength) return null;
  const tailMax = Math.min(l.tailMax, maxLength - l.fixed.length);
  const needed = minLength - l.fixed.length;
  if (needed <= 0) return { ...l, tailMax };
  if (needed > tailMax) return null;
  return { fixed: [...l.fixed, ...Array.from({ length: needed }, () => l.tail)], tail: l.tail, tailMax: tailMax - needed };
}

/**
 * The key language of a pattern, within maxChars characters; null when the pattern is not of the
 * simple form. `exact` is false when the language is only a part of the pattern's (an unanchored
 * start is read as anchored): keys from it all match, some matching keys are left out.
 */
export function keyLanguageOf(pattern: string, maxChars: number): (KeyLanguage & { exact: boolean }) | null {
  const branches = parsedOrNull(pattern);
  if (branches === null) return null;
  if (branches.length !== 1) return null;
  const { start, end } = branches[0];
  const node = unwrap(branches[0].node);
  const items = (node.kind === "seq" ? node.items : [node]).map(unwrap);
  if (!start && (items.length === 0 || (items.length === 1 && matchesAnything(items[0])))) return { ...anyKeyLanguage(maxChars), exact: true };
  const fixed: CharRanges[] = [];
  let i = 0;
  for (; i < items.length; i++) {
    const item = items[i];
    if (item.kind === "set") fixed.push(item.ranges);
    else if (item.kind === "repeat" && item.item.kind === "set" && item.min === item.max) for (let k = 0; k < item.min; k++) fixed.push(item.item.ranges);
    else break;
  }
  let tail: CharRanges = [];
  let tailMax = 0;
  if (i < items.length) {
    const r = items[i];
    if (r.kind !== "repeat" || r.item.kind !== "set") return null;
    for (let k = 0; k < r.min; k++) fixed.push(r.item.ranges);
    tail = r.item.ranges;
    tailMax = r.max - r.min;
    i++;
  }
  if (i < items.length) return null;
  if (!end) {
    // Unanchored end: anything may follow.
    tail = ANY;
    tailMax = Infinity;
  }
  if (fixed.length > maxChars) return null;
  return { fixed, tail, tailMax: Math.min(tailMax, maxChars - fixed.length), exact: start };
}

/** True when no key is in both languages (they differ in a fixed position with disjoint classes). */
export function disjointKeyLanguages(a: KeyLanguage, b: KeyLanguage): boolean {
  for (let i = 0; i < Math.min(a.fixed.length, b.fixed.length); i++) if (intersect(a.fixed[i], b.fixed[i]).length === 0) return true;
  return false;
}

/** A group of one item is that item (`([a-z])*` is `[a-z]*`). */
/** The pattern's branches, or null when it is outside the regex subset. */
function parsedOrNull(pattern: string): ReturnType<typeof parseRegex> | null {
  try {
    return parseRegex(pattern);
  } catch (err) {
    if (err instanceof UntranslatableRegex) return null;
    throw err;
  }
}

function unwrap(n: RegexNode): RegexNode {
  if (n.kind === "seq" && n.items.length === 1) return unwrap(n.items[0]);
  if (n.kind === "repeat") return { ...n, item: unwrap(n.item) };
  return n;
}

/** True for `.*`-like nodes that leave the language unconstrained when unanchored. */
function matchesAnything(n: RegexNode): boolean {
  return n.kind === "repeat" && n.min === 0;
}

/** True when the language holds every key up to its length cap. */
export function isEveryKey(l: KeyLanguage): boolean {
  return !l.excluded?.length && l.fixed.length === 0 && l.tail.length === 1 && l.tail[0][0] === 0 && l.tail[0][1] === 0x10ffff;
}

/** True when the key (a declared name) is in the language. */
export function keyInLanguage(l: KeyLanguage, key: string): boolean {
  if (l.excluded?.includes(key)) return false;
  const cps = [...key].map((c) => c.codePointAt(0)!);
  if (cps.length < l.fixed.length || cps.length > l.fixed.length + l.tailMax) return false;
  return cps.every((cp, i) => contains(i < l.fixed.length ? l.fixed[i] : l.tail, cp));
}

const SHORT = new Map<number, string>([
  [0x22, '"'],
  [0x5c, "\\"],
  [0x08, "b"],
  [0x0c, "f"],
  [0x0a, "n"],
  [0x0d, "r"],
  [0x09, "t"],
]);
const NEVER_RAW: CharRanges = [
  [0x00, 0x1f],
  [0x22, 0x22],
  [0x5c, 0x5c],
];

/** One key character of the set, in its one canonical spelling; null when the set is empty. */
export function keyChar(set: CharRanges): GbnfExpr | null {
  const options: GbnfExpr[] = [];
  const raw = intersect(set, complement(NEVER_RAW));
  if (raw.length) options.push(complement(raw).length < raw.length ? cls(complement(raw), true) : cls(raw));
  const escapes: string[] = [];
  for (const [a, b] of intersect(set, NEVER_RAW)) {
    for (let cp = a; cp <= b; cp++) escapes.push(SHORT.get(cp) ?? JSON.stringify(String.fromCharCode(cp)).slice(2, -1));
  }
  if (escapes.length) options.push(seq(lit("\\"), literalChoice(escapes.map((text) => ({ text, then: seq() })))));
  return options.length ? alt(...options) : null;
}

interface Trie {
  terminal: boolean;
  children: Map<number, Trie>;
}

const setKey = (set: CharRanges) => set.map(([a, b]) => `${a}-${b}`).join(",");

/** The names as a trie of code points. */
function nameTrie(names: string[]): Trie {
  const root: Trie = { terminal: false, children: new Map() };
  for (const name of names) {
    let node = root;
    for (const ch of name) {
      const cp = ch.codePointAt(0)!;
      let next = node.children.get(cp);
      if (!next) {
        next = { terminal: false, children: new Map() };
        node.children.set(cp, next);
      }
      node = next;
    }
    node.terminal = true;
  }
  return root;
}

/** One key character of the set, as a shared rule when it is more than a class or a literal. */
function keyCharRule(rules: RuleSet, set: CharRanges): GbnfExpr | null {
  const e = keyChar(set);
  return e && e.kind !== "class" && e.kind !== "literal" ? rules.add("key-char", e, `keychar|${setKey(set)}`) : e;
}

/** `"..."`: a key of the language that is none of `names`; null when no key qualifies. */
export function keyRule(rules: RuleSet, names0: string[], l0: KeyLanguage, name = "extra-key"): GbnfExpr | null {
  const names = [...names0, ...(l0.excluded ?? [])];
  const l: KeyLanguage = { fixed: l0.fixed, tail: l0.tail, tailMax: l0.tailMax };
  const root = nameTrie(names.filter((name) => keyInLanguage(l, name)));
  const charRule = (set: CharRanges) => keyCharRule(rules, set);
  const setAt = (pos: number): CharRanges | null => (pos < l.fixed.length ? l.fixed[pos] : pos - l.fixed.length < l.tailMax ? l.tail : null);
  // Any continuation from position pos on: the remaining fixed characters, then the tail run.
  const rest = (pos: number): GbnfExpr | null => {
    const items: GbnfExpr[] = [];
    for (let p = pos; p < l.fixed.length; p++) {
      const c = charRule(l.fixed[p]);
      if (!c) return null;
      items.push(c);
    }
    const room = l.tailMax - Math.max(0, pos - l.fixed.length);
    if (room > 0) {
      const c = charRule(l.tail);
      if (c) items.push(boundedRepeat(c, 0, room));
    }
    return seq(...items);
  };
  const walk = (node: Trie, pos: number): GbnfExpr | null => {
    const options: GbnfExpr[] = [];
    if (!node.terminal && pos >= l.fixed.length) options.push(seq());
    const here = setAt(pos);
    if (here) {
      const taken = normalize([...node.children.keys()].map((c) => [c, c] as [number, number]));
      const other = intersect(here, complement(taken));
      const c = other.length ? charRule(other) : null;
      const after = c && rest(pos + 1);
      if (c && after) options.push(seq(c, after));
      for (const [cp, child] of node.children) {
        const tail = walk(child, pos + 1);
        if (tail) options.push(seq(lit(JSON.stringify(String.fromCodePoint(cp)).slice(1, -1)), tail));
      }
    }
    return options.length ? alt(...options) : null;
  };
  const body = walk(root, 0);
  if (!body) return null;
  return rules.add(name, seq(lit('"'), body, lit('"')), `keylang|${l.fixed.map(setKey).join("/")}|${setKey(l.tail)}|${l.tailMax}|${JSON.stringify([...names].sort())}`);
}

/**
 * `"..."`: a key of at most maxChars characters that is in none of `langs` and none of `names`
 * (the keys additionalProperties governs beside patternProperties); null when no key qualifies. A
 * walk over positions that tracks which languages (and which declared names) a prefix may still
 * complete; once none can, any characters may follow.
 */
export function keyRuleOutside(rules: RuleSet, names: string[], langs: KeyLanguage[], maxChars: number): GbnfExpr | null {
  const root = nameTrie(names.filter((name) => [...name].length <= maxChars));
  const charRule = (set: CharRanges) => keyCharRule(rules, set);
  const setAt = (l: KeyLanguage, pos: number): CharRanges => (pos < l.fixed.length ? l.fixed[pos] : pos - l.fixed.length < l.tailMax ? l.tail : []);
  const acceptsAt = (l: KeyLanguage, pos: number) => pos >= l.fixed.length && pos <= l.fixed.length + l.tailMax;
  const trieIds = new Map<Trie, number>();
  const memo = new Map<string, GbnfExpr | null>();
  const walk = (pos: number, alive: number[], node: Trie | null): GbnfExpr | null => {
    if (alive.length === 0 && node === null) {
      const c = charRule(ANY);
      return pos < maxChars && c ? boundedRepeat(c, 0, maxChars - pos) : seq();
    }
    if (node && !trieIds.has(node)) trieIds.set(node, trieIds.size);
    const key = `${pos}|${alive.join(",")}|${node ? trieIds.get(node) : "-"}`;
    if (memo.has(key)) return memo.get(key)!;
    memo.set(key, null);
    const options: GbnfExpr[] = [];
    if (!alive.some((i) => acceptsAt(langs[i], pos)) && !node?.terminal) options.push(seq());
    if (pos < maxChars) {
      const named = node ? [...node.children.keys()] : [];
      for (const cp of named) {
        const next = walk(pos + 1, alive.filter((i) => contains(setAt(langs[i], pos), cp)), node!.children.get(cp)!);
        if (next) options.push(seq(lit(JSON.stringify(String.fromCodePoint(cp)).slice(1, -1)), next));
      }
      // The other characters, grouped by which languages they keep alive.
      const rest = intersect(ANY, complement(normalize(named.map((c) => [c, c] as [number, number]))));
      for (let mask = 0; mask < 1 << alive.length; mask++) {
        let set = rest;
        alive.forEach((i, b) => (set = intersect(set, mask & (1 << b) ? setAt(langs[i], pos) : complement(setAt(langs[i], pos)))));
        if (set.length === 0) continue;
        const c = charRule(set);
        const next = c && walk(pos + 1, alive.filter((_, b) => mask & (1 << b)), null);
        if (c && next) options.push(seq(c, next));
      }
    }
    const e = options.length === 0 ? null : options.length === 1 ? options[0] : rules.add("outside-key", alt(...options));
    memo.set(key, e);
    return e;
  };
  if (langs.length > MAX_OUTSIDE_LANGUAGES) throw new Error(`keyRuleOutside takes at most ${MAX_OUTSIDE_LANGUAGES} languages.`);
  const body = walk(0, langs.map((_, i) => i), root);
  return body && rules.add("outside-key", seq(lit('"'), body, lit('"')));
}

/** Patterns keyRuleOutside tells apart at once (2^n character groups per position). */
export const MAX_OUTSIDE_LANGUAGES = 6;

/**
 * The class C when an unanchored pattern is just "one character of C" (`[A-Za-z0-9_]`, `[a-z]+`,
 * `\w{1,255}`): a key matches exactly when it contains a character of C. Null otherwise.
 */
export function containedClassOf(pattern: string): CharRanges | null {
  const branches = parsedOrNull(pattern);
  if (branches === null) return null;
  if (branches.length !== 1 || branches[0].start || branches[0].end) return null;
  const node = unwrap(branches[0].node);
  if (node.kind === "set") return node.ranges;
  if (node.kind === "repeat" && node.item.kind === "set" && node.min === 1 && node.max >= 1) return node.item.ranges;
  return null;
}

/** Keys of at most maxChars characters, none of them in `set`. */
export function keysWithout(set: CharRanges, maxChars: number): KeyLanguage {
  return { fixed: [], tail: complement(set), tailMax: maxChars };
}
