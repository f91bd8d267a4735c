/** The `daily` family: today's (or any day's) daily note, read and appended to. */
import * as z from "zod";
import type { ToolContext, ToolDefinition, ToolSettings } from "../core/protocol/tool";
import { defineNoteWriteTool, defineTool } from "./define-tool";
import { contentArg, headingArg } from "./arg-schemas";
import { folderPath, guardPath } from "./note-path";
import { ToolError } from "./tool-error";
import { formatDate, resolveDay } from "./date-format";
import { appendText } from "./sections";
import { readOrNull, type NoteChange } from "./note-change";
import { clip } from "../core/text/clip";

const dateArg = z
  .string()
  .max(20)
  .optional()
  .describe('Which day: "today" (default), "yesterday", "tomorrow", "-3" (days ago), or YYYY-MM-DD.');

/** The daily note's path for a day, from the daily folder and date format in settings. */
export function dailyNotePath(day: Date, settings: ToolSettings): string {
  const folder = folderPath(settings.dailyFolder);
  const name = formatDate(day, settings.dailyFormat || "YYYY-MM-DD");
  return `${folder ? `${folder}/` : ""}${name}.md`;
}

/**
 * Daily-note settings from Obsidian's `<configDir>/daily-notes.json` (`{"folder","format"}`), for hosts
 * to merge into ToolSettings when the user has not set their own. The file exists once the user has
 * configured daily notes; a key left empty there means Obsidian's own default (the vault root,
 * YYYY-MM-DD), not ours, so both keys are always returned for a readable file.
 */
export function dailySettingsFromObsidian(json: string): Partial<Pick<ToolSettings, "dailyFolder" | "dailyFormat">> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch {
    return {};
  }
  if (!parsed || typeof parsed !== "object" || Array.isArray(parsed)) return {};
  const { folder, format } = parsed as { folder?: unknown; format?: unknown };
  return {
    dailyFolder: typeof folder === "string" ? folderPath(folder) : "",
    dailyFormat: typeof format === "string" && format.trim() !== "" ? format.trim() : "YYYY-MM-DD",
  };
}

function dayPath(date: string | undefined, ctx: ToolContext): { day: Date; path: string } {
  const day = resolveDay(date, ctx.now());
  if (!day) throw new ToolError(`"${date}" is not a day I can read; use today, yesterday, tomorrow, -N, or YYYY-MM-DD.`, "bad_args");
  return { day, path: guardPath(dailyNotePath(day, ctx.settings), ctx) };
}

const get = defineTool({
  name: "daily:get",
  family: "daily",
  description: "Read the daily note for today or another day (from the daily-notes folder and date format).",
  routingHints: ["today's note", "my daily note", "what did I do yesterday", "journal entry for", "daily log", "what's on my plate today"],
  args: z.object({ date: dateArg }),
  aliases: { day: "date", when: "date" },
  effect: "read",
  async handler(args, ctx) {
    const { path } = dayPath(args.date, ctx);
    const text = await readOrNull(ctx, path);
    if (text === null) return { content: `There is no daily note ${path} yet.`, data: { path, exists: false }, empty: true };
    return {
      content: `${path}\n\n${clip(text, ctx.settings.readPageChars, `read ${path} with vault:read and an offset`)}`,
      data: { path, exists: true, text },
      empty: text.trim() === "",
    };
  },
});

function dailyChange(args: { content: string; heading?: string }, path: string, before: string | null): NoteChange {
  return { path, before, after: appendText(before ?? "", args.content, args.heading) };
}

const append = defineNoteWriteTool({
  name: "daily:append",
  family: "daily",
  description: "Add text to the daily note for today (or another day), optionally under a heading; the note is created when missing.",
  routingHints: ["add to today's note", "log in my journal", "note in my daily", "write in today's entry", "journal that", "add to my daily log"],
  args: z.object({
    content: contentArg("Markdown text to add."),
    date: dateArg,
    heading: headingArg("Add under this heading (created when missing), e.g. Log."),
  }),
  aliases: { text: "content", day: "date", section: "heading" },
  target: (args, ctx) => dayPath(args.date, ctx).path,
  plan: (args, _ctx, path, before) => dailyChange(args, path, before),
  asking: "Append to",
  done: "Added to",
});

export const dailyTools: ToolDefinition[] = [get, append];
