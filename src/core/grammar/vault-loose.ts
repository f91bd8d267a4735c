/**
 * The loose twin of a grounded grammar, for an engine that checks every token itself. The vault's rules (paths,
 * note texts, tags: vault-paths.ts, note-text.ts, vault-tags.ts) become plain JSON string content, so the grammar an
 * engine compiles is the size of the plain envelope whatever the vault's size: llama.cpp copies its whole grammar
 * whenever a state is cloned and parses it for every fresh state, which made a 10,000-note trie cost more than the
 * tokens themselves. The loose grammar admits more than the grounded one; whoever uses it must hold the grounded one
 * itself (the engine host's walker does: every token is checked against the grounded grammar before it is
 * evaluated, forced-text-generator.ts), so the guarantee stays that of the grounded grammar.
 */
import { alt, chars, cls, lit, ref, rep, seq, type GbnfExpr, type GbnfGrammar } from "./gbnf-ast";
import { NOTE_TEXT_RULE_PREFIX } from "./note-text";
import { PATH_RULE_PREFIX } from "./vault-paths";
import { TAG_RULE } from "./vault-tags";

/** Name prefixes of the grounded rules. */
const GROUNDED_PREFIXES = [PATH_RULE_PREFIX, NOTE_TEXT_RULE_PREFIX, TAG_RULE.replace(/\d+$/, "")];

/** The rule that stands for every grounded rule in the loose grammar (no compiler-made rule starts with `vgl-`). */
export const LOOSE_RULE = "vgl-string";

/** Whether a rule is one of the vault's grounded rules. */
export function isGroundedRule(name: string): boolean {
  return GROUNDED_PREFIXES.some((p) => name.startsWith(p));
}

/**
 * JSON string content of any length, without the quotes: every character a JSON string may hold raw (DEL included,
 * as JSON.stringify leaves it) and every escape. Each grounded rule's text is JSON string content, so this admits it.
 */
const STRING_CONTENT: GbnfExpr = rep(
  alt(cls([[0x22, 0x22], [0x5c, 0x5c], [0x00, 0x1f]], true), seq(lit("\\"), alt(chars('"\\/bfnrt'), seq(lit("u"), rep(cls([[0x30, 0x39], [0x41, 0x46], [0x61, 0x66]]), 4, 4))))),
  0,
  Infinity,
);

/** The grammar with every grounded rule replaced by free JSON string content; null when it has none. */
export function looseGrounding(grammar: GbnfGrammar): GbnfGrammar | null {
  if (![...grammar.rules.keys()].some(isGroundedRule) || isGroundedRule(grammar.root)) return null;
  const rules = new Map<string, GbnfExpr>();
  for (const [name, body] of grammar.rules) if (!isGroundedRule(name)) rules.set(name, loosen(body));
  rules.set(LOOSE_RULE, STRING_CONTENT);
  return { root: grammar.root, rules };
}

function loosen(e: GbnfExpr): GbnfExpr {
  switch (e.kind) {
    case "ref":
      return isGroundedRule(e.name) ? ref(LOOSE_RULE) : e;
    case "seq":
      return { kind: "seq", items: e.items.map(loosen) };
    case "alt":
      return { kind: "alt", options: e.options.map(loosen) };
    case "repeat":
      return { ...e, item: loosen(e.item) };
    default:
      return e;
  }
}
