/** The `links` family: which notes link here, and where a note links to. */
import * as z from "zod";
import type { ToolDefinition } from "../core/protocol/tool";
import { defineTool } from "./define-tool";
import { PATH_ALIASES, pathArg } from "./arg-schemas";
import { guardPath, isExcluded, notePath, noteWithMetadata } from "./note-path";
import { noNoteAt } from "./tool-error";
import { listLines } from "./text-bounds";
import { wikilink } from "../core/text/wikilink";

const backlinks = defineTool({
  name: "links:backlinks",
  family: "links",
  description: "The notes that link to a note (its backlinks), with the linking line.",
  routingHints: ["what links to", "backlinks of", "which notes mention this note", "where is this note referenced", "notes pointing to"],
  args: z.object({ path: pathArg() }),
  aliases: PATH_ALIASES,
  effect: "read",
  pathArgs: ["path"],
  existingPaths: ["path"],
  async handler(args, ctx) {
    const path = guardPath(notePath(args.path), ctx);
    if (!(await ctx.vault.exists(path))) throw noNoteAt(path);
    const sources = (await ctx.vault.backlinks(path)).filter((p) => !isExcluded(p, ctx));
    if (sources.length === 0) return { content: `No notes link to ${path}.`, data: { path, backlinks: [] }, empty: true };
    const rows: { path: string; line: number; text: string }[] = [];
    for (const source of sources) {
      const meta = await ctx.vault.metadata(source);
      const lines = (await ctx.vault.read(source)).split("\n");
      for (const l of meta?.links ?? []) if (l.resolved === path) rows.push({ path: source, line: l.line, text: lines[l.line]?.trim().slice(0, 160) ?? "" });
    }
    const content = `${sources.length} notes link to ${path}:\n${listLines(rows.map((r) => `${wikilink(r.path)} line ${r.line + 1}: ${r.text}`), 50, "links")}`;
    return { content, data: { path, backlinks: sources, mentions: rows } };
  },
});

const outgoing = defineTool({
  name: "links:outgoing",
  family: "links",
  description: "The links in a note: each target, whether it exists, and the line it is on.",
  routingHints: ["links in this note", "what does the note link to", "outgoing links", "linked notes", "broken links in"],
  args: z.object({ path: pathArg() }),
  aliases: PATH_ALIASES,
  effect: "read",
  pathArgs: ["path"],
  existingPaths: ["path"],
  async handler(args, ctx) {
    const { path, meta } = await noteWithMetadata(args.path, ctx);
    if (meta.links.length === 0) return { content: `${path} has no links.`, data: { path, links: [] }, empty: true };
    const rows = meta.links.map(
      (l) => `${l.embed ? "embeds" : "links to"} ${l.resolved ? wikilink(l.resolved, l.subpath) : `"${l.target}" (no such note)`} (line ${l.line + 1})`,
    );
    return { content: `${path} has ${meta.links.length} links:\n${listLines(rows, 100, "links")}`, data: { path, links: meta.links } };
  },
});

export const linkTools: ToolDefinition[] = [backlinks, outgoing];
