import { describe, expect, it } from "vitest";
import { canvasProblems, canvasText, parseCanvas } from "../../../src/core/canvas";

const text = { id: "t1", type: "text", x: 0, y: 0, width: 250, height: 60, text: "Hello" };
const file = { id: "f1", type: "file", x: 300, y: 0, width: 400, height: 400, file: "Projects/Project Alpha.md", subpath: "#Tasks" };
const link = { id: "l1", type: "link", x: 0, y: 500, width: 400, height: 300, url: "https://jsoncanvas.org" };
const group = { id: "g1", type: "group", x: -50, y: -50, width: 900, height: 1000, label: "All", background: "Attachments/diagram.png", backgroundStyle: "cover", color: "4" };
const edge = { id: "e1", fromNode: "t1", fromSide: "right", fromEnd: "none", toNode: "f1", toSide: "left", toEnd: "arrow", color: "#FF00aa", label: "see" };
const valid = { nodes: [group, text, file, link], edges: [edge] };

const problemsWith = (change: (c: typeof valid) => unknown) => canvasProblems(change(structuredClone(valid)));

describe("the JSON Canvas 1.0 validator", () => {
  it("accepts every node type and every optional attribute the spec defines", () => {
    expect(canvasProblems(valid)).toEqual([]);
  });

  it("accepts a canvas without nodes or edges, and an empty file as Obsidian starts one", () => {
    expect(canvasProblems({})).toEqual([]);
    expect(canvasProblems({ nodes: [] })).toEqual([]);
    expect(parseCanvas("").ok).toBe(true);
  });

  it("rejects what is not an object, and nodes or edges that are not arrays", () => {
    expect(canvasProblems([])).toHaveLength(1);
    expect(canvasProblems({ nodes: {} })).toEqual(['"nodes" must be an array.']);
    expect(canvasProblems({ edges: "x" })).toEqual(['"edges" must be an array.']);
  });

  it.each([
    ["a missing id", (c: typeof valid) => ({ ...c, nodes: [{ ...text, id: undefined }] }), /"id" must be a non-empty string/],
    ["an unknown type", (c: typeof valid) => ({ ...c, nodes: [{ ...text, type: "note" }], edges: [] }), /"type" must be one of text, file, link, group/],
    ["a fractional x", (c: typeof valid) => ({ ...c, nodes: [{ ...text, x: 1.5 }], edges: [] }), /"x" must be an integer/],
    ["a y given as a string", (c: typeof valid) => ({ ...c, nodes: [{ ...text, y: "0" }], edges: [] }), /"y" must be an integer/],
    ["a missing width", (c: typeof valid) => ({ ...c, nodes: [{ ...text, width: undefined }], edges: [] }), /"width" must be a positive integer/],
    ["a zero height", (c: typeof valid) => ({ ...c, nodes: [{ ...text, height: 0 }], edges: [] }), /"height" must be a positive integer/],
    ["a text node without text", (c: typeof valid) => ({ ...c, nodes: [{ ...text, text: undefined }], edges: [] }), /text node needs a string "text"/],
    ["a file node without file", (c: typeof valid) => ({ ...c, nodes: [{ ...file, file: "" }], edges: [] }), /file node needs a non-empty string "file"/],
    ["a subpath without #", (c: typeof valid) => ({ ...c, nodes: [{ ...file, subpath: "Tasks" }], edges: [] }), /"subpath" must be a string starting with "#"/],
    ["a link node without url", (c: typeof valid) => ({ ...c, nodes: [{ ...link, url: 5 }], edges: [] }), /link node needs a string "url"/],
    ["a group label that is no string", (c: typeof valid) => ({ ...c, nodes: [{ ...group, label: 3 }], edges: [] }), /"label" must be a string/],
    ["an unknown background style", (c: typeof valid) => ({ ...c, nodes: [{ ...group, backgroundStyle: "stretch" }], edges: [] }), /backgroundStyle/],
    ["a color name", (c: typeof valid) => ({ ...c, nodes: [{ ...text, color: "red" }], edges: [] }), /"color" must be a preset/],
    ["a preset outside 1–6", (c: typeof valid) => ({ ...c, nodes: [{ ...text, color: "7" }], edges: [] }), /"color" must be a preset/],
    ["a short hex color", (c: typeof valid) => ({ ...c, nodes: [{ ...text, color: "#fff" }], edges: [] }), /"color" must be a preset/],
    ["a node id used twice", (c: typeof valid) => ({ ...c, nodes: [text, { ...link, id: "t1" }], edges: [] }), /"t1" is used more than once/],
    ["an edge id that is a node's", (c: typeof valid) => ({ ...c, edges: [{ ...edge, id: "t1" }] }), /"t1" is used more than once/],
    ["an edge to a node that does not exist", (c: typeof valid) => ({ ...c, edges: [{ ...edge, toNode: "nope" }] }), /"toNode" names "nope", which is no node/],
    ["an edge without fromNode", (c: typeof valid) => ({ ...c, edges: [{ ...edge, fromNode: undefined }] }), /"fromNode" must be a string/],
    ["a side outside the spec", (c: typeof valid) => ({ ...c, edges: [{ ...edge, fromSide: "center" }] }), /"fromSide" must be top, right, bottom, left/],
    ["an end outside the spec", (c: typeof valid) => ({ ...c, edges: [{ ...edge, toEnd: "circle" }] }), /"toEnd" must be none, arrow/],
    ["an edge color that is no color", (c: typeof valid) => ({ ...c, edges: [{ ...edge, color: "#GGGGGG" }] }), /"color" must be a preset/],
    ["an edge label that is no string", (c: typeof valid) => ({ ...c, edges: [{ ...edge, label: ["a"] }] }), /"label" must be a string/],
  ])("rejects %s", (_what, change, message) => {
    const problems = problemsWith(change);
    expect(problems.length).toBeGreaterThan(0);
    expect(problems.join(" ")).toMatch(message);
  });

  it("refuses a file that is not JSON in one sentence", () => {
    const r = parseCanvas("{nodes: [");
    expect(r).toEqual({ ok: false, error: "The file is not valid JSON, so it is no JSON Canvas." });
  });
});

describe("canvasText", () => {
  it("renders cards, file titles, links, groups with their members and connections as plain text", () => {
    const out = canvasText(JSON.stringify(valid), (p) => (p === "Projects/Project Alpha.md" ? "Alpha: offline sync" : p));
    expect(out).toContain("Group (green): All");
    expect(out).toContain("  Text card: Hello");
    expect(out).toContain("  File card: [[Projects/Project Alpha#Tasks]] — Alpha: offline sync");
    expect(out).toContain("  Link card: https://jsoncanvas.org");
    expect(out).toContain('"Hello" → [[Projects/Project Alpha#Tasks]]: see (#FF00aa)');
    expect(out).not.toContain("t1");
  });

  it("shows the direction of each connection", () => {
    const c = { nodes: [text, { ...link, y: 200 }], edges: [{ id: "a", fromNode: "t1", toNode: "l1", fromEnd: "arrow" }, { id: "b", fromNode: "t1", toNode: "l1", toEnd: "none" }] };
    const out = canvasText(JSON.stringify(c));
    expect(out).toContain('"Hello" ↔ https://jsoncanvas.org');
    expect(out).toContain('"Hello" — https://jsoncanvas.org');
  });

  it("is empty for a file that is no canvas", () => {
    expect(canvasText('{"nodes": 3}')).toBe("");
  });
});
