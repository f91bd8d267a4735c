/**
 * The `memory` family: save a fact (as a dated, tagged note in the memory folder after a confirmation, or — where the
 * host keeps a staging tier — staged in the conversation until the user reviews it); recall saved and staged facts.
 */
import * as z from "zod";
import type { MemoryFact, StagedHit } from "../core/protocol/staged-memory";
import type { ToolContext, ToolDefinition, ToolResult } from "../core/protocol/tool";
import { searchStaged } from "../core/memory/staging-search";
import { defineNoteWriteTool, defineTool } from "./define-tool";
import { contentArg, limitArg } from "./arg-schemas";
import { guardPath } from "./note-path";
import { readOrNull, type NoteChange } from "./note-change";
import { memoryFolder, memoryNotePath, memoryNoteText } from "./memory-note";
import { ToolError } from "./tool-error";
import { scanSearch } from "./scan-search";
import { clip } from "../core/text/clip";
import { wikilink } from "../core/text/wikilink";

function memoryPath(args: MemoryFact, ctx: ToolContext): string {
  return guardPath(memoryNotePath(args, memoryFolder(ctx.settings.memoryFolder), ctx.now()), ctx);
}

function saveChange(args: MemoryFact, ctx: ToolContext, path: string, before: string | null): NoteChange {
  return { path, before, after: memoryNoteText(args, ctx.now(), before) };
}

const SAVE_ARGS = z.object({
  content: contentArg("The fact to remember, as a full sentence.", 2000),
  title: z.string().min(1).max(80).optional().describe("A short title for the memory note."),
  tags: z.array(z.string().min(1).max(50)).max(10).optional().describe("Extra tags (memory is always added)."),
});
const SAVE_HINTS = ["remember that", "don't forget", "keep in mind", "save this for later", "note to self", "remember my preference"];
const SAVE_ALIASES = { text: "content", fact: "content", memory: "content", name: "title", tag: "tags" };

const save = defineNoteWriteTool({
  name: "memory:save",
  family: "memory",
  description: "Remember a fact or preference for later: saved as a dated note tagged #memory in the memory folder.",
  routingHints: SAVE_HINTS,
  args: SAVE_ARGS,
  aliases: SAVE_ALIASES,
  target: memoryPath,
  plan: saveChange,
  asking: "Add a memory to",
  done: "Saved the memory in",
});

/**
 * memory:save with a staging tier: the fact joins the conversation's staged memories (no vault write, so nothing to
 * confirm); the user keeps, edits or drops it at review, and kept facts become memory notes through the journal.
 */
const stage = defineTool({
  name: "memory:save",
  family: "memory",
  description:
    "Remember a fact or preference for later: staged in this conversation at once, and saved as a dated note tagged #memory in the memory folder when the user keeps it.",
  routingHints: SAVE_HINTS,
  args: SAVE_ARGS,
  aliases: SAVE_ALIASES,
  effect: "write",
  conversationOnly: true,
  async handler(args, ctx) {
    if (!ctx.staging) throw new ToolError("Memories cannot be staged here (no conversation keeps them); nothing was saved.", "refused");
    const { memory, duplicate } = ctx.staging.stage(args);
    const count = ctx.staging.list().length;
    const waiting = `${count} ${count === 1 ? "memory is" : "memories are"} staged for the user to review`;
    return {
      content: duplicate ? `Already staged: "${memory.content}" (${waiting}).` : `Staged to remember: "${memory.content}" (${waiting}; nothing is written to the vault until they keep it).`,
      data: { staged: memory, duplicate, count },
    };
  },
});

function stagedLines(hits: StagedHit[]): string[] {
  return hits.map((h) => `(staged in this conversation, not saved yet) ${h.memory.content}`);
}

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
    const limit = args.limit ?? 5;
    // Staged facts first: they are the newest the user asked to keep, and no index holds them yet.
    const staged = ctx.staging ? await searchStaged(ctx.staging.list(), args.query, limit, { embed: ctx.memory?.embed }) : [];
    const kept = await recallKept(args.query, limit, ctx);
    if (staged.length === 0) return kept;
    const blocks = [...stagedLines(staged), ...(kept.empty ? [] : [kept.content])];
    return { content: blocks.join("\n\n"), data: { staged, ...(kept.data as object) } };
  },
});

/** Facts kept in the memory folder: by meaning when a semantic index exists, else by words. */
async function recallKept(query: string, limit: number, ctx: ToolContext): Promise<ToolResult> {
  const folder = memoryFolder(ctx.settings.memoryFolder);
  const semantic = ctx.memory?.semanticSearch;
  if (semantic) {
    const hits = await semantic(query, limit, { pathPrefix: `${folder}/` });
    if (hits.length > 0) {
      return {
        content: hits.map((h) => `${wikilink(h.path)}: ${clip(h.text, 500, "read the note for more")}`).join("\n\n"),
        data: { hits, mode: "semantic" },
      };
    }
  }
  const words = ctx.memory
    ? (await ctx.memory.textSearch(query, limit * 5, { pathPrefix: `${folder}/` })).filter((h) => h.path.startsWith(`${folder}/`)).slice(0, limit)
    : await scanSearch(ctx, query, limit, folder);
  if (words.length === 0) return { content: `Nothing saved in ${folder}/ matches "${query}".`, data: { hits: [] }, empty: true };
  const blocks: string[] = [];
  for (const h of words) {
    // A note's text; a canvas or a PDF page (`file.pdf#page=3`) is shown by its search snippet, not its raw file.
    const text = h.path.endsWith(".md") ? await readOrNull(ctx, h.path) : null;
    blocks.push(`${wikilink(h.path)}: ${clip((text ?? h.snippet).replace(/^---[\s\S]*?---\n/, "").trim(), 500, "read the note for more")}`);
  }
  return { content: blocks.join("\n\n"), data: { hits: words, mode: "text" } };
}

/** The memory family: memory:save writes a note after a confirmation. */
export const memoryTools: ToolDefinition[] = [save, recall];

/** The memory family where the host keeps a staging tier: memory:save stages the fact in the conversation. */
export const stagedMemoryTools: ToolDefinition[] = [stage, recall];
