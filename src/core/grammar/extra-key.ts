/**
 * A JSON object key that is none of the declared names, so extra keys (additionalProperties) can
 * never collide with a declared property. Key characters are written raw or with a short escape;
 * `\u` only spells a control character, in JSON.stringify's one form, which keeps every encoding of
 * a declared name excluded.
 */
import { EMPTY, alt, cls, lit, rep, seq, type GbnfExpr } from "./gbnf-ast";
import { complement, normalize, type CharRanges } from "./char-set";
import { literalChoice } from "./literal-choice";
import type { RuleSet } from "./rule-set";

const SHORT: Array<[string, number]> = [
  ['"', 0x22],
  ["\\", 0x5c],
  ["/", 0x2f],
  ["b", 0x08],
  ["f", 0x0c],
  ["n", 0x0a],
  ["r", 0x0d],
  ["t", 0x09],
];
const NEVER_RAW: CharRanges = [
  [0x00, 0x1f],
  [0x22, 0x22],
  [0x5c, 0x5c],
];

/**
 * Control characters without a short escape, written only as JSON.stringify writes them (`\u001f`,
 * lower-case), so each has one spelling and a declared name holding one stays excluded.
 */
const CONTROL_ESCAPES: Array<[string, number]> = [...Array(0x20).keys()]
  .filter((cp) => !SHORT.some(([, c]) => c === cp))
  .map((cp) => [JSON.stringify(String.fromCharCode(cp)).slice(2, -1), cp]);

/** The `u00..` spellings of the control characters not in `excluded`, by the ones kept (almost always all). */
const controlChoices = new Map<string, GbnfExpr>();

function controlChoice(excluded: number[]): GbnfExpr | null {
  const kept = CONTROL_ESCAPES.filter(([, cp]) => !excluded.includes(cp));
  if (!kept.length) return null;
  const key = kept.map(([, cp]) => cp).join(",");
  let e = controlChoices.get(key);
  if (e === undefined) {
    e = literalChoice(kept.map(([text]) => ({ text, then: seq() })));
    if (controlChoices.size > 100) controlChoices.clear();
    controlChoices.set(key, e);
  }
  return e;
}

/** One key character whose decoded code point is not in `excluded`. */
function keyCharExcept(excluded: number[]): GbnfExpr {
  const raw = complement(normalize([...NEVER_RAW, ...excluded.map((c) => [c, c] as [number, number])]));
  const escapes = SHORT.filter(([, cp]) => !excluded.includes(cp)).map(([c]) => c);
  const rawClass = cls(complement(raw), true);
  const afterBackslash: GbnfExpr[] = [];
  if (escapes.length) afterBackslash.push(cls(escapes.map((c) => [c.charCodeAt(0), c.charCodeAt(0)] as [number, number])));
  const controls = controlChoice(excluded);
  if (controls) afterBackslash.push(controls);
  return afterBackslash.length ? alt(rawClass, seq(lit("\\"), alt(...afterBackslash))) : rawClass;
}

/** keyCharExcept by excluded set: the same few sets recur in the key tries of every schema. */
const keyChars = new Map<string, GbnfExpr>();

function keyCharExceptShared(excluded: number[], key: string): GbnfExpr {
  let e = keyChars.get(key);
  if (e === undefined) {
    e = keyCharExcept(excluded);
    if (keyChars.size > 1000) keyChars.clear();
    keyChars.set(key, e);
  }
  return e;
}

/** The canonical JSON encoding of one character inside a string. */
function encodeChar(ch: string): string {
  return JSON.stringify(ch).slice(1, -1);
}

/** Sub-trie numbering per rule set (see extraKey). */
const subTries = new WeakMap<RuleSet, TrieNumbers>();

interface TrieNumbers {
  /** Shape text → number, children compared as a set (sub-tries that can share a rule). */
  sets: Map<string, number>;
  /** Shape text → number, children in their order (sub-tries whose expressions print alike). */
  orders: Map<string, number>;
}

function numberOf(numbers: Map<string, number>, shape: string): number {
  let id = numbers.get(shape);
  if (id === undefined) {
    id = numbers.size;
    numbers.set(shape, id);
  }
  return id;
}

/** Sub-tries of at least this many nodes become shared rules. */
const SHARED_SUBTRIE = 8;

interface Trie {
  terminal: boolean;
  /** Next characters, in the order the names were given (the order the grammar lists them). */
  chars: string[];
  /** The sub-trie after each of `chars`. */
  kids: Trie[];
  /** Equal for sub-tries holding the same names (-1 until described). */
  id: number;
  /** Equal for sub-tries holding the same names in the same order. */
  orderedId: number;
  /** Nodes in this sub-trie. */
  size: number;
}

function trieNode(): Trie {
  return { terminal: false, chars: [], kids: [], id: -1, orderedId: -1, size: 1 };
}

/** What one key trie's walk needs beside the node: the rules, the root, the any-character rule, the numbering. */
interface KeyWalk {
  rules: RuleSet;
  root: Trie;
  anyChar: GbnfExpr;
  numbers: TrieNumbers;
}

/** `"..."` for any key of at most maxChars characters that is not one of `names`. */
export function extraKey(rules: RuleSet, names: string[], maxChars: number): GbnfExpr {
  const key = `extra-key|${maxChars}|${JSON.stringify([...names].sort())}`;
  const known = rules.lookup(key);
  if (known) return known;
  const root = trieNode();
  for (const name of names) {
    let node = root;
    for (let i = 0; i < name.length; i++) {
      // One code point at a time (a surrogate pair is one character of the key).
      const cp = name.codePointAt(i)!;
      if (cp > 0xffff) i++;
      const ch = String.fromCodePoint(cp);
      const at = node.chars.indexOf(ch);
      let next: Trie;
      if (at >= 0) next = node.kids[at];
      else {
        next = trieNode();
        node.chars.push(ch);
        node.kids.push(next);
      }
      node = next;
    }
    node.terminal = true;
  }
  const anyChar = rules.lookup("key-char|") ?? rules.add("key-char", keyCharExceptShared([], "key-char|"), "key-char|");
  // Sub-tries written alike (the same remaining names, the same length budget) are one shared rule:
  // objects that declare mostly the same names (schemas built by inheritance) share their key rules.
  // Each sub-trie gets a number equal for sub-tries written alike, interned per rule set; a second
  // number, equal only when the names also come in the same order, lets a small sub-trie's inline
  // expression be reused as well.
  let numbers = subTries.get(rules);
  if (!numbers) {
    numbers = { sets: new Map(), orders: new Map() };
    subTries.set(rules, numbers);
  }
  // Plain functions over a state record rather than closures made per call: a closure's optimized
  // code is lost once the closure is collected, and every compile would start it cold again.
  const body = walk({ rules, root, anyChar, numbers }, root, maxChars) ?? seq();
  return rules.add("extra-key", seq(lit('"'), body, lit('"')), key);
}

/** Numbers a sub-trie and everything below it (see TrieNumbers). */
function describe(numbers: TrieNumbers, node: Trie): void {
  if (node.id >= 0) return;
  const mark = node.terminal ? "$" : "-";
  let ordered = mark;
  let size = 1;
  for (let k = 0; k < node.kids.length; k++) {
    const kid = node.kids[k];
    describe(numbers, kid);
    size += kid.size;
    ordered += `${node.chars[k]}${kid.orderedId};`;
  }
  let shape = mark;
  if (node.kids.length === 1) shape += `${node.chars[0]}${node.kids[0].id};`;
  else if (node.kids.length > 1) {
    const order = node.kids.map((_, k) => k).sort((a, b) => (node.chars[a] < node.chars[b] ? -1 : 1));
    for (const k of order) shape += `${node.chars[k]}${node.kids[k].id};`;
  }
  node.id = numberOf(numbers.sets, shape);
  node.orderedId = numberOf(numbers.orders, ordered);
  node.size = size;
}

/** The rest of a key from this node on, within `budget` more characters; null when none is left. */
function walk(w: KeyWalk, node: Trie, budget: number): GbnfExpr | null {
  if (node === w.root) return walkHere(w, node, budget);
  describe(w.numbers, node);
  const memoKey = `extra-key-walk|${budget}|${node.orderedId}`;
  const memo = w.rules.recall(memoKey);
  if (memo !== undefined) return memo;
  let out: GbnfExpr | null;
  if (node.size < SHARED_SUBTRIE) out = walkHere(w, node, budget);
  else {
    const subKey = `extra-key-sub|${budget}|#${node.id}`;
    const shared = w.rules.lookup(subKey);
    if (shared) out = shared;
    else {
      const body = walkHere(w, node, budget);
      out = body && w.rules.add("extra-key-part", body, subKey);
    }
  }
  w.rules.remember(memoKey, out);
  return out;
}

function walkHere(w: KeyWalk, node: Trie, budget: number): GbnfExpr | null {
  const options: GbnfExpr[] = [];
  if (!node.terminal) options.push(EMPTY);
  if (budget > 0) {
    let other = w.anyChar;
    if (node.chars.length) {
      const excluded = node.chars.map((c) => c.codePointAt(0)!).sort((x, y) => x - y);
      const charKey = `key-char|${excluded.join(",")}`;
      other = w.rules.lookup(charKey) ?? w.rules.add("key-char", keyCharExceptShared(excluded, charKey), charKey);
    }
    options.push(seq(other, rep(w.anyChar, 0, budget - 1)));
    for (let k = 0; k < node.kids.length; k++) {
      const rest = walk(w, node.kids[k], budget - 1);
      if (rest) options.push(seq(lit(encodeChar(node.chars[k])), rest));
    }
  }
  return options.length ? alt(...options) : null;
}
