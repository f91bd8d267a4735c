/** The `tasks` family: open and done checkboxes across the vault; add a task; check one off. */
import * as z from "zod";
import type { ToolContext, ToolDefinition } from "../core/protocol/tool";
import type { NoteTask } from "../core/ports/vault";
import { defineNoteWriteTool, defineTool } from "./define-tool";
import { PATH_ALIASES, headingArg, limitArg } from "./arg-schemas";
import { guardPath, isExcluded, notePath } from "./note-path";
import { noNoteAt, ToolError } from "./tool-error";
import { appendText } from "./sections";
import { dailyNotePath } from "./daily";
import { resolveDay } from "./date-format";
import { type NoteChange } from "./note-change";
import { listLines } from "./text-bounds";
import { parseNote } from "../core/memory/note-parser";
import { wikilink } from "../core/text/wikilink";

const optionalPath = z.string().min(1).max(300).optional();

const list = defineTool({
  name: "tasks:list",
  family: "tasks",
  description: "Checkbox tasks (- [ ] ...) in one note or across the vault, open ones by default.",
  routingHints: ["my open tasks", "what's left to do", "todo list", "show unfinished tasks", "what did I finish", "tasks in the project"],
  args: z.object({
    path: optionalPath.describe("Only tasks in this note; omit for the whole vault."),
    status: z.enum(["open", "done", "all"]).optional().describe("Which tasks: open (default), done, or all."),
    query: z.string().max(200).optional().describe("Only tasks whose text contains this."),
    limit: limitArg(50, 300),
  }),
  aliases: { ...PATH_ALIASES, state: "status", filter: "query", text: "query", max: "limit" },
  effect: "read",
  pathArgs: ["path"],
  existingPaths: ["path"],
  async handler(args, ctx) {
    const status = args.status ?? "open";
    const paths = args.path ? [guardPath(notePath(args.path), ctx)] : (await ctx.vault.list()).map((f) => f.path).filter((p) => p.endsWith(".md") && !isExcluded(p, ctx));
    const found: (NoteTask & { path: string })[] = [];
    for (const path of paths) {
      if (ctx.signal?.aborted) break;
      const meta = await ctx.vault.metadata(path);
      if (!meta && args.path) throw noNoteAt(path);
      for (const t of meta?.tasks ?? []) {
        if (status === "open" && t.done) continue;
        if (status === "done" && !t.done) continue;
        if (args.query && !t.text.toLowerCase().includes(args.query.toLowerCase())) continue;
        found.push({ ...t, path });
      }
    }
    if (found.length === 0) return { content: `No ${status === "all" ? "" : `${status} `}tasks${args.path ? ` in ${args.path}` : ""}.`, data: { tasks: [] }, empty: true };
    const rows = found.map((t) => `- [${t.status}] ${t.text} — ${wikilink(t.path)} line ${t.line + 1}`);
    return { content: `${found.length} ${status === "all" ? "" : `${status} `}tasks:\n${listLines(rows, args.limit ?? 50, "tasks")}`, data: { tasks: found } };
  },
});

function addChange(args: { text: string; heading?: string; due?: string }, path: string, before: string | null): NoteChange {
  if (args.due !== undefined && !/^\d{4}-\d{2}-\d{2}$/.test(args.due)) throw new ToolError(`Due date "${args.due}" must look like YYYY-MM-DD.`, "bad_args");
  const line = `- [ ] ${args.text.replace(/\n+/g, " ").trim()}${args.due ? ` 📅 ${args.due}` : ""}`;
  return { path, before, after: appendText(before ?? "", line, args.heading) };
}

function addPath(args: { path?: string }, ctx: ToolContext): string {
  if (args.path) return guardPath(notePath(args.path), ctx);
  return guardPath(dailyNotePath(resolveDay("today", ctx.now())!, ctx.settings), ctx);
}

const add = defineNoteWriteTool({
  name: "tasks:add",
  family: "tasks",
  description: "Add a checkbox task to a note (today's daily note when no note is given), optionally under a heading and with a due date.",
  routingHints: ["add a task", "remind me to", "put on my todo list", "new todo", "I need to", "add to my tasks"],
  args: z.object({
    text: z.string().min(1).max(500).describe("What needs doing."),
    path: optionalPath.describe("The note to add it to (default: today's daily note)."),
    heading: headingArg("Add under this heading, e.g. Tasks (created when missing)."),
    due: z.string().min(10).max(10).optional().describe("Due date as YYYY-MM-DD."),
  }),
  aliases: { ...PATH_ALIASES, task: "text", content: "text", section: "heading", due_date: "due", date: "due" },
  pathArgs: ["path"],
  target: addPath,
  plan: (args, _ctx, path, before) => addChange(args, path, before),
  asking: "Add a task to",
  done: "Added the task to",
});

/** The checkbox at the start of a task line (the rest of the line, CRLF included, is left as it is). */
const CHECKBOX = /^(\s*(?:[-*+]|\d+[.)])\s+\[)(.)(\])/;

/**
 * The open task the model means, found the way tasks:list shows tasks (code blocks and frontmatter are
 * not tasks): by line number, by part of its text, or both. A task whose whole text equals `task` wins
 * over others that merely contain it, so "Call Mom" is not ambiguous next to "Call Mom about the trip".
 */
function completeChange(args: { path: string; task?: string; line?: number }, path: string, before: string | null): NoteChange {
  if (before === null) throw noNoteAt(path);
  if (!args.task && args.line === undefined) throw new ToolError("Say which task to complete: give its text (task) or its line number (line).", "bad_args");
  const wanted = args.task?.trim().toLowerCase();
  const tasks = parseNote(before).tasks.filter((t) => (args.line === undefined || t.line === args.line - 1) && (!wanted || t.text.toLowerCase().includes(wanted)));
  const open = tasks.filter((t) => !t.done);
  const what = `${wanted ? ` containing "${args.task}"` : ""}${args.line !== undefined ? ` on line ${args.line}` : ""}`;
  if (open.length === 0) {
    if (tasks.length > 0) throw new ToolError(`The task${what} in ${path} is already done; nothing to check off.`, "not_found");
    throw new ToolError(`No open task${what} in ${path}; list them with tasks:list.`, "not_found");
  }
  const exact = wanted ? open.filter((t) => t.text.toLowerCase() === wanted) : [];
  const picked = open.length === 1 ? open : exact.length === 1 ? exact : null;
  if (!picked) {
    const lines = open.slice(0, 5).map((t) => `line ${t.line + 1}`).join(", ");
    throw new ToolError(`${open.length} open tasks in ${path} match "${args.task}" (${lines}); give more of the text or the line number.`, "ambiguous");
  }
  const lines = before.split("\n");
  const i = picked[0].line;
  lines[i] = lines[i].replace(CHECKBOX, "$1x$3");
  return { path, before, after: lines.join("\n") };
}

const complete = defineNoteWriteTool({
  name: "tasks:complete",
  family: "tasks",
  description: "Check off one open task in a note, found by part of its text or by its line number.",
  routingHints: ["mark the task done", "I finished", "check off", "complete the todo", "tick off", "done with the task"],
  args: z.object({
    path: z.string().min(1).max(300).describe("The note holding the task."),
    task: z.string().min(1).max(500).optional().describe("Part of the task's text, enough to be unique."),
    line: z.number().int().min(1).max(1_000_000).optional().describe("The task's line number (1-based), as tasks:list shows it."),
  }),
  aliases: { ...PATH_ALIASES, text: "task", match: "task", line_number: "line" },
  pathArgs: ["path"],
  existingPaths: ["path"],
  target: (args, ctx) => guardPath(notePath(args.path), ctx),
  plan: (args, _ctx, path, before) => completeChange(args, path, before),
  asking: "Complete a task in",
  done: "Completed the task in",
});

export const taskTools: ToolDefinition[] = [list, add, complete];
