/** A gatekeeper refusal: typed, with one sentence the model and the user can act on. */
import type { AgentErrorCode } from "../protocol/error-codes";

export class ToolRefusal extends Error {
  constructor(
    /** Machine-readable kind. */
    readonly code: AgentErrorCode,
    /** One sentence saying what was wrong and what to do instead. */
    message: string,
    /** The tool the call named. */
    readonly tool: string,
  ) {
    super(message);
    this.name = "ToolRefusal";
  }

  /**
   * Whether the recovery ladder handles this refusal (the model wrote a malformed call, or a call its own status
   * forbids, or a tool whose source reported an error for these arguments, like an MCP `isError` result) rather than
   * the model reading it as a result. Policy refusals (paths, writes off, the user's "no")
   * are answers the model must respect, not mistakes to retry.
   */
  get malformed(): boolean {
    return (
      this.code === "invalid_args" ||
      this.code === "empty_required" ||
      this.code === "unknown_tool" ||
      this.code === "not_offered" ||
      this.code === "not_allowed_in_state" ||
      this.code === "tool_error"
    );
  }
}
