/** A canvas as plain text: for the model (canvas:read, with ids) and for the search index (canvasText, without). */
import { groupOf, membersOf } from "./layout";
import { parseCanvas } from "./validate";
import { CANVAS_PRESET_COLORS, type CanvasData, type CanvasEdge, type CanvasNode } from "./types";

/** How a file card names its file: the note's title (default: the file name without `.md`). */
export type TitleOf = (path: string) => string;

const defaultTitle: TitleOf = (path) => (path.split("/").pop() ?? path).replace(/\.md$/, "");

function colorName(color: string | undefined): string {
  return color === undefined ? "" : ` (${CANVAS_PRESET_COLORS[color] ?? color})`;
}

function oneLine(text: string, max: number): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

/** A short name for a node, as edges and group member lists refer to it. */
function nameOf(n: CanvasNode, titleOf: TitleOf): string {
  if (n.type === "text") return `"${oneLine(n.text, 40)}"`;
  if (n.type === "file") return `[[${n.file.replace(/\.md$/, "")}${n.subpath ?? ""}]]`;
  if (n.type === "link") return n.url;
  return `group "${n.label ?? n.id}"`;
}

/** Top to bottom, then left to right: the order a reader scans a board. */
function reading(a: CanvasNode, b: CanvasNode): number {
  return a.y - b.y || a.x - b.x;
}

function nodeLine(n: CanvasNode, titleOf: TitleOf, ids: boolean): string {
  const id = ids ? ` [${n.id}]` : "";
  const c = colorName(n.color);
  if (n.type === "text") return `Text card${id}${c}: ${n.text.trim()}`;
  if (n.type === "file") {
    const title = titleOf(n.file);
    return `File card${id}${c}: [[${n.file.replace(/\.md$/, "")}${n.subpath ?? ""}]]${title ? ` — ${title}` : ""}`;
  }
  if (n.type === "link") return `Link card${id}${c}: ${n.url}`;
  return `Group${id}${c}: ${n.label ?? "(no label)"}`;
}

function edgeLine(e: CanvasEdge, byId: Map<string, CanvasNode>, titleOf: TitleOf, ids: boolean): string {
  const from = byId.get(e.fromNode);
  const to = byId.get(e.toNode);
  const a = from ? nameOf(from, titleOf) : e.fromNode;
  const b = to ? nameOf(to, titleOf) : e.toNode;
  const start = e.fromEnd === "arrow";
  const end = (e.toEnd ?? "arrow") === "arrow";
  const arrow = start && end ? "↔" : end ? "→" : start ? "←" : "—";
  return `${ids ? `[${e.id}] ` : ""}${a} ${arrow} ${b}${e.label ? `: ${e.label}` : ""}${colorName(e.color)}`;
}

/** The canvas as readable text: groups with their members, then cards not in a group, then connections. */
export function describeCanvas(canvas: CanvasData, options: { titleOf?: TitleOf; ids?: boolean } = {}): string {
  const titleOf = options.titleOf ?? defaultTitle;
  const ids = options.ids ?? false;
  const byId = new Map(canvas.nodes.map((n) => [n.id, n]));
  const lines: string[] = [];
  const nodes = [...canvas.nodes].sort(reading);
  const groups = nodes.filter((n) => n.type === "group");
  const cards = nodes.filter((n) => n.type !== "group");
  lines.push(`${cards.length} cards, ${groups.length} groups, ${canvas.edges.length} connections.`);
  for (const g of groups) {
    const direct = membersOf(g, nodes).filter((m) => groupOf(m, nodes) === g);
    lines.push("", nodeLine(g, titleOf, ids));
    for (const m of direct) lines.push(`  ${nodeLine(m, titleOf, ids).replace(/\n/g, "\n  ")}`);
    if (direct.length === 0) lines.push("  (empty)");
  }
  const loose = cards.filter((n) => !groupOf(n, nodes));
  if (loose.length) lines.push("", ...(groups.length ? ["Not in a group:"] : []), ...loose.map((n) => nodeLine(n, titleOf, ids)));
  if (canvas.edges.length) lines.push("", "Connections:", ...canvas.edges.map((e) => edgeLine(e, byId, titleOf, ids)));
  return lines.join("\n");
}

/**
 * A canvas file's text as plain searchable text (cards, file titles, links, group labels, connections); "" when the
 * text is not a valid canvas. Stable: the memory index calls it for every `.canvas` file.
 */
export function canvasText(json: string, titleOf: TitleOf = defaultTitle): string {
  const parsed = parseCanvas(json);
  return parsed.ok ? describeCanvas(parsed.canvas, { titleOf }) : "";
}
