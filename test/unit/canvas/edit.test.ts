import { describe, expect, it } from "vitest";
import { applyCanvasOps, CanvasEditError, type CanvasOp } from "../../../src/core/canvas/edit";
import { membersOf, overlappingPairs, type CanvasData } from "../../../src/core/canvas";

const empty: CanvasData = { nodes: [], edges: [] };
const run = (ops: CanvasOp[], from = empty) => applyCanvasOps(from, ops).canvas;
const byId = (c: CanvasData, id: string) => c.nodes.find((n) => n.id === id)!;

describe("canvas edits", () => {
  it("grows a full group to take more cards, keeping every card inside and none overlapping", () => {
    let c = run([{ op: "add_group", id: "g", label: "Ideas" }, { op: "add_text", id: "far", text: "elsewhere", x: 0, y: 400 }]);
    const start = { ...byId(c, "g") };
    for (let i = 0; i < 6; i++) c = run([{ op: "add_text", id: `t${i}`, text: `idea ${i}`, group: "Ideas" }], c);
    const g = byId(c, "g");
    expect(membersOf(g, c.nodes).map((n) => n.id).sort()).toEqual(["t0", "t1", "t2", "t3", "t4", "t5"]);
    expect(g.width * g.height).toBeGreaterThan(start.width * start.height);
    expect(overlappingPairs(c.nodes)).toEqual([]);
  });

  it("moves a group with its cards, and removing a group leaves its cards where they are", () => {
    const c = run([{ op: "add_text", id: "a", text: "a" }, { op: "add_text", id: "b", text: "b" }, { op: "add_group", id: "g", members: ["a", "b"] }]);
    const moved = run([{ op: "move", id: "g", x: 2000, y: 2000 }], c);
    expect(byId(moved, "g")).toMatchObject({ x: 2000, y: 2000 });
    for (const id of ["a", "b"]) expect(byId(moved, id).x - byId(c, id).x).toBe(2000 - byId(c, "g").x);
    const removed = run([{ op: "remove", id: "g" }], moved);
    expect(removed.nodes.map((n) => n.id).sort()).toEqual(["a", "b"]);
    expect(byId(removed, "a")).toEqual(byId(moved, "a"));
  });

  it("takes the nearest free spot when asked for an occupied one", () => {
    const c = run([{ op: "add_text", id: "a", text: "a", x: 0, y: 0 }, { op: "add_text", id: "b", text: "b", x: 10, y: 10 }]);
    expect(byId(c, "a")).toMatchObject({ x: 0, y: 0 });
    expect(byId(c, "b")).not.toMatchObject({ x: 10, y: 10 });
    expect(overlappingPairs(c.nodes)).toEqual([]);
  });

  it("gives the same ids for the same edit, and sides that face each other", () => {
    const ops: CanvasOp[] = [{ op: "add_text", text: "left" }, { op: "add_text", text: "right" }, { op: "connect", from: "left", to: "right" }];
    const a = run(ops);
    expect(run(ops)).toEqual(a);
    expect(a.nodes.every((n) => /^[0-9a-f]{16}$/.test(n.id))).toBe(true);
    expect(a.edges[0]).toMatchObject({ fromSide: "right", toSide: "left" });
  });

  it("refuses in one sentence what it cannot do, changing nothing", () => {
    const c = run([{ op: "add_file", id: "f", file: "A.md" }, { op: "add_text", id: "t", text: "x" }]);
    expect(() => applyCanvasOps(c, [{ op: "relabel", id: "f", text: "B.md" }])).toThrow(/file card showing A\.md; remove it and add_file/);
    expect(() => applyCanvasOps(c, [{ op: "add_text", id: "t", text: "again" }])).toThrow(/id "t" is taken/);
    expect(() => applyCanvasOps(c, [{ op: "move", id: "t" }])).toThrow(CanvasEditError);
    expect(() => applyCanvasOps(c, [{ op: "add_text", text: "y" }, { op: "recolor", id: "t", color: "7" }])).toThrow(/^Operation 2 \(recolor\): "7" is no canvas color/);
  });
});
