/** The `memory` family: save a fact as a dated, tagged note in the memory folder; recall saved facts. */
import { z } from "zod";
import type { ToolContext, ToolDefinition } from "../core/protocol/tool";
import { defineNoteWriteTool, defineTool } from "./define-tool";
import { contentArg, limitArg } from "./arg-schemas";
import { folderPath, guardPath } from "./note-path";
import { formatDate } from "./date-format";
import { readOrNull, type NoteChange } from "./note-change";
import { stringifyYaml } from "../core/memory/frontmatter";
import { scanSearch } from "./scan-search";
import { clip } from "../core/text/clip";
import { wikilink } from "../core/text/wikilink";

function memoryPath(args: { content: string; title?: string }, ctx: ToolContext): string {
  const title = (args.title ?? args.content.split(/\s+/).slice(0, 6).join(" "))
    .replace(/[\\/:*?"<>|#^[\]\n]/g, " ")
    .replace(/\s+/g, " ")
    .trim()
    .slice(0, 60) || "Memory";
  const folder = folderPath(ctx.settings.memoryFolder) || "Memory";
  return guardPath(`${folder}/${formatDate(ctx.now(), "YYYY-MM-DD")} ${title}.md`, ctx);
}

function saveChange(args: { content: string; title?: string; tags?: string[] }, ctx: ToolContext, path: string, before: string | null): NoteChange {
  const stamp = formatDate(ctx.now(), "YYYY-MM-DD HH:mm");
  if (before !== null) return { path, before, after: `${before.replace(/\n*$/, "\n")}\n${stamp}: ${args.content.trim()}\n` };
  const tags = ["memory", ...(args.tags ?? []).map((t) => t.replace(/^#/, "").trim()).filter((t) => t && t !== "memory")];
  const fm = stringifyYaml({ created: stamp, tags });
  return { path, before, after: `---\n${fm}\n---\n${args.content.trim()}\n` };
}

const save = defineNoteWriteTool({
  name: "memory:save",
  family: "memory",
  description: "Remember a fact or preference for later: saved as a dated note tagged #memory in the memory folder.",
  routingHints: ["remember that", "don't forget", "keep in mind", "save this for later", "note to self", "remember my preference"],
  args: z.object({
    content: contentArg("The fact to remember, as a full sentence.", 2000),
    title: z.string().min(1).max(80).optional().describe("A short title for the memory note."),
    tags: z.array(z.string().min(1).max(50)).max(10).optional().describe("Extra tags (memory is always added)."),
  }),
  aliases: { text: "content", fact: "content", memory: "content", name: "title", tag: "tags" },
  target: memoryPath,
  plan: saveChange,
  asking: "Add a memory to",
  done: "Saved the memory in",
});

const recall = defineTool({
  name: "memory:recall",
  family: "memory",
  description: "Look up facts saved earlier with memory:save (by meaning when a semantic index exists, else by words).",
  routingHints: ["what do you remember about", "did I tell you", "recall my preference", "what did I ask you to remember", "my saved facts"],
  args: z.object({
    query: z.string().min(1).max(300).describe("What to recall."),
    limit: limitArg(5, 20),
  }),
  aliases: { q: "query", text: "query", about: "query", max: "limit" },
  effect: "read",
  async handler(args, ctx) {
    const folder = folderPath(ctx.settings.memoryFolder) || "Memory";
    const limit = args.limit ?? 5;
    const semantic = ctx.memory?.semanticSearch;
    if (semantic) {
      const hits = await semantic(args.query, limit, { pathPrefix: `${folder}/` });
      if (hits.length > 0) {
        return {
          content: hits.map((h) => `${wikilink(h.path)}: ${clip(h.text, 500, "read the note for more")}`).join("\n\n"),
          data: { hits, mode: "semantic" },
        };
      }
    }
    const words = ctx.memory
      ? (await ctx.memory.textSearch(args.query, limit * 5, { pathPrefix: `${folder}/` })).filter((h) => h.path.startsWith(`${folder}/`)).slice(0, limit)
      : await scanSearch(ctx, args.query, limit, folder);
    if (words.length === 0) return { content: `Nothing saved in ${folder}/ matches "${args.query}".`, data: { hits: [] }, empty: true };
    const blocks: string[] = [];
    for (const h of words) {
      const text = await readOrNull(ctx, h.path);
      blocks.push(`${wikilink(h.path)}: ${clip((text ?? h.snippet).replace(/^---[\s\S]*?---\n/, "").trim(), 500, "read the note for more")}`);
    }
    return { content: blocks.join("\n\n"), data: { hits: words, mode: "text" } };
  },
});

export const memoryTools: ToolDefinition[] = [save, recall];
