import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { makeHarness, type Harness } from "./tool-harness";
import { ToolError } from "../../../src/tools/tool-error";

let h: Harness;
beforeEach(async () => {
  h = await makeHarness();
});
afterEach(async () => {
  await h.cleanup();
});

async function failsWith(p: Promise<unknown>, code: string, text?: RegExp): Promise<void> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ToolError);
  expect((err as ToolError).code).toBe(code);
  if (text) expect((err as ToolError).message).toMatch(text);
}

describe("vault:read", () => {
  it("reads a short note whole, adding .md to a bare path", async () => {
    const r = await h.call("vault:read", { path: "Inbox" });
    expect(r.content).toContain("Renew car insurance before 1 December");
    expect((r.data as { nextOffset: number | null }).nextOffset).toBeNull();
  });

  it("pages a long note at line breaks and continues from the offset", async () => {
    h.ctx.settings.readPageChars = 500;
    const full = await h.vault.read("Projects/Project Alpha.md");
    const first = await h.call("vault:read", { path: "Projects/Project Alpha.md" });
    const d1 = first.data as { text: string; nextOffset: number };
    expect(d1.text.length).toBeLessThanOrEqual(500);
    expect(d1.text.endsWith("\n")).toBe(true);
    expect(first.content).toContain(`offset=${d1.nextOffset}`);
    let offset: number | null = d1.nextOffset;
    let joined = d1.text;
    while (offset !== null) {
      const next = (await h.call("vault:read", { path: "Projects/Project Alpha.md", offset })).data as { text: string; nextOffset: number | null };
      joined += next.text;
      offset = next.nextOffset;
    }
    expect(joined).toBe(full);
  });

  it("reads only the section under a heading", async () => {
    const r = await h.call("vault:read", { path: "Projects/Project Alpha.md", heading: "Tasks" });
    expect(r.content).toContain("- [x] Local queue with retry and backoff");
    expect(r.content).not.toContain("## Milestones");
    expect(r.content).not.toContain("## Beta rollout");
  });

  it("names the note's headings when the heading does not exist", async () => {
    await failsWith(h.call("vault:read", { path: "Inbox.md", heading: "Nope" }), "not_found", /To do, Someday, Notes/);
  });

  it("says how to find the path when the note does not exist", async () => {
    await failsWith(h.call("vault:read", { path: "Nowhere.md" }), "not_found", /vault:list/);
  });

  it("refuses a binary file with a sentence instead of returning its bytes", async () => {
    await failsWith(h.call("vault:read", { path: "Attachments/diagram.png" }), "bad_args", /is a binary file, not a text note/);
  });

  it("never reads the config folder", async () => {
    await failsWith(h.call("vault:read", { path: ".obsidian/app.json" }), "refused");
    await failsWith(h.call("vault:read", { path: "../outside.md" }), "refused");
  });

  it("refuses notes in excluded folders", async () => {
    h.ctx.settings.excludedFolders = ["People"];
    await failsWith(h.call("vault:read", { path: "People/Maria Alvarez.md" }), "refused");
  });
});

describe("vault:write", () => {
  it("creates a new note, previewing its content", async () => {
    const args = { path: "Ideas/Garden.md", content: "# Garden\n\nPlant tomatoes.\n" };
    const p = await h.preview("vault:write", args);
    expect(p.previewKind).toBe("content");
    expect(p.preview).toBe(args.content);
    const r = await h.call("vault:write", args);
    expect(await h.vault.read("Ideas/Garden.md")).toBe(args.content);
    expect(r.content).toContain("Created [[Ideas/Garden]]");
  });

  it("replaces an existing note, previewing a unified diff", async () => {
    const t = h.tool("vault:write");
    const args = t.args.parse({ path: "Ideas.md", content: "# Ideas\n\nOnly one idea now.\n" });
    const p = await t.preview!(args, h.ctx);
    expect(p.previewKind).toBe("diff");
    expect(p.preview).toMatch(/^--- a\/Ideas.md\n\+\+\+ b\/Ideas.md\n@@/);
    expect(p.preview).toContain("+Only one idea now.");
    await t.handler(args, h.ctx);
    expect(await h.vault.read("Ideas.md")).toBe("# Ideas\n\nOnly one idea now.\n");
  });

  it("reports a conflict when the user edits the note while the confirmation is open", async () => {
    const t = h.tool("vault:write");
    const args = t.args.parse({ path: "Inbox.md", content: "agent version\n" });
    await t.preview!(args, h.ctx);
    await writeFile(join(h.root, "Inbox.md"), "the user's edit\n");
    await failsWith(t.handler(args, h.ctx), "conflict", /nothing was written/);
    expect(await readFile(join(h.root, "Inbox.md"), "utf8")).toBe("the user's edit\n");
  });
});

describe("vault:append", () => {
  it("appends under a heading, before the next section", async () => {
    await h.call("vault:append", { path: "Inbox.md", heading: "Someday", content: "- [ ] Visit Porto" });
    const text = await h.vault.read("Inbox.md");
    const someday = text.indexOf("## Someday");
    const notes = text.indexOf("## Notes");
    const added = text.indexOf("- [ ] Visit Porto");
    expect(added).toBeGreaterThan(someday);
    expect(added).toBeLessThan(notes);
    expect(text).toContain("- [ ] Try the Sunday morning trail run group Priya mentioned\n- [ ] Visit Porto\n\n## Notes");
  });

  it("appends at the end and creates the heading when it is missing", async () => {
    await h.call("vault:append", { path: "Ideas.md", heading: "Parking lot", content: "A shed" });
    expect(await h.vault.read("Ideas.md")).toMatch(/\n## Parking lot\nA shed\n$/);
  });

  it("previews the append as a diff with only added lines", async () => {
    const p = await h.preview("vault:append", { path: "Inbox.md", content: "new line" });
    expect(p.summary).toBe("Append to Inbox.md (+1 lines)");
    expect(p.preview.split("\n").filter((l) => l.startsWith("-") && !l.startsWith("---"))).toEqual([]);
  });
});

describe("vault:edit", () => {
  it("replaces exactly one occurrence", async () => {
    const r = await h.call("vault:edit", { path: "Shopping List.md", find: "- [ ] Feta", replace: "- [ ] Feta (200 g)" });
    expect(await h.vault.read("Shopping List.md")).toContain("- [ ] Feta (200 g)\n");
    expect(r.data).toMatchObject({ added: 1, removed: 1 });
  });

  it("fails clearly when the text is absent", async () => {
    await failsWith(h.call("vault:edit", { path: "Shopping List.md", find: "caviar", replace: "x" }), "not_found", /exact text/);
  });

  it("fails clearly when the text is ambiguous, unless all=true", async () => {
    const before = await h.vault.read("Shopping List.md");
    await failsWith(h.call("vault:edit", { path: "Shopping List.md", find: "- [ ]", replace: "- [x]" }), "ambiguous", /occurs \d+ times/);
    expect(await h.vault.read("Shopping List.md")).toBe(before);
    await h.call("vault:edit", { path: "Shopping List.md", find: "- [ ]", replace: "- [x]", all: true });
    expect(await h.vault.read("Shopping List.md")).not.toContain("- [ ]");
  });
});

describe("vault:list", () => {
  it("lists a folder with sizes and never the config folder", async () => {
    const r = await h.call("vault:list", { folder: "Recipes" });
    expect((r.data as { files: string[] }).files).toEqual(["Recipes/Banana Bread.md", "Recipes/Red Lentil Soup.md", "Recipes/Shakshuka.md"]);
    const all = await h.call("vault:list", {});
    expect(all.content).not.toContain(".obsidian");
    expect(all.content).toContain("Attachments/diagram.png");
  });

  it("pages with limit and offset", async () => {
    const first = await h.call("vault:list", { limit: 5 });
    expect((first.data as { files: string[] }).files).toHaveLength(5);
    expect(first.content).toMatch(/more; list again with offset=5/);
    const second = await h.call("vault:list", { limit: 5, offset: 5 });
    expect((second.data as { files: string[] }).files[0]).not.toBe((first.data as { files: string[] }).files[0]);
  });
});

describe("vault:search without an index", () => {
  it("finds notes by words, best first, with a snippet", async () => {
    const r = await h.call("vault:search", { query: "lentil soup" });
    const hits = (r.data as { hits: { path: string; snippet: string }[] }).hits;
    expect(hits[0].path).toBe("Recipes/Red Lentil Soup.md");
    expect(r.content).toContain("[[Recipes/Red Lentil Soup]]");
  });

  it("says when nothing matches", async () => {
    const r = await h.call("vault:search", { query: "xylophone" });
    expect(r.empty).toBe(true);
  });
});

describe("vault:semantic_search", () => {
  it("says clearly that an embedding model is needed when there is none", async () => {
    await failsWith(h.call("vault:semantic_search", { query: "running" }), "unavailable", /embedding model/);
  });
});

describe("vault:move", () => {
  it("renames a note and updates links to it", async () => {
    const p = await h.preview("vault:move", { from: "Ideas.md", to: "Archive/Old Ideas.md" });
    expect(p.preview).toContain("Home.md");
    const r = await h.call("vault:move", { from: "Ideas.md", to: "Archive/Old Ideas.md" });
    expect(await h.vault.exists("Archive/Old Ideas.md")).toBe(true);
    expect(await h.vault.read("Home.md")).toContain("[[Old Ideas]]");
    expect((r.data as { updated: string[] }).updated).toContain("Home.md");
  });

  it("moves a note into a folder when the target ends with a slash, keeping its name", async () => {
    const p = await h.preview("vault:move", { from: "Ideas", to: "Archive/" });
    expect(p.summary).toBe("Move Ideas.md to Archive/Ideas.md");
    await h.call("vault:move", { from: "Ideas", to: "Archive/" });
    expect(await h.vault.exists("Archive/Ideas.md")).toBe(true);
    expect(await h.vault.exists("Archive.md")).toBe(false);
  });

  it("refuses to move onto an existing note", async () => {
    await failsWith(h.call("vault:move", { from: "Ideas.md", to: "Inbox.md" }), "conflict");
  });
});

describe("vault:delete", () => {
  it("moves the note to the trash and mentions the notes still linking to it", async () => {
    const r = await h.call("vault:delete", { path: "Recipes/Shakshuka.md" });
    expect(await h.vault.exists("Recipes/Shakshuka.md")).toBe(false);
    expect(await readFile(join(h.root, ".trash/Recipes/Shakshuka.md"), "utf8")).toContain("Shakshuka");
    expect(r.content).toMatch(/notes still link to it/);
  });
});

describe("every write is compare-and-swap against what the preview showed", () => {
  // Each write tool, planned on a note; then the user changes that note (or creates it) before the confirmation is answered.
  const cases: { name: string; args: Record<string, unknown>; note: string }[] = [
    { name: "vault:write", args: { path: "Inbox.md", content: "agent text\n" }, note: "Inbox.md" },
    { name: "vault:write", args: { path: "Fresh.md", content: "agent text\n" }, note: "Fresh.md" },
    { name: "vault:append", args: { path: "Ideas.md", content: "agent line" }, note: "Ideas.md" },
    { name: "vault:edit", args: { path: "Shopping List.md", find: "- [ ] Feta", replace: "- [ ] Halloumi" }, note: "Shopping List.md" },
    { name: "frontmatter:set", args: { path: "Projects/Project Alpha.md", key: "status", value: "paused" }, note: "Projects/Project Alpha.md" },
    { name: "daily:append", args: { date: "yesterday", content: "agent line" }, note: "Daily/2026-11-22.md" },
    { name: "daily:append", args: { content: "agent line" }, note: "Daily/2026-11-23.md" },
    { name: "tasks:add", args: { path: "Inbox.md", text: "agent task" }, note: "Inbox.md" },
    { name: "tasks:complete", args: { path: "Shopping List.md", task: "oat milk" }, note: "Shopping List.md" },
    { name: "memory:save", args: { content: "The cabin key is under the mat.", title: "Cabin key" }, note: "Memory/2026-11-23 Cabin key.md" },
  ];
  for (const c of cases) {
    it(`${c.name} on ${c.note} reports a conflict and keeps the user's edit`, async () => {
      const t = h.tool(c.name);
      const args = t.args.parse(c.args);
      const p = await t.preview!(args, h.ctx);
      expect(p.summary).toContain(c.note);
      const file = join(h.root, c.note);
      await mkdir(dirname(file), { recursive: true });
      await writeFile(file, "the user's edit\n");
      await failsWith(t.handler(args, h.ctx), "conflict", /changed while this edit was waiting.*nothing was written/);
      expect(await readFile(file, "utf8")).toBe("the user's edit\n");
    });
  }
});
