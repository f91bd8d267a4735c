/**
 * A validator written from the JSON Canvas 1.0 spec: required attributes and their types, node types, sides, ends,
 * colors, subpaths; plus what a canvas needs to open as drawn: ids unique (nodes and edges share one id space, as
 * Obsidian writes them), edges only between existing nodes, and positive sizes.
 */
import { CANVAS_BACKGROUND_STYLES, CANVAS_ENDS, CANVAS_NODE_TYPES, CANVAS_SIDES, type CanvasData } from "./types";

/** A preset color number or a hex color `#RRGGBB`. */
export function isCanvasColor(value: unknown): boolean {
  return typeof value === "string" && /^(?:[1-6]|#[0-9A-Fa-f]{6})$/.test(value);
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);

function checkOptional(o: Obj, key: string, where: string, ok: (v: unknown) => boolean, what: string, out: string[]): void {
  if (key in o && !ok(o[key])) out.push(`${where}: "${key}" must be ${what}.`);
}

function checkNode(n: unknown, i: number, out: string[]): void {
  const where = `node ${i}`;
  if (!isObj(n)) return void out.push(`${where} is not an object.`);
  const at = typeof n.id === "string" && n.id !== "" ? `node "${n.id}"` : where;
  if (typeof n.id !== "string" || n.id === "") out.push(`${where}: "id" must be a non-empty string.`);
  if (!CANVAS_NODE_TYPES.includes(n.type as never)) out.push(`${at}: "type" must be one of ${CANVAS_NODE_TYPES.join(", ")}.`);
  for (const key of ["x", "y"]) if (!Number.isInteger(n[key])) out.push(`${at}: "${key}" must be an integer.`);
  for (const key of ["width", "height"]) if (!Number.isInteger(n[key]) || (n[key] as number) < 1) out.push(`${at}: "${key}" must be a positive integer.`);
  checkOptional(n, "color", at, isCanvasColor, 'a preset "1"–"6" or a hex color #RRGGBB', out);
  const str = (v: unknown) => typeof v === "string";
  if (n.type === "text" && !str(n.text)) out.push(`${at}: a text node needs a string "text".`);
  if (n.type === "file") {
    if (typeof n.file !== "string" || n.file === "") out.push(`${at}: a file node needs a non-empty string "file".`);
    checkOptional(n, "subpath", at, (v) => str(v) && (v).startsWith("#"), 'a string starting with "#"', out);
  }
  if (n.type === "link" && !str(n.url)) out.push(`${at}: a link node needs a string "url".`);
  if (n.type === "group") {
    checkOptional(n, "label", at, str, "a string", out);
    checkOptional(n, "background", at, str, "a string", out);
    checkOptional(n, "backgroundStyle", at, (v) => CANVAS_BACKGROUND_STYLES.includes(v as never), CANVAS_BACKGROUND_STYLES.join(", "), out);
  }
}

function checkEdge(e: unknown, i: number, nodeIds: Set<string>, out: string[]): void {
  const where = `edge ${i}`;
  if (!isObj(e)) return void out.push(`${where} is not an object.`);
  const at = typeof e.id === "string" && e.id !== "" ? `edge "${e.id}"` : where;
  if (typeof e.id !== "string" || e.id === "") out.push(`${where}: "id" must be a non-empty string.`);
  for (const key of ["fromNode", "toNode"]) {
    if (typeof e[key] !== "string") out.push(`${at}: "${key}" must be a string.`);
    else if (!nodeIds.has(e[key])) out.push(`${at}: "${key}" names "${e[key]}", which is no node of the canvas.`);
  }
  for (const key of ["fromSide", "toSide"]) checkOptional(e, key, at, (v) => CANVAS_SIDES.includes(v as never), CANVAS_SIDES.join(", "), out);
  for (const key of ["fromEnd", "toEnd"]) checkOptional(e, key, at, (v) => CANVAS_ENDS.includes(v as never), CANVAS_ENDS.join(", "), out);
  checkOptional(e, "color", at, isCanvasColor, 'a preset "1"–"6" or a hex color #RRGGBB', out);
  checkOptional(e, "label", at, (v) => typeof v === "string", "a string", out);
}

/** Every way the value breaks JSON Canvas 1.0, one sentence each; empty when it is a valid canvas. */
export function canvasProblems(value: unknown): string[] {
  const out: string[] = [];
  if (!isObj(value)) return ["A canvas must be a JSON object with `nodes` and `edges` arrays."];
  for (const key of ["nodes", "edges"]) if (key in value && !Array.isArray(value[key])) out.push(`"${key}" must be an array.`);
  const nodes: unknown[] = Array.isArray(value.nodes) ? value.nodes : [];
  const edges: unknown[] = Array.isArray(value.edges) ? value.edges : [];
  nodes.forEach((n, i) => checkNode(n, i, out));
  const nodeIds = new Set(nodes.filter(isObj).map((n) => n.id).filter((id): id is string => typeof id === "string"));
  edges.forEach((e, i) => checkEdge(e, i, nodeIds, out));
  const seen = new Set<string>();
  for (const item of [...nodes, ...edges]) {
    const id = isObj(item) ? item.id : undefined;
    if (typeof id !== "string") continue;
    if (seen.has(id)) out.push(`The id "${id}" is used more than once.`);
    seen.add(id);
  }
  return out;
}

/** A canvas file's text parsed and validated; `error` is one sentence naming the first problems. */
export function parseCanvas(text: string): { ok: true; canvas: CanvasData } | { ok: false; error: string } {
  let value: unknown;
  try {
    // An empty file is how Obsidian starts a new canvas.
    value = text.trim() === "" ? {} : JSON.parse(text);
  } catch {
    return { ok: false, error: "The file is not valid JSON, so it is no JSON Canvas." };
  }
  const problems = canvasProblems(value);
  if (problems.length) return { ok: false, error: `The canvas is not valid JSON Canvas 1.0: ${problems.slice(0, 3).join(" ")}${problems.length > 3 ? ` (${problems.length - 3} more)` : ""}` };
  const v = value as Partial<CanvasData>;
  return { ok: true, canvas: { nodes: v.nodes ?? [], edges: v.edges ?? [] } };
}

/** The canvas as its file holds it: tab-indented JSON, as Obsidian writes it. */
export function serializeCanvas(canvas: CanvasData): string {
  return JSON.stringify({ nodes: canvas.nodes, edges: canvas.edges }, null, "\t");
}
