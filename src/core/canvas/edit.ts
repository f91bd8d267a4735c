/**
 * Edits of a canvas as a list of operations (add cards and groups, connect, move, relabel, recolor, remove), each
 * checked and applied in order on a copy. Every result is valid JSON Canvas 1.0 and adds no overlap: new and moved
 * cards take the nearest free spot, groups grow (or move with their members) to make room.
 */
import { fnv1a36 } from "../text/fnv";
import { FILE_CARD, GAP, freeSpot, groupBounds, groupOf, isFree, membersOf, overlappingPairs, textCardSize } from "./layout";
import { canvasProblems, isCanvasColor } from "./validate";
import type { CanvasData, CanvasEdge, CanvasNode, CanvasSide } from "./types";

/** What an operation does. */
export const CANVAS_OPS = ["add_text", "add_file", "add_link", "add_group", "connect", "move", "relabel", "recolor", "remove"] as const;

/** One operation; which fields count depends on `op` (see the tool's description). */
export interface CanvasOp {
  op: (typeof CANVAS_OPS)[number];
  /** The node or edge an edit targets; for add_*: the new node's id (optional, generated when absent). */
  id?: string;
  /** add_text: the card's markdown; relabel: the new text, label or URL. */
  text?: string;
  /** add_file: vault path of the file. */
  file?: string;
  /** add_file: `#Heading` or `#^block`. */
  subpath?: string;
  /** add_link: the URL. */
  url?: string;
  /** add_group and connect: the label. */
  label?: string;
  /** Preset "1"–"6" or `#RRGGBB`; recolor with "none" clears it. */
  color?: string;
  /** add_* and move: put the node inside this group (id or label). */
  group?: string;
  /** add_* and move: put the node beside this one. */
  near?: string;
  /** add_group: the nodes the group surrounds. */
  members?: string[];
  /** connect: the nodes the edge joins. */
  from?: string;
  to?: string;
  /** connect: which way the arrow points (default forward). */
  direction?: "forward" | "both" | "none";
  /** add_* and move: the wanted position (the nearest free spot is taken). */
  x?: number;
  y?: number;
}

/** An operation that cannot be done; the message is one sentence the model can act on. */
export class CanvasEditError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "CanvasEditError";
  }
}

/** What applying the operations made. */
export interface CanvasEditResult {
  canvas: CanvasData;
  /** Ids of the nodes and edges added, in order. */
  added: string[];
  /** One line per operation, for the preview and the result. */
  done: string[];
}

const ID_RE = /^[A-Za-z0-9_-]{1,64}$/;

/** Applies the operations in order to a copy of the canvas; throws CanvasEditError naming the first one that cannot run. */
export function applyCanvasOps(input: CanvasData, ops: readonly CanvasOp[]): CanvasEditResult {
  const ed = new CanvasEditor(structuredClone(input));
  const before = new Set(overlappingPairs(input.nodes).map((p) => p.join("\u0000")));
  ops.forEach((op, i) => {
    try {
      ed.apply(op);
    } catch (err) {
      if (err instanceof CanvasEditError && ops.length > 1) throw new CanvasEditError(`Operation ${i + 1} (${op.op}): ${err.message}`);
      throw err;
    }
  });
  // The invariants every result keeps; a failure here is a bug in this module, never the model's.
  const problems = canvasProblems(ed.canvas);
  const fresh = overlappingPairs(ed.canvas.nodes).filter((p) => !before.has(p.join("\u0000")));
  if (problems.length || fresh.length) throw new Error(`Canvas edit broke an invariant: ${problems[0] ?? `${fresh[0][0]} overlaps ${fresh[0][1]}`}`);
  return { canvas: ed.canvas, added: ed.added, done: ed.done };
}

class CanvasEditor {
  added: string[] = [];
  done: string[] = [];
  /** Where the next card without a place goes: rows of four. */
  private row: { x: number; y: number; count: number; last?: CanvasNode } | null = null;

  constructor(readonly canvas: CanvasData) {}

  apply(op: CanvasOp): void {
    switch (op.op) {
      case "add_text":
        return this.addCard(op, { type: "text", text: need(op.text, "text", op.op), ...textCardSize(op.text ?? "") });
      case "add_file":
        if (op.subpath !== undefined && !op.subpath.startsWith("#")) throw new CanvasEditError(`A subpath starts with "#" (a heading "#Plan" or a block "#^id"), not "${op.subpath}".`);
        return this.addCard(op, { type: "file", file: need(op.file, "file", op.op), ...(op.subpath ? { subpath: op.subpath } : {}), ...FILE_CARD });
      case "add_link":
        return this.addCard(op, { type: "link", url: need(op.url, "url", op.op), ...FILE_CARD });
      case "add_group":
        return this.addGroup(op);
      case "connect":
        return this.connect(op);
      case "move":
        return this.move(op);
      case "relabel":
        return this.relabel(op);
      case "recolor":
        return this.recolor(op);
      case "remove":
        return this.remove(op);
    }
  }

  /** A node by id, or by what it shows when that is unique: a group's label, a file's path or name, a link, a text. */
  node(ref: string | undefined, what = "node"): CanvasNode {
    if (!ref) throw new CanvasEditError(`Name the ${what} by its id (canvas:read lists them).`);
    const byId = this.canvas.nodes.find((n) => n.id === ref);
    if (byId) return byId;
    const want = ref.trim().toLowerCase().replace(/^\[\[|\]\]$/g, "");
    const shown = (n: CanvasNode): string[] =>
      n.type === "group" ? [n.label ?? ""] : n.type === "file" ? [n.file, n.file.replace(/\.md$/, ""), (n.file.split("/").pop() ?? "").replace(/\.md$/, "")] : n.type === "link" ? [n.url] : [n.text.trim(), n.text.trim().split("\n")[0]];
    const hits = this.canvas.nodes.filter((n) => shown(n).some((s) => s.toLowerCase() === want));
    if (hits.length === 1) return hits[0];
    if (hits.length > 1) throw new CanvasEditError(`"${ref}" matches ${hits.length} nodes (${hits.map((n) => n.id).join(", ")}); name one by its id.`);
    throw new CanvasEditError(`The canvas has no node "${ref}"; its node ids are ${this.canvas.nodes.map((n) => n.id).slice(0, 30).join(", ") || "(none)"}.`);
  }

  private group(ref: string): CanvasNode {
    const g = this.node(ref, "group");
    if (g.type !== "group") throw new CanvasEditError(`"${ref}" is a ${g.type} card, not a group.`);
    return g;
  }

  private newId(requested: string | undefined, seed: string): string {
    const taken = new Set([...this.canvas.nodes, ...this.canvas.edges].map((x) => x.id));
    if (requested !== undefined) {
      if (!ID_RE.test(requested)) throw new CanvasEditError(`An id is 1–64 letters, digits, "-" or "_", not "${requested}".`);
      if (taken.has(requested)) throw new CanvasEditError(`The id "${requested}" is taken; choose another or leave it out.`);
      return requested;
    }
    // 16 hex digits as Obsidian writes them, derived from the content so the same edit gives the same ids.
    for (let i = 0; ; i++) {
      const h = (s: string) => parseInt(fnv1a36(s), 36).toString(16).padStart(8, "0");
      const id = h(`${seed}|${taken.size}|${i}`) + h(`${i}|${seed}`);
      if (!taken.has(id)) return id;
    }
  }

  private color(color: string | undefined): { color?: string } {
    if (color === undefined || color === "" || color === "none") return {};
    if (!isCanvasColor(color)) throw new CanvasEditError(`"${color}" is no canvas color; use a preset "1" red, "2" orange, "3" yellow, "4" green, "5" cyan, "6" purple, or a hex color like #2A9D8F.`);
    return { color: color.toUpperCase() };
  }

  private addCard(op: CanvasOp, shape: { type: CanvasNode["type"]; width: number; height: number } & Record<string, unknown>): void {
    const node = { ...shape, id: this.newId(op.id, JSON.stringify(shape)), x: 0, y: 0, ...this.color(op.color) } as CanvasNode;
    this.place(node, op, true);
    this.canvas.nodes.push(node);
    this.added.push(node.id);
    this.done.push(`Added ${node.type} card ${node.id}`);
  }

  /** Sets a node's position: inside `op.group`, beside `op.near`, at `op.x,op.y`, or in the next free row slot. */
  private place(node: CanvasNode, op: CanvasOp, fresh: boolean, moving: CanvasNode[] = [node]): void {
    const others = this.canvas.nodes.filter((n) => !moving.includes(n));
    if (op.group !== undefined) return this.placeInGroup(node, this.group(op.group), moving);
    let anchor: { x: number; y: number };
    if (op.near !== undefined) {
      const near = this.node(op.near);
      anchor = { x: near.x + near.width + GAP, y: near.y };
    } else if (op.x !== undefined || op.y !== undefined) {
      anchor = { x: Math.round(op.x ?? node.x), y: Math.round(op.y ?? node.y) };
      const exact = { ...anchor, width: node.width, height: node.height };
      if (isFree(exact, others)) return this.shift(moving, anchor.x - node.x, anchor.y - node.y);
    } else if (fresh) {
      anchor = this.nextSlot();
    } else return;
    const spot = freeSpot(node.width, node.height, others, anchor)!;
    this.shift(moving, spot.x - node.x, spot.y - node.y);
    if (fresh && op.near === undefined && op.x === undefined && op.y === undefined) this.row!.last = node;
  }

  /** Rows of four cards below what the canvas already holds. */
  private nextSlot(): { x: number; y: number } {
    if (!this.row) {
      const nodes = this.canvas.nodes;
      this.row = nodes.length ? { x: Math.min(...nodes.map((n) => n.x)), y: Math.max(...nodes.map((n) => n.y + n.height)) + GAP * 2, count: 0 } : { x: 0, y: 0, count: 0 };
    }
    const r = this.row;
    if (r.last && r.count % 4 !== 0) {
      r.count++;
      return { x: r.last.x + r.last.width + GAP, y: r.last.y };
    }
    if (r.last) r.y = Math.max(...this.canvas.nodes.map((n) => n.y + n.height)) + GAP;
    r.count++;
    return { x: r.x, y: r.y };
  }

  /** Into a group: the free spot inside it, else the group grows downward (and moves, with its members, where it must). */
  private placeInGroup(node: CanvasNode, group: CanvasNode, moving: CanvasNode[]): void {
    if (moving.includes(group)) throw new CanvasEditError(`A group cannot go inside itself or its own members.`);
    const others = this.canvas.nodes.filter((n) => !moving.includes(n));
    const inside = freeSpot(node.width, node.height, others, { x: group.x + GAP, y: group.y + GAP }, group);
    if (inside) return this.shift(moving, inside.x - node.x, inside.y - node.y);
    const members = membersOf(group, others);
    const block = [group, ...members];
    const below = Math.max(40, ...members.map((m) => m.y + m.height - group.y)) + GAP;
    const grown = { x: group.x, y: group.y, width: Math.max(group.width, node.width + 2 * GAP), height: Math.max(group.height, below + node.height + GAP) };
    const rest = others.filter((n) => !block.includes(n));
    if (!isFree(grown, rest)) {
      const spot = freeSpot(grown.width, grown.height, rest, { x: group.x, y: group.y })!;
      this.shift(block, spot.x - group.x, spot.y - group.y);
    }
    group.width = grown.width;
    group.height = grown.height;
    this.shift(moving, group.x + GAP - node.x, group.y + below - node.y);
  }

  private shift(nodes: CanvasNode[], dx: number, dy: number): void {
    for (const n of nodes) {
      n.x += dx;
      n.y += dy;
    }
  }

  private addGroup(op: CanvasOp): void {
    const label = op.label ?? op.text;
    const members = [...new Set((op.members ?? []).map((m) => this.node(m)))];
    // A member group brings its own members along.
    const block = [...new Set(members.flatMap((m) => [m, ...membersOf(m, this.canvas.nodes)]))];
    const base = { type: "group" as const, ...(label ? { label } : {}) };
    const group = { ...base, id: this.newId(op.id, JSON.stringify(base)), x: 0, y: 0, width: 400, height: 300, ...this.color(op.color) } as CanvasNode;
    if (block.length) {
      Object.assign(group, groupBounds(block));
      const others = this.canvas.nodes.filter((n) => !block.includes(n));
      if (!isFree(group, others)) {
        const spot = freeSpot(group.width, group.height, others, { x: group.x, y: group.y })!;
        this.shift(block, spot.x - group.x, spot.y - group.y);
        Object.assign(group, spot);
      }
    } else this.place(group, op, true);
    // Groups go first: a group is drawn below every card.
    this.canvas.nodes.unshift(group);
    this.added.push(group.id);
    this.done.push(`Added group ${group.id}${label ? ` "${label}"` : ""}${members.length ? ` around ${members.length} nodes` : ""}`);
  }

  private connect(op: CanvasOp): void {
    const from = this.node(op.from, "node the connection starts at");
    const to = this.node(op.to, "node the connection ends at");
    const [fromSide, toSide] = sides(from, to);
    const ends = op.direction === "both" ? { fromEnd: "arrow" as const } : op.direction === "none" ? { toEnd: "none" as const } : {};
    const base = { fromNode: from.id, fromSide, toNode: to.id, toSide, ...ends, ...(op.label ? { label: op.label } : {}) };
    const edge: CanvasEdge = { id: this.newId(op.id, JSON.stringify(base)), ...base, ...this.color(op.color) };
    this.canvas.edges.push(edge);
    this.added.push(edge.id);
    this.done.push(`Connected ${from.id} to ${to.id}${op.label ? ` ("${op.label}")` : ""}`);
  }

  private move(op: CanvasOp): void {
    const node = this.node(op.id);
    if (op.group === undefined && op.near === undefined && op.x === undefined && op.y === undefined) {
      throw new CanvasEditError(`Say where to move "${op.id}": x and y, near (another node) or group.`);
    }
    const moving = node.type === "group" ? [node, ...membersOf(node, this.canvas.nodes)] : [node];
    this.place(node, op, false, moving);
    this.done.push(`Moved ${node.id} to ${node.x}, ${node.y}`);
  }

  private relabel(op: CanvasOp): void {
    const text = op.text ?? op.label ?? op.url;
    if (text === undefined) throw new CanvasEditError(`Give the new text in "text".`);
    const edge = this.canvas.edges.find((e) => e.id === op.id);
    if (edge) {
      if (text === "") delete edge.label;
      else edge.label = text;
      return void this.done.push(`Relabeled connection ${edge.id}`);
    }
    const node = this.node(op.id);
    if (node.type === "group") node.label = text;
    else if (node.type === "link") node.url = need(text, "text", op.op);
    // A file card shows its file: pointing it elsewhere is a new card (add_file checks the file exists), not a relabel.
    else if (node.type === "file") throw new CanvasEditError(`"${node.id}" is a file card showing ${node.file}; remove it and add_file the other file instead.`);
    else {
      node.text = text;
      this.resize(node, textCardSize(text).height);
    }
    this.done.push(`Relabeled ${node.id}`);
  }

  /** A text card grows or shrinks with its text; when it no longer fits where it is, it moves to the nearest free spot. */
  private resize(node: CanvasNode, height: number): void {
    if (height <= node.height) return;
    const group = groupOf(node, this.canvas.nodes);
    const taller = { x: node.x, y: node.y, width: node.width, height };
    const others = this.canvas.nodes.filter((n) => n !== node);
    node.height = height;
    if (isFree(taller, others, group)) return;
    if (group) this.placeInGroup(node, group, [node]);
    else this.place(node, { op: "move", x: node.x, y: node.y }, false);
  }

  private recolor(op: CanvasOp): void {
    const target = this.canvas.edges.find((e) => e.id === op.id) ?? this.node(op.id);
    if (op.color === undefined) throw new CanvasEditError(`Give the new "color" (a preset "1"–"6", a hex color, or "none").`);
    const c = this.color(op.color);
    if (c.color) target.color = c.color;
    else delete target.color;
    this.done.push(`Recolored ${target.id}`);
  }

  private remove(op: CanvasOp): void {
    const e = this.canvas.edges.findIndex((x) => x.id === op.id);
    if (e >= 0) {
      this.canvas.edges.splice(e, 1);
      return void this.done.push(`Removed connection ${op.id}`);
    }
    const node = this.node(op.id);
    this.canvas.nodes = this.canvas.nodes.filter((n) => n !== node);
    const cut = this.canvas.edges.filter((x) => x.fromNode === node.id || x.toNode === node.id).length;
    this.canvas.edges = this.canvas.edges.filter((x) => x.fromNode !== node.id && x.toNode !== node.id);
    this.done.push(`Removed ${node.type === "group" ? "group (its cards stay)" : `${node.type} card`} ${node.id}${cut ? ` and ${cut} connections` : ""}`);
  }
}

function need(value: string | undefined, key: string, op: string): string {
  if (value === undefined || value.trim() === "") throw new CanvasEditError(`${op} needs a non-empty "${key}".`);
  return value;
}

/** The sides facing each other: left/right when the nodes sit side by side, top/bottom when one is above the other. */
function sides(a: CanvasNode, b: CanvasNode): [CanvasSide, CanvasSide] {
  const dx = b.x + b.width / 2 - (a.x + a.width / 2);
  const dy = b.y + b.height / 2 - (a.y + a.height / 2);
  if (Math.abs(dx) >= Math.abs(dy)) return dx >= 0 ? ["right", "left"] : ["left", "right"];
  return dy >= 0 ? ["bottom", "top"] : ["top", "bottom"];
}
