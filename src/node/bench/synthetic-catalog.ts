/**
 * A realistic synthetic catalog of 50 tools (Zod 4 args with 3–8 fields, enums, arrays, nested objects),
 * used by the grammar and router benchmarks and by the `grammar` command until src/tools exists.
 */
import { z } from "zod";

/** One synthetic tool: enough for the grammar compiler and the router. */
export interface SyntheticTool {
  /** `family:verb`. */
  name: string;
  /** One sentence for the router. */
  description: string;
  /** The args object. */
  args: z.ZodObject;
}

const path = () => z.string().min(1).max(512).describe("Vault-relative path of a note, e.g. Projects/Alpha.md");
const folder = () => z.string().max(512).describe("Vault-relative folder; empty for the vault root");
const limit = () => z.number().int().min(1).max(100).optional().describe("Most results to return");
const tags = () => z.array(z.string().regex(/^#?[A-Za-z0-9_/-]{1,64}$/)).max(16).describe("Tags without spaces");
const isoDate = () => z.iso.date().describe("A date, YYYY-MM-DD");
const sortOrder = () => z.enum(["name", "modified", "created", "size"]).optional();
const position = () => z.enum(["start", "end", "after-heading"]);
const priority = () => z.enum(["lowest", "low", "normal", "high", "highest"]);

function tool(name: string, description: string, shape: z.ZodRawShape): SyntheticTool {
  return { name, description, args: z.object(shape).strict() };
}

/** The 50 tools, in a stable order. */
export function syntheticCatalog(): SyntheticTool[] {
  return [
    tool("vault:read", "Read a note's text, a page at a time.", { path: path(), page: z.number().int().min(1).max(1000).optional(), includeFrontmatter: z.boolean().optional() }),
    tool("vault:write", "Create or overwrite a note with new text.", { path: path(), content: z.string().max(20000), overwrite: z.boolean(), reason: z.string().max(200).optional() }),
    tool("vault:append", "Add text to a note at the start, end or after a heading.", { path: path(), text: z.string().max(8000), position: position(), heading: z.string().max(200).optional() }),
    tool("vault:list", "List notes and folders in a folder.", { folder: folder(), recursive: z.boolean(), sort: sortOrder(), limit: limit() }),
    tool("vault:move", "Move or rename a note, updating links.", { from: path(), to: path(), updateLinks: z.boolean().optional() }),
    tool("vault:trash", "Move a note to the trash.", { path: path(), reason: z.string().max(200), permanent: z.literal(false).optional() }),
    tool("vault:copy", "Copy a note to a new path.", { from: path(), to: path(), overwrite: z.boolean().optional() }),
    tool("vault:stat", "Size and dates of a note.", { path: path(), fields: z.array(z.enum(["size", "created", "modified", "words"])).min(1).max(4) }),
    tool("note:replace", "Replace text inside a note.", { path: path(), find: z.string().min(1).max(2000), replace: z.string().max(2000), all: z.boolean().optional(), caseSensitive: z.boolean().optional() }),
    tool("note:outline", "Headings of a note as an outline.", { path: path(), maxDepth: z.number().int().min(1).max(6).optional(), includeLineNumbers: z.boolean().optional() }),
    tool("note:section", "Read one section of a note by heading.", { path: path(), heading: z.string().min(1).max(200), includeSubsections: z.boolean() }),
    tool("note:insert-table", "Insert a markdown table into a note.", {
      path: path(),
      columns: z.array(z.string().max(60)).min(1).max(8),
      rows: z.array(z.array(z.string().max(200)).max(8)).max(50),
      position: position(),
    }),
    tool("note:summarize", "Summarize a note into a few sentences.", { path: path(), sentences: z.number().int().min(1).max(10), style: z.enum(["plain", "bullets", "tldr"]) }),
    tool("note:word-count", "Count words in notes.", { paths: z.array(path()).min(1).max(20), excludeCode: z.boolean().optional() }),
    tool("frontmatter:get", "Read a note's frontmatter.", { path: path(), keys: z.array(z.string().max(64)).max(20).optional() }),
    tool("frontmatter:set", "Set frontmatter keys on a note.", {
      path: path(),
      entries: z.array(z.object({ key: z.string().min(1).max(64), value: z.union([z.string().max(500), z.number(), z.boolean(), z.null()]) })).min(1).max(10),
      createIfMissing: z.boolean().optional(),
    }),
    tool("frontmatter:delete", "Remove frontmatter keys from a note.", { path: path(), keys: z.array(z.string().min(1).max(64)).min(1).max(20) }),
    tool("tag:add", "Add tags to a note.", { path: path(), tags: tags(), where: z.enum(["frontmatter", "inline"]) }),
    tool("tag:remove", "Remove tags from a note.", { path: path(), tags: tags() }),
    tool("tag:list", "List tags in the vault with counts.", { prefix: z.string().max(64).optional(), minCount: z.number().int().min(0).max(10000).optional(), sort: z.enum(["name", "count"]), limit: limit() }),
    tool("tag:rename", "Rename a tag across the vault.", { from: z.string().min(1).max(64), to: z.string().min(1).max(64), dryRun: z.boolean() }),
    tool("link:backlinks", "Notes that link to a note.", { path: path(), includeUnresolved: z.boolean().optional(), limit: limit() }),
    tool("link:outgoing", "Links from a note to others.", { path: path(), kind: z.enum(["all", "internal", "external", "embeds"]), limit: limit() }),
    tool("link:unresolved", "Links pointing to notes that do not exist.", { folder: folder(), limit: limit(), groupBy: z.enum(["source", "target"]).optional() }),
    tool("link:insert", "Insert a link to another note.", { path: path(), target: path(), alias: z.string().max(120).optional(), position: position() }),
    tool("daily:open", "Open or create the daily note for a date.", { date: isoDate(), create: z.boolean(), template: z.string().max(512).optional() }),
    tool("daily:append", "Add a line to a daily note.", { date: isoDate().optional(), text: z.string().min(1).max(2000), section: z.string().max(200).optional(), asTask: z.boolean().optional() }),
    tool("daily:range", "Read the daily notes of a date range.", { from: isoDate(), to: isoDate(), maxCharsPerNote: z.number().int().min(100).max(4000).optional() }),
    tool("task:list", "List open or done tasks.", {
      folder: folder().optional(),
      status: z.enum(["open", "done", "cancelled", "any"]),
      due: z.object({ from: isoDate().optional(), to: isoDate().optional() }).strict().optional(),
      priority: priority().optional(),
      limit: limit(),
    }),
    tool("task:add", "Add a task to a note.", {
      path: path(),
      text: z.string().min(1).max(500),
      due: isoDate().optional(),
      priority: priority().optional(),
      recurrence: z.enum(["none", "daily", "weekly", "monthly", "yearly"]).optional(),
      tags: tags().optional(),
    }),
    tool("task:complete", "Mark a task done.", { path: path(), line: z.number().int().min(1).max(100000), done: z.boolean(), completedOn: isoDate().optional() }),
    tool("task:reschedule", "Move a task's due date.", { path: path(), line: z.number().int().min(1).max(100000), due: isoDate(), reason: z.string().max(200).optional() }),
    tool("search:text", "Full-text search over notes.", { query: z.string().min(1).max(300), folder: folder().optional(), limit: limit(), matchCase: z.boolean().optional() }),
    tool("search:semantic", "Search notes by meaning.", { query: z.string().min(1).max(300), limit: limit(), minScore: z.number().min(0).max(1).optional(), folder: folder().optional() }),
    tool("search:tags", "Find notes by tags.", { all: tags(), any: tags().optional(), none: tags().optional(), limit: limit() }),
    tool("search:properties", "Find notes by frontmatter values.", {
      filters: z.array(z.object({ key: z.string().min(1).max(64), op: z.enum(["eq", "ne", "lt", "gt", "contains", "exists"]), value: z.string().max(200).optional() }).strict()).min(1).max(5),
      limit: limit(),
      sort: sortOrder(),
    }),
    tool("memory:save", "Remember a fact for later conversations.", { text: z.string().min(1).max(1000), topic: z.string().max(80), importance: z.enum(["low", "medium", "high"]), expires: isoDate().optional() }),
    tool("memory:recall", "Recall saved facts about a topic.", { query: z.string().min(1).max(300), limit: limit(), since: isoDate().optional() }),
    tool("memory:forget", "Forget a saved fact.", { id: z.uuid(), reason: z.string().max(200).optional(), confirm: z.boolean() }),
    tool("template:apply", "Create a note from a template.", { template: path(), target: path(), variables: z.array(z.object({ name: z.string().min(1).max(40), value: z.string().max(500) }).strict()).max(12).optional() }),
    tool("template:list", "List available templates.", { folder: folder().optional(), limit: limit(), includePreview: z.boolean().optional() }),
    tool("canvas:add-card", "Add a text card to a canvas.", {
      path: z.string().regex(/^[^\n]{1,200}\.canvas$/),
      text: z.string().min(1).max(2000),
      x: z.number().int().min(-100000).max(100000),
      y: z.number().int().min(-100000).max(100000),
      size: z.object({ width: z.number().int().min(50).max(2000), height: z.number().int().min(50).max(2000) }).strict().optional(),
      color: z.enum(["1", "2", "3", "4", "5", "6"]).optional(),
    }),
    tool("canvas:connect", "Connect two canvas cards.", { path: z.string().min(1).max(512), fromId: z.string().min(1).max(40), toId: z.string().min(1).max(40), label: z.string().max(80).optional() }),
    tool("bookmark:add", "Bookmark a note or search.", { kind: z.enum(["file", "search", "heading"]), target: z.string().min(1).max(512), title: z.string().max(120).optional(), group: z.string().max(80).optional() }),
    tool("bookmark:list", "List bookmarks.", { group: z.string().max(80).optional(), kind: z.enum(["file", "search", "heading", "any"]), limit: limit() }),
    tool("workspace:open", "Open a note in the editor.", { path: path(), newPane: z.boolean(), mode: z.enum(["source", "preview", "live"]).optional(), line: z.number().int().min(1).max(100000).optional() }),
    tool("workspace:recent", "Recently opened notes.", { limit: limit(), folder: folder().optional(), since: isoDate().optional() }),
    tool("web:fetch", "Fetch a web page as text (only when network tools are on).", { url: z.string().regex(/^https?:\/\/[^\s"]{1,500}$/), maxChars: z.number().int().min(200).max(20000), selector: z.string().max(200).optional() }),
    tool("chat:clarify", "Ask the user a clarifying question.", { question: z.string().min(1).max(500), options: z.array(z.string().min(1).max(100)).max(5).optional(), urgency: z.enum(["low", "normal"]).optional() }),
    tool("stats:vault", "Counts of notes, words, tags and links.", { folder: folder().optional(), include: z.array(z.enum(["notes", "words", "tags", "links", "attachments"])).min(1).max(5), byMonth: z.boolean().optional() }),
  ];
}
