/** A canvas of one note's links: the note in the centre, notes it links to on the right, notes linking to it on the left. */
import type { CanvasOp } from "./edit";
import { FILE_CARD, GAP } from "./layout";

/** Horizontal distance between the centre card and each column: room for the arrows and their labels. */
const COLUMN = FILE_CARD.width + 4 * GAP;

/**
 * The operations that build the canvas (for canvas:create). A note both linked and linking sits on the right, with an
 * arrow at both ends; each column is centred on the note.
 */
export function linksCanvasOps(center: string, outgoing: readonly string[], backlinks: readonly string[]): CanvasOp[] {
  const out = [...new Set(outgoing)].filter((p) => p !== center);
  const both = new Set(backlinks.filter((p) => out.includes(p)));
  const back = [...new Set(backlinks)].filter((p) => p !== center && !both.has(p));
  const ops: CanvasOp[] = [{ op: "add_file", id: "note", file: center, x: 0, y: 0, color: "6" }];
  const column = (paths: string[], x: number, prefix: string) => {
    const step = FILE_CARD.height + GAP;
    const top = Math.round((FILE_CARD.height - paths.length * step + GAP) / 2);
    paths.forEach((file, i) => ops.push({ op: "add_file", id: `${prefix}${i + 1}`, file, x, y: top + i * step }));
  };
  column(out, COLUMN, "out");
  column(back, -COLUMN, "in");
  out.forEach((p, i) => ops.push({ op: "connect", from: "note", to: `out${i + 1}`, ...(both.has(p) ? { direction: "both" as const } : {}) }));
  back.forEach((_p, i) => ops.push({ op: "connect", from: `in${i + 1}`, to: "note" }));
  return ops;
}
