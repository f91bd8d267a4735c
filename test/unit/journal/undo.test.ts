import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { undoTurns, UndoConflict, describeTurn } from "../../../src/core/journal";
import { makeJournalHarness, vaultHash, type JournalHarness } from "./journal-harness";

describe("change journal and undo over a folder vault", () => {
  let h: JournalHarness;
  beforeEach(async () => {
    h = await makeJournalHarness();
  });
  afterEach(() => h.cleanup());

  it("undoes a turn of every kind of write and leaves the whole vault byte for byte as before", async () => {
    const before = await vaultHash(h.root);
    await h.run("t1", "r1c0", "vault:write", { path: "Inbox/New idea.md", content: "# New idea\n\nA café ☕ and emoji 🧪\r\nmixed line ends" });
    await h.run("t1", "r1c1", "vault:append", { path: "Ideas.md", content: "- one more idea" });
    await h.run("t1", "r1c2", "vault:edit", { path: "Shopping List.md", find: (await h.vault.read("Shopping List.md")).split("\n")[0], replace: "# Groceries", all: true });
    await h.run("t1", "r2c0", "frontmatter:set", { path: "Projects/Project Alpha.md", key: "status", value: "paused" });
    await h.run("t1", "r2c1", "tasks:add", { text: "Call the plumber", path: "Inbox.md" });
    await h.run("t1", "r2c2", "daily:append", { content: "Went running" });
    await h.run("t1", "r3c0", "vault:move", { from: "Projects/Project Alpha.md", to: "Archive/Project Alpha 2026.md" });
    await h.run("t1", "r3c1", "vault:delete", { path: "Recipes/" + (await readdir(join(h.root, "Recipes")))[0] });
    await h.run("t1", "r3c2", "memory:save", { content: "Maria prefers mornings", title: "Maria mornings" });
    expect(await vaultHash(h.root)).not.toBe(before);
    // The move rewrote links in other notes; those are journaled as part of it.
    expect(await readFile(join(h.root, "Home.md"), "utf8")).toContain("Project Alpha 2026");

    const [turn] = await h.journal.turns();
    expect(turn.turnId).toBe("t1");
    expect(turn.changes.find((c) => c.before.op === "move")?.before).toMatchObject({ path: "Projects/Project Alpha.md", to: "Archive/Project Alpha 2026.md" });
    expect(turn.changes.filter((c) => c.before.partOf !== undefined).length).toBeGreaterThan(3);
    expect(describeTurn(turn)).toMatch(/t1: created Inbox\/New idea\.md, changed Ideas\.md, .* and \d+ more$/);
    const result = await undoTurns(h.journal, h.vault, [turn]);
    expect(result.restored.some((l) => l.startsWith("Moved Archive/Project Alpha 2026.md back"))).toBe(true);
    expect(await vaultHash(h.root)).toBe(before);
    expect(await h.journal.turns()).toEqual([]);
  });

  it("undoes only the last turn and keeps the earlier one undoable", async () => {
    await h.run("t1", "r1c0", "vault:append", { path: "Ideas.md", content: "- first" });
    const afterFirst = await vaultHash(h.root);
    await h.run("t2", "r1c0", "vault:append", { path: "Ideas.md", content: "- second" });
    const turns = await h.journal.turns();
    expect(turns.map((t) => t.turnId)).toEqual(["t2", "t1"]);
    await undoTurns(h.journal, h.vault, [turns[0]]);
    expect(await vaultHash(h.root)).toBe(afterFirst);
    expect((await h.journal.turns()).map((t) => t.turnId)).toEqual(["t1"]);
  });

  it("its index names the turns it holds from the record names, and forgets an undone one", async () => {
    await h.run("t-1", "r1c0", "vault:append", { path: "Ideas.md", content: "- first" });
    await h.run("t2", "r1c0", "vault:append", { path: "Ideas.md", content: "- second" });
    const index = await h.journal.index();
    expect([index.size, index.has("t-1"), index.has("t2"), index.has("t3")]).toEqual([2, true, true, false]);
    await undoTurns(h.journal, h.vault, [(await h.journal.turns())[0]]);
    const after = await h.journal.index();
    expect([after.size, after.has("t-1"), after.has("t2")]).toEqual([1, true, false]);
  });

  it("refuses to clobber a note the user changed after the agent, and changes nothing", async () => {
    await h.run("t1", "r1c0", "vault:append", { path: "Ideas.md", content: "- agent line" });
    await h.run("t1", "r1c1", "vault:write", { path: "Fresh.md", content: "agent note" });
    const agentText = await h.vault.read("Ideas.md");
    await writeFile(join(h.root, "Ideas.md"), agentText + "\n- my own line\n");
    const edited = await vaultHash(h.root);
    const [turn] = await h.journal.turns();
    const err = await undoTurns(h.journal, h.vault, [turn]).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UndoConflict);
    const conflict = err as UndoConflict;
    expect(conflict.message).toMatch(/"Ideas\.md" changed after the agent's change/);
    expect(conflict.conflicts[0]).toMatchObject({ path: "Ideas.md", agent: agentText, now: agentText + "\n- my own line\n" });
    expect(conflict.conflicts[0].before).not.toContain("agent line");
    expect(await vaultHash(h.root)).toBe(edited);
    expect(await h.journal.turns()).toHaveLength(1);
    // Told to, it overwrites.
    await undoTurns(h.journal, h.vault, [turn], { force: true });
    expect(await h.vault.read("Ideas.md")).toBe(conflict.conflicts[0].before);
    expect(await h.vault.exists("Fresh.md")).toBe(false);
  });

  it("brings a deleted note back from the journal even when the trash was emptied", async () => {
    const text = await h.vault.read("Inbox.md");
    await h.run("t1", "r1c0", "vault:delete", { path: "Inbox.md" });
    await writeFile(join(h.root, ".trash", "Inbox.md"), "emptied");
    const [turn] = await h.journal.turns();
    await undoTurns(h.journal, h.vault, [turn]);
    expect(await h.vault.read("Inbox.md")).toBe(text);
  });

  it("refuses to undo a delete when a new note took its place", async () => {
    await h.run("t1", "r1c0", "vault:delete", { path: "Inbox.md" });
    await writeFile(join(h.root, "Inbox.md"), "a new inbox");
    const [turn] = await h.journal.turns();
    await expect(undoTurns(h.journal, h.vault, [turn])).rejects.toBeInstanceOf(UndoConflict);
    expect(await h.vault.read("Inbox.md")).toBe("a new inbox");
  });

  it("journals nothing for a write the vault refused", async () => {
    await expect(h.run("t1", "r1c0", "vault:edit", { path: "Ideas.md", find: "text that is not there", replace: "x" })).rejects.toThrow();
    await expect(h.journal.vaultFor(h.vault, { turnId: "t1", callId: "r1c1", tool: "t" }).create("Ideas.md", "x")).rejects.toThrow(/already exists/);
    expect(await h.journal.turns()).toEqual([]);
  });

  it("drops the oldest turns first when the journal grows past its size bound", async () => {
    const big = "x".repeat(20_000);
    let clock = 1_000_000;
    const small = await makeJournalHarness({ maxBytes: 50_000, now: () => (clock += 1000) });
    try {
      for (const id of ["t1", "t2", "t3", "t4"]) await small.run(id, "r1c0", "vault:write", { path: `${id}.md`, content: big });
      const ids = (await small.journal.turns()).map((t) => t.turnId);
      expect(ids[0]).toBe("t4");
      expect(ids).not.toContain("t1");
      const sizes = await Promise.all((await readdir(small.journalDir)).map(async (f) => (await readFile(join(small.journalDir, f))).length));
      // The bound holds once the newest turn started (the turn being written is never dropped).
      expect(sizes.reduce((a, b) => a + b, 0)).toBeLessThan(50_000 + 45_000);
    } finally {
      await small.cleanup();
    }
  });

  it("drops turns older than the age bound", async () => {
    let clock = 0;
    const aged = await makeJournalHarness({ maxAgeMs: 10_000, now: () => clock });
    try {
      clock = 1_000;
      await aged.run("old", "r1c0", "vault:append", { path: "Ideas.md", content: "- old" });
      clock = 50_000;
      await aged.run("new", "r1c0", "vault:append", { path: "Ideas.md", content: "- new" });
      expect((await aged.journal.turns()).map((t) => t.turnId)).toEqual(["new"]);
    } finally {
      await aged.cleanup();
    }
  });
});
