/**
 * The chat pane's review of staged memories over the real agent, ObsidianVault on a folder and the plugin's journal:
 * the plugin's memory:save stages without asking, the count follows, a new conversation opens the review of the one
 * left, keep writes a journaled note (Undo takes it back), edit changes what is kept, drop saves the file without it.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ChangeJournal } from "../../../src/core/journal";
import { ScriptedEngine, type ScriptStep } from "../../../src/engine/scripted";
import { AgentFactory } from "../../../src/plugin/agent/agent-factory";
import { ChatSession } from "../../../src/plugin/chat/chat-session";
import { ConversationStore } from "../../../src/plugin/chat/conversation-store";
import { StagedReview } from "../../../src/plugin/chat/memory-review";
import { AgentUndo } from "../../../src/plugin/undo/agent-undo";
import { AdapterJournalStore, pluginJournalFolder } from "../../../src/plugin/vault/adapter-journal-store";
import { DEFAULT_SETTINGS } from "../../../src/plugin/settings/settings";
import { ObsidianVault } from "../../../src/plugin/vault/obsidian-vault";
import { ObsidianWorkspace } from "../../../src/plugin/vault/obsidian-workspace";
import { fakeApp } from "../../fakes/fake-app";
import { FolderBackend } from "../../fakes/folder-backend";

const say = (message: string) => JSON.stringify({ thought: "answering", status: "Idle", message_to_user: message, tool_calls: [] });
const save = (content: string, title?: string) =>
  JSON.stringify({ thought: "saving", status: "Task", message_to_user: null, tool_calls: [{ name: "memory:save", args: { content, ...(title ? { title } : {}) } }] });

let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "memory-review-"));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

function setup(script: ScriptStep[]) {
  const { app } = fakeApp(new FolderBackend(root));
  const vault = new ObsidianVault(app);
  const engine = new ScriptedEngine(script);
  const settings = { ...DEFAULT_SETTINGS };
  const plugin = ".obsidian/plugins/vault-agent";
  const journal = new ChangeJournal(new AdapterJournalStore(app.vault.adapter, pluginJournalFolder(plugin)));
  const factory = new AgentFactory({ engine, vault, workspace: new ObsidianWorkspace(app.workspace), settings: () => settings, journal: new AdapterJournalStore(app.vault.adapter, pluginJournalFolder(plugin)) });
  const notices: string[] = [];
  const asked: string[] = [];
  const store = new ConversationStore(app.vault.adapter, () => `${plugin}/conversations`);
  const undo = new AgentUndo({ journal, vault, notice: (m) => notices.push(m), confirmConflict: async () => false });
  const review: StagedReview = new StagedReview({ vault, journal, settings: () => settings, current: () => session.conversation, save: (c) => store.save(c), undo, notice: (m) => notices.push(m) });
  const session: ChatSession = new ChatSession({
    agentFor: (c, u) => factory.agentFor(c, u),
    store,
    staged: review,
    vault,
    readiness: async () => null,
    explain: (message) => ({ message }),
    notice: (m) => notices.push(m),
  });
  session.subscribe(() => {
    if (session.transcript.awaiting) {
      asked.push("confirm");
      session.answer("deny");
    }
  });
  const file = (id: string) => readFileSync(join(root, plugin, "conversations", `${id}.json`), "utf8");
  return { vault, session, review, notices, asked, file };
}

describe("the pane's review of staged memories", () => {
  it("stages without asking, opens the review when a new conversation starts, keeps through the journal and undoes", async () => {
    const { vault, session, review, asked, file } = setup([save("The recycling goes out on Tuesday evenings.", "Recycling day"), say("Noted."), save("My bike lock code is 4512."), say("Noted.")]);
    await session.send("remember that the recycling goes out on Tuesday evenings");
    await session.send("and that my bike lock code is 4512");
    expect(asked).toEqual([]);
    expect(review.count).toBe(2);
    const first = session.conversation;
    expect(JSON.parse(file(first.id)).staged).toHaveLength(2);
    expect(await vault.list()).toEqual(expect.not.arrayContaining([expect.objectContaining({ path: expect.stringMatching(/^Memory\//) })]));

    await session.newConversation();
    expect(review.shown).toBe(true);
    expect(review.left).toBe(first);
    expect(review.items.map((i) => i.memory.id)).toEqual(["m1", "m2"]);

    await review.edit("m2", "My bike lock code is 4513.");
    await review.keep(["m2"]);
    const kept = (await vault.list()).filter((f) => f.path.startsWith("Memory/")).map((f) => f.path);
    expect(kept).toEqual([expect.stringMatching(/^Memory\/\d{4}-\d{2}-\d{2} My bike lock code is 4513\.md$/)]);
    expect(await vault.read(kept[0])).toContain("My bike lock code is 4513.");
    expect(review.kept).toMatchObject({ count: 1, folder: "Memory" });
    expect(JSON.parse(file(first.id)).staged.map((m: { id: string }) => m.id)).toEqual(["m1"]);

    await review.undoKeep();
    expect(await vault.exists(kept[0])).toBe(false);

    await review.drop(["m1"]);
    expect(review.left).toBeNull();
    expect(review.shown).toBe(false);
    const saved = file(first.id);
    // The staged sentence and its title are gone; what the user typed stays (their message, deleted with the conversation).
    expect(saved).not.toContain("The recycling goes out on Tuesday evenings.");
    expect(saved).not.toContain("Recycling day");
    expect(saved).toContain("remember that the recycling goes out on Tuesday evenings");
    expect(saved).not.toContain('"staged"');
  });

  it("shows a staged fact that contradicts a kept memory beside it, and keeping all keeps both notes", async () => {
    const { vault, session, review } = setup([save("The team standup is at 10:00.", "Standup time"), say("Noted.")]);
    await vault.create("Memory/2026-01-10 Standup time.md", "---\ntags:\n  - memory\n---\nThe team standup is at 9:30.\n");
    await session.send("remember: standup is at ten now");
    await review.show();
    expect(review.items[0].conflicts[0]).toMatchObject({ kind: "contradicts", kept: { path: "Memory/2026-01-10 Standup time.md", text: "The team standup is at 9:30." } });
    await review.keep();
    const memories = (await vault.list()).filter((f) => f.path.startsWith("Memory/")).map((f) => f.path).sort();
    expect(memories).toHaveLength(2);
    expect(await vault.read("Memory/2026-01-10 Standup time.md")).toContain("9:30");
    expect(review.count).toBe(0);
  });
});
