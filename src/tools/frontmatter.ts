/** The `frontmatter` family: read and set a note's properties (YAML frontmatter). */
import * as z from "zod";
import type { ToolContext, ToolDefinition } from "../core/protocol/tool";
import { defineNoteWriteTool, defineTool } from "./define-tool";
import { PATH_ALIASES, pathArg } from "./arg-schemas";
import { guardPath, notePath, noteWithMetadata } from "./note-path";
import { noNoteAt, ToolError } from "./tool-error";
import { type NoteChange } from "./note-change";
import { setFrontmatterKey } from "../core/memory/frontmatter";
import { clip } from "../core/text/clip";

const get = defineTool({
  name: "frontmatter:get",
  family: "frontmatter",
  description: "A note's properties (frontmatter): all of them, or one `key`.",
  routingHints: ["properties of the note", "frontmatter", "what is the status of", "metadata of the note", "due date of", "what's the rating"],
  args: z.object({
    path: pathArg(),
    key: z.string().min(1).max(100).optional().describe("One property name; omit to get all."),
  }),
  aliases: { ...PATH_ALIASES, property: "key", field: "key" },
  effect: "read",
  pathArgs: ["path"],
  existingPaths: ["path"],
  // For a note in context, the key the grammar admits is one of its properties.
  noteArgs: { key: "key" },
  async handler(args, ctx) {
    const { path, meta } = await noteWithMetadata(args.path, ctx);
    const fm = meta.frontmatter ?? {};
    if (args.key !== undefined) {
      if (!(args.key in fm)) {
        return { content: `${path} has no property "${args.key}". Its properties: ${Object.keys(fm).join(", ") || "(none)"}.`, data: { path, key: args.key }, empty: true };
      }
      return { content: clip(`${args.key}: ${JSON.stringify(fm[args.key])}`, ctx.settings.readPageChars, "the value is longer"), data: { path, key: args.key, value: fm[args.key] } };
    }
    if (Object.keys(fm).length === 0) return { content: `${path} has no properties.`, data: { path, frontmatter: {} }, empty: true };
    const lines = Object.entries(fm).map(([k, v]) => `${k}: ${JSON.stringify(v)}`).join("\n");
    return { content: `Properties of ${path}:\n${clip(lines, ctx.settings.readPageChars, "ask for one key")}`, data: { path, frontmatter: fm } };
  },
});

const valueArg = z
  .union([z.string().max(500), z.number(), z.boolean(), z.array(z.string().max(200)).max(50), z.null()])
  .describe("The new value: text, number, true/false, a list of texts, or null to remove the property.");

function frontmatterChange(args: { path: string; key: string; value: unknown }, ctx: ToolContext, before: string | null): NoteChange {
  const path = guardPath(notePath(args.path), ctx);
  if (/[:\n]/.test(args.key) || args.key.trim() === "") throw new ToolError(`"${args.key}" cannot be a property name; use a name without colons or line breaks.`, "bad_args");
  if (before === null) throw noNoteAt(path);
  return { path, before, after: setFrontmatterKey(before, args.key, args.value === null ? undefined : args.value) };
}

const set = defineNoteWriteTool({
  name: "frontmatter:set",
  family: "frontmatter",
  description: "Set or remove one property (frontmatter key) of a note, leaving the rest of the note untouched.",
  routingHints: ["set the status to", "mark the note as", "change the property", "add a due date", "update the frontmatter", "set the rating"],
  args: z.object({
    path: pathArg(),
    key: z.string().min(1).max(100).describe("The property name, e.g. status."),
    value: valueArg,
  }),
  aliases: { ...PATH_ALIASES, property: "key", field: "key", name: "key", val: "value", to: "value" },
  pathArgs: ["path"],
  existingPaths: ["path"],
  target: (args, ctx) => guardPath(notePath(args.path), ctx),
  plan: (args, ctx, _path, before) => frontmatterChange(args, ctx, before),
  asking: "Set a property in",
  done: (args) => (args.value === null ? `Removed "${args.key}" from` : `Set ${args.key} = ${JSON.stringify(args.value)} in`),
});

export const frontmatterTools: ToolDefinition[] = [get, set];
