/** The `tags` family: every tag with its count, and the notes carrying a tag. */
import * as z from "zod";
import type { ToolContext, ToolDefinition } from "../core/protocol/tool";
import { defineTool } from "./define-tool";
import { limitArg } from "./arg-schemas";
import { isExcluded } from "./note-path";
import { listLines } from "./text-bounds";
import { wikilink } from "../core/text/wikilink";

/** Every markdown note's tags, in path order. */
async function tagsByNote(ctx: ToolContext): Promise<{ path: string; tags: string[] }[]> {
  const out: { path: string; tags: string[] }[] = [];
  for (const f of await ctx.vault.list()) {
    if (!f.path.endsWith(".md") || isExcluded(f.path, ctx)) continue;
    if (ctx.signal?.aborted) break;
    const meta = await ctx.vault.metadata(f.path);
    if (meta && meta.tags.length > 0) out.push({ path: f.path, tags: meta.tags });
  }
  return out;
}

function normalizeTag(tag: string): string {
  return `#${tag.trim().replace(/^#+/, "").toLowerCase()}`;
}

const listTags = defineTool({
  name: "tags:list",
  family: "tags",
  description: "All tags used in the vault with how many notes use each, most used first.",
  routingHints: ["what tags do I use", "list my tags", "all tags", "most used tags", "tag cloud"],
  args: z.object({
    prefix: z.string().max(100).optional().describe("Only tags starting with this, e.g. work (matches #work and #work/q3)."),
    limit: limitArg(50, 300),
  }),
  aliases: { tag: "prefix", filter: "prefix", max: "limit" },
  effect: "read",
  async handler(args, ctx) {
    const counts = new Map<string, number>();
    for (const note of await tagsByNote(ctx)) {
      for (const t of new Set(note.tags.map(normalizeTag))) counts.set(t, (counts.get(t) ?? 0) + 1);
    }
    const prefix = args.prefix ? normalizeTag(args.prefix) : "#";
    const rows = [...counts.entries()].filter(([t]) => t.startsWith(prefix)).sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
    if (rows.length === 0) return { content: args.prefix ? `No tags start with ${prefix}.` : "The vault has no tags.", data: { tags: [] }, empty: true };
    const limit = args.limit ?? 50;
    return {
      content: `${rows.length} tags:\n${listLines(rows.map(([t, n]) => `${t} (${n})`), limit, "tags")}`,
      data: { tags: rows.slice(0, limit).map(([tag, count]) => ({ tag, count })) },
    };
  },
});

const notesWithTag = defineTool({
  name: "tags:notes",
  family: "tags",
  description: "The notes that carry a tag (nested tags included: #work finds #work/q3).",
  routingHints: ["notes tagged", "everything with the tag", "which notes have #", "show my #project notes", "notes with tag"],
  args: z.object({
    tag: z.string().min(1).max(100).describe("The tag, with or without #, e.g. project."),
    limit: limitArg(50, 300),
  }),
  aliases: { name: "tag", tags: "tag", max: "limit" },
  effect: "read",
  tagArgs: ["tag"],
  async handler(args, ctx) {
    const tag = normalizeTag(args.tag);
    const paths = (await tagsByNote(ctx))
      .filter((n) => n.tags.some((t) => normalizeTag(t) === tag || normalizeTag(t).startsWith(`${tag}/`)))
      .map((n) => n.path);
    if (paths.length === 0) return { content: `No notes are tagged ${tag}.`, data: { tag, paths: [] }, empty: true };
    return {
      content: `${paths.length} notes tagged ${tag}:\n${listLines(paths.map((p) => wikilink(p)), args.limit ?? 50, "notes")}`,
      data: { tag, paths },
    };
  },
});

export const tagTools: ToolDefinition[] = [listTags, notesWithTag];
