/**
 * Staged memories: facts the agent was asked to remember, kept with the conversation (never in the vault's notes)
 * until the user reviews them. Plain types, shared by the conversation, the tools and the review.
 */

/** One staged fact. */
export interface StagedMemory {
  /** Unique within its conversation: `m1`, `m2`… */
  id: string;
  /** The fact, as a full sentence. */
  content: string;
  /** A short title for the memory note it becomes. */
  title?: string;
  /** Extra tags for that note (memory is always added). */
  tags?: string[];
  /** When it was staged (milliseconds since the epoch); the committed note is dated by it. */
  at: number;
  /** The turn that staged it. */
  turnId?: string;
  /** The fact as first staged, kept after an edit so that dropping it can take that text out of the history too. */
  original?: string;
}

/** What a fact is staged from (memory:save's arguments). */
export interface MemoryFact {
  content: string;
  title?: string;
  tags?: string[];
}

/** A staged fact found for a query. */
export interface StagedHit {
  memory: StagedMemory;
  /** 0..1: the share of the query's words it holds, or its embedding's cosine when that is higher. */
  score: number;
  /** How it was found. */
  mode: "words" | "meaning";
}

/** The staged memories of one conversation as a tool call sees them. */
export interface MemoryStaging {
  /** Stages a fact; an equal fact already staged is returned instead of a second copy (`duplicate`). */
  stage(fact: MemoryFact): { memory: StagedMemory; duplicate: boolean };
  /** Every staged fact, oldest first. */
  list(): readonly StagedMemory[];
}
