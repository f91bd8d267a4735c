/**
 * Where cards go: a canvas is laid out without overlaps when any two nodes either do not intersect or one is a group
 * that wholly contains the other (a group's members, nested groups). New cards take the free spot nearest where
 * they belong; candidates are the anchor and the spots beside every node, so the search is quadratic in nodes at most.
 */
import type { CanvasNode, Rect } from "./types";

/** Space kept between cards, and between a group's border and its members. */
export const GAP = 40;
/** Room above a group's members for its label. */
const GROUP_HEAD = 40;

/** Whether two rectangles share area (touching edges do not). */
export function intersects(a: Rect, b: Rect): boolean {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}

/** Whether `outer` wholly contains `inner`. */
export function contains(outer: Rect, inner: Rect): boolean {
  return inner.x >= outer.x && inner.y >= outer.y && inner.x + inner.width <= outer.x + outer.width && inner.y + inner.height <= outer.y + outer.height;
}

/** Two nodes that may share area: one is a group wholly containing the other. */
function nested(a: CanvasNode, b: CanvasNode): boolean {
  return (a.type === "group" && contains(a, b)) || (b.type === "group" && contains(b, a));
}

/** Pairs of node ids that overlap where the canvas view would draw one card over another. */
export function overlappingPairs(nodes: readonly CanvasNode[]): [string, string][] {
  const out: [string, string][] = [];
  for (let i = 0; i < nodes.length; i++) {
    for (let j = i + 1; j < nodes.length; j++) if (intersects(nodes[i], nodes[j]) && !nested(nodes[i], nodes[j])) out.push([nodes[i].id, nodes[j].id]);
  }
  return out;
}

/** The members of a group: the nodes it wholly contains. */
export function membersOf(group: CanvasNode, nodes: readonly CanvasNode[]): CanvasNode[] {
  return group.type === "group" ? nodes.filter((n) => n !== group && contains(group, n)) : [];
}

/** The innermost group wholly containing a node, if any. */
export function groupOf(node: CanvasNode, nodes: readonly CanvasNode[]): CanvasNode | undefined {
  let best: CanvasNode | undefined;
  for (const g of nodes) if (g !== node && g.type === "group" && contains(g, node) && (!best || contains(best, g))) best = g;
  return best;
}

/** Whether a rectangle may be placed among `others` (it touches none, or lies wholly inside a group it meets). */
export function isFree(rect: Rect, others: readonly CanvasNode[], within?: Rect): boolean {
  if (within && !contains(within, rect)) return false;
  return others.every((o) => !intersects(rect, o) || (o.type === "group" && contains(o, rect)));
}

/** The free spot for a w×h card nearest the anchor, inside `within` when given; null when `within` has no room. */
export function freeSpot(w: number, h: number, others: readonly CanvasNode[], anchor: { x: number; y: number }, within?: Rect): { x: number; y: number } | null {
  const candidates: { x: number; y: number }[] = [{ x: anchor.x, y: anchor.y }];
  if (within) candidates.push({ x: within.x + GAP, y: within.y + GROUP_HEAD });
  for (const o of others) {
    candidates.push({ x: o.x + o.width + GAP, y: o.y }, { x: o.x, y: o.y + o.height + GAP }, { x: o.x - w - GAP, y: o.y }, { x: o.x, y: o.y - h - GAP });
    if (o.type === "group") candidates.push({ x: o.x + GAP, y: o.y + GROUP_HEAD });
  }
  let best: { x: number; y: number } | null = null;
  let bestD = Infinity;
  for (const c of candidates) {
    const p = { x: Math.round(c.x), y: Math.round(c.y) };
    const d = Math.hypot(p.x - anchor.x, p.y - anchor.y);
    if (d >= bestD) continue;
    // A card placed on the canvas keeps a gap to its neighbours; inside a group only the group's own border counts.
    const padded = { x: p.x - GAP / 2, y: p.y - GAP / 2, width: w + GAP, height: h + GAP };
    if (!isFree({ ...p, width: w, height: h }, others, within) || (!within && !isFree(padded, others))) continue;
    best = p;
    bestD = d;
  }
  if (best || within) return best;
  // Below everything is always free.
  const bottom = Math.max(0, ...others.map((o) => o.y + o.height));
  return { x: Math.round(anchor.x), y: bottom + GAP };
}

/** The rectangle a group needs around these members, label room included. */
export function groupBounds(members: readonly Rect[]): Rect {
  const x = Math.min(...members.map((m) => m.x)) - GAP;
  const y = Math.min(...members.map((m) => m.y)) - GROUP_HEAD;
  const right = Math.max(...members.map((m) => m.x + m.width)) + GAP;
  const bottom = Math.max(...members.map((m) => m.y + m.height)) + GAP;
  return { x, y, width: right - x, height: bottom - y };
}

/** A text card's size from its text: 260 wide, about 34 characters a line, 24 px a line. */
export function textCardSize(text: string): { width: number; height: number } {
  const lines = text.split("\n").reduce((n, line) => n + Math.max(1, Math.ceil(line.length / 34)), 0);
  return { width: 260, height: Math.min(480, Math.max(60, 28 + lines * 24)) };
}

/** File and link cards: room for a title and a short preview. */
export const FILE_CARD = { width: 360, height: 200 };
