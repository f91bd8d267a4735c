/** The plugin's change journal: a chat turn's writes land in the plugin's data folder and undo byte for byte. */
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ChangeJournal, undoTurns } from "../../../src/core/journal";
import { ScriptedEngine, type ScriptStep } from "../../../src/engine/scripted";
import { defaultJournalDir, FolderJournalStore } from "../../../src/node/folder-journal-store";
import { AgentFactory } from "../../../src/plugin/agent/agent-factory";
import { ChatSession } from "../../../src/plugin/chat/chat-session";
import { ConversationStore } from "../../../src/plugin/chat/conversation-store";
import { DEFAULT_SETTINGS } from "../../../src/plugin/settings/settings";
import { AdapterJournalStore, pluginJournalFolder } from "../../../src/plugin/vault/adapter-journal-store";
import { ObsidianVault } from "../../../src/plugin/vault/obsidian-vault";
import { ObsidianWorkspace } from "../../../src/plugin/vault/obsidian-workspace";
import { fakeApp } from "../../fakes/fake-app";
import { FolderBackend } from "../../fakes/folder-backend";
import { vaultHash } from "../../unit/journal/journal-harness";

const say = (message: string) => JSON.stringify({ thought: "done", status: "Idle", message_to_user: message, tool_calls: [] });
const call = (name: string, args: Record<string, unknown>) =>
  JSON.stringify({ thought: `calling ${name}`, status: "Task", message_to_user: null, tool_calls: [{ name, args }] });

const PLUGIN_FOLDER = ".obsidian/plugins/vault-agent";

let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "plugin-journal-"));
  mkdirSync(join(root, "Projects"));
  // CRLF, a BOM-less UTF-8 accent and no final newline: bytes a lossy restore would change.
  writeFileSync(join(root, "Projects", "Alpha.md"), "# Alpha\r\nCafé plans — draft");
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

function setup(script: ScriptStep[]) {
  const { app } = fakeApp(new FolderBackend(root));
  const vault = new ObsidianVault(app);
  const journal = new AdapterJournalStore(app.vault.adapter, pluginJournalFolder(PLUGIN_FOLDER));
  const factory = new AgentFactory({ engine: new ScriptedEngine(script), vault, workspace: new ObsidianWorkspace(app.workspace), settings: () => DEFAULT_SETTINGS, journal });
  const session = new ChatSession({
    agentFor: (c, u) => factory.agentFor(c, u),
    store: new ConversationStore(app.vault.adapter, () => `${PLUGIN_FOLDER}/conversations`),
    vault,
    readiness: async () => null,
    explain: (message) => ({ message }),
    notice: () => undefined,
  });
  session.subscribe(() => {
    if (session.transcript.awaiting) session.answer("approve");
  });
  return { app, vault, journal, session };
}

describe("the plugin's change journal", () => {
  it("journals a chat turn's writes in the plugin's data folder and undoes them byte for byte", async () => {
    const before = await vaultHash(root);
    const { vault, journal, session } = setup([
      call("vault:write", { path: "Inbox/Idea.md", content: "# Idea\n- tomatoes\n" }),
      call("vault:append", { path: "Projects/Alpha.md", content: "Added by the agent." }),
      say("Done."),
    ]);
    await session.send("note the idea and add a line to Alpha");
    expect(await vault.read("Inbox/Idea.md")).toBe("# Idea\n- tomatoes\n");
    expect(await vaultHash(root)).not.toBe(before);
    // Two changes, each a before and an after record, and no temp file left behind.
    const files = readdirSync(join(root, PLUGIN_FOLDER, "journal"));
    expect(files.filter((f) => f.endsWith(".json"))).toHaveLength(4);
    expect(files.filter((f) => f.startsWith("."))).toEqual([]);

    const changeJournal = new ChangeJournal(journal);
    const [turn] = await changeJournal.turns();
    expect(turn.changes.map((c) => `${c.before.op} ${c.before.path}`)).toEqual(["create Inbox/Idea.md", "modify Projects/Alpha.md"]);
    await undoTurns(changeJournal, vault, [turn]);
    expect(await vaultHash(root)).toBe(before);
    expect(await changeJournal.turns()).toEqual([]);
  });

  it("keeps the headless folder store's layout, so the CLI can undo the plugin's turns", async () => {
    const before = await vaultHash(root);
    // Read first: an edit of a note the agent has not read is refused (docs/grounded-calls.md).
    const { vault, session } = setup([call("vault:read", { path: "Projects/Alpha.md" }), call("vault:edit", { path: "Projects/Alpha.md", find: "draft", replace: "final" }), say("Edited.")]);
    await session.send("read Projects/Alpha.md, then edit it: replace draft with final");
    expect(await vault.read("Projects/Alpha.md")).toBe("# Alpha\r\nCafé plans — final");
    const headless = new ChangeJournal(new FolderJournalStore(defaultJournalDir(root)));
    const turns = await headless.turns();
    expect(turns).toHaveLength(1);
    await undoTurns(headless, vault, turns);
    expect(await vaultHash(root)).toBe(before);
  });
});
