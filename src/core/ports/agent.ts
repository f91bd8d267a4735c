/** The small interfaces the agent needs from its collaborators, so each can be swapped or faked at the edge. */
import type { AbortOptions } from "./abort";

/** Tools the router offers for one message. */
export interface RouteDecision {
  /** Offered tools, best first, with fused scores in 0..1. Empty when `chatOnly`. */
  tools: { name: string; score: number }[];
  /** Small talk or a general question: offer no tools. */
  chatOnly: boolean;
  /** Nothing scored clearly: offer the full catalog. */
  unsure: boolean;
}

/** Picks the tools offered to the model for a message (the hybrid ToolRouter implements it). */
export interface RouterPort {
  route(message: string, options?: AbortOptions): Promise<RouteDecision>;
}

/** A compiled grammar for a tool subset; `SubsetCache` from src/core/grammar implements `GrammarSource`. */
export interface CompiledGrammar {
  /** GBNF text. */
  gbnf: string;
  /** Upper bound on the bytes any sentence of the grammar can have (Infinity when unbounded). */
  maxBytes: number;
}

/** A note in the conversation's context (read in it, attached, or the active note), as grounded args see it. */
export interface GroundingNote {
  /** Vault path. */
  path: string;
  /** Its current text. */
  text: string;
  /** Its headings' texts. */
  headings: string[];
  /** Its properties' (frontmatter) keys; absent = none known. */
  keys?: string[];
}

/** What a round's grammar grounds beyond the vault's paths: the notes in the conversation's context, most recent first. */
export interface GroundingContext {
  notes: GroundingNote[];
}

export interface GrammarSource {
  /**
   * The envelope grammar offering exactly `names` ([] = no tools). "static" is the looser fallback form. With a
   * context, a heading or find arg of a note in it is grounded in that note.
   */
  get(names: string[], mode: "dynamic" | "static", context?: GroundingContext): CompiledGrammar;
  /**
   * The same envelope as a JSON Schema, for engines that constrain through a server's JSON Schema support; absent = GBNF
   * only. With a context, a heading or key arg of a note in it is one of that note's.
   */
  jsonSchema?(names: string[], mode: "dynamic" | "static", context?: GroundingContext): Record<string, unknown>;
}

/** Memories relevant to a message, already within a token budget, as text for the system prompt. */
export interface MemoryPrefetch {
  prefetch(message: string, options: { maxTokens: number; signal?: AbortSignal }): Promise<string>;
}

/** Receives one JSON line per agent event (the optional JSONL transcript). */
export type TranscriptSink = (line: string) => void;
