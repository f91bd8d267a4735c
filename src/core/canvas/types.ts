/** JSON Canvas 1.0 (jsoncanvas.org/spec/1.0) as data: the shapes and the values the spec allows. */

/** Sides an edge may start or end at. */
export const CANVAS_SIDES = ["top", "right", "bottom", "left"] as const;
/** Shapes of an edge's ends. */
export const CANVAS_ENDS = ["none", "arrow"] as const;
/** Node types. */
export const CANVAS_NODE_TYPES = ["text", "file", "link", "group"] as const;
/** Group background styles. */
export const CANVAS_BACKGROUND_STYLES = ["cover", "ratio", "repeat"] as const;
/** The six preset colors by number, as Obsidian names them. */
export const CANVAS_PRESET_COLORS: Record<string, string> = { "1": "red", "2": "orange", "3": "yellow", "4": "green", "5": "cyan", "6": "purple" };

export type CanvasSide = (typeof CANVAS_SIDES)[number];
export type CanvasEnd = (typeof CANVAS_ENDS)[number];
/** A preset number "1"–"6" or a hex color `#RRGGBB`. */
export type CanvasColor = string;

/** What every node has. */
export interface CanvasNodeBase {
  id: string;
  x: number;
  y: number;
  width: number;
  height: number;
  color?: CanvasColor;
}

export interface CanvasTextNode extends CanvasNodeBase {
  type: "text";
  /** Markdown. */
  text: string;
}

export interface CanvasFileNode extends CanvasNodeBase {
  type: "file";
  /** Vault-relative path. */
  file: string;
  /** `#Heading` or `#^block`, always starting with `#`. */
  subpath?: string;
}

export interface CanvasLinkNode extends CanvasNodeBase {
  type: "link";
  url: string;
}

export interface CanvasGroupNode extends CanvasNodeBase {
  type: "group";
  label?: string;
  background?: string;
  backgroundStyle?: (typeof CANVAS_BACKGROUND_STYLES)[number];
}

export type CanvasNode = CanvasTextNode | CanvasFileNode | CanvasLinkNode | CanvasGroupNode;

export interface CanvasEdge {
  id: string;
  fromNode: string;
  fromSide?: CanvasSide;
  /** Default "none". */
  fromEnd?: CanvasEnd;
  toNode: string;
  toSide?: CanvasSide;
  /** Default "arrow" (as Obsidian draws it). */
  toEnd?: CanvasEnd;
  color?: CanvasColor;
  label?: string;
}

/** A whole canvas; nodes are in z order, the first drawn lowest. */
export interface CanvasData {
  nodes: CanvasNode[];
  edges: CanvasEdge[];
}

/** A node's rectangle. */
export type Rect = Pick<CanvasNodeBase, "x" | "y" | "width" | "height">;
