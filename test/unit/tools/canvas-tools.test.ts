import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { makeHarness, type Harness } from "./tool-harness";
import { ToolError } from "../../../src/tools/tool-error";
import { ToolRegistry } from "../../../src/tools/registry";
import { createToolCatalog } from "../../../src/tools";
import { Gatekeeper, ToolRefusal } from "../../../src/core/gatekeeper/gatekeeper";
import { VaultPathIndex } from "../../../src/core/grammar/vault-paths";
import { CanvasOpenError, FakeCanvasView } from "../../fakes/canvas-view";

let h: Harness;
beforeEach(async () => {
  h = await makeHarness();
});
afterEach(async () => {
  await h.cleanup();
});

async function failsWith(p: Promise<unknown>, code: string, text?: RegExp): Promise<void> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ToolError);
  expect((err as ToolError).code).toBe(code);
  if (text) expect((err as ToolError).message).toMatch(text);
}

const opened = async (path: string) => FakeCanvasView.open(await readFile(join(h.root, path), "utf8"));

const projectMap = [
  { op: "add_file", id: "alpha", file: "Projects/Project Alpha" },
  { op: "add_file", id: "priya", file: "People/Priya Shah.md" },
  { op: "add_text", id: "note", text: "Ship the offline sync before the offsite" },
  { op: "add_link", id: "docs", url: "https://jsoncanvas.org" },
  { op: "add_group", id: "team", label: "Team", members: ["alpha", "priya"], color: "4" },
  { op: "connect", from: "alpha", to: "priya", label: "owner" },
  { op: "connect", from: "note", to: "alpha", direction: "both" },
];

describe("canvas:create", () => {
  it("writes a canvas that the canvas view opens without overlaps, every file card naming a vault file", async () => {
    const r = await h.call("canvas:create", { path: "Maps/Alpha", ops: projectMap });
    expect(r.content).toMatch(/^Created \[\[Maps\/Alpha\.canvas\]\] \(4 cards, 1 group, 2 connections\)/);
    const view = await opened("Maps/Alpha.canvas");
    expect(view.overlaps()).toEqual([]);
    expect(view.nodes.map((n) => n.shows).sort()).toEqual(["Projects/Project Alpha.md", "People/Priya Shah.md", "Ship the offline sync before the offsite", "Team", "https://jsoncanvas.org"].sort());
    expect(view.edges.map((e) => e.label)).toEqual(["owner", ""]);
    // The group holds its two members and nothing else.
    const team = view.find("Team")!;
    const inside = view.nodes.filter((n) => n !== team && n.x >= team.x && n.y >= team.y && n.x + n.width <= team.x + team.width && n.y + n.height <= team.y + team.height);
    expect(inside.map((n) => n.id).sort()).toEqual(["alpha", "priya"]);
  });

  it("previews the canvas as text before anything is written", async () => {
    const p = await h.preview("canvas:create", { path: "Maps/Alpha.canvas", ops: projectMap });
    expect(p.summary).toBe("Create Maps/Alpha.canvas (4 cards, 1 group, 2 connections)");
    expect(p.preview).toContain("Group [team] (green): Team");
    expect(p.preview).toContain("File card [alpha]: [[Projects/Project Alpha]] — Project Alpha");
    expect(await h.vault.exists("Maps/Alpha.canvas")).toBe(false);
  });

  it("refuses a file card for a file that does not exist, and writes nothing", async () => {
    await failsWith(h.call("canvas:create", { path: "Maps/X.canvas", ops: [{ op: "add_file", file: "Projects/Nope" }] }), "not_found", /no file at "Projects\/Nope\.md"/);
    expect(await h.vault.exists("Maps/X.canvas")).toBe(false);
  });

  it("refuses a color outside the spec and an edge to a card that is not there, in one sentence", async () => {
    await failsWith(h.call("canvas:create", { path: "M.canvas", ops: [{ op: "add_text", text: "a", color: "red" }] }), "bad_args", /"red" is no canvas color/);
    await failsWith(h.call("canvas:create", { path: "M.canvas", ops: [{ op: "add_text", id: "a", text: "a" }, { op: "connect", from: "a", to: "b" }] }), "bad_args", /Operation 2 \(connect\): The canvas has no node "b"/);
  });

  it("never overwrites, and refuses a path that is not a canvas", async () => {
    await h.call("canvas:create", { path: "M.canvas", ops: [{ op: "add_text", text: "a" }] });
    await failsWith(h.call("canvas:create", { path: "M.canvas", ops: [{ op: "add_text", text: "b" }] }), "conflict", /already exists/);
    await failsWith(h.call("canvas:create", { path: "M.md", ops: [{ op: "add_text", text: "b" }] }), "bad_args", /not a canvas/);
  });
});

describe("canvas:edit and canvas:read", () => {
  beforeEach(async () => {
    await h.call("canvas:create", { path: "Maps/Alpha.canvas", ops: projectMap });
  });

  it("adds a card into a group, moves, relabels, recolors and removes, keeping the canvas valid and free of overlaps", async () => {
    await h.call("canvas:edit", {
      path: "Maps/Alpha.canvas",
      ops: [
        { op: "add_file", id: "tom", file: "People/Tom Becker", group: "Team" },
        { op: "relabel", id: "Team", text: "Alpha team" },
        { op: "recolor", id: "note", color: "#2a9d8f" },
        { op: "move", id: "docs", near: "note" },
        { op: "connect", id: "t2", from: "tom", to: "alpha", label: "reviews" },
        { op: "relabel", id: "t2", text: "reviews code" },
        { op: "remove", id: "priya" },
      ],
    });
    const view = await opened("Maps/Alpha.canvas");
    expect(view.overlaps()).toEqual([]);
    const team = view.find("Alpha team")!;
    const tom = view.find("People/Tom Becker.md")!;
    expect(tom.x >= team.x && tom.x + tom.width <= team.x + team.width && tom.y + tom.height <= team.y + team.height).toBe(true);
    expect(view.find("People/Priya Shah.md")).toBeUndefined();
    // Priya's edge went with her card.
    expect(view.edges.map((e) => e.label).sort()).toEqual(["", "reviews code"]);
    const read = await h.call("canvas:read", { path: "Maps/Alpha.canvas" });
    expect(read.content).toContain("Group [team] (green): Alpha team");
    expect(read.content).toContain("  File card [tom]: [[People/Tom Becker]] — Tom Becker");
    expect(read.content).toContain("Text card [note] (#2A9D8F): Ship the offline sync before the offsite");
    expect(read.content).toContain('[t2] [[People/Tom Becker]] → [[Projects/Project Alpha]]: reviews code');
    expect(read.content).toMatch(/"Ship the offline sync before the offsite" ↔ \[\[Projects\/Project Alpha\]\]/);
  });

  it("refuses to edit a canvas that is not valid JSON Canvas rather than guess", async () => {
    await writeFile(join(h.root, "Broken.canvas"), JSON.stringify({ nodes: [{ id: "a", type: "text", x: 0, y: 0, width: 10, height: 10, text: "a" }], edges: [{ id: "e", fromNode: "a", toNode: "zz" }] }));
    await failsWith(h.call("canvas:edit", { path: "Broken.canvas", ops: [{ op: "add_text", text: "b" }] }), "bad_args", /"toNode" names "zz", which is no node/);
    await failsWith(h.call("canvas:read", { path: "Attachments/diagram.png" }), "bad_args", /not a canvas/);
  });

  it("leaves note tools' paths as they were: vault:read names a canvas by its full name, not as a .canvas.md note", async () => {
    const r = await h.call("vault:read", { path: "Maps/Alpha.canvas" });
    expect((r.data as { path: string }).path).toBe("Maps/Alpha.canvas");
    expect(r.content).toContain('"nodes"');
    expect((await h.call("vault:read", { path: "Inbox" })).data).toMatchObject({ path: "Inbox.md" });
  });

  it("reads a file card's title from the note's title property", async () => {
    await writeFile(join(h.root, "Projects/Project Alpha.md"), "---\ntitle: Alpha, offline first\n---\n# Project Alpha\n");
    expect((await h.call("canvas:read", { path: "Maps/Alpha" })).content).toContain("[[Projects/Project Alpha]] — Alpha, offline first");
  });
});

describe("canvas tools through the gatekeeper", () => {
  it("ground canvas paths like note paths: an existing .canvas passes, a missing one gets the nearest, a new one must be new", async () => {
    await h.call("canvas:create", { path: "Maps/Alpha.canvas", ops: [{ op: "add_text", text: "a" }] });
    const paths = new VaultPathIndex();
    paths.load((await h.vault.list()).map((f) => f.path));
    const gk = new Gatekeeper(new ToolRegistry(createToolCatalog()), h.ctx, paths);
    const offered = new Set(["canvas:read", "canvas:create", "canvas:edit"]);
    expect(gk.check({ name: "canvas:read", args: { path: "Maps/Alpha.canvas" } }, { state: "Task", offered }).args.path).toBe("Maps/Alpha.canvas");
    const refused = (name: string, args: Record<string, unknown>) => {
      try {
        gk.check({ name, args }, { state: "Task", offered });
      } catch (e) {
        if (e instanceof ToolRefusal) return e.message;
        throw e;
      }
      return "";
    };
    expect(refused("canvas:edit", { path: "Maps/Alpah.canvas", ops: [{ op: "remove", id: "x" }] })).toMatch(/nearest \.canvas files are "Maps\/Alpha\.canvas"/);
    expect(refused("canvas:create", { path: "Maps/Alpha.canvas", ops: [{ op: "add_text", text: "b" }] })).toMatch(/already exists/);
    expect(refused("canvas:edit", { path: "Maps/Alpha.canvas", ops: [{ op: "explode" }] })).toMatch(/invalid arguments/);
  });
});

describe("the fake canvas view", () => {
  it("refuses files Obsidian could not draw and reports cards drawn over one another", () => {
    expect(() => FakeCanvasView.open("{")).toThrow(CanvasOpenError);
    expect(() => FakeCanvasView.open(JSON.stringify({ nodes: [{ id: "a", type: "text", x: 0, y: 0, width: 10, height: 10, text: "a" }], edges: [{ id: "e", fromNode: "a", toNode: "b" }] }))).toThrow(/not there/);
    const two = { nodes: [{ id: "a", type: "text", x: 0, y: 0, width: 100, height: 100, text: "a" }, { id: "b", type: "text", x: 50, y: 50, width: 100, height: 100, text: "b" }] };
    expect(FakeCanvasView.open(JSON.stringify(two)).overlaps()).toEqual([["a", "b"]]);
  });
});
