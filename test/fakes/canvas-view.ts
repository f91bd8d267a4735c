/**
 * A fake of Obsidian's canvas view, written apart from src/core/canvas so it can catch that code's mistakes: it opens
 * a `.canvas` file's text as the view would draw it, refuses a file it could not draw, and reports cards drawn over
 * one another (two nodes sharing area where neither is a group wholly holding the other).
 */
export interface DrawnNode {
  id: string;
  type: string;
  x: number;
  y: number;
  width: number;
  height: number;
  /** What the card shows: text, file path, URL or group label. */
  shows: string;
}

export interface DrawnEdge {
  id: string;
  from: string;
  to: string;
  label: string;
}

/** A file the view could not draw; the message says why. */
export class CanvasOpenError extends Error {}

const SIDES = new Set(["top", "right", "bottom", "left"]);
const ENDS = new Set(["none", "arrow"]);
const COLOR = /^(?:[1-6]|#[0-9a-fA-F]{6})$/;

export class FakeCanvasView {
  readonly nodes: DrawnNode[] = [];
  readonly edges: DrawnEdge[] = [];

  getViewType(): string {
    return "canvas";
  }

  /** Opens the file's text; throws CanvasOpenError where the view would show a broken canvas. */
  static open(text: string): FakeCanvasView {
    let data: { nodes?: Record<string, unknown>[]; edges?: Record<string, unknown>[] };
    try {
      data = JSON.parse(text) as typeof data;
    } catch {
      throw new CanvasOpenError("not JSON");
    }
    const view = new FakeCanvasView();
    const ids = new Set<string>();
    const fresh = (id: unknown): string => {
      if (typeof id !== "string" || id === "" || ids.has(id)) throw new CanvasOpenError(`bad or repeated id ${String(id)}`);
      ids.add(id);
      return id;
    };
    for (const n of data.nodes ?? []) {
      const shows = n.type === "text" ? n.text : n.type === "file" ? n.file : n.type === "link" ? n.url : n.type === "group" ? (n.label ?? "") : undefined;
      if (typeof shows !== "string") throw new CanvasOpenError(`node ${String(n.id)} of type ${String(n.type)} has nothing to show`);
      for (const k of ["x", "y", "width", "height"]) if (!Number.isInteger(n[k])) throw new CanvasOpenError(`node ${String(n.id)} has no integer ${k}`);
      if ((n.width as number) <= 0 || (n.height as number) <= 0) throw new CanvasOpenError(`node ${String(n.id)} has no area`);
      if (n.color !== undefined && !(typeof n.color === "string" && COLOR.test(n.color))) throw new CanvasOpenError(`node ${String(n.id)} has color ${JSON.stringify(n.color)}`);
      if (n.subpath !== undefined && !(typeof n.subpath === "string" && n.subpath.startsWith("#"))) throw new CanvasOpenError(`node ${String(n.id)} has subpath ${JSON.stringify(n.subpath)}`);
      view.nodes.push({ id: fresh(n.id), type: n.type as string, x: n.x as number, y: n.y as number, width: n.width as number, height: n.height as number, shows });
    }
    const nodeIds = new Set(view.nodes.map((n) => n.id));
    for (const e of data.edges ?? []) {
      if (!nodeIds.has(e.fromNode as string) || !nodeIds.has(e.toNode as string)) throw new CanvasOpenError(`edge ${String(e.id)} joins a node that is not there`);
      for (const k of ["fromSide", "toSide"]) if (e[k] !== undefined && !SIDES.has(e[k] as string)) throw new CanvasOpenError(`edge ${String(e.id)} has ${k} ${JSON.stringify(e[k])}`);
      for (const k of ["fromEnd", "toEnd"]) if (e[k] !== undefined && !ENDS.has(e[k] as string)) throw new CanvasOpenError(`edge ${String(e.id)} has ${k} ${JSON.stringify(e[k])}`);
      if (e.color !== undefined && !(typeof e.color === "string" && COLOR.test(e.color))) throw new CanvasOpenError(`edge ${String(e.id)} has color ${JSON.stringify(e.color)}`);
      view.edges.push({ id: fresh(e.id), from: e.fromNode as string, to: e.toNode as string, label: typeof e.label === "string" ? e.label : "" });
    }
    return view;
  }

  /** Pairs of cards drawn over one another. */
  overlaps(): [string, string][] {
    const holds = (g: DrawnNode, n: DrawnNode) => g.type === "group" && n.x >= g.x && n.y >= g.y && n.x + n.width <= g.x + g.width && n.y + n.height <= g.y + g.height;
    const out: [string, string][] = [];
    this.nodes.forEach((a, i) =>
      this.nodes.slice(i + 1).forEach((b) => {
        const share = a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
        if (share && !holds(a, b) && !holds(b, a)) out.push([a.id, b.id]);
      }),
    );
    return out;
  }

  /** The node showing this text, path, URL or label. */
  find(shows: string): DrawnNode | undefined {
    return this.nodes.find((n) => n.shows === shows);
  }
}
