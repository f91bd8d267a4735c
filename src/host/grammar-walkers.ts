/**
 * Our grammar walker and its choice masks per GBNF text, for the forced-text generator: parsing the
 * grammar and finding each choice's tokens is paid once, then reused turn after turn. A grammar with
 * the vault's grounded rules also gets its loose twin (vault-loose.ts), compiled by llama.cpp once
 * and used instead of the grounded one: the walker holds the grounded rules itself.
 */
import type { LlamaGrammar, LlamaModel, TokenBias } from "node-llama-cpp";
import { GbnfWalker } from "../core/grammar/gbnf-walker";
import { parseGbnf } from "../core/grammar/gbnf-parser";
import { printGbnf } from "../core/grammar/gbnf-printer";
import { isGroundedRule, looseGrounding } from "../core/grammar/vault-loose";
import { ChoiceMasks } from "./choice-masks";

export interface GrammarWalking {
  walker: GbnfWalker;
  masks: ChoiceMasks;
  /**
   * For a grammar with grounded rules: llama.cpp's compile of its loose twin (null when llama.cpp refuses it: the
   * grounded grammar is then used as is). Absent for other grammars.
   */
  looseGrammar?: () => Promise<LlamaGrammar | null>;
}

export class GrammarWalkers {
  private readonly entries = new Map<string, GrammarWalking | null>();

  constructor(
    private readonly model: LlamaModel,
    /** Grammars kept; the least recently used goes first. */
    private readonly limit = 16,
  ) {}

  /** The walker and masks for this GBNF text; null when our parser does not take it (llama.cpp's grammar alone then constrains). */
  get(gbnf: string, baseBias: TokenBias | null): GrammarWalking | null {
    // Keyed by the text itself: V8 hashes a long string by its length alone and compares equal lengths with memcmp,
    // about 0.1 ms for the 1.5 MB grammar of a 50,000-note vault, against 2–6 ms for a SHA-256 of it.
    const key = gbnf;
    let entry = this.entries.get(key);
    if (entry !== undefined) {
      this.entries.delete(key);
      this.entries.set(key, entry);
      return entry;
    }
    try {
      const grammar = parseGbnf(gbnf);
      const walker = new GbnfWalker(grammar, isGroundedRule);
      entry = { walker, masks: new ChoiceMasks(this.model, walker, baseBias) };
      const loose = looseGrounding(grammar);
      if (loose) {
        const text = printGbnf(loose);
        let compiled: Promise<LlamaGrammar | null> | undefined;
        entry.looseGrammar = () => (compiled ??= this.model.llama.createGrammar({ grammar: text }).catch(() => null));
      }
    } catch {
      entry = null;
    }
    this.entries.set(key, entry);
    while (this.entries.size > this.limit) this.entries.delete(this.entries.keys().next().value as string);
    return entry;
  }
}
