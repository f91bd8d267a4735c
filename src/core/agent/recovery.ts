/**
 * The bounded recovery ladder of one turn. A broken envelope or a malformed call gets a concrete correction and a
 * retry: first under the same grammar narrowed to the failing tool, then under that tool's looser static grammar,
 * then a clear stop. While recovering the loop owns the agent state (Recover), whatever status the model claims.
 */
import type { AgentState } from "../gatekeeper/gatekeeper";
import { stateForStatus } from "../gatekeeper/states";
import { TurnAborted } from "../ports/abort";
import type { EnvelopeStatus, EnvelopeToolCall } from "../protocol/envelope";
import type { ConversationEntry } from "./conversation";
import type { AgentOptions } from "./options";
import type { Failure, RoundCalls } from "./round-calls";
import type { Turn } from "./turn";

/** The second half of a correction: what to send next. */
export function retryAdvice(failure: Failure): string {
  const tool = failure.tool ?? "a tool";
  if (failure.code === "not_allowed_in_state") return `Call ${tool} again in a reply with status "Task".`;
  return `Call ${tool} again with corrected arguments.`;
}

export class Recovery {
  /** The tools offered to the next generation. */
  names: string[];
  /** The grammar form of the next generation. */
  mode: "dynamic" | "static" = "dynamic";
  /** The agent state the gatekeeper judges calls against. */
  state: AgentState = "Task";
  /** The tools being repaired (the only ones Recover may run). */
  targets: Set<string> | undefined;
  /** Corrections spent this turn. */
  attempts = 0;
  /** A correction for the next system prompt when the last reply was not an envelope (no results entry carries it). */
  private systemCorrection = "";

  constructor(
    /** The tools the turn offers outside recovery (grows when a later round widens the offer). */
    private baseNames: string[],
    private readonly options: Pick<AgentOptions, "recovery" | "recoveryAttempts">,
  ) {
    this.names = baseNames;
  }

  /** Whether the ladder runs at all (off only for evaluations). */
  get enabled(): boolean {
    return this.options.recovery;
  }

  /** Whether one more correction is allowed. */
  get canRetry(): boolean {
    return this.options.recovery && this.attempts < this.options.recoveryAttempts;
  }

  /** Keeps only the offered tools that are still in the catalog (an MCP server can stop mid-turn). */
  keepAvailable(has: (name: string) => boolean): void {
    this.names = this.names.filter(has);
  }

  /** The correction for the next system prompt, once. */
  takeSystemCorrection(): string {
    const correction = this.systemCorrection;
    this.systemCorrection = "";
    return correction;
  }

  /** Follows the status a reply asks for, except while recovering. */
  followStatus(status: EnvelopeStatus): void {
    if (this.state !== "Recover") this.state = stateForStatus(status);
  }

  /** A reply that was not an envelope: retries with the correction in the system prompt; false when none is left. */
  retryEnvelope(sentence: string): boolean {
    if (!this.canRetry) return false;
    this.spend();
    this.systemCorrection = sentence;
    return true;
  }

  /** The correction to send with a round's results, when that round failed and may be retried. */
  correctionFor(failure: Failure | undefined, stopped: boolean): string | undefined {
    if (!failure || stopped || !this.canRetry) return undefined;
    return `${failure.sentence} ${retryAdvice(failure)}`;
  }

  /** A malformed call: the next generation offers only the failing tool, in Recover. */
  retryCall(failure: Failure): void {
    this.spend();
    if (failure.tool) this.names = [failure.tool];
    this.targets = new Set(this.names);
    this.state = "Recover";
  }

  /**
   * A later round widens the turn's offer (round-routing.ts): the tools are kept for every round after, and offered
   * now unless a recovery is under way (it stays narrowed to the tool being repaired). Returns the tools added.
   */
  widen(names: readonly string[]): string[] {
    const added = [...new Set(names)].filter((n) => !this.baseNames.includes(n));
    if (added.length === 0) return [];
    this.baseNames = [...this.baseNames, ...added];
    if (this.state !== "Recover") this.names = [...this.names, ...added.filter((n) => !this.names.includes(n))];
    return added;
  }

  /** A round without failures: a recovery that was under way worked, so the turn's tools come back. */
  recovered(): void {
    if (this.state !== "Recover") return;
    this.state = "Task";
    this.names = this.baseNames;
    this.mode = "dynamic";
    this.targets = undefined;
  }

  private spend(): void {
    this.attempts++;
    this.mode = this.attempts === 1 ? "dynamic" : "static";
  }
}

/** Recover step for a reply that was not an envelope: true when the turn retries, false when it has ended. */
export function recoverFromReply(turn: Turn, recovery: Recovery, sentence: string): boolean {
  if (recovery.retryEnvelope(sentence)) {
    turn.emit({ type: "error", turnId: turn.id, code: "bad_envelope", message: sentence, recoverable: true });
    return true;
  }
  const notice = turn.engineNotice ? ` ${turn.engineNotice}` : "";
  turn.fail(recovery.enabled ? "recovery_exhausted" : "bad_envelope", `The model did not produce a valid reply: ${sentence}${notice}`);
  return false;
}

/**
 * Recover step after a round's calls ran: stores the round with every correction it earned (recovery, repeats, no
 * progress), then says what comes next: "retry" when a failed call gets another try, "ended" when the turn stops
 * (corrections ran out, a third repeat, a third round that found nothing), "none" when nothing needs correcting.
 */
export function recoverFromCalls(turn: Turn, recovery: Recovery, reply: { entry: ConversationEntry; calls: EnvelopeToolCall[] }, ran: RoundCalls): "retry" | "ended" | "none" {
  const progress = turn.guard.progress(reply.calls, ran.empty === reply.calls.length);
  const notes = [recovery.correctionFor(ran.failure, ran.stopped), ...ran.notes, progress?.kind === "correct" ? progress.correction : undefined];
  const correction = notes.filter(Boolean).join(" ");
  turn.commit(reply.entry);
  turn.commit({ kind: "tool-results", turnId: turn.id, at: Date.now(), results: ran.results, ...(correction ? { correction } : {}) });
  if (ran.stopped) throw new TurnAborted();
  const end = ran.ended ?? (progress?.kind === "end" ? { code: "no_progress" as const, sentence: progress.sentence } : undefined);
  if (end) {
    turn.fail(end.code, end.sentence);
    return "ended";
  }
  if (progress?.kind === "correct") turn.emit({ type: "error", turnId: turn.id, code: "no_progress", message: progress.correction, recoverable: true });
  const failure = ran.failure;
  if (!failure || !recovery.enabled) {
    recovery.recovered();
    return "none";
  }
  if (!recovery.canRetry) {
    turn.fail("recovery_exhausted", `Stopped after ${recovery.attempts} corrections: ${failure.sentence} Try rephrasing the request.`);
    return "ended";
  }
  recovery.retryCall(failure);
  turn.emit({ type: "error", turnId: turn.id, code: failure.code, message: failure.sentence, recoverable: true });
  return "retry";
}
