import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { applyCanvasOps, CanvasEditError, type CanvasOp } from "../../../src/core/canvas/edit";
import { canvasProblems, overlappingPairs, parseCanvas, serializeCanvas, type CanvasData } from "../../../src/core/canvas";

/** An operation drawn against the canvas as it is: refs mostly to existing ids, sometimes to nothing. */
function opArb(canvas: CanvasData): fc.Arbitrary<CanvasOp> {
  const nodeIds = canvas.nodes.map((n) => n.id);
  const groupIds = canvas.nodes.filter((n) => n.type === "group").map((n) => n.id);
  const edgeIds = canvas.edges.map((e) => e.id);
  const ref = (ids: string[]) => (ids.length ? fc.oneof({ weight: 19, arbitrary: fc.constantFrom(...ids) }, { weight: 1, arbitrary: fc.constant("missing") }) : fc.constant("missing"));
  const some = (ids: string[]) => (ids.length ? ref(ids) : fc.constant(undefined));
  const color = fc.option(fc.oneof(fc.constantFrom("1", "2", "3", "4", "5", "6", "none"), fc.constantFrom("#ff0000", "#2A9D8F", "red")), { nil: undefined });
  const where = fc.record(
    {
      group: fc.option(some(groupIds), { nil: undefined, freq: 2 }),
      near: fc.option(some(nodeIds), { nil: undefined, freq: 2 }),
      x: fc.option(fc.integer({ min: -2000, max: 2000 }), { nil: undefined }),
      y: fc.option(fc.integer({ min: -2000, max: 2000 }), { nil: undefined }),
    },
    { requiredKeys: [] },
  );
  const text = fc.string({ minLength: 1, maxLength: 120 });
  const adds = nodeIds.length ? 1 : 20;
  return fc.oneof(
    { weight: 3 * adds, arbitrary: fc.tuple(text, color, where).map(([t, c, w]) => ({ op: "add_text" as const, text: t, color: c, ...w })) },
    fc.tuple(text, color, where).map(([t, c, w]) => ({ op: "add_text" as const, text: t, color: c, ...w })),
    fc.tuple(fc.constantFrom("Projects/Project Alpha.md", "Home.md", "Attachments/diagram.png"), where).map(([f, w]) => ({ op: "add_file" as const, file: f, ...w })),
    where.map((w) => ({ op: "add_link" as const, url: "https://example.org/a", ...w })),
    fc.tuple(fc.subarray(nodeIds, { maxLength: Math.min(4, nodeIds.length) }), fc.option(text, { nil: undefined }), color).map(([m, l, c]) => ({ op: "add_group" as const, members: m, label: l, color: c })),
    fc.tuple(ref(nodeIds), ref(nodeIds), fc.option(text, { nil: undefined }), fc.constantFrom("forward", "both", "none")).map(([a, b, l, d]) => ({ op: "connect" as const, from: a, to: b, label: l, direction: d as "forward" })),
    fc.tuple(ref(nodeIds), where).map(([id, w]) => ({ op: "move" as const, id, ...w })),
    fc.tuple(ref([...nodeIds, ...edgeIds]), text).map(([id, t]) => ({ op: "relabel" as const, id, text: t })),
    fc.tuple(ref([...nodeIds, ...edgeIds]), color).map(([id, c]) => ({ op: "recolor" as const, id, color: c ?? "3" })),
    ref([...nodeIds, ...edgeIds]).map((id) => ({ op: "remove" as const, id })),
  );
}

/** A sequence of single-op edits, each drawn against the canvas the previous ones left. */
const sequence = fc.array(fc.integer({ min: 0, max: 2 ** 31 - 1 }), { minLength: 10, maxLength: 40 });

describe("canvas edits", () => {
  it("leave a valid JSON Canvas without overlapping nodes after every step of 500 random edit sequences", () => {
    let applied = 0;
    let refused = 0;
    fc.assert(
      fc.property(sequence, (seeds) => {
        let canvas: CanvasData = { nodes: [], edges: [] };
        for (const seed of seeds) {
          const [op] = fc.sample(opArb(canvas), { seed, numRuns: 1 });
          try {
            canvas = applyCanvasOps(canvas, [op]).canvas;
            applied++;
          } catch (err) {
            // Only a refusal in a sentence is allowed; a broken invariant is a plain Error and fails the property.
            if (!(err instanceof CanvasEditError)) throw err;
            refused++;
          }
          expect(canvasProblems(JSON.parse(serializeCanvas(canvas)))).toEqual([]);
          expect(overlappingPairs(canvas.nodes)).toEqual([]);
          expect(parseCanvas(serializeCanvas(canvas)).ok).toBe(true);
        }
      }),
      { numRuns: 500, seed: 38 },
    );
    // The sequences must mostly do something, or the property proves little.
    expect(applied).toBeGreaterThan(refused * 2);
  }, 120_000);
});
