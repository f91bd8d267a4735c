import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { makeHarness, type Harness } from "./tool-harness";
import { DEFAULT_TOOL_SETTINGS } from "../../../src/core/protocol/tool";
import { ToolError } from "../../../src/tools/tool-error";
import { dailySettingsFromObsidian } from "../../../src/tools/daily";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

let h: Harness;
beforeEach(async () => {
  h = await makeHarness();
});
afterEach(async () => {
  await h.cleanup();
});

async function failsWith(p: Promise<unknown>, code: string, text?: RegExp): Promise<void> {
  const err = await p.then(() => null, (e: unknown) => e);
  expect(err).toBeInstanceOf(ToolError);
  expect((err as ToolError).code).toBe(code);
  if (text) expect((err as ToolError).message).toMatch(text);
}

describe("note tools", () => {
  it("note:active names the open note and its outline", async () => {
    h.ctx.workspace = { activeNote: () => ({ path: "Recipes/Shakshuka.md" }), selection: () => null };
    const r = await h.call("note:active", {});
    expect(r.content).toContain("[[Recipes/Shakshuka]]");
    expect(r.data).toEqual({ path: "Recipes/Shakshuka.md" });
  });

  it("note:active says so when no editor is open", async () => {
    await failsWith(h.call("note:active", {}), "unavailable", /No note is open/);
  });

  it("note:selection returns the selected text with its lines", async () => {
    h.ctx.workspace = { activeNote: () => null, selection: () => ({ path: "Inbox.md", text: "Renew car insurance", fromLine: 8, toLine: 8 }) };
    const r = await h.call("note:selection", {});
    expect(r.content).toContain("Selected in Inbox.md, lines 9–9:\nRenew car insurance");
  });

  it("note:outline lists headings with lines and sizes", async () => {
    const r = await h.call("note:outline", { path: "Inbox.md" });
    const heads = (r.data as { headings: { text: string; level: number; lines: number }[] }).headings;
    expect(heads.map((x) => x.text)).toEqual(["Inbox", "To do", "Someday", "Notes"]);
    expect(heads[0].lines).toBeGreaterThan(heads[1].lines);
    expect(r.content).toContain("  - To do (line 9,");
  });
});

describe("tags tools", () => {
  it("tags:list counts notes per tag, most used first", async () => {
    const r = await h.call("tags:list", {});
    const tags = (r.data as { tags: { tag: string; count: number }[] }).tags;
    const daily = tags.find((t) => t.tag === "#daily");
    expect(daily?.count).toBe(7);
    expect(tags[0].count).toBeGreaterThanOrEqual(tags[tags.length - 1].count);
    expect(tags.some((t) => t.tag === "#errand")).toBe(true);
  });

  it("tags:notes finds notes with a tag, including nested tags", async () => {
    const r = await h.call("tags:notes", { tag: "#person" });
    expect((r.data as { paths: string[] }).paths).toEqual([
      "People/Jonas Weber.md",
      "People/Maria Alvarez.md",
      "People/Priya Shah.md",
      "People/Tom Becker.md",
    ]);
    const nested = await h.call("tags:notes", { tag: "home" });
    expect((nested.data as { paths: string[] }).paths).toContain("Inbox.md");
  });
});

describe("links tools", () => {
  it("links:backlinks lists linking notes with the linking line", async () => {
    const r = await h.call("links:backlinks", { path: "People/Maria Alvarez.md" });
    const back = (r.data as { backlinks: string[] }).backlinks;
    expect(back).toContain("Home.md");
    expect(back).toContain("Projects/Project Alpha.md");
    expect(r.content).toMatch(/\[\[Home\]\] line \d+: - \[\[Maria Alvarez\]\] — product lead on Alpha/);
  });

  it("links:outgoing lists targets and marks missing ones", async () => {
    await h.vault.create("Scratch.md", "See [[Inbox]] and [[No Such Note]] and ![[diagram.png]]");
    const r = await h.call("links:outgoing", { path: "Scratch.md" });
    expect(r.content).toContain("links to [[Inbox]]");
    expect(r.content).toContain('"No Such Note" (no such note)');
    expect(r.content).toContain("embeds [[Attachments/diagram.png]]");
  });
});

describe("frontmatter tools", () => {
  it("frontmatter:get returns all properties or one", async () => {
    const all = await h.call("frontmatter:get", { path: "People/Maria Alvarez.md" });
    expect((all.data as { frontmatter: Record<string, unknown> }).frontmatter).toMatchObject({ role: "Product lead", company: "Northwind Software" });
    const one = await h.call("frontmatter:get", { path: "People/Maria Alvarez.md", key: "email" });
    expect((one.data as { value: unknown }).value).toBe("maria.alvarez@example.com");
    const missing = await h.call("frontmatter:get", { path: "People/Maria Alvarez.md", key: "phone" });
    expect(missing.empty).toBe(true);
  });

  it("frontmatter:get keeps a huge property inside the read page", async () => {
    h.ctx.settings.readPageChars = 300;
    await h.vault.create("Big.md", `---\nsummary: "${"word ".repeat(400).trim()}"\nstatus: draft\n---\nBody\n`);
    const all = await h.call("frontmatter:get", { path: "Big.md" });
    expect(all.content.length).toBeLessThan(400);
    expect(all.content).toMatch(/more characters; ask for one key\)$/);
    expect((all.data as { frontmatter: Record<string, unknown> }).frontmatter.status).toBe("draft");
  });

  it("frontmatter:set changes one key and leaves other lines as written", async () => {
    const before = await h.vault.read("Projects/Project Alpha.md");
    const p = await h.preview("frontmatter:set", { path: "Projects/Project Alpha.md", key: "status", value: "paused" });
    expect(p.preview).toContain("-status: active\n+status: paused");
    await h.call("frontmatter:set", { path: "Projects/Project Alpha.md", key: "status", value: "paused" });
    const after = await h.vault.read("Projects/Project Alpha.md");
    expect(after).toBe(before.replace("status: active", "status: paused"));
    await h.call("frontmatter:set", { path: "Projects/Project Alpha.md", key: "reviewers", value: ["Maria", "Tom"] });
    expect((await h.vault.metadata("Projects/Project Alpha.md"))?.frontmatter).toMatchObject({ status: "paused", reviewers: ["Maria", "Tom"], tags: ["project", "work/alpha"] });
    await h.call("frontmatter:set", { path: "Projects/Project Alpha.md", key: "reviewers", value: null });
    expect((await h.vault.metadata("Projects/Project Alpha.md"))?.frontmatter).not.toHaveProperty("reviewers");
  });
});

describe("daily tools", () => {
  it("reads Obsidian's daily-notes settings", () => {
    const json = readFileSync(join(h.root, ".obsidian/daily-notes.json"), "utf8");
    expect(dailySettingsFromObsidian(json)).toEqual({ dailyFolder: "Daily", dailyFormat: "YYYY-MM-DD" });
    expect(dailySettingsFromObsidian("not json")).toEqual({});
    expect(dailySettingsFromObsidian("[1,2]")).toEqual({});
  });

  it("daily:append follows the vault's daily-notes.json over the built-in defaults, and Obsidian's defaults for empty keys", async () => {
    const file = join(h.root, ".obsidian/daily-notes.json");
    const fromVault = () => ({ ...DEFAULT_TOOL_SETTINGS, ...dailySettingsFromObsidian(readFileSync(file, "utf8")) });
    writeFileSync(file, JSON.stringify({ folder: "/Journal/Days/", format: "DD.MM.YYYY", template: "" }));
    h.ctx.settings = fromVault();
    await h.call("daily:append", { content: "Custom folder" });
    expect(await h.vault.read("Journal/Days/23.11.2026.md")).toBe("Custom folder\n");
    // Obsidian writes empty keys when the user cleared them: its daily notes then live at the root as YYYY-MM-DD.
    writeFileSync(file, JSON.stringify({ folder: "", format: "" }));
    h.ctx.settings = fromVault();
    expect(h.ctx.settings).toMatchObject({ dailyFolder: "", dailyFormat: "YYYY-MM-DD" });
    await h.call("daily:append", { content: "Root" });
    expect(await h.vault.read("2026-11-23.md")).toBe("Root\n");
    writeFileSync(file, "{}");
    expect(dailySettingsFromObsidian(readFileSync(file, "utf8"))).toEqual({ dailyFolder: "", dailyFormat: "YYYY-MM-DD" });
  });

  it("daily:get reads yesterday's note and reports a missing one", async () => {
    const y = await h.call("daily:get", { date: "yesterday" });
    expect((y.data as { path: string }).path).toBe("Daily/2026-11-22.md");
    expect(y.content).toContain("Made [[Shakshuka]] for brunch");
    const today = await h.call("daily:get", {});
    expect(today.empty).toBe(true);
    expect(today.content).toContain("Daily/2026-11-23.md");
  });

  it("daily:get follows a custom folder and date format", async () => {
    h.ctx.settings.dailyFolder = "Journal";
    h.ctx.settings.dailyFormat = "YYYY/MM/dddd, MMMM Do";
    await h.call("daily:append", { content: "Hello" });
    expect(await h.vault.read("Journal/2026/11/Monday, November 23rd.md")).toBe("Hello\n");
  });

  it("daily:append creates today's note under a heading", async () => {
    await h.call("daily:append", { content: "- 09:30 Started on the CRDT spike", heading: "Log" });
    expect(await h.vault.read("Daily/2026-11-23.md")).toBe("## Log\n- 09:30 Started on the CRDT spike\n");
  });

  it("daily:append refuses an unreadable date", async () => {
    await failsWith(h.call("daily:append", { content: "x", date: "next blursday" }), "bad_args");
  });
});

describe("task tools", () => {
  it("tasks:list finds open tasks across the vault and in one note", async () => {
    const all = await h.call("tasks:list", { limit: 300 });
    const tasks = (all.data as { tasks: { path: string; text: string; done: boolean }[] }).tasks;
    expect(tasks.every((t) => !t.done)).toBe(true);
    expect(tasks.some((t) => t.path === "Shopping List.md" && t.text === "Oat milk")).toBe(true);
    const done = await h.call("tasks:list", { path: "Shopping List.md", status: "done" });
    expect((done.data as { tasks: { text: string }[] }).tasks.map((t) => t.text)).toEqual(["Coffee beans", "Onions", "Light bulb for the hallway (E27, warm white)"]);
  });

  it("tasks:add appends to today's daily note by default, or under a heading", async () => {
    await h.call("tasks:add", { text: "Call the insurer", due: "2026-11-30" });
    expect(await h.vault.read("Daily/2026-11-23.md")).toBe("- [ ] Call the insurer 📅 2026-11-30\n");
    await h.call("tasks:add", { text: "Buy eggs", path: "Shopping List.md", heading: "Groceries" });
    expect(await h.vault.read("Shopping List.md")).toContain("- [ ] Sourdough bread\n- [x] Coffee beans\n- [x] Onions\n- [ ] Buy eggs\n\n## Household");
  });

  it("tasks:complete checks off a unique open task", async () => {
    await h.call("tasks:complete", { path: "Shopping List.md", task: "oat milk" });
    expect(await h.vault.read("Shopping List.md")).toContain("- [x] Oat milk");
  });

  it("tasks:complete picks the exact task over longer ones, and never a checkbox in a code block", async () => {
    const text = "# Calls\n- [ ] Call Mom about the trip\n- [ ] Call Mom\n- [x] Pay rent\n\n```md\n- [ ] Water plants\n```\n- [ ] Water plants on the balcony\n";
    await h.vault.create("Calls.md", text);
    await h.call("tasks:complete", { path: "Calls.md", task: "call mom" });
    expect(await h.vault.read("Calls.md")).toBe(text.replace("- [ ] Call Mom\n", "- [x] Call Mom\n"));
    await h.call("tasks:complete", { path: "Calls", task: "Water plants" });
    const after = await h.vault.read("Calls.md");
    expect(after).toContain("```md\n- [ ] Water plants\n```");
    expect(after).toContain("- [x] Water plants on the balcony");
    await failsWith(h.call("tasks:complete", { path: "Calls.md", task: "pay rent" }), "not_found", /already done/);
  });

  it("tasks:complete takes the line number tasks:list shows, and keeps CRLF line ends", async () => {
    await h.vault.create("Crlf.md", "---\ntags: [x]\n---\n- [ ] Alpha\r\n- [ ] Beta\r\n");
    const listed = await h.call("tasks:list", { path: "Crlf.md" });
    const beta = (listed.data as { tasks: { text: string; line: number }[] }).tasks.find((t) => t.text === "Beta")!;
    expect(listed.content).toContain(`Beta — [[Crlf]] line ${beta.line + 1}`);
    await h.call("tasks:complete", { path: "Crlf.md", line: beta.line + 1 });
    expect(await h.vault.read("Crlf.md")).toBe("---\ntags: [x]\n---\n- [ ] Alpha\r\n- [x] Beta\r\n");
    await failsWith(h.call("tasks:complete", { path: "Crlf.md", line: 1 }), "not_found");
  });

  it("tasks:complete fails clearly on an ambiguous or missing match", async () => {
    await failsWith(h.call("tasks:complete", { path: "Inbox.md", task: "#errand" }), "ambiguous");
    await failsWith(h.call("tasks:complete", { path: "Inbox.md", task: "Order new running shoes" }), "not_found");
  });
});

describe("clock:now", () => {
  it("states the injected date, weekday and week", async () => {
    const r = await h.call("clock:now", {});
    expect(r.content).toContain("Monday, 2026-11-23 09:30");
    expect(r.content).toContain("ISO week 48");
  });
});

describe("memory tools", () => {
  it("memory:save writes a dated, tagged note and memory:recall finds it by words without an index", async () => {
    const p = await h.preview("memory:save", { content: "Maria prefers written summaries before meetings.", title: "Maria prefers summaries", tags: ["work"] });
    expect(p.previewKind).toBe("content");
    await h.call("memory:save", { content: "Maria prefers written summaries before meetings.", title: "Maria prefers summaries", tags: ["work"] });
    const path = "Memory/2026-11-23 Maria prefers summaries.md";
    expect((await h.vault.metadata(path))?.tags).toEqual(["#memory", "#work"]);
    expect((await h.vault.metadata(path))?.frontmatter).toMatchObject({ created: "2026-11-23 09:30" });
    const r = await h.call("memory:recall", { query: "written summaries" });
    expect(r.content).toContain("[[Memory/2026-11-23 Maria prefers summaries]]");
    expect(r.content).toContain("Maria prefers written summaries before meetings.");
    expect(r.content).not.toContain("tags:");
  });

  it("memory:recall only looks in the memory folder", async () => {
    const r = await h.call("memory:recall", { query: "shakshuka" });
    expect(r.empty).toBe(true);
  });
});

describe("web:fetch", () => {
  it("is refused while network tools are off, without touching the network", async () => {
    const seen: string[] = [];
    h.ctx.fetch = (url) => {
      seen.push(url);
      return Promise.reject(new Error("the network must not be used"));
    };
    await failsWith(h.call("web:fetch", { url: "https://example.com/" }), "refused", /^Network tools are off, so web pages cannot be fetched; the user can turn them on in the plugin settings\.$/);
    expect(seen).toEqual([]);
  });

  it("says the app cannot reach the network when network tools are on but no fetch is wired", async () => {
    h.ctx.settings.networkTools = true;
    await failsWith(h.call("web:fetch", { url: "https://example.com/" }), "unavailable", /no way to reach the network/);
  });

  it("returns a page's visible text when network tools are on", async () => {
    h.ctx.settings.networkTools = true;
    const seen: string[] = [];
    h.ctx.fetch = (url) => {
      seen.push(url);
      return Promise.resolve({
        status: 200,
        headers: { get: (n: string) => (n === "content-type" ? "text/html; charset=utf-8" : null) },
        text: () => Promise.resolve("<html><head><title>t</title><script>evil()</script></head><body><h1>Hello</h1><p>World &amp; more</p></body></html>"),
      });
    };
    const r = await h.call("web:fetch", { url: "https://example.com/page" });
    expect(seen).toEqual(["https://example.com/page"]);
    expect(r.content).toContain("Hello\nWorld & more");
    expect(r.content).not.toContain("evil");
  });

  it("refuses non-http addresses", async () => {
    h.ctx.settings.networkTools = true;
    h.ctx.fetch = () => Promise.reject(new Error("should not be called"));
    await failsWith(h.call("web:fetch", { url: "file:///etc/passwd" }), "bad_args");
  });
});
