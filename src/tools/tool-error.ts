/** A tool call that cannot be done as asked; `message` is one sentence the model (and user) can act on. */
export class ToolError extends Error {
  constructor(
    message: string,
    /** Machine-readable kind. */
    readonly code: "bad_args" | "not_found" | "ambiguous" | "conflict" | "unavailable" | "refused" | "too_large",
  ) {
    super(message);
    this.name = "ToolError";
  }
}
