/**
 * The `canvas` family: read a canvas as text, create one, edit one. Writes go through the core's canvas editor, so
 * every file they leave is valid JSON Canvas 1.0 without overlapping cards; they preview the canvas as text and
 * write with compare-and-swap like every note write (journaled by the turn, so undo works).
 */
import * as z from "zod";
import type { ToolContext, ToolDefinition, ToolPreview } from "../core/protocol/tool";
import { applyCanvasOps, CANVAS_OPS, CanvasEditError, type CanvasOp } from "../core/canvas/edit";
import { describeCanvas, parseCanvas, serializeCanvas, type CanvasData } from "../core/canvas";
import { defineTool } from "./define-tool";
import { PATH_ALIASES, pathArg } from "./arg-schemas";
import { cleanPath, guardPath, notePath, noteName } from "./note-path";
import { applyChange, baseText, previewOf, readOrNull, type NoteChange } from "./note-change";
import { ToolError } from "./tool-error";
import { clip } from "../core/text/clip";
import { wikilink } from "../core/text/wikilink";

/** A canvas path: cleaned, `.canvas` added when there is no extension; any other extension is refused. */
export function canvasPath(raw: string, ctx: ToolContext): string {
  const p = guardPath(cleanPath(raw), ctx);
  const name = p.split("/").pop() ?? p;
  const ext = /\.([A-Za-z0-9]{1,10})$/.exec(name)?.[1];
  if (ext && ext.toLowerCase() !== "canvas") throw new ToolError(`"${p}" is not a canvas; canvas files end in .canvas.`, "bad_args");
  return ext ? p : `${p}.canvas`;
}

const canvasPathArg = (what = "Vault-relative path of the canvas, e.g. Maps/Project Alpha.canvas") => pathArg(what);

const opArg = z.object({
  op: z.enum(CANVAS_OPS).describe("add_text, add_file, add_link, add_group, connect, move, relabel, recolor or remove."),
  id: z.string().max(64).optional().describe("The node or connection to change (an id from canvas:read, or a card's text, file or group label); for add_*: an id for the new node, so later operations can name it."),
  from: z.string().max(200).optional().describe("connect: the node the arrow starts at."),
  to: z.string().max(200).optional().describe("connect: the node the arrow points to."),
  text: z.string().max(2000).optional().describe("add_text: the card's markdown; relabel: the new text, label or URL."),
  file: z.string().max(300).optional().describe("add_file: vault path of the file the card shows."),
  subpath: z.string().max(200).optional().describe('add_file: a heading "#Plan" or block "#^id" of the file.'),
  url: z.string().max(2000).optional().describe("add_link: the web address."),
  label: z.string().max(200).optional().describe("add_group, connect: the label."),
  direction: z.enum(["forward", "both", "none"]).optional().describe("connect: arrow at the end (forward, default), at both ends, or none."),
  members: z.array(z.string().max(200)).max(40).optional().describe("add_group: the nodes the group surrounds."),
  group: z.string().max(200).optional().describe("add_*, move: put the node inside this group (id or label)."),
  near: z.string().max(200).optional().describe("add_*, move: put the node beside this node."),
  color: z.string().max(7).optional().describe('"1" red, "2" orange, "3" yellow, "4" green, "5" cyan, "6" purple, a hex color "#RRGGBB", or "none".'),
  x: z.number().int().min(-100000).max(100000).optional().describe("add_*, move: wanted x in pixels (the nearest free spot is taken)."),
  y: z.number().int().min(-100000).max(100000).optional().describe("add_*, move: wanted y in pixels."),
});
const opsArg = (what: string) => z.array(opArg).min(1).max(40).describe(what);

/** The titles file cards show: a note's `title` property or first heading, else its name. */
async function titles(canvas: CanvasData, ctx: ToolContext): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const n of canvas.nodes) {
    if (n.type !== "file" || out.has(n.file)) continue;
    const meta = n.file.endsWith(".md") ? await ctx.vault.metadata(n.file).catch(() => null) : null;
    const exists = meta !== null || (await ctx.vault.exists(n.file).catch(() => false));
    const title = meta?.frontmatter?.title;
    out.set(n.file, !exists ? "(missing file)" : typeof title === "string" ? title : (meta?.headings.find((h) => h.level === 1)?.text ?? noteName(n.file)));
  }
  return out;
}

async function render(canvas: CanvasData, ctx: ToolContext): Promise<string> {
  const t = await titles(canvas, ctx);
  return describeCanvas(canvas, { ids: true, titleOf: (p) => t.get(p) ?? noteName(p) });
}

function parseOrRefuse(path: string, text: string): CanvasData {
  if (text.includes("\u0000")) throw new ToolError(`"${path}" is a binary file, not a canvas.`, "bad_args");
  const parsed = parseCanvas(text);
  if (!parsed.ok) throw new ToolError(`"${path}" cannot be changed safely: ${parsed.error}`, "bad_args");
  return parsed.canvas;
}

/** File cards name files that exist: `Projects/Alpha` becomes `Projects/Alpha.md`, a missing file is refused. */
async function groundFiles(ops: CanvasOp[], ctx: ToolContext): Promise<CanvasOp[]> {
  const out: CanvasOp[] = [];
  for (const op of ops) {
    if (op.op !== "add_file" || op.file === undefined) {
      out.push(op);
      continue;
    }
    const file = guardPath(notePath(op.file), ctx);
    if (!(await ctx.vault.exists(file))) throw new ToolError(`There is no file at "${file}" for a file card; find the right path with vault:search or vault:list.`, "not_found");
    out.push({ ...op, file });
  }
  return out;
}

/** The canvas's new text from its text now (null: a new canvas). */
async function planCanvas(args: { path: string; ops: CanvasOp[] }, ctx: ToolContext, path: string, before: string | null): Promise<NoteChange & { lines: string[]; added: string[]; canvas: CanvasData }> {
  const start = before === null ? { nodes: [], edges: [] } : parseOrRefuse(path, before);
  try {
    const r = applyCanvasOps(start, await groundFiles(args.ops, ctx));
    return { path, before, after: serializeCanvas(r.canvas), lines: r.done, added: r.added, canvas: r.canvas };
  } catch (err) {
    if (err instanceof CanvasEditError) throw new ToolError(`${err.message} Nothing was changed.`, "bad_args");
    throw err;
  }
}

function counts(c: CanvasData): string {
  const cards = c.nodes.filter((n) => n.type !== "group").length;
  const groups = c.nodes.length - cards;
  const n = (k: number, what: string) => `${k} ${what}${k === 1 ? "" : "s"}`;
  return `${n(cards, "card")}${groups ? `, ${n(groups, "group")}` : ""}, ${n(c.edges.length, "connection")}`;
}

/** A canvas write: the preview shows the canvas as it will read; the handler writes what the preview saw. */
function canvasWrite(spec: { name: string; description: string; routingHints: string[]; creates: boolean }): ToolDefinition {
  const target = (args: { path: string }, ctx: ToolContext) => canvasPath(args.path, ctx);
  return defineTool({
    name: spec.name,
    family: "canvas",
    description: spec.description,
    routingHints: spec.routingHints,
    args: z.object({ path: canvasPathArg(), ops: opsArg(spec.creates ? "What to put on the new canvas, in order: add_text, add_file, add_link, add_group, connect." : "The changes, in order.") }),
    aliases: { ...PATH_ALIASES, canvas: "path", operations: "ops", changes: "ops", cards: "ops" },
    effect: "write",
    pathArgs: ["path"],
    ...(spec.creates ? { newPaths: ["path"] } : { existingPaths: ["path"], pathKinds: { path: ["canvas"] } }),
    async preview(args, ctx): Promise<ToolPreview> {
      const path = target(args, ctx);
      const before = await readOrNull(ctx, path);
      if (spec.creates && before !== null) throw new ToolError(`"${path}" already exists; edit it with canvas:edit or choose another name.`, "conflict");
      if (!spec.creates && before === null) throw new ToolError(`There is no canvas at "${path}"; create it with canvas:create.`, "not_found");
      const plan = await planCanvas(args, ctx, path, before);
      previewOf(args, plan, "Edit");
      const summary = `${spec.creates ? "Create" : "Edit"} ${path} (${counts(plan.canvas)})`;
      return { summary, preview: `${plan.lines.join("\n")}\n\n${clip(await render(plan.canvas, ctx), 6000, "the rest is on the canvas")}`, previewKind: "text" };
    },
    async handler(args, ctx) {
      const path = target(args, ctx);
      const before = await baseText(args, ctx, path);
      if (spec.creates && before !== null) throw new ToolError(`"${path}" already exists; edit it with canvas:edit or choose another name.`, "conflict");
      if (!spec.creates && before === null) throw new ToolError(`There is no canvas at "${path}"; create it with canvas:create.`, "not_found");
      const plan = await planCanvas(args, ctx, path, before);
      await applyChange(ctx, plan);
      const content = `${spec.creates ? "Created" : "Edited"} ${wikilink(path)} (${counts(plan.canvas)}).${plan.added.length ? ` New ids: ${plan.added.join(", ")}.` : ""}\n${plan.lines.join("\n")}`;
      return { content, data: { path, created: before === null, added: plan.added, canvas: plan.canvas } };
    },
  });
}

const read = defineTool({
  name: "canvas:read",
  family: "canvas",
  description: "An Obsidian canvas (.canvas) as text: its cards (text, files with their titles, links), groups with their members, and connections with labels and direction, each with the id canvas:edit uses.",
  routingHints: ["what is on my canvas", "cards on the canvas", "which groups are on the canvas", "arrows on the canvas", "which cards are on the board"],
  args: z.object({ path: canvasPathArg() }),
  aliases: { ...PATH_ALIASES, canvas: "path" },
  effect: "read",
  pathArgs: ["path"],
  existingPaths: ["path"],
  pathKinds: { path: ["canvas"] },
  async handler(args, ctx) {
    const path = canvasPath(args.path, ctx);
    const text = await readOrNull(ctx, path);
    if (text === null) throw new ToolError(`There is no canvas at "${path}"; find it with vault:list.`, "not_found");
    const canvas = parseOrRefuse(path, text);
    const body = await render(canvas, ctx);
    return { content: `${path}: ${clip(body, 12000, "the canvas has more; ask about one group")}`, data: { path, canvas }, empty: canvas.nodes.length === 0 };
  },
});

const create = canvasWrite({
  name: "canvas:create",
  creates: true,
  description:
    "Create a new Obsidian canvas (.canvas): text cards, file cards, link cards and groups, joined by labelled arrows, laid out without overlaps. Give each op an id to connect it later in the list.",
  routingHints: ["make a canvas of", "create a canvas", "draw a mind map on a canvas", "new whiteboard with cards", "visual board of the project", "lay out my projects on a canvas"],
});

const edit = canvasWrite({
  name: "canvas:edit",
  creates: false,
  description:
    "Change an existing canvas: add cards or groups, connect cards, move, relabel, recolor or remove cards, groups and connections (ids from canvas:read). The result is always a valid canvas without overlaps.",
  routingHints: ["add a card to the canvas", "connect this card to that one on the canvas", "draw an arrow between two canvas cards", "move the card into the group", "recolor the canvas card", "remove the card from the canvas", "rename the group on my canvas"],
});

export const canvasTools: ToolDefinition[] = [read, create, edit];
