/** Abort plumbing shared by the agent's parts. */

export interface AbortOptions {
  signal?: AbortSignal;
}

/** Thrown inside the loop when the caller aborts; the loop catches it and ends the turn cleanly. */
export class TurnAborted extends Error {
  constructor() {
    super("The turn was stopped.");
    this.name = "TurnAborted";
  }
}

export function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw new TurnAborted();
}
