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
  | "bad_envelope"
  | "recovery_exhausted"
  | "context_full"
  | "engine_failed"
  | "aborted";
