import { describe, expect, it } from "vitest";
import { ObsidianWorkspace } from "../../../src/plugin/vault/obsidian-workspace";
import { fakeApp } from "../../fakes/fake-app";
import { MemoryBackend } from "../../fakes/vault";

describe("WorkspacePort over the Obsidian workspace", () => {
  it("reports no note and no selection before a note is open", () => {
    const { app } = fakeApp(new MemoryBackend({ "A.md": "alpha\nbeta\ngamma\n" }));
    const ws = new ObsidianWorkspace(app.workspace);
    expect(ws.activeNote()).toBeNull();
    expect(ws.selection()).toBeNull();
  });

  it("reports the open note, and the selection with its lines", async () => {
    const { app, fake } = fakeApp(new MemoryBackend({ "Notes/A.md": "alpha\nbeta\ngamma\n" }));
    const ws = new ObsidianWorkspace(app.workspace);
    await fake.workspace.openNote("Notes/A.md");
    expect(ws.activeNote()).toEqual({ path: "Notes/A.md" });
    expect(ws.selection()).toBeNull();
    await fake.workspace.openNote("Notes/A.md", { from: 6, to: 16 });
    expect(ws.selection()).toEqual({ path: "Notes/A.md", text: "beta\ngamma", fromLine: 1, toLine: 2 });
  });
});
