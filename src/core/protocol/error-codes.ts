/** A refusal or failure kind, stable for UIs and tests. */
export type AgentErrorCode =
  | "unknown_tool"
  | "not_offered"
  | "not_allowed_in_state"
  | "invalid_args"
  | "empty_required"
  | "path_refused"
  | "write_not_permitted"
  | "denied_by_user"
  | "empty_result"
  | "tool_failed"
  /** The tool's source answered with an error for these arguments (an MCP `isError` result); recovery retries it. */
  | "tool_error"
  /** The same call (tool and arguments) again: corrected the first time, the turn ends the second. */
  | "repeated_call"
  /** Rounds whose calls all found nothing: corrected after two in a row, the turn ends after three. */
  | "no_progress"
  | "bad_envelope"
  | "recovery_exhausted"
  | "context_full"
  | "engine_failed"
  | "aborted";
