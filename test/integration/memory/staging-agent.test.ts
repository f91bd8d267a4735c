/**
 * The staging tier end to end over the real agent (one assembly, gatekeeper, router, grammar), a scripted model and
 * a folder vault on disk: memory:save stages with no vault byte changed and no confirmation, the very next turn's
 * prefetch and memory:recall see the fact, it survives a restart with the conversation's file, keeping writes one
 * journaled note that undo takes back, and dropping leaves no trace in the vault, the index or the conversation file.
 */
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { Conversation } from "../../../src/core/agent/conversation";
import type { ConfirmRequest, UserPort } from "../../../src/core/ports/user";
import { ScriptedEngine } from "../../../src/engine/scripted";
import { composeHeadless, type HeadlessAgent } from "../../../src/node/compose";
import { dropStaged, keepStaged, reviewItems } from "../../../src/app/memory-review";
import { ChangeJournal, undoTurns } from "../../../src/core/journal";
import { FolderJournalStore } from "../../../src/node/folder-journal-store";
import { FolderVault } from "../../../src/node/folder-vault/folder-vault";
import { Indexer } from "../../../src/core/memory/indexer";
import { createMemorySearch } from "../../../src/core/memory/memory-search";
import { copyVault, envelope, snapshot } from "../agent/scripted-helpers";
import { LocalTextStore } from "../../../src/core/memory/text-store";

const FACT = "Invoices for the Cobalt client go out as PDF files.";
const dirs: string[] = [];
const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of closers.splice(0)) await c();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** The CLI person with writes off: any confirmation is recorded (and declined). */
function recordingUser(asked: ConfirmRequest[]): UserPort {
  return { confirm: async (r) => (asked.push(r), "deny"), notify: () => undefined };
}

async function agentOver(vault: string, replies: string[], asked: ConfirmRequest[], memory = true): Promise<{ headless: HeadlessAgent; engine: ScriptedEngine }> {
  const engine = new ScriptedEngine(replies);
  const headless = await composeHeadless({ vault, engine, user: recordingUser(asked), memory, catalog: { stagedMemory: true }, agentOptions: { toolSelection: "full" } });
  closers.push(() => headless.close());
  return { headless, engine };
}

const saveCall = envelope([{ name: "memory:save", args: { content: FACT, title: "Invoice format" } }]);

describe("staged memories over the real agent", () => {
  it("memory:save stages without a confirmation or a single vault byte changed, even with writes off", async () => {
    const vault = copyVault();
    dirs.push(vault);
    const before = snapshot(vault);
    const asked: ConfirmRequest[] = [];
    const { headless } = await agentOver(vault, [saveCall, envelope([], "I will remember that.")], asked);
    const result = await headless.agent.runTurn("Remember that Cobalt invoices are sent as PDF.");
    expect(result.outcome).toBe("done");
    expect(result.toolResults[0]).toMatchObject({ name: "memory:save", ok: true });
    expect(result.toolResults[0].content).toContain("Staged to remember");
    expect(asked).toEqual([]);
    expect(headless.agent.conversation.staged.list().map((m) => m.content)).toEqual([FACT]);
    const after = snapshot(vault);
    expect([...after.keys()].sort()).toEqual([...before.keys()].sort());
    for (const [path, bytes] of before) expect(after.get(path), path).toBe(bytes);
  });

  it("the very next turn's prefetch carries the staged fact, first, and memory:recall finds it by words", async () => {
    const vault = copyVault();
    dirs.push(vault);
    const recall = envelope([{ name: "memory:recall", args: { query: "cobalt invoice format" } }]);
    const { headless, engine } = await agentOver(vault, [saveCall, envelope([], "Noted."), recall, envelope([], "PDF.")], []);
    await headless.agent.runTurn("Remember that Cobalt invoices are sent as PDF.");
    const result = await headless.agent.runTurn("Which format do Cobalt invoices use?");
    const prompt = engine.requests.at(-1)!.messages.map((m) => m.content).join("\n");
    const block = prompt.slice(prompt.lastIndexOf("Relevant notes from memory:"));
    expect(block).toContain(`Facts the user asked you to remember in this conversation (staged, not saved in the vault yet):\n- ${FACT}`);
    // Staged first: before any note of the vault.
    const vaultNotes = block.indexOf("Notes from the vault");
    if (vaultNotes >= 0) expect(block.indexOf(FACT)).toBeLessThan(vaultNotes);
    expect(result.toolResults[0]).toMatchObject({ name: "memory:recall", ok: true });
    expect(result.toolResults[0].content.split("\n")[0]).toBe(`(staged in this conversation, not saved yet) ${FACT}`);
  });

  it("staged facts are kept with the conversation's file and recalled after a restart", async () => {
    const vault = copyVault();
    dirs.push(vault);
    const first = await agentOver(vault, [saveCall, envelope([], "Noted.")], []);
    await first.headless.agent.runTurn("Remember that Cobalt invoices are sent as PDF.");
    const file = join(vault, "conversation.json");
    writeFileSync(file, JSON.stringify(first.headless.agent.conversation.toJSON()));
    await first.headless.close();
    closers.length = 0;
    const restored = Conversation.fromJSON(readFileSync(file, "utf8"));
    expect(restored.staged.list()).toEqual(first.headless.agent.conversation.staged.list());
    const second = await agentOver(vault, [envelope([], "PDF.")], []);
    second.headless.agent.conversation = restored;
    await second.headless.agent.runTurn("How should I send the Cobalt invoices?");
    const prompt = second.engine.requests.at(-1)!.messages.map((m) => m.content).join("\n");
    expect(prompt).toContain(`- ${FACT}`);
  });

  it("keeping writes one journaled memory note, indexed; undo takes it back", async () => {
    const vault = copyVault();
    dirs.push(vault);
    const { headless } = await agentOver(vault, [saveCall, envelope([], "Noted.")], [], false);
    await headless.agent.runTurn("Remember that Cobalt invoices are sent as PDF.");
    const conversation = headless.agent.conversation;
    const folder = new FolderVault(vault, { watch: false });
    const saved = new Map<string, string>();
    const indexer = localIndexer(folder, saved);
    await indexer.build();
    const journal = new ChangeJournal(new FolderJournalStore(join(vault, ".obsidian", "plugins", "vault-agent", "journal")));
    const result = await keepStaged(conversation, { vault: folder, journal, index: async (paths) => void (await Promise.all(paths.map((p) => indexer.updateNote(p)))) });
    expect(result.failed).toEqual([]);
    expect(result.kept).toHaveLength(1);
    const path = result.kept[0].path;
    expect(path).toMatch(/^Memory\/\d{4}-\d{2}-\d{2} Invoice format\.md$/);
    expect(readFileSync(join(vault, path), "utf8")).toMatch(/^---\ncreated: .+\ntags:\n {2}- memory\n---\nInvoices for the Cobalt client go out as PDF files\.\n$/);
    expect(conversation.staged.size).toBe(0);
    const hits = await createMemorySearch({ indexer, vault: folder }).textSearch("cobalt invoices pdf", 3, { pathPrefix: "Memory/" });
    expect(hits[0]?.path).toBe(path);
    // The existing undo takes the kept note back.
    const turns = await journal.turns();
    expect(turns[0].turnId).toBe(result.turnId);
    await undoTurns(journal, folder, [turns[0]]);
    expect(await folder.exists(path)).toBe(false);
    await indexer.close();
    folder.close();
  });

  it("a dropped fact leaves no trace in the vault, the index or the conversation file", async () => {
    const vault = copyVault();
    dirs.push(vault);
    const { headless } = await agentOver(vault, [saveCall, envelope([], "Noted."), envelope([], "PDF, as staged.")], []);
    await headless.agent.runTurn("Remember that Cobalt invoices are sent as PDF.");
    // A later turn's prefetch quotes the fact in its turn block: that goes too.
    await headless.agent.runTurn("Which format for Cobalt invoices?");
    const conversation = headless.agent.conversation;
    expect(JSON.stringify(conversation.toJSON())).toContain(FACT);
    const before = snapshot(vault);
    const dropped = dropStaged(conversation, ["m1"]);
    expect(dropped.map((m) => m.content)).toEqual([FACT]);
    const file = join(vault, "..", `${conversation.id}-dropped.json`);
    dirs.push(file);
    writeFileSync(file, JSON.stringify(conversation.toJSON()));
    const bytes = readFileSync(file, "utf8");
    expect(bytes).not.toContain(FACT);
    expect(bytes).not.toContain("Invoice format");
    expect(bytes).not.toContain('"staged"');
    expect(bytes).toContain("[dropped memory]");
    // Nothing reached the vault or its index.
    expect(snapshot(vault)).toEqual(before);
    const folder = new FolderVault(vault, { watch: false });
    const saved = new Map<string, string>();
    const indexer = localIndexer(folder, saved);
    await indexer.build();
    expect(await createMemorySearch({ indexer, vault: folder }).textSearch("cobalt invoices pdf files", 5, { pathPrefix: "Memory/" })).toEqual([]);
    await indexer.close();
    expect(await reviewItems(conversation, { vault: folder })).toEqual([]);
    folder.close();
  });
});

/** An indexer over a folder vault with its index files in a map, the text index in this process. */
function localIndexer(vault: FolderVault, saved: Map<string, string>): Indexer {
  const indexStore = { load: async (k: string) => saved.get(k) ?? null, save: async (k: string, t: string) => void saved.set(k, t), remove: async (k: string) => void saved.delete(k) };
  return new Indexer({ vault, indexStore, text: new LocalTextStore(indexStore), vectors: null, embed: null });
}
