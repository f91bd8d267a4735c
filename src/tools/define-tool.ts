import type { z } from "zod";
import type { ToolContext, ToolDefinition } from "../core/protocol/tool";
import { applyChange, baseText, changeResult, previewOf, readOrNull, type NoteChange } from "./note-change";

/** Keeps a tool's handler typed by its own args while the catalog holds plain `ToolDefinition`s. */
export function defineTool<A extends z.ZodObject>(definition: ToolDefinition<A>): ToolDefinition {
  return definition;
}

/** A tool that changes one note: where, how the text changes, and the words its preview and result use. */
export type NoteWriteSpec<A extends z.ZodObject> = Omit<ToolDefinition<A>, "effect" | "preview" | "handler"> & {
  /** The guarded vault path the call changes. */
  target: (args: z.infer<A>, ctx: ToolContext) => string;
  /** The note's new text from its current text (null: the note does not exist yet); throw a ToolError to refuse. */
  plan: (args: z.infer<A>, ctx: ToolContext, path: string, before: string | null) => NoteChange;
  /** The confirmation summary's verb, e.g. "Append to". */
  asking: string;
  /** The result's verb, e.g. "Appended to" (or computed from the args and the change). */
  done: string | ((args: z.infer<A>, change: NoteChange) => string);
};

/**
 * Every note-changing tool has the same shape: the preview plans the change against the note as it is now and shows
 * it; the handler plans against the very text the preview saw and writes with compare-and-swap, so an edit the user
 * made while the confirmation was open becomes a conflict instead of being overwritten.
 */
export function defineNoteWriteTool<A extends z.ZodObject>(spec: NoteWriteSpec<A>): ToolDefinition {
  const { target, plan, asking, done, ...definition } = spec;
  return defineTool<A>({
    ...definition,
    effect: "write",
    async preview(args, ctx) {
      const path = target(args, ctx);
      return previewOf(args, plan(args, ctx, path, await readOrNull(ctx, path)), asking);
    },
    async handler(args, ctx) {
      const path = target(args, ctx);
      const change = plan(args, ctx, path, await baseText(args, ctx, path));
      await applyChange(ctx, change);
      return changeResult(change, typeof done === "string" ? done : done(args, change));
    },
  });
}
