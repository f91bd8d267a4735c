/**
 * Our grammar walker and its choice masks per GBNF text, for the forced-text generator: parsing the
 * grammar and finding each choice's tokens is paid once, then reused turn after turn.
 */
import { createHash } from "node:crypto";
import type { LlamaModel, TokenBias } from "node-llama-cpp";
import { GbnfWalker } from "../core/grammar/gbnf-walker";
import { ChoiceMasks } from "./choice-masks";

export interface GrammarWalking {
  walker: GbnfWalker;
  masks: ChoiceMasks;
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
    const key = createHash("sha256").update(gbnf).digest("hex");
    let entry = this.entries.get(key);
    if (entry !== undefined) {
      this.entries.delete(key);
      this.entries.set(key, entry);
      return entry;
    }
    try {
      const walker = new GbnfWalker(gbnf);
      entry = { walker, masks: new ChoiceMasks(this.model, walker, baseBias) };
    } catch {
      entry = null;
    }
    this.entries.set(key, entry);
    while (this.entries.size > this.limit) this.entries.delete(this.entries.keys().next().value as string);
    return entry;
  }
}
