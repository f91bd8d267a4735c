/**
 * The behaviour every VaultPort must have, as one vitest suite. FolderVault runs it in
 * test/unit/folder-vault; ObsidianVault runs it over the fake `obsidian` module. Everything goes
 * through VaultPort; raw files under `root` are touched only to simulate an edit made outside.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { promises as fs } from "node:fs";
import { dirname, join } from "node:path";
import { VaultError, type VaultChange, type VaultPort } from "../../src/core/ports/vault";

/** One vault under test: a fresh, empty vault whose files live under `root`. */
export interface VaultUnderTest {
  vault: VaultPort;
  /** The folder on disk holding the vault's files. */
  root: string;
  cleanup(): Promise<void>;
  /** Puts a binary file into the vault as its app would (default: written to disk under `root`). */
  addBinary?(path: string, bytes: Uint8Array): Promise<void>;
}

async function writeRawBytes(root: string, path: string, bytes: Uint8Array): Promise<void> {
  await fs.mkdir(dirname(join(root, path)), { recursive: true });
  await fs.writeFile(join(root, path), bytes);
}

async function writeRaw(root: string, path: string, text: string): Promise<void> {
  await fs.mkdir(dirname(join(root, path)), { recursive: true });
  await fs.writeFile(join(root, path), text, "utf8");
}

async function rejectsWith(promise: Promise<unknown>, code: string): Promise<VaultError> {
  try {
    await promise;
  } catch (err) {
    expect(err).toBeInstanceOf(VaultError);
    expect((err as VaultError).code).toBe(code);
    expect((err as VaultError).message.length).toBeGreaterThan(10);
    return err as VaultError;
  }
  throw new Error(`expected a VaultError "${code}", but the call succeeded`);
}

/** Waits until `events` holds a change matching `pred`, or fails after `ms`. */
async function waitFor(events: VaultChange[], pred: (c: VaultChange) => boolean, ms = 3000): Promise<VaultChange> {
  const start = Date.now();
  while (Date.now() - start < ms) {
    const hit = events.find(pred);
    if (hit) return hit;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`no matching change event within ${ms} ms; got ${JSON.stringify(events)}`);
}

const NOTE_WITH_EVERYTHING = [
  "---",
  "title: Alpha project",
  "status: active",
  "priority: 2",
  "tags:",
  "  - project",
  "  - work/q3",
  "---",
  "# Alpha",
  "",
  "Owner is [[People/Ada Lovelace|Ada]], see [[Beta#Risks]] and [the plan](Plans/Alpha%20plan.md). #urgent",
  "",
  "## Tasks",
  "- [ ] Draft the brief",
  "- [x] Book the room",
  "",
  "```",
  "# not a heading #nottag [[Not a link]]",
  "```",
  "## Notes",
  "Links to [[Missing note]] stay unresolved.",
  "",
].join("\n");

/** Waits until the vault sees a file written outside it (Obsidian's index follows the disk a moment later). */
async function waitForFile(vault: VaultPort, path: string, ms = 3000): Promise<void> {
  const start = Date.now();
  while (!(await vault.exists(path))) {
    if (Date.now() - start > ms) throw new Error(`${path} did not appear in the vault within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

export function describeVaultContract(name: string, make: () => Promise<VaultUnderTest>): void {
  describe(`VaultPort contract: ${name}`, () => {
    let t: VaultUnderTest;
    let vault: VaultPort;
    beforeEach(async () => {
      t = await make();
      vault = t.vault;
    });
    afterEach(async () => {
      await t.cleanup();
    });

    it("creates a note with missing parent folders and reads it back", async () => {
      await vault.create("Projects/Deep/Alpha.md", "hello\n");
      expect(await vault.read("Projects/Deep/Alpha.md")).toBe("hello\n");
      expect(await vault.exists("Projects/Deep/Alpha.md")).toBe(true);
      expect(await vault.exists("Projects/Deep")).toBe(false);
      const stat = await vault.stat("Projects/Deep/Alpha.md");
      expect(stat?.path).toBe("Projects/Deep/Alpha.md");
      expect(stat?.size).toBe(6);
      expect(stat?.mtime).toBeGreaterThan(0);
      expect(await vault.stat("Nope.md")).toBeNull();
    });

    it("reads a binary file's bytes exactly, and reports a missing one as not_found", async () => {
      const bytes = Uint8Array.from([0x25, 0x50, 0x44, 0x46, 0x2d, 0x00, 0xff, 0xfe, 0x80, 0x0a]);
      await (t.addBinary ?? ((path: string, data: Uint8Array) => writeRawBytes(t.root, path, data)))("Files/scan.pdf", bytes);
      await waitForFile(vault, "Files/scan.pdf");
      expect([...new Uint8Array(await vault.readBinary("Files/scan.pdf"))]).toEqual([...bytes]);
      await rejectsWith(vault.readBinary("Files/missing.pdf"), "not_found");
    });

    it("refuses to create over an existing note and keeps its content", async () => {
      await vault.create("A.md", "original");
      await rejectsWith(vault.create("A.md", "replacement"), "exists");
      expect(await vault.read("A.md")).toBe("original");
    });

    it("reports a missing note as not_found", async () => {
      await rejectsWith(vault.read("Missing.md"), "not_found");
      await rejectsWith(vault.process("Missing.md", (s) => s + "x"), "not_found");
    });

    it("process applies the function and returns the new text", async () => {
      await vault.create("A.md", "one\n");
      const out = await vault.process("A.md", (s) => s + "two\n");
      expect(out).toBe("one\ntwo\n");
      expect(await vault.read("A.md")).toBe("one\ntwo\n");
    });

    it("process with the text that was read succeeds", async () => {
      await vault.create("A.md", "one\n");
      const seen = await vault.read("A.md");
      await vault.process("A.md", (s) => s.replace("one", "uno"), seen);
      expect(await vault.read("A.md")).toBe("uno\n");
    });

    it("process reports a conflict when the note changed since it was read, and changes nothing", async () => {
      await vault.create("A.md", "one\n");
      const seen = await vault.read("A.md");
      await vault.process("A.md", () => "edited by the user\n");
      await rejectsWith(vault.process("A.md", (s) => s + "agent line\n", seen), "conflict");
      expect(await vault.read("A.md")).toBe("edited by the user\n");
    });

    it("process reports a conflict after an edit made outside the vault API", async () => {
      await vault.create("A.md", "one\n");
      const seen = await vault.read("A.md");
      await writeRaw(t.root, "A.md", "typed in another editor\n");
      await rejectsWith(vault.process("A.md", (s) => s + "agent line\n", seen), "conflict");
      expect(await vault.read("A.md")).toBe("typed in another editor\n");
    });

    it("lists files recursively, sorted, under a folder, never the config folder or the trash", async () => {
      await vault.create("b.md", "b");
      await vault.create("a.md", "a");
      await vault.create("Folder/c.md", "c");
      await vault.create("Folder/Sub/d.md", "d");
      await writeRaw(t.root, `${vault.configDir}/app.json`, "{}");
      await writeRaw(t.root, ".trash/old.md", "old");
      const all = (await vault.list()).map((f) => f.path);
      expect(all).toEqual(["Folder/Sub/d.md", "Folder/c.md", "a.md", "b.md"]);
      expect((await vault.list("Folder")).map((f) => f.path)).toEqual(["Folder/Sub/d.md", "Folder/c.md"]);
      expect((await vault.list("Folder/Sub")).map((f) => f.path)).toEqual(["Folder/Sub/d.md"]);
      expect(await vault.list("Nowhere")).toEqual([]);
      const one = (await vault.list()).find((f) => f.path === "a.md");
      expect(one?.size).toBe(1);
    });

    it("moves a note and reports missing sources and taken targets", async () => {
      await vault.create("Old.md", "text");
      await vault.create("Taken.md", "other");
      await vault.move("Old.md", "Archive/New.md");
      expect(await vault.exists("Old.md")).toBe(false);
      expect(await vault.read("Archive/New.md")).toBe("text");
      await rejectsWith(vault.move("Old.md", "X.md"), "not_found");
      await rejectsWith(vault.move("Archive/New.md", "Taken.md"), "exists");
      expect(await vault.read("Taken.md")).toBe("other");
    });

    it("moving a note updates wikilinks to it in other notes, keeping headings and aliases", async () => {
      await vault.create("Ideas.md", "# Ideas\n## Later\n");
      await vault.create("Home.md", "See [[Ideas]], [[Ideas#Later]] and [[Ideas|my ideas]].\nUnrelated [[Other]].\n");
      await vault.create("Other.md", "nothing");
      await vault.move("Ideas.md", "Archive/Old ideas.md");
      const home = await vault.read("Home.md");
      expect(home).toContain("[[Old ideas]]");
      expect(home).toContain("[[Old ideas#Later]]");
      expect(home).toContain("[[Old ideas|my ideas]]");
      expect(home).toContain("[[Other]]");
      expect(home).not.toContain("[[Ideas");
      expect(await vault.backlinks("Archive/Old ideas.md")).toEqual(["Home.md"]);
    });

    it("trash removes the note from the vault without a hard delete", async () => {
      await vault.create("Gone.md", "bye");
      await vault.trash("Gone.md");
      expect(await vault.exists("Gone.md")).toBe(false);
      expect((await vault.list()).map((f) => f.path)).not.toContain("Gone.md");
      await rejectsWith(vault.trash("Gone.md"), "not_found");
    });

    it("parses frontmatter, tags, links, headings and tasks, ignoring code blocks", async () => {
      await vault.create("People/Ada Lovelace.md", "# Ada\n");
      await vault.create("Beta.md", "# Beta\n## Risks\n");
      await vault.create("Plans/Alpha plan.md", "plan");
      await vault.create("Alpha.md", NOTE_WITH_EVERYTHING);
      const meta = await vault.metadata("Alpha.md");
      expect(meta).not.toBeNull();
      expect(meta!.frontmatter).toEqual({ title: "Alpha project", status: "active", priority: 2, tags: ["project", "work/q3"] });
      expect([...meta!.tags].sort()).toEqual(["#project", "#urgent", "#work/q3"]);
      expect(meta!.headings.map((h) => [h.level, h.text, h.line])).toEqual([
        [1, "Alpha", 8],
        [2, "Tasks", 12],
        [2, "Notes", 19],
      ]);
      expect(meta!.tasks.map((x) => [x.line, x.text, x.done, x.status])).toEqual([
        [13, "Draft the brief", false, " "],
        [14, "Book the room", true, "x"],
      ]);
      const ada = meta!.links.find((l) => l.target === "People/Ada Lovelace");
      expect(ada).toMatchObject({ display: "Ada", line: 10, resolved: "People/Ada Lovelace.md", embed: false });
      const beta = meta!.links.find((l) => l.target === "Beta");
      expect(beta).toMatchObject({ subpath: "Risks", resolved: "Beta.md" });
      const plan = meta!.links.find((l) => l.resolved === "Plans/Alpha plan.md");
      expect(plan).toBeDefined();
      const missing = meta!.links.find((l) => l.target === "Missing note");
      expect(missing?.resolved).toBeNull();
      expect(meta!.links.some((l) => l.target === "Not a link")).toBe(false);
      expect(meta!.tags).not.toContain("#nottag");
    });

    it("metadata is null for absent files and non-markdown files", async () => {
      await vault.create("data.json", "{}");
      expect(await vault.metadata("data.json")).toBeNull();
      expect(await vault.metadata("Nope.md")).toBeNull();
    });

    it("finds backlinks and resolves link text from a source note", async () => {
      await vault.create("Projects/Alpha.md", "# Alpha\n## Plan\n");
      await vault.create("Home.md", "[[Alpha]]");
      await vault.create("Daily/2024-01-01.md", "Worked on [[Projects/Alpha#Plan]]");
      await vault.create("Lonely.md", "no links");
      expect((await vault.backlinks("Projects/Alpha.md")).sort()).toEqual(["Daily/2024-01-01.md", "Home.md"]);
      expect(await vault.backlinks("Lonely.md")).toEqual([]);
      expect(await vault.resolveLink("Alpha", "Home.md")).toBe("Projects/Alpha.md");
      expect(await vault.resolveLink("Projects/Alpha#Plan", "Home.md")).toBe("Projects/Alpha.md");
      expect(await vault.resolveLink("Nothing here", "Home.md")).toBeNull();
    });

    it("edits frontmatter in place and keeps the body", async () => {
      await vault.create("A.md", "---\nstatus: draft\ntags: [a]\n---\n# Body\ntext\n");
      await vault.processFrontMatter("A.md", (fm) => {
        fm.status = "done";
        fm.reviewed = true;
      });
      const meta = await vault.metadata("A.md");
      expect(meta?.frontmatter).toMatchObject({ status: "done", reviewed: true, tags: ["a"] });
      expect(await vault.read("A.md")).toMatch(/---\n# Body\ntext\n$/);
    });

    it("adds a frontmatter block to a note without one", async () => {
      await vault.create("B.md", "# Plain\n");
      await vault.processFrontMatter("B.md", (fm) => {
        fm.rating = 5;
      });
      const text = await vault.read("B.md");
      expect(text.startsWith("---\n")).toBe(true);
      expect(text.endsWith("# Plain\n")).toBe(true);
      expect((await vault.metadata("B.md"))?.frontmatter).toEqual({ rating: 5 });
    });

    it("reports its own creates, modifies, renames and deletes as change events", async () => {
      const events: VaultChange[] = [];
      const off = vault.onChange((c) => events.push(c));
      await vault.create("E.md", "1");
      await waitFor(events, (c) => c.kind === "create" && c.path === "E.md");
      await vault.process("E.md", () => "2");
      await waitFor(events, (c) => c.kind === "modify" && c.path === "E.md");
      await vault.move("E.md", "F.md");
      await waitFor(events, (c) => c.kind === "rename" && c.path === "F.md" && c.oldPath === "E.md");
      await vault.trash("F.md");
      await waitFor(events, (c) => c.kind === "delete" && c.path === "F.md");
      off();
      const count = events.length;
      await vault.create("G.md", "after unsubscribe");
      await new Promise((r) => setTimeout(r, 300));
      expect(events.length).toBe(count);
    });
  });
}
