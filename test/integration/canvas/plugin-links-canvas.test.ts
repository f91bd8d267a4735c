/** The command "Make a canvas of this note's links" in the fake Obsidian: through the plugin's own assembly and journal. */
import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { Plugin as RealPlugin } from "obsidian";
import { Conversation } from "../../../src/core/agent/conversation";
import { ChangeJournal, undoTurns } from "../../../src/core/journal";
import type { UserPort } from "../../../src/core/ports/user";
import { ScriptedEngine } from "../../../src/engine/scripted";
import { AgentFactory } from "../../../src/plugin/agent/agent-factory";
import type { ChatSession } from "../../../src/plugin/chat/chat-session";
import { registerCommands } from "../../../src/plugin/commands";
import { linksCanvasAction } from "../../../src/plugin/links-canvas-command";
import { DEFAULT_SETTINGS } from "../../../src/plugin/settings/settings";
import { AdapterJournalStore } from "../../../src/plugin/vault/adapter-journal-store";
import { ObsidianVault } from "../../../src/plugin/vault/obsidian-vault";
import { ObsidianWorkspace } from "../../../src/plugin/vault/obsidian-workspace";
import { Plugin } from "../../fakes/app";
import { FakeCanvasView } from "../../fakes/canvas-view";
import { fakeApp } from "../../fakes/fake-app";
import { FolderBackend } from "../../fakes/folder-backend";
import { copyVault, envelope } from "../agent/scripted-helpers";

class TestPlugin extends Plugin {}

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe("Make a canvas of this note's links (plugin command)", () => {
  it("writes a canvas of the open note's links that opens without overlaps, opens it, and is undone through the journal", async () => {
    const dir = copyVault();
    dirs.push(dir);
    const { app, fake } = fakeApp(new FolderBackend(dir));
    const vault = new ObsidianVault(app);
    const store = new AdapterJournalStore(app.vault.adapter, ".obsidian/plugins/vault-agent/journal");
    const factory = new AgentFactory({ engine: new ScriptedEngine([envelope([], "ok.")], { loop: true }), vault, workspace: new ObsidianWorkspace(app.workspace), settings: () => DEFAULT_SETTINGS, journal: store });
    // The chat session's confirmation is for the model's calls; the command never asks it.
    const session: UserPort = { confirm: () => Promise.reject(new Error("the command must not ask the chat pane")), notify: () => undefined };
    const notices: string[] = [];
    let journaled = 0;
    let done!: () => void;
    const finished = new Promise<void>((r) => (done = r));
    const action = linksCanvasAction({ app, direct: () => factory.directCalls(new Conversation(), session), journaled: () => void journaled++, notice: (m) => void notices.push(m) });
    const plugin = new TestPlugin(fake, { id: "vault-agent", name: "Vault Agent", version: "0", minAppVersion: "1.8.7", description: "", author: "" });
    registerCommands(plugin as unknown as RealPlugin, {
      session: {} as ChatSession,
      openChat: async () => undefined,
      index: () => undefined,
      canvasOfLinks: (path) => action(path).finally(done),
    });
    try {
      expect(fake.commands.isAvailable("vault-agent:canvas-of-links")).toBe(false);
      await fake.workspace.openNote("Projects/Project Alpha.md");
      expect(fake.commands.executeCommandById("vault-agent:canvas-of-links")).toBe(true);
      await finished;
      expect(notices[0]).toMatch(/^Created \[\[Projects\/Project Alpha links\.canvas\]\] \(\d+ cards, \d+ connections\)/);
      const view = FakeCanvasView.open(readFileSync(join(dir, "Projects/Project Alpha links.canvas"), "utf8"));
      expect(view.overlaps()).toEqual([]);
      expect(view.find("Projects/Project Alpha.md")).toBeDefined();
      expect(view.nodes.length).toBeGreaterThan(3);
      expect(app.workspace.getActiveFile()?.path).toBe("Projects/Project Alpha links.canvas");
      expect(journaled).toBe(1);
      const journal = new ChangeJournal(store);
      const turns = await journal.turns();
      expect(turns).toHaveLength(1);
      await undoTurns(journal, vault, turns);
      expect(await vault.exists("Projects/Project Alpha links.canvas")).toBe(false);
    } finally {
      factory.dispose();
    }
  });
});
