/** The agent's status in an envelope. */
export type EnvelopeStatus = "Task" | "Reflect" | "Idle" | "Process";

/** One tool call as the model emits it. */
export interface EnvelopeToolCall {
  /** A tool name from the offered subset, e.g. `vault:read`. */
  name: string;
  /** That tool's arguments (a JSON object). */
  args: Record<string, unknown>;
}

/** Every model turn is exactly this object, keys in this order. */
export interface Envelope {
  thought: string;
  status: EnvelopeStatus;
  message_to_user: string | null;
  tool_calls: EnvelopeToolCall[];
}

export const ENVELOPE_STATUSES: readonly EnvelopeStatus[] = ["Task", "Reflect", "Idle", "Process"];
