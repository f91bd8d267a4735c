/**
 * Compiled grammars, kept by their GBNF text: the agent sends the same few grammars turn
 * after turn, and compiling one is not free. A grammar llama.cpp refuses becomes an EngineError
 * "bad_grammar" — never a silent unconstrained generation.
 */
import type { Llama, LlamaGrammar } from "node-llama-cpp";
import { EngineError } from "../core/ports/engine";
import type { LlamaLogTail } from "./llama-log";

export class GrammarCache {
  private readonly entries = new Map<string, Promise<LlamaGrammar>>();

  constructor(
    private readonly llama: Llama,
    /** Where llama.cpp says why a grammar failed to parse. */
    private readonly log: LlamaLogTail,
    /** Grammars kept; the least recently used goes first. */
    private readonly limit = 64,
  ) {}

  /** Number of grammars currently cached. */
  get size(): number {
    return this.entries.size;
  }

  /** The compiled grammar for this GBNF text; rejects with "bad_grammar" when llama.cpp cannot parse it. */
  get(text: string): Promise<LlamaGrammar> {
    // Keyed by the text itself, not a hash of it: the host hands the same string object each turn (received-grammars.ts),
    // which a map finds at once; a SHA-256 of a 50,000-note vault's 1.5 MB grammar took 2–6 ms per turn.
    const key = text;
    const hit = this.entries.get(key);
    if (hit) {
      this.entries.delete(key);
      this.entries.set(key, hit);
      return hit;
    }
    const mark = this.log.mark();
    const compiled = this.llama.createGrammar({ grammar: text }).catch((err: unknown) => {
      this.entries.delete(key);
      const reason = this.log.errorsSince(mark).find((m) => /grammar/i.test(m)) ?? (err instanceof Error ? err.message : String(err));
      throw new EngineError(`llama.cpp rejected the grammar (${reason}); the GBNF text must be fixed before generating.`, "bad_grammar");
    });
    this.entries.set(key, compiled);
    while (this.entries.size > this.limit) this.entries.delete(this.entries.keys().next().value as string);
    return compiled;
  }
}
