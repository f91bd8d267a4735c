/**
 * The grammar of an edit proposal over one region (a selection or a section):
 *
 *   {"edits":[{"find":"<unit>","replace":"<text>"}, …]}   or   {"rewrite":"<text>"}
 *
 * where each `<unit>` can only be one of the region's units (its sentences or lines, units.ts), JSON-escaped. The
 * units are one choice factored into a prefix tree (literal-choice.ts), so llama.cpp keeps one live parse per shared
 * prefix and the grammar grows linearly with the region: its size is bounded by the region's JSON-escaped text plus a
 * few dozen bytes a unit, and MAX_REGION_CHARS caps the region. Every edit a model can produce quotes text that is
 * there; applyReply places repeated or out-of-order quotes (proposal.ts), so every proposal applies.
 */
import { alt, lit, seq, type GbnfExpr } from "../grammar/gbnf-ast";
import { boundedRepeat } from "../grammar/bounded-repeat";
import { printGbnf } from "../grammar/gbnf-printer";
import { jsonString } from "../grammar/json-text";
import { literalChoice } from "../grammar/literal-choice";
import { RuleSet } from "../grammar/rule-set";
import type { EditUnit } from "./units";

/** Regions longer than this (characters) are refused with a sentence: select less. */
export const MAX_REGION_CHARS = 60_000;
/** Edits in one proposal at most. */
export const MAX_EDITS = 200;

export interface EditGrammarOptions {
  /** Longest replacement of one unit, in characters; default 4× the unit (rounded up to a power of two), at least 64, at most 2,048. */
  maxReplaceChars?: number;
  /** Longest rewrite of the whole region; default 2× the region plus 200 (rounded up), at most 16,384. */
  maxRewriteChars?: number;
  /** Offer the whole-region rewrite; default true. */
  rewrite?: boolean;
}

export interface EditGrammar {
  gbnf: string;
  /** The same constraint as a JSON Schema (`find` an enum of the units), for engines that constrain through a server's JSON Schema support. */
  jsonSchema: Record<string, unknown>;
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
  const replaceCap = (u: EditUnit) => options.maxReplaceChars ?? Math.min(2048, bucket(Math.max(64, u.text.length * 4)));
  const choices: GbnfExpr[] = [];
  // A JSON string character takes at most 6 bytes (a \u escape).
  let editBytes = 0;
  const seen = new Map<string, number>();
  for (const u of units) seen.set(u.text, Math.max(seen.get(u.text) ?? 0, replaceCap(u)));
  if (seen.size > 0) {
    const branches = [...seen].map(([text, cap]) => {
      editBytes = Math.max(editBytes, utf8Bytes(JSON.stringify(text)) + 24 + 6 * cap);
      return { text: JSON.stringify(text), then: seq(lit(',"replace":'), jsonString(rules, 0, cap), lit("}")) };
    });
    const edit = rules.add("edit", seq(lit('{"find":'), literalChoice(branches)));
    const most = Math.min(MAX_EDITS, units.length);
    choices.push(seq(lit('{"edits":['), alt(lit("]}"), seq(edit, boundedRepeat(seq(lit(","), edit), 0, most - 1), lit("]}")))));
    editBytes = 12 + most * (editBytes + 1);
  } else choices.push(lit('{"edits":[]}'));
  let rewriteBytes = 0;
  if (options.rewrite !== false) {
    const cap = options.maxRewriteChars ?? Math.min(16_384, bucket(region.length * 2 + 200));
    rewriteBytes = 14 + 6 * cap;
    choices.push(seq(lit('{"rewrite":'), jsonString(rules, 0, cap), lit("}")));
  }
  return { gbnf: printGbnf(rules.grammar(alt(...choices))), jsonSchema: editJsonSchema(units, options), maxBytes: Math.max(editBytes, rewriteBytes) };
}

function editJsonSchema(units: EditUnit[], options: EditGrammarOptions): Record<string, unknown> {
  const texts = [...new Set(units.map((u) => u.text))];
  const edit = { type: "object", properties: { find: { enum: texts }, replace: { type: "string" } }, required: ["find", "replace"], additionalProperties: false };
  const edits = { type: "object", properties: { edits: { type: "array", items: edit, maxItems: Math.min(MAX_EDITS, units.length) } }, required: ["edits"], additionalProperties: false };
  if (options.rewrite === false) return edits;
  return { anyOf: [edits, { type: "object", properties: { rewrite: { type: "string" } }, required: ["rewrite"], additionalProperties: false }] };
}

function utf8Bytes(text: string): number {
  let n = 0;
  for (const ch of text) {
    const cp = ch.codePointAt(0)!;
    n += cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
  }
  return n;
}
