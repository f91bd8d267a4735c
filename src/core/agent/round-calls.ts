/** What a round's calls produce and why a round needs recovery: shared by the call runner and the recovery ladder. */
import type { StoredToolResult } from "./conversation";
import type { AgentErrorCode } from "./events";

/** Why a round needs recovery. */
export interface Failure {
  code: AgentErrorCode;
  /** The tool to retry (absent when the envelope itself was broken). */
  tool?: string;
  sentence: string;
}

/** What a round's calls produced. */
export interface RoundCalls {
  /** One result per call, in order, as stored in history. */
  results: StoredToolResult[];
  /** The first failure recovery should correct. */
  failure?: Failure;
  /** True when the turn was stopped: the remaining calls did not run. */
  stopped: boolean;
  /** Corrections that are not recovery attempts (a repeated call), for the results entry. */
  notes: string[];
  /** Set when a call ends the turn (a third repeat): the sentence for the user. */
  ended?: { code: AgentErrorCode; sentence: string };
  /** Calls that ran (or were answered from an earlier run) and found nothing. */
  empty: number;
}
