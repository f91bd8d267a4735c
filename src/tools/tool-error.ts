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

/** The error every tool gives for a path with no note behind it; `next` says how to find the right one. */
export function noNoteAt(path: string, next = "find the right path with vault:list."): ToolError {
  return new ToolError(`There is no note at "${path}"; ${next}`, "not_found");
}
