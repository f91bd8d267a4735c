import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { makeJournalHarness, type JournalHarness } from "../../unit/journal/journal-harness";
import { linksCanvasCall, runDirectCall } from "../../../src/app/links-canvas";
import { ToolRegistry } from "../../../src/tools/registry";
import { createToolCatalog } from "../../../src/tools";
import { undoTurns } from "../../../src/core/journal/undo";
import { FakeCanvasView } from "../../fakes/canvas-view";

let h: JournalHarness;
beforeEach(async () => {
  h = await makeJournalHarness();
});
afterEach(async () => {
  await h.cleanup();
});

describe("Make a canvas of this note's links", () => {
  it("draws the note in the centre, what it links to on the right and what links to it on the left, journaled so undo removes it", async () => {
    const note = "Projects/Project Alpha.md";
    const outgoing = [...new Set((await h.vault.metadata(note))!.links.map((l) => l.resolved).filter((p): p is string => p !== null))];
    const backlinks = await h.vault.backlinks(note);
    expect(outgoing.length + backlinks.length).toBeGreaterThan(2);
    const call = await linksCanvasCall(h.vault, note, h.ctx);
    expect(call.args.path).toBe("Projects/Project Alpha links.canvas");
    const result = await runDirectCall({ tools: new ToolRegistry(createToolCatalog()), toolContext: h.ctx, journal: h.journal }, call, "cmd-1");
    expect(result.content).toMatch(/^Created \[\[Projects\/Project Alpha links\.canvas\]\]/);

    const view = FakeCanvasView.open(await readFile(join(h.root, "Projects/Project Alpha links.canvas"), "utf8"));
    expect(view.overlaps()).toEqual([]);
    const centre = view.find(note)!;
    expect(centre).toBeDefined();
    for (const p of outgoing) expect(view.find(p)!.x, p).toBeGreaterThan(centre.x);
    for (const p of backlinks.filter((b) => !outgoing.includes(b))) expect(view.find(p)!.x, p).toBeLessThan(centre.x);
    expect(view.edges).toHaveLength(new Set([...outgoing, ...backlinks]).size);

    // The next canvas of the same note gets a name of its own.
    expect((await linksCanvasCall(h.vault, note, h.ctx)).args.path).toBe("Projects/Project Alpha links 2.canvas");
    const turns = await h.journal.turns();
    expect(turns.map((t) => t.turnId)).toContain("cmd-1");
    await undoTurns(h.journal, h.vault, turns.filter((t) => t.turnId === "cmd-1"));
    expect(await h.vault.exists("Projects/Project Alpha links.canvas")).toBe(false);
  });

  it("refuses what is not a note in one sentence", async () => {
    await expect(linksCanvasCall(h.vault, "Attachments/diagram.png", h.ctx)).rejects.toThrow(/is not a note/);
  });
});
