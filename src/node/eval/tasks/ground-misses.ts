/**
 * Recovery rounds by cause: a round whose calls failed (or whose reply needed a correction) is followed by a round
 * the model spends repairing it. The cause is read from the failure's sentence — a path that is not in the vault, a
 * heading the note lacks, edit text not in the note, a property key the note lacks (the ground misses a grounded
 * grammar must make impossible; a file of the wrong kind, such as a note given to pdf:read, counts as a missing path),
 * an edit of a note not read first, a path the grammar leaves free (a folder, a new note) that the gatekeeper refused,
 * or anything else.
 */
import type { AgentEvent } from "../../../core/agent/events";

/** Why a call failed or a round was corrected. */
export type MissCause = "path" | "heading" | "find" | "key" | "unread" | "free" | "other";

export const MISS_CAUSES: readonly MissCause[] = ["path", "heading", "find", "key", "unread", "free", "other"];

/** Counts per cause. */
export type CauseCounts = Record<MissCause, number>;

export function noCauses(): CauseCounts {
  return { path: 0, heading: 0, find: 0, key: 0, unread: 0, free: 0, other: 0 };
}

export function addCauses(a: CauseCounts, b: CauseCounts): CauseCounts {
  const out = noCauses();
  for (const c of MISS_CAUSES) out[c] = a[c] + b[c];
  return out;
}

/** The ground misses among the causes (what the grounded grammar guarantees away). */
export function groundMisses(c: CauseCounts): number {
  return c.path + c.heading + c.find + c.key;
}

/**
 * The cause of a failed call, from the sentence the gatekeeper, the turn loop or the tool gave (src/tools/tool-error.ts,
 * src/tools/vault.ts, src/core/gatekeeper/grounding-policy.ts).
 */
export function missCause(sentence: string): MissCause {
  if (/^There is no (note|file|canvas|base|PDF) at "|^No note at |" is not a \.(base|pdf|canvas) file|^There is no (\.\w+( or )?)+ file at "|" is not a PDF;/.test(sentence)) return "path";
  if (/ has no heading "/.test(sentence)) return "heading";
  if (/^The text to find does not occur in |changed after you read it and the text to find is no longer in it/.test(sentence)) return "find";
  if (/ has no property "|has no properties/.test(sentence)) return "key";
  if (/^Read ".*" with vault:read before editing it/.test(sentence)) return "unread";
  if (/^The path ".*" is absolute; use a path relative|" is in a hidden or configuration folder/.test(sentence)) return "free";
  return "other";
}

/** What one run's events say about failures: every failed call by cause, and the rounds spent recovering, by cause. */
export interface RunMisses {
  /** Failed calls (and corrections of replies) by cause. */
  calls: CauseCounts;
  /** Rounds that followed a round with a failure, by that round's first cause (a ground miss first). */
  rounds: CauseCounts;
}

/** Reads a run's failures from its events; `rounds` is how many rounds the turn ran. */
export function runMisses(events: AgentEvent[], rounds: number): RunMisses {
  const calls = noCauses();
  const perRound = new Map<number, MissCause[]>();
  const note = (round: number, cause: MissCause): void => void perRound.set(round, [...(perRound.get(round) ?? []), cause]);
  let round = 0;
  let retried = 0;
  for (const e of events) {
    if (e.type === "tool-call") round = roundOf(e.callId) ?? round;
    if (e.type === "tool-result" && !e.ok && e.error) {
      const cause = missCause(e.error.message);
      calls[cause]++;
      note(roundOf(e.callId) ?? round, cause);
    } else if (e.type === "tool-result" && e.ok && e.empty && / has no property "/.test(e.content)) {
      // frontmatter:get answers a key the note lacks with an empty result rather than an error: a miss all the same.
      calls.key++;
      note(roundOf(e.callId) ?? round, "key");
    } else if (e.type === "error" && e.recoverable && e.code === "bad_envelope") {
      // A reply that was no envelope, retried (tool failures are counted from their results).
      calls.other++;
      retried++;
    }
  }
  const recovering = noCauses();
  recovering.other += retried;
  for (const [r, causes] of perRound) {
    if (r >= rounds) continue; // the last round's failure was not followed by another round
    const ground = causes.find((c) => c === "path" || c === "heading" || c === "find" || c === "key");
    recovering[ground ?? causes.find((c) => c !== "other") ?? "other"]++;
  }
  return { calls, rounds: recovering };
}

/** The round of a call id `r<round>c<i>`. */
function roundOf(callId: string): number | undefined {
  const m = /^r(\d+)c\d+$/.exec(callId);
  return m ? Number(m[1]) : undefined;
}
