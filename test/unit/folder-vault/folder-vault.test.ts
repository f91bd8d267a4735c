import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { mkdtemp, rm, writeFile, readFile, unlink, mkdir, access } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { FolderVault } from "../../../src/node/folder-vault/folder-vault";
import { VaultError, type VaultChange } from "../../../src/core/ports/vault";

async function until(pred: () => boolean, ms = 3000): Promise<void> {
  const start = Date.now();
  while (!pred()) {
    if (Date.now() - start > ms) throw new Error("timed out waiting");
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe("FolderVault specifics", () => {
  let root: string;
  let vault: FolderVault;
  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), "fv-"));
    vault = new FolderVault(root, { debounceMs: 30 });
  });
  afterEach(async () => {
    vault.close();
    await rm(root, { recursive: true, force: true });
  });

  it("turns outside edits into debounced create, modify and delete events", async () => {
    const events: VaultChange[] = [];
    vault.onChange((c) => events.push(c));
    await new Promise((r) => setTimeout(r, 100));
    await writeFile(join(root, "Outside.md"), "one");
    await until(() => events.some((e) => e.kind === "create" && e.path === "Outside.md"));
    await new Promise((r) => setTimeout(r, 20));
    await writeFile(join(root, "Outside.md"), "one two");
    await until(() => events.some((e) => e.kind === "modify" && e.path === "Outside.md"));
    await unlink(join(root, "Outside.md"));
    await until(() => events.some((e) => e.kind === "delete" && e.path === "Outside.md"));
    await mkdir(join(root, ".obsidian"), { recursive: true });
    await writeFile(join(root, ".obsidian", "workspace.json"), "{}");
    await new Promise((r) => setTimeout(r, 200));
    expect(events.some((e) => e.path.includes(".obsidian"))).toBe(false);
  });

  it("reports its own write once, not again when the watcher echoes it", async () => {
    const events: VaultChange[] = [];
    vault.onChange((c) => events.push(c));
    await new Promise((r) => setTimeout(r, 100));
    await vault.create("Mine.md", "a");
    await vault.process("Mine.md", () => "ab");
    await new Promise((r) => setTimeout(r, 300));
    expect(events.filter((e) => e.path === "Mine.md").map((e) => e.kind)).toEqual(["create", "modify"]);
  });

  it("puts trashed notes under .trash, keeping an earlier trashed copy", async () => {
    await vault.create("Folder/Gone.md", "first");
    await vault.trash("Folder/Gone.md");
    await vault.create("Folder/Gone.md", "second");
    await vault.trash("Folder/Gone.md");
    expect(await readFile(join(root, ".trash/Folder/Gone.md"), "utf8")).toBe("first");
  });

  it("updates markdown links and ambiguous names to full paths when a note moves", async () => {
    await vault.create("Plan.md", "plan");
    await vault.create("Other/Report.md", "r1");
    await vault.create("Home.md", "[the plan](Plan.md) and [[Plan]]\n```\n[[Plan]]\n```\n");
    await vault.move("Plan.md", "Work/Report.md");
    const home = await vault.read("Home.md");
    // Two notes are now called "Report", so the wikilink needs the path to stay unambiguous.
    expect(home).toBe("[the plan](Work/Report.md) and [[Work/Report]]\n```\n[[Plan]]\n```\n");
    expect(await vault.resolveLink("Work/Report", "Home.md")).toBe("Work/Report.md");
  });

  it("refuses paths that climb out of the vault folder", async () => {
    await expect(vault.read("../etc/passwd")).rejects.toBeInstanceOf(VaultError);
    await expect(vault.create("../escape.md", "x")).rejects.toBeInstanceOf(VaultError);
    await expect(access(join(root, "..", "escape.md"))).rejects.toThrow();
  });

  it("leaves no temporary files behind after writes", async () => {
    await vault.create("A.md", "1");
    for (let i = 0; i < 5; i++) await vault.process("A.md", (s) => s + i);
    const { readdir } = await import("node:fs/promises");
    expect(await readdir(root)).toEqual(["A.md"]);
  });

  it("serialises concurrent read-modify-writes to one note so no append is lost", async () => {
    await vault.create("Log.md", "");
    await Promise.all(Array.from({ length: 20 }, (_, i) => vault.process("Log.md", (s) => s + `${i}\n`)));
    expect((await vault.read("Log.md")).trim().split("\n").length).toBe(20);
  });
});
