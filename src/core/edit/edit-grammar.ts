/**
 * The grammar of an edit proposal over one region (a selection or a section):
 *
 *   {"edits":[{"find":"<unit>","replace":"<text>"}, …]}   or   {"rewrite":"<text>"}
 *
 * where each `<unit>` can only be one of the region's units (sentences or lines, units.ts), JSON-escaped, and the
 * units of one proposal come in document order, each at most once. So every edit a model can produce quotes text
 * that is there, at a place that does not overlap another edit: it always applies.
 *
 * The order is a chain of rules, `from-i ::= edit-i after-i | from-(i+1)` and `after-i ::= "]}" | "," from-(i+1)`:
 * each unit's text is printed once, so the grammar grows linearly with the region (bound: its JSON-escaped length
 * plus about 80 bytes a unit; MAX_REGION_CHARS caps the region).
 */
import { alt, lit, seq, type GbnfExpr } from "../grammar/gbnf-ast";
import { printGbnf } from "../grammar/gbnf-printer";
import { jsonString } from "../grammar/json-text";
import { RuleSet } from "../grammar/rule-set";
import type { EditUnit } from "./units";

/** Regions longer than this (characters) are refused with a sentence: select less. */
export const MAX_REGION_CHARS = 60_000;

export interface EditGrammarOptions {
  /** Longest replacement of one unit, in characters; default 4× the unit, at least 64, at most 2,000. */
  maxReplaceChars?: number;
  /** Longest rewrite of the whole region; default 2× the region plus 200, at most 16,000. */
  maxRewriteChars?: number;
  /** Offer the whole-region rewrite; default true. */
  rewrite?: boolean;
}

export interface EditGrammar {
  gbnf: string;
  /** Upper bound of the reply's UTF-8 bytes. */
  maxBytes: number;
}

/** A cap rounded up to a power of two, so units of similar length share one string rule. */
function bucket(n: number): number {
  let b = 16;
  while (b < n) b *= 2;
  return b;
}

export function compileEditGrammar(region: string, units: EditUnit[], options: EditGrammarOptions = {}): EditGrammar {
  if (region.length > MAX_REGION_CHARS) throw new Error(`The text to edit is ${region.length} characters long, over the ${MAX_REGION_CHARS}-character limit; select a part of it.`);
  const rules = new RuleSet();
  const replaceCap = (u: EditUnit) => options.maxReplaceChars ?? Math.min(2000, bucket(Math.max(64, u.text.length * 4)));
  const options_: GbnfExpr[] = [];
  // Bytes: a JSON string character takes at most 6 (a \u escape); the chain's edits all together bound the list.
  let editBytes = 12;
  let rewriteBytes = 0;
  if (units.length > 0) {
    // Built from the last unit back, so each rule refers to the one after it.
    let next: GbnfExpr | null = null;
    const close = lit("]}");
    for (let i = units.length - 1; i >= 0; i--) {
      const u = units[i];
      const after = next ? alt(close, seq(lit(","), next)) : close;
      editBytes += utf8Bytes(JSON.stringify(u.text)) + 24 + 6 * replaceCap(u);
      const edit = seq(lit('{"find":' + JSON.stringify(u.text) + ',"replace":'), jsonString(rules, 0, replaceCap(u)), lit("}"), after);
      next = rules.add(`from-${i}`, next ? alt(edit, next) : edit);
    }
    options_.push(seq(lit('{"edits":['), alt(lit("]}"), next!)));
  } else options_.push(lit('{"edits":[]}'));
  if (options.rewrite !== false) {
    const cap = options.maxRewriteChars ?? Math.min(16_000, bucket(region.length * 2 + 200));
    rewriteBytes = 14 + 6 * cap;
    options_.push(seq(lit('{"rewrite":'), jsonString(rules, 0, cap), lit("}")));
  }
  return { gbnf: printGbnf(rules.grammar(alt(...options_))), maxBytes: Math.max(editBytes, rewriteBytes) };
}

function utf8Bytes(text: string): number {
  let n = 0;
  for (const ch of text) {
    const cp = ch.codePointAt(0)!;
    n += cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
  }
  return n;
}
