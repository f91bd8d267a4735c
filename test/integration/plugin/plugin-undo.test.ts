/** Undo in the plugin: the turn's "Undo this turn", the command, and a note changed since the agent's write. */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Plugin as RealPlugin } from "obsidian";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ChangeJournal, type UndoConflictItem } from "../../../src/core/journal";
import { ScriptedEngine, type ScriptStep } from "../../../src/engine/scripted";
import { AgentFactory } from "../../../src/plugin/agent/agent-factory";
import { ChatSession } from "../../../src/plugin/chat/chat-session";
import { ConversationStore } from "../../../src/plugin/chat/conversation-store";
import { registerCommands } from "../../../src/plugin/commands";
import { DEFAULT_SETTINGS } from "../../../src/plugin/settings/settings";
import { AgentUndo } from "../../../src/plugin/undo/agent-undo";
import { AdapterJournalStore } from "../../../src/plugin/vault/adapter-journal-store";
import { ObsidianVault } from "../../../src/plugin/vault/obsidian-vault";
import { ObsidianWorkspace } from "../../../src/plugin/vault/obsidian-workspace";
import { Plugin } from "../../fakes/app";
import { fakeApp } from "../../fakes/fake-app";
import { FolderBackend } from "../../fakes/folder-backend";
import { vaultHash } from "../../unit/journal/journal-harness";

const say = (message: string) => JSON.stringify({ thought: "done", status: "Idle", message_to_user: message, tool_calls: [] });
const call = (name: string, args: Record<string, unknown>) =>
  JSON.stringify({ thought: `calling ${name}`, status: "Task", message_to_user: null, tool_calls: [{ name, args }] });
const WRITE_ALPHA = [call("vault:append", { path: "Projects/Alpha.md", content: "Added by the agent." }), say("Added.")];

class TestPlugin extends Plugin {}

let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "plugin-undo-"));
  mkdirSync(join(root, "Projects"));
  writeFileSync(join(root, "Projects", "Alpha.md"), "# Alpha\nplans\n");
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

function setup(script: ScriptStep[], undoAnyway: boolean[] = []) {
  const { app, fake } = fakeApp(new FolderBackend(root));
  const vault = new ObsidianVault(app);
  const store = new AdapterJournalStore(app.vault.adapter, ".obsidian/plugins/vault-agent/journal");
  const factory = new AgentFactory({ engine: new ScriptedEngine(script), vault, workspace: new ObsidianWorkspace(app.workspace), settings: () => DEFAULT_SETTINGS, journal: store });
  const notices: string[] = [];
  let noticed: (() => void) | null = null;
  /** Resolves at the next notice (the command's undo runs without being awaited). */
  const nextNotice = () => new Promise<void>((resolve) => (noticed = resolve));
  const asked: UndoConflictItem[][] = [];
  const undo = new AgentUndo({
    journal: new ChangeJournal(store),
    vault,
    notice: (m) => {
      notices.push(m);
      noticed?.();
    },
    confirmConflict: async (conflicts) => {
      asked.push(conflicts);
      return undoAnyway.shift() ?? false;
    },
  });
  const session = new ChatSession({
    agentFor: (c, u) => factory.agentFor(c, u),
    store: new ConversationStore(app.vault.adapter, () => ".obsidian/plugins/vault-agent/conversations"),
    vault,
    readiness: async () => null,
    explain: (message) => ({ message }),
    notice: (m) => notices.push(m),
    undo,
  });
  session.subscribe(() => {
    if (session.transcript.awaiting) session.answer("approve");
  });
  const plugin = new TestPlugin(fake, { id: "vault-agent", name: "Vault Agent", version: "0", minAppVersion: "1.8.7", description: "", author: "" });
  registerCommands(plugin as unknown as RealPlugin, { session, openChat: async () => undefined, index: () => undefined });
  return { fake, session, notices, asked, undo, nextNotice };
}

const alpha = () => readFileSync(join(root, "Projects", "Alpha.md"), "utf8");
const undoItem = (s: ChatSession) => s.transcript.items.find((i) => i.kind === "undo");

describe("undo in the plugin", () => {
  it("offers Undo this turn after a turn that wrote, and restores the vault exactly", async () => {
    const before = await vaultHash(root);
    const { session, notices } = setup(WRITE_ALPHA);
    await session.send("append a line to Projects/Alpha.md");
    expect(alpha()).toContain("Added by the agent.");
    const item = undoItem(session);
    expect(item).toMatchObject({ state: "ready" });
    // It follows the turn's own items.
    expect(session.transcript.items[session.transcript.items.length - 1]).toBe(item);
    await session.undoTurn(item!.kind === "undo" ? item!.turnId : "");
    expect(await vaultHash(root)).toBe(before);
    expect(undoItem(session)).toMatchObject({ state: "undone" });
    expect(notices).toEqual(["Undone: restored Projects/Alpha.md."]);
  });

  it("offers no undo after a turn that changed nothing", async () => {
    const { session, fake } = setup([say("Hello.")]);
    await session.send("hi");
    expect(undoItem(session)).toBeUndefined();
    expect(fake.commands.isAvailable("vault-agent:undo-last-change")).toBe(false);
  });

  it("the command is offered only while there is a change to undo, and undoes the last one", async () => {
    const before = await vaultHash(root);
    const { session, fake, notices, nextNotice } = setup(WRITE_ALPHA);
    expect(fake.commands.isAvailable("vault-agent:undo-last-change")).toBe(false);
    await session.send("append a line to Projects/Alpha.md");
    expect(fake.commands.isAvailable("vault-agent:undo-last-change")).toBe(true);
    const done = nextNotice();
    fake.commands.executeCommandById("vault-agent:undo-last-change");
    await done;
    expect(notices[0]).toBe("Undone: restored Projects/Alpha.md.");
    expect(await vaultHash(root)).toBe(before);
    expect(fake.commands.isAvailable("vault-agent:undo-last-change")).toBe(false);
    expect(undoItem(session)).toMatchObject({ state: "undone" });
  });

  it("keeps a note edited since the agent's write when the user declines, and shows the three versions", async () => {
    const { session, notices, asked } = setup(WRITE_ALPHA, [false]);
    await session.send("append a line to Projects/Alpha.md");
    const agent = alpha();
    writeFileSync(join(root, "Projects", "Alpha.md"), `${agent}My own line.\n`);
    await session.undoTurn((undoItem(session) as { turnId: string }).turnId);
    expect(alpha()).toBe(`${agent}My own line.\n`);
    expect(asked).toEqual([[{ path: "Projects/Alpha.md", before: "# Alpha\nplans\n", agent, now: `${agent}My own line.\n` }]]);
    expect(notices).toHaveLength(1);
    expect(notices[0]).toMatch(/^"Projects\/Alpha\.md" changed after the agent's change .* so nothing was undone/);
    expect(undoItem(session)).toMatchObject({ state: "ready" });
  });

  it("undoes anyway when the user confirms", async () => {
    const { session, notices } = setup(WRITE_ALPHA, [true]);
    await session.send("append a line to Projects/Alpha.md");
    writeFileSync(join(root, "Projects", "Alpha.md"), "# Alpha\nrewritten by sync\n");
    await session.undoTurn((undoItem(session) as { turnId: string }).turnId);
    expect(alpha()).toBe("# Alpha\nplans\n");
    expect(notices[notices.length - 1]).toBe("Undone: restored Projects/Alpha.md.");
    expect(undoItem(session)).toMatchObject({ state: "undone" });
  });
});
