/**
 * A JSON object key that is none of the declared names, so extra keys (additionalProperties) can
 * never collide with a declared property. Key characters are written raw or with a short escape;
 * `\u` only spells a control character, in JSON.stringify's one form, which keeps every encoding of
 * a declared name excluded.
 */
import { alt, cls, lit, rep, seq, type GbnfExpr } from "./gbnf-ast";
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

/** One key character whose decoded code point is not in `excluded`. */
function keyCharExcept(excluded: number[]): GbnfExpr {
  const raw = complement(normalize([...NEVER_RAW, ...excluded.map((c) => [c, c] as [number, number])]));
  const escapes = SHORT.filter(([, cp]) => !excluded.includes(cp)).map(([c]) => c);
  const controls = CONTROL_ESCAPES.filter(([, cp]) => !excluded.includes(cp)).map(([text]) => ({ text, then: seq() }));
  const rawClass = cls(complement(raw), true);
  const afterBackslash: GbnfExpr[] = [];
  if (escapes.length) afterBackslash.push(cls(escapes.map((c) => [c.charCodeAt(0), c.charCodeAt(0)] as [number, number])));
  if (controls.length) afterBackslash.push(literalChoice(controls));
  return afterBackslash.length ? alt(rawClass, seq(lit("\\"), alt(...afterBackslash))) : rawClass;
}

/** The canonical JSON encoding of one character inside a string. */
function encodeChar(ch: string): string {
  return JSON.stringify(ch).slice(1, -1);
}

/** Sub-trie numbering per rule set (see extraKey). */
const subTries = new WeakMap<RuleSet, Map<string, number>>();

/** Sub-tries of at least this many nodes become shared rules. */
const SHARED_SUBTRIE = 8;

interface Trie {
  terminal: boolean;
  children: Map<string, Trie>;
}

/** `"..."` for any key of at most maxChars characters that is not one of `names`. */
export function extraKey(rules: RuleSet, names: string[], maxChars: number): GbnfExpr {
  const key = `extra-key|${maxChars}|${JSON.stringify([...names].sort())}`;
  const known = rules.lookup(key);
  if (known) return known;
  const root: Trie = { terminal: false, children: new Map() };
  for (const name of names) {
    let node = root;
    for (const ch of name) {
      let next = node.children.get(ch);
      if (!next) {
        next = { terminal: false, children: new Map() };
        node.children.set(ch, next);
      }
      node = next;
    }
    node.terminal = true;
  }
  const anyChar = rules.lookup("key-char|") ?? rules.add("key-char", keyCharExcept([]), "key-char|");
  // Sub-tries written alike (the same remaining names, the same length budget) are one shared rule:
  // objects that declare mostly the same names (schemas built by inheritance) share their key rules.
  // Each sub-trie gets a number equal for sub-tries written alike, interned per rule set.
  let interned = subTries.get(rules);
  if (!interned) {
    interned = new Map();
    subTries.set(rules, interned);
  }
  const ids = interned;
  const canon = new Map<Trie, { text: string; size: number }>();
  const describe = (node: Trie): { text: string; size: number } => {
    const known = canon.get(node);
    if (known) return known;
    let shape = node.terminal ? "$" : "";
    let size = 1;
    for (const ch of [...node.children.keys()].sort()) {
      const d = describe(node.children.get(ch)!);
      shape += `${JSON.stringify(ch)}${d.text};`;
      size += d.size;
    }
    let id = ids.get(shape);
    if (id === undefined) {
      id = ids.size;
      ids.set(shape, id);
    }
    const out = { text: `#${id}`, size };
    canon.set(node, out);
    return out;
  };
  const walk = (node: Trie, budget: number): GbnfExpr | null => {
    const d = node.children.size ? describe(node) : null;
    if (!d || d.size < SHARED_SUBTRIE || node === root) return walkHere(node, budget);
    const subKey = `extra-key-sub|${budget}|${d.text}`;
    const known = rules.lookup(subKey);
    if (known) return known;
    const body = walkHere(node, budget);
    return body && rules.add("extra-key-part", body, subKey);
  };
  const walkHere = (node: Trie, budget: number): GbnfExpr | null => {
    const options: GbnfExpr[] = [];
    if (!node.terminal) options.push(seq());
    if (budget > 0) {
      const excluded = [...node.children.keys()].map((c) => c.codePointAt(0)!);
      const charKey = `key-char|${[...excluded].sort((x, y) => x - y).join(",")}`;
      const other = excluded.length ? (rules.lookup(charKey) ?? rules.add("key-char", keyCharExcept(excluded), charKey)) : anyChar;
      options.push(seq(other, rep(anyChar, 0, budget - 1)));
      for (const [ch, child] of node.children) {
        const rest = walk(child, budget - 1);
        if (rest) options.push(seq(lit(encodeChar(ch)), rest));
      }
    }
    return options.length ? alt(...options) : null;
  };
  const body = walk(root, maxChars) ?? seq();
  return rules.add("extra-key", seq(lit('"'), body, lit('"')), key);
}
