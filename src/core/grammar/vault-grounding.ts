/**
 * Grounded envelope grammars: the subset's envelope compiled once per (tools, mode, notes in context) with
 * placeholders, then joined with the vault's path rules (rebuilt only for folders that changed) and the text rules of
 * the notes in context (one per note text). Its byte bound is the plain envelope's plus every grounded value at its
 * longest (the plain one may come from clamped, shorter strings). A rename is a new vault version: the very next round's grammar names the
 * new path and not the old one.
 */
import type { GroundingContext } from "../ports/agent";
import { compileEnvelopeGrammar } from "./envelope";
import { absentKinds, substitutePlaceholders, type EnvelopeGrounding } from "./grounded-args";
import { noteTextRules } from "./note-text";
import { resolveGrammarOptions, type CompiledGrammar, type GrammarOptions, type GrammarTool } from "./types";
import { VaultPathIndex, jsonContent, utf8Bytes } from "./vault-paths";
import type { VaultTagSet } from "./vault-tags";
import { fnv1a36 } from "../text/fnv";

/** Notes in context grounded at most (the most recent ones). */
export const MAX_GROUNDED_NOTES = 8;
/** Longest `find` when the schema does not say. */
const DEFAULT_FIND_CHARS = 4000;
/** Entries each cache keeps before it drops the oldest. */
const CACHE_ENTRIES = 64;

/** The grounded grammars of one catalog over one vault's paths. */
export class VaultGrounding {
  /** Envelopes with placeholders, by mode + names + notes. */
  private readonly skeletons = new Map<string, CompiledGrammar>();
  /** Text rules by note text (hash and length). */
  private readonly texts = new Map<string, TextRules | null>();
  /** Finished grammars by skeleton key + vault version. */
  private readonly done = new Map<string, CompiledGrammar>();

  /** The vault's tags, when the assembly keeps them (tag args stay free text without). */
  tags?: VaultTagSet;

  constructor(readonly paths: VaultPathIndex) {}

  /** Whether these tools in this mode get a grounded grammar. */
  applies(tools: GrammarTool[], mode: "dynamic" | "static"): boolean {
    if (mode !== "dynamic") return false;
    const byPath = this.paths.ready && tools.some((t) => t.grounding && t.grounding.existingPaths.length > 0);
    return byPath || (!!this.tags?.size && tools.some((t) => t.grounding?.tags?.length));
  }

  /** Drops every compiled grammar (the catalog or the options changed). */
  clear(): void {
    this.skeletons.clear();
    this.done.clear();
  }

  /** The grounded envelope; `plain` is today's grammar of the same subset (its byte bound holds here too). */
  grammar(tools: GrammarTool[], options: GrammarOptions, key: string, plain: CompiledGrammar, context?: GroundingContext): CompiledGrammar {
    const dependent = tools.some((t) => t.grounding?.heading || t.grounding?.find || t.grounding?.key);
    const notes = dependent ? this.contextNotes(context) : [];
    const maxFind = findChars(tools);
    const textRules = notes.map((n) => this.textRule(n.text, maxFind));
    const all = this.paths.ready ? this.paths.rules() : null;
    const other = notes.length ? this.paths.rules(new Set(notes.map((n) => n.path))) : all;
    const tagRules = tools.some((t) => t.grounding?.tags?.length) ? (this.tags?.rules() ?? null) : null;
    const grounding: EnvelopeGrounding = {
      paths: all !== null,
      other: other !== null,
      ...(tagRules ? { tags: true } : {}),
      ...(absentKinds(tools, this.paths).length ? { absentKinds: absentKinds(tools, this.paths) } : {}),
      notes: notes.map((n, i) => ({ path: n.path, headings: n.headings, ...(n.keys?.length ? { keys: n.keys } : {}), text: textRules[i] !== null })),
    };
    const skeletonKey = `${key}\u001f${JSON.stringify(grounding)}\u001f${textRules.map((r) => r?.root ?? "").join(",")}`;
    const doneKey = `${skeletonKey}\u001f${this.paths.version}\u001f${tagRules ? this.tags!.version : ""}`;
    const hit = this.done.get(doneKey);
    if (hit) return hit;
    let skeleton = this.skeletons.get(skeletonKey);
    if (!skeleton) {
      skeleton = compileEnvelopeGrammar(tools, options, grounding);
      remember(this.skeletons, skeletonKey, skeleton);
    }
    const parts = [substitutePlaceholders(skeleton.gbnf, { path: all?.root, other: notes.length ? other?.root : all?.root, tag: tagRules?.root, texts: textRules.map((r) => r?.root), kind: (exts) => this.paths.ofKind(exts).rules() })];
    if (all) parts.push(all.text);
    if (tagRules) parts.push(tagRules.text);
    // The excluded tree's own rules (suffix -x); its other folders are the shared ones already printed.
    if (other && other !== all) parts.push(other.own);
    for (const r of new Set(textRules)) if (r) parts.push(r.text);
    const maxBytes = plain.maxBytes + extraBytes(tools, options, this.paths.longestBytes(), notes, textRules, tagRules?.maxBytes ?? 0);
    const compiled: CompiledGrammar = { gbnf: parts.join(""), maxBytes, relaxations: plain.relaxations, caps: plain.caps };
    remember(this.done, doneKey, compiled);
    return compiled;
  }

  /** The context's notes that exist in the vault, once each, at most MAX_GROUNDED_NOTES. */
  private contextNotes(context?: GroundingContext): GroundingContext["notes"] {
    const seen = new Set<string>();
    const out: GroundingContext["notes"] = [];
    for (const n of context?.notes ?? []) {
      if (seen.has(n.path) || !this.paths.has(n.path)) continue;
      seen.add(n.path);
      out.push(n);
      if (out.length >= MAX_GROUNDED_NOTES) break;
    }
    return out;
  }

  private textRule(text: string, maxChars: number): TextRules | null {
    const name = `${fnv1a36(text)}${text.length.toString(36)}`;
    const key = `${name}-${maxChars}`;
    if (this.texts.has(key)) return this.texts.get(key) ?? null;
    const rules = noteTextRules(text, name, maxChars);
    remember(this.texts, key, rules);
    return rules;
  }
}

type TextRules = { root: string; text: string; maxBytes: number };

/**
 * Bytes a grounded envelope may have beyond the plain one (whose byte bound may come from clamped, shorter strings):
 * per call, every grounded value at its longest, times the calls an envelope holds.
 */
function extraBytes(tools: GrammarTool[], options: GrammarOptions, pathBytes: number, notes: GroundingContext["notes"], texts: (TextRules | null)[], tagBytes: number): number {
  const headingBytes = Math.max(0, ...notes.flatMap((n) => n.headings.map((h) => utf8Bytes(jsonContent(h)))));
  const keyBytes = Math.max(0, ...notes.flatMap((n) => (n.keys ?? []).map((k) => utf8Bytes(jsonContent(k)))));
  const textBytes = Math.max(0, ...texts.map((t) => t?.maxBytes ?? 0));
  let perCall = 0;
  for (const t of tools) {
    const g = t.grounding;
    if (!g) continue;
    perCall = Math.max(perCall, g.existingPaths.length * pathBytes + (g.heading ? headingBytes : 0) + (g.find ? textBytes : 0) + (g.key ? keyBytes : 0) + (g.tags?.length ?? 0) * tagBytes);
  }
  return perCall * resolveGrammarOptions(options).maxToolCalls;
}

/** The longest `find` the offered tools allow. */
function findChars(tools: GrammarTool[]): number {
  for (const t of tools) {
    const key = t.grounding?.find;
    if (!key || typeof t.schema !== "object") continue;
    const prop = (t.schema.properties as Record<string, { maxLength?: number }> | undefined)?.[key];
    if (typeof prop?.maxLength === "number") return prop.maxLength;
  }
  return DEFAULT_FIND_CHARS;
}

function remember<V>(map: Map<string, V>, key: string, value: V): void {
  if (map.size >= CACHE_ENTRIES) map.delete(map.keys().next().value as string);
  map.set(key, value);
}

