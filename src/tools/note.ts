/** The `note` family: the note open in the editor, the selection, and any note's outline. */
import * as z from "zod";
import type { ToolDefinition } from "../core/protocol/tool";
import { defineTool } from "./define-tool";
import { PATH_ALIASES, pathArg } from "./arg-schemas";
import { guardPath, noteWithMetadata } from "./note-path";
import { ToolError } from "./tool-error";
import { clip } from "../core/text/clip";
import { wikilink } from "../core/text/wikilink";

const NO_EDITOR = "No note is open in an editor (or there is no editor here); name the note's path instead.";

const active = defineTool({
  name: "note:active",
  family: "note",
  description: "Which note is open in the editor right now, with its outline. Use this when the user says \"this note\" or \"the current note\".",
  routingHints: ["this note", "the current note", "the note I have open", "what am I looking at", "the open file", "here"],
  args: z.object({}),
  effect: "read",
  async handler(_args, ctx) {
    const open = ctx.workspace?.activeNote();
    if (!open) throw new ToolError(NO_EDITOR, "unavailable");
    const path = guardPath(open.path, ctx);
    const meta = await ctx.vault.metadata(path);
    const outline = meta?.headings.map((h) => `${"  ".repeat(h.level - 1)}- ${h.text}`).join("\n") ?? "";
    return { content: `The open note is ${wikilink(path)} (${path}).${outline ? `\nOutline:\n${outline}` : ""}`, data: { path } };
  },
});

const selection = defineTool({
  name: "note:selection",
  family: "note",
  description: "The text the user has selected in the editor, with its note and lines. Use when the user says \"this\", \"the selection\" or \"what I highlighted\".",
  routingHints: ["the selected text", "what I highlighted", "this paragraph", "the selection", "rewrite this", "explain this passage"],
  args: z.object({}),
  effect: "read",
  async handler(_args, ctx) {
    const sel = ctx.workspace?.selection();
    if (!sel || sel.text === "") throw new ToolError("Nothing is selected in the editor; ask the user to select the text, or read the note instead.", "unavailable");
    guardPath(sel.path, ctx);
    return {
      content: `Selected in ${sel.path}, lines ${sel.fromLine + 1}–${sel.toLine + 1}:\n${clip(sel.text, ctx.settings.readPageChars, "the selection is longer; read the note by heading")}`,
      data: sel,
    };
  },
});

const outline = defineTool({
  name: "note:outline",
  family: "note",
  description: "A note's headings (its table of contents) with line numbers and sizes, to decide which section to read.",
  routingHints: ["outline of the note", "table of contents", "what sections does it have", "headings in", "structure of the note"],
  args: z.object({ path: pathArg() }),
  aliases: PATH_ALIASES,
  effect: "read",
  pathArgs: ["path"],
  existingPaths: ["path"],
  async handler(args, ctx) {
    const { path, meta } = await noteWithMetadata(args.path, ctx);
    const text = await ctx.vault.read(path);
    const totalLines = text.split("\n").length;
    const items = meta.headings.map((h, i) => {
      const next = meta.headings.slice(i + 1).find((x) => x.level <= h.level);
      const lines = (next ? next.line : totalLines) - h.line;
      return { ...h, lines };
    });
    if (items.length === 0) return { content: `${path} has no headings (${totalLines} lines).`, data: { path, headings: [] }, empty: true };
    const body = items.map((h) => `${"  ".repeat(h.level - 1)}- ${h.text} (line ${h.line + 1}, ${h.lines} lines)`).join("\n");
    return { content: `${path} (${totalLines} lines):\n${clip(body, 3000)}`, data: { path, headings: items } };
  },
});

export const noteTools: ToolDefinition[] = [active, selection, outline];
