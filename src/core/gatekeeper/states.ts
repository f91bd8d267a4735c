/**
 * Agent states and what each may call. Task works with every offered tool; Reflect checks results with read
 * tools only; Idle is done and calls nothing; Recover retries only the tools being repaired.
 *
 * The state belongs to the agent, not to the model: the turn loop owns it. Outside recovery it takes the state
 * the model's `status` asks for ("Process" counts as Task); during Recover the loop ignores `status` until the
 * targeted call succeeds. So the allowlists judge a reply against what the reply itself claims: "Idle" means
 * "I am finished", and an Idle reply that still calls a tool (or a Reflect reply that calls a writer)
 * contradicts itself. Such a call is not run (an Idle model never acts, a reflecting one never writes), but the
 * refusal is not a dead end: it is recoverable (`ToolRefusal.malformed`), so the recovery loop retries that one
 * tool with the correction "use status Task", and Recover then runs it whatever the status says.
 */
import type { EnvelopeStatus } from "../protocol/envelope";
import type { ToolEffect } from "../protocol/tool";

export type AgentState = "Task" | "Reflect" | "Idle" | "Recover";

/** The state an envelope's status puts the agent in ("Process" is working on a task). */
export function stateForStatus(status: EnvelopeStatus): AgentState {
  if (status === "Reflect") return "Reflect";
  if (status === "Idle") return "Idle";
  return "Task";
}

/** Whether a tool with this effect may run in this state; `targeted` says whether the tool is a recovery target. */
export function allowedInState(state: AgentState, effect: ToolEffect, targeted: boolean): boolean {
  switch (state) {
    case "Task":
      return true;
    case "Reflect":
      return effect === "read";
    case "Idle":
      return false;
    case "Recover":
      return targeted;
  }
}

/** Why a state refused, as the end of a sentence. */
export function stateRule(state: AgentState): string {
  switch (state) {
    case "Task":
      return "every offered tool may run";
    case "Reflect":
      return 'only read tools run while reflecting; use status "Task" to change notes';
    case "Idle":
      return 'an "Idle" reply must not call tools; use status "Task" to call one';
    case "Recover":
      return "only the tool being corrected may run until it succeeds";
  }
}
