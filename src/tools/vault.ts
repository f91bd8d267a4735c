/** The `vault` family: read, write, append, edit, list, search, semantic search, move, delete. */
import * as z from "zod";
import type { ToolContext, ToolDefinition } from "../core/protocol/tool";
import { defineNoteWriteTool, defineTool } from "./define-tool";
import { PATH_ALIASES, contentArg, headingArg, limitArg, pathArg } from "./arg-schemas";
import { folderPath, guardPath, isExcluded, notePath } from "./note-path";
import { noNoteAt, ToolError } from "./tool-error";
import { appendText, findSection, headingsOf } from "./sections";
import { readOrNull, type NoteChange } from "./note-change";
import { scanSearch } from "./scan-search";
import { clip } from "../core/text/clip";
import { wikilink } from "../core/text/wikilink";

/** Reads a note or fails with a sentence that says how to find the right path. */
async function mustRead(ctx: ToolContext, path: string): Promise<string> {
  const text = await readOrNull(ctx, path);
  if (text === null) throw noNoteAt(path, "find the right path with vault:list or vault:search.");
  return text;
}

const read = defineTool({
  name: "vault:read",
  family: "vault",
  description:
    "Read a note's text. Long notes come back one page at a time: pass `heading` to read one section, or `offset` to continue where the last page ended.",
  routingHints: ["open my note", "read the note", "what does my note say", "show me the contents of", "look at the file", "summarize the note"],
  args: z.object({
    path: pathArg(),
    heading: headingArg("Only return the section under this heading (text without #)."),
    offset: z.number().int().min(0).max(10_000_000).optional().describe("Character offset to start reading from, for the next page (default 0)."),
  }),
  aliases: { ...PATH_ALIASES, section: "heading", start: "offset" },
  effect: "read",
  pathArgs: ["path"],
  existingPaths: ["path"],
  noteArgs: { heading: "heading" },
  async handler(args, ctx) {
    const path = guardPath(notePath(args.path), ctx);
    const full = await mustRead(ctx, path);
    // A NUL byte never occurs in text: this is an image, PDF or other binary file, and its bytes would only waste the context.
    if (full.includes("\u0000")) throw new ToolError(`"${path}" is a binary file, not a text note, so it cannot be read as text.`, "bad_args");
    let text = full;
    let label = path;
    if (args.heading) {
      const section = findSection(full, args.heading);
      if (!section) {
        const heads = headingsOf(full).map((h) => h.text);
        throw new ToolError(`"${path}" has no heading "${args.heading}"; its headings are: ${heads.join(", ") || "(none)"}.`, "not_found");
      }
      text = full.split("\n").slice(section.headingLine, section.end).join("\n");
      label = `${path} > ${section.text}`;
    }
    const pageChars = ctx.settings.readPageChars;
    const offset = Math.min(args.offset ?? 0, text.length);
    let end = Math.min(text.length, offset + pageChars);
    if (end < text.length) {
      // End the page on a line break so no line is cut in half.
      const nl = text.lastIndexOf("\n", end);
      if (nl > offset + pageChars / 2) end = nl + 1;
    }
    const page = text.slice(offset, end);
    const more = end < text.length;
    const header = more || offset > 0 ? `${label} (characters ${offset}–${end} of ${text.length})` : label;
    const footer = more
      ? `\n… more follows: read again with offset=${end}${args.heading ? "" : `, or pick a heading: ${headingsOf(full).map((h) => h.text).slice(0, 20).join(", ")}`}.`
      : "";
    return {
      content: `${header}\n\n${page}${footer}`,
      data: { path, text: page, offset, nextOffset: more ? end : null, total: text.length },
      empty: full.trim() === "",
    };
  },
});

const write = defineNoteWriteTool({
  name: "vault:write",
  family: "vault",
  description: "Create a note, or replace a note's whole text. To add to a note use vault:append; to change part of it use vault:edit.",
  routingHints: ["create a note", "make a new note", "write a note called", "save this as a note", "overwrite the note", "new file"],
  args: z.object({
    path: pathArg("Vault-relative path of the note to create or replace, e.g. Ideas/Garden.md."),
    content: contentArg("The note's complete new text (markdown).", 20000),
  }),
  aliases: { ...PATH_ALIASES, text: "content", body: "content" },
  pathArgs: ["path"],
  target: (args, ctx) => guardPath(notePath(args.path), ctx),
  plan: (args, _ctx, path, before) => ({ path, before, after: args.content }),
  asking: "Replace",
  done: (_args, change) => (change.before === null ? "Created" : "Replaced"),
});

function appendChange(args: { path: string; content: string; heading?: string }, ctx: ToolContext, before: string | null): NoteChange {
  const path = guardPath(notePath(args.path), ctx);
  return { path, before, after: appendText(before ?? "", args.content, args.heading) };
}

const append = defineNoteWriteTool({
  name: "vault:append",
  family: "vault",
  description: "Add text to the end of a note, or to the end of the section under `heading` (the heading is created when missing). Creates the note if it does not exist.",
  routingHints: ["add to my note", "append this", "add a line to", "jot down in", "put this under the heading", "log this in"],
  args: z.object({
    path: pathArg(),
    content: contentArg("Markdown text to add."),
    heading: headingArg("Add at the end of this heading's section instead of the end of the note."),
  }),
  aliases: { ...PATH_ALIASES, text: "content", section: "heading" },
  pathArgs: ["path"],
  target: (args, ctx) => guardPath(notePath(args.path), ctx),
  plan: (args, ctx, _path, before) => appendChange(args, ctx, before),
  asking: "Append to",
  done: "Appended to",
});

function editChange(args: { path: string; find: string; replace: string; all?: boolean }, path: string, before: string): NoteChange {
  const count = before.split(args.find).length - 1;
  if (count === 0) {
    throw new ToolError(`The text to find does not occur in "${path}"; read the note and copy the exact text, including spaces and line breaks.`, "not_found");
  }
  if (count > 1 && !args.all) {
    throw new ToolError(`The text to find occurs ${count} times in "${path}"; include more surrounding text so it is unique, or set all=true.`, "ambiguous");
  }
  const after = args.all ? before.split(args.find).join(args.replace) : before.replace(args.find, () => args.replace);
  return { path, before, after };
}

const edit = defineNoteWriteTool({
  name: "vault:edit",
  family: "vault",
  description: "Replace an exact piece of text in a note. `find` must occur exactly once (or set all=true); it fails clearly when the text is absent or ambiguous.",
  routingHints: ["change the text", "fix the typo", "replace this with", "rename the heading", "update the line", "correct the note"],
  args: z.object({
    path: pathArg(),
    find: z.string().min(1).max(4000).describe("The exact text to replace, copied from the note."),
    replace: z.string().max(8000).describe("The new text."),
    all: z.boolean().optional().describe("Replace every occurrence instead of exactly one (default false)."),
  }),
  aliases: { ...PATH_ALIASES, old: "find", old_text: "find", search: "find", new: "replace", new_text: "replace", replacement: "replace", with: "replace" },
  pathArgs: ["path"],
  existingPaths: ["path"],
  noteArgs: { find: "find" },
  target: (args, ctx) => guardPath(notePath(args.path), ctx),
  plan: (args, _ctx, path, before) => {
    if (before === null) throw noNoteAt(path, "find the right path with vault:list or vault:search.");
    return editChange(args, path, before);
  },
  asking: "Edit",
  done: "Edited",
});

const list = defineTool({
  name: "vault:list",
  family: "vault",
  description: "List the files in the vault or in one folder (recursively), with sizes. Paged with `offset`.",
  routingHints: ["list my notes", "what notes do I have", "show the files in", "what's in the folder", "browse the vault", "find the note called"],
  args: z.object({
    folder: z.string().max(300).optional().describe("Folder to list, e.g. Projects (default: the whole vault)."),
    limit: limitArg(100, 500),
    offset: z.number().int().min(0).max(1_000_000).optional().describe("Skip this many files (for the next page)."),
  }),
  aliases: { path: "folder", dir: "folder", directory: "folder", max: "limit" },
  effect: "read",
  pathArgs: ["folder"],
  async handler(args, ctx) {
    const folder = folderPath(args.folder);
    if (folder !== "") guardPath(folder, ctx);
    const files = (await ctx.vault.list(folder)).filter((f) => !isExcluded(f.path, ctx));
    const limit = args.limit ?? 100;
    const offset = args.offset ?? 0;
    const page = files.slice(offset, offset + limit);
    const lines = page.map((f) => `${f.path} (${formatSize(f.size)})`);
    const rest = files.length - offset - page.length;
    const where = folder === "" ? "the vault" : `${folder}/`;
    const content =
      files.length === 0
        ? `No files in ${where}.`
        : `${files.length} files in ${where}${offset ? ` (from ${offset})` : ""}:\n${lines.join("\n")}${rest > 0 ? `\n… ${rest} more; list again with offset=${offset + page.length}.` : ""}`;
    return { content, data: { folder, total: files.length, files: page.map((f) => f.path) }, empty: files.length === 0 };
  },
});

function formatSize(bytes: number): string {
  return bytes < 1024 ? `${bytes} B` : bytes < 1024 * 1024 ? `${(bytes / 1024).toFixed(1)} KB` : `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

const search = defineTool({
  name: "vault:search",
  family: "vault",
  description: "Full-text search over all notes by words (names, phrases, tags). Returns the best-matching notes with a snippet each.",
  routingHints: ["search my notes for", "find notes mentioning", "which note talks about", "where did I write", "look up the word", "find everything about"],
  args: z.object({
    query: z.string().min(1).max(300).describe("Words to look for."),
    limit: limitArg(10, 50),
    folder: z.string().max(300).optional().describe("Only search under this folder."),
  }),
  aliases: { q: "query", text: "query", terms: "query", keywords: "query", max: "limit", path: "folder" },
  effect: "read",
  pathArgs: ["folder"],
  async handler(args, ctx) {
    const limit = args.limit ?? 10;
    const folder = folderPath(args.folder);
    if (folder !== "") guardPath(folder, ctx);
    // The folder limits the query itself, so a match there is found however many better ones lie elsewhere.
    const filter = folder === "" ? undefined : { pathPrefix: `${folder}/` };
    const raw = ctx.memory ? await ctx.memory.textSearch(args.query, limit * 3, filter) : await scanSearch(ctx, args.query, limit * 3, folder);
    const hits = raw.filter((h) => !isExcluded(h.path, ctx) && (folder === "" || h.path.startsWith(`${folder}/`))).slice(0, limit);
    if (hits.length === 0) return { content: `No notes match "${args.query}".`, data: { hits: [] }, empty: true };
    const lines = hits.map((h) => `${wikilink(h.path)} — ${h.snippet}`);
    return { content: `${hits.length} notes match "${args.query}":\n${lines.join("\n")}`, data: { hits } };
  },
});

/** The sentence semantic tools answer when no embedding model is set up. */
export const NO_EMBEDDINGS =
  "Semantic search is not available because no embedding model is configured; choose one in the plugin settings, or use vault:search for word search.";

const semanticSearch = defineTool({
  name: "vault:semantic_search",
  family: "vault",
  description: "Search notes by meaning rather than exact words, using the vault's semantic index. Returns matching passages with their note and heading.",
  routingHints: ["notes about the idea of", "anything related to", "what did I think about", "find similar notes", "notes on the topic", "remind me what I know about"],
  args: z.object({
    query: z.string().min(1).max(500).describe("What you are looking for, in plain words."),
    limit: limitArg(5, 20),
    folder: z.string().max(300).optional().describe("Only search under this folder."),
  }),
  aliases: { q: "query", text: "query", question: "query", max: "limit", path: "folder" },
  effect: "read",
  pathArgs: ["folder"],
  async handler(args, ctx) {
    const semantic = ctx.memory?.semanticSearch;
    if (!semantic) throw new ToolError(NO_EMBEDDINGS, "unavailable");
    const folder = folderPath(args.folder);
    if (folder !== "") guardPath(folder, ctx);
    const limit = args.limit ?? 5;
    const hits = (await semantic(args.query, limit * 2, folder ? { pathPrefix: `${folder}/` } : undefined))
      .filter((h) => !isExcluded(h.path, ctx))
      .slice(0, limit);
    if (hits.length === 0) return { content: `Nothing in the semantic index matches "${args.query}".`, data: { hits: [] }, empty: true };
    const blocks = hits.map((h) => `${wikilink(h.path, h.heading)} (score ${h.score.toFixed(2)})\n${clip(h.text, 600, "read the note for more")}`);
    return { content: blocks.join("\n\n"), data: { hits } };
  },
});

/** Where a move goes: `to` as a note path, or into the folder `to` names when it ends with a slash ("Archive/"). */
function moveTarget(from: string, to: string): string {
  const trimmed = to.trim();
  if (!/[\\/]$/.test(trimmed)) return notePath(trimmed);
  const folder = folderPath(trimmed);
  const name = from.split("/").pop() ?? from;
  return folder === "" ? name : `${folder}/${name}`;
}

const move = defineTool({
  name: "vault:move",
  family: "vault",
  description: "Move or rename a note. Links to it in other notes are updated, as Obsidian does.",
  routingHints: ["rename the note", "move the note to", "put this note in the folder", "file this under", "archive the note", "change the title of the file"],
  args: z.object({
    from: pathArg("Current path of the note."),
    to: pathArg("New path, e.g. Archive/Alpha.md."),
  }),
  aliases: { path: "from", source: "from", old_path: "from", src: "from", destination: "to", new_path: "to", target: "to", dest: "to" },
  effect: "write",
  pathArgs: ["from", "to"],
  existingPaths: ["from"],
  newPaths: ["to"],
  async preview(args, ctx) {
    const from = guardPath(notePath(args.from), ctx);
    const to = guardPath(moveTarget(from, args.to), ctx);
    const backlinks = (await ctx.vault.exists(from)) ? await ctx.vault.backlinks(from) : [];
    return {
      summary: `Move ${from} to ${to}`,
      preview: `${from} → ${to}${backlinks.length ? `\nLinks will be updated in: ${backlinks.join(", ")}` : ""}`,
      previewKind: "text",
    };
  },
  async handler(args, ctx) {
    const from = guardPath(notePath(args.from), ctx);
    const to = guardPath(moveTarget(from, args.to), ctx);
    if (!(await ctx.vault.exists(from))) throw noNoteAt(from);
    if (await ctx.vault.exists(to)) throw new ToolError(`"${to}" already exists; choose another name.`, "conflict");
    const backlinks = await ctx.vault.backlinks(from);
    await ctx.vault.move(from, to);
    return {
      content: `Moved ${from} to ${wikilink(to)}${backlinks.length ? `; updated links in ${backlinks.length} notes` : ""}.`,
      data: { from, to, updated: backlinks },
    };
  },
});

const remove = defineTool({
  name: "vault:delete",
  family: "vault",
  description: "Move a note to the trash (recoverable, never a hard delete).",
  routingHints: ["delete the note", "remove the note", "trash this file", "get rid of the note", "throw away"],
  args: z.object({ path: pathArg("Path of the note to move to the trash.") }),
  aliases: PATH_ALIASES,
  effect: "destructive",
  pathArgs: ["path"],
  existingPaths: ["path"],
  async preview(args, ctx) {
    const path = guardPath(notePath(args.path), ctx);
    const text = await mustRead(ctx, path);
    return { summary: `Move ${path} to the trash`, preview: clip(text, 2000, "the whole note goes to the trash"), previewKind: "content" };
  },
  async handler(args, ctx) {
    const path = guardPath(notePath(args.path), ctx);
    if (!(await ctx.vault.exists(path))) throw noNoteAt(path, "nothing was deleted.");
    const backlinks = await ctx.vault.backlinks(path);
    await ctx.vault.trash(path);
    return {
      content: `Moved ${path} to the trash.${backlinks.length ? ` ${backlinks.length} notes still link to it: ${backlinks.slice(0, 5).join(", ")}.` : ""}`,
      data: { path, backlinks },
    };
  },
});

export const vaultTools: ToolDefinition[] = [read, write, append, edit, list, search, semanticSearch, move, remove];
