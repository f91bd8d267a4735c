/**
 * The base tools through the registry and the gatekeeper's checks on a FolderVault over the task suite's studio
 * vault: aggregation answered by computation, a base created and edited as valid YAML, refusals in one sentence.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { cp, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parse, stringify } from "yaml";
import { Gatekeeper } from "../../../src/core/gatekeeper/gatekeeper";
import { DEFAULT_TOOL_SETTINGS, type ToolContext, type ToolResult } from "../../../src/core/protocol/tool";
import { FolderVault } from "../../../src/node/folder-vault/folder-vault";
import { createToolCatalog } from "../../../src/tools";
import { ToolRegistry } from "../../../src/tools/registry";
import { parseBaseText } from "../../../src/core/bases";

const studio = fileURLToPath(new URL("../../../examples/tasks/fixtures/studio-en", import.meta.url));
const registry = new ToolRegistry(createToolCatalog());
const yaml = { parse, stringify };
let root = "";
let ctx: ToolContext;
let gk: Gatekeeper;

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), "base-tools-"));
  await cp(studio, root, { recursive: true });
  ctx = { vault: new FolderVault(root, { watch: false }), user: { confirm: async () => "approve", notify: () => {} }, yaml, settings: { ...DEFAULT_TOOL_SETTINGS }, now: () => new Date(2026, 2, 1) };
  gk = new Gatekeeper(registry, ctx);
});
afterEach(async () => {
  (ctx.vault as FolderVault).close();
  await rm(root, { recursive: true, force: true });
});

/** Checks the call as the gatekeeper does (aliases, schema, paths), then runs the handler. */
async function call(name: string, args: Record<string, unknown>): Promise<ToolResult> {
  const checked = gk.check({ name, args }, { state: "Task", offered: new Set([name]) });
  return checked.tool.definition.handler(checked.args, ctx);
}

describe("base:query", () => {
  it("adds up the budgets of the projects Maya Chen owns (4000 + 6000), computed", async () => {
    const r = await call("base:query", { folder: "Projects", filters: ['owner == "Maya Chen"'], summaries: [{ property: "budget", summary: "Sum" }] });
    expect(r.content).toContain("2 files match");
    expect(r.content).toContain("Sum of budget = 10000");
    expect((r.data as { summaries: Record<string, number> }).summaries).toEqual({ "Sum of budget": 10000 });
  });

  it("counts, averages and lists distinct values; an alias key (where) is repaired", async () => {
    const r = await call("base:query", { folder: "Projects", where: ['status == "active"'], summaries: [{ property: "hours", summary: "Average" }, { property: "owner", summary: "Distinct" }, { property: "budget", summary: "Count" }] });
    expect(r.data).toMatchObject({ matched: 3, summaries: { "Average of hours": (12 + 7.5 + 20) / 3, "Distinct of owner": ["Maya Chen", "Tom Reyes"], "Count of budget": 3 } });
  });

  it("groups by a property with a summary per group, and sorts and limits", async () => {
    const g = await call("base:query", { folder: "Projects", group_by: "status", summaries: [{ property: "budget", summary: "Sum" }] });
    expect((g.data as { groups: unknown[] }).groups).toEqual([
      { key: "active", count: 3, summaries: { "Sum of budget": 12500 } },
      { key: "paused", count: 1, summaries: { "Sum of budget": 1000 } },
    ]);
    const s = await call("base:query", { folder: "Projects", sort: [{ property: "budget", direction: "DESC" }], limit: 2, properties: ["budget"] });
    expect((s.data as { rows: { path: string }[] }).rows.map((r) => r.path)).toEqual(["Projects/Cobalt.md", "Projects/Atlas.md"]);
    expect(s.content).toContain("4 files match");
    expect(s.content).toContain("the first 2 are shown");
    // Without a .base file, a limit shortens the rows shown, never a total.
    const t = await call("base:query", { folder: "Projects", limit: 1, summaries: [{ property: "budget", summary: "Sum" }] });
    expect(t.data).toMatchObject({ matched: 4, summaries: { "Sum of budget": 13500 } });
  });

  it("runs a .base file's named view", async () => {
    await writeFile(join(root, "Active.base"), 'filters: file.inFolder("Projects")\nviews:\n  - type: table\n    name: Paused\n    filters: status == "paused"\n    order: [file.name, budget]\n');
    const r = await call("base:query", { path: "Active.base", view: "Paused" });
    expect(r.data).toMatchObject({ matched: 1, rows: [{ path: "Projects/Dune.md", values: { budget: 1000 } }] });
  });

  it("refuses a filter that is not Bases syntax, and an unsupported function, in one sentence", async () => {
    await expect(call("base:query", { filters: ['status = "x"'] })).rejects.toThrow(/is not a valid Bases expression: "=" at character 8/);
    await expect(call("base:query", { filters: ['icon("x") == 1'] })).rejects.toThrow("The Bases function icon() is not supported here");
    await expect(call("base:query", { path: "Missing.base" })).rejects.toThrow(/Missing\.base/);
  });

  it("refuses without a YAML parser when a base file is named", async () => {
    await writeFile(join(root, "A.base"), "views: []\n");
    ctx.yaml = undefined;
    await expect(call("base:query", { path: "A.base" })).rejects.toThrow("Bases need a YAML parser, which this host did not provide.");
  });
});

describe("base:create, base:edit and base:read", () => {
  it("creates a base whose YAML parses back, previews it, edits a view and a formula, and reads it in words", async () => {
    const create = registry.get("base:create")!.definition;
    const args = { path: "Bases/Projects", filters: ['file.inFolder("Projects")'], formulas: [{ name: "rate", expression: "budget / hours" }], views: [{ name: "Active", filters: ['status == "active"'], order: ["file.name", "budget", "formula.rate"], sort: [{ property: "budget", direction: "DESC" as const }], summaries: [{ property: "budget", summary: "Sum" as const }] }] };
    const preview = await create.preview!(create.args.parse(args), ctx);
    expect(preview.summary).toMatch(/^Create Bases\/Projects\.base/);
    await call("base:create", args);
    const text = await readFile(join(root, "Bases/Projects.base"), "utf8");
    const back = parseBaseText(text, yaml);
    expect(back.ok && back.base.views[0]).toMatchObject({ name: "Active", sort: [{ property: "budget", direction: "DESC" }], summaries: { budget: "Sum" } });
    expect((await call("base:query", { path: "Bases/Projects.base" })).content).toContain("Sum of budget = 12500");

    await call("base:edit", { path: "Bases/Projects.base", formulas: [{ name: "rate", expression: "" }, { name: "k", expression: "budget / 1000" }], views: [{ name: "By owner", group_by: { property: "owner" } }] });
    const edited = parseBaseText(await readFile(join(root, "Bases/Projects.base"), "utf8"), yaml);
    expect(edited.ok && Object.keys(edited.base.formulas)).toEqual(["k"]);
    expect(edited.ok && edited.base.views.map((v) => v.name)).toEqual(["Active", "By owner"]);
    const read = await call("base:read", { path: "Bases/Projects.base" });
    expect(read.content).toContain('Filters for every view: all of (file.inFolder("Projects")).');
    expect(read.content).toContain('2. table "By owner"; grouped by owner ascending');
  });

  it("refuses an edit that would leave an invalid base, and a view that is not there; the file is unchanged", async () => {
    await call("base:create", { path: "B.base", views: [{ name: "All" }] });
    const before = await readFile(join(root, "B.base"), "utf8");
    await expect(call("base:edit", { path: "B.base", filters: ["budget >"] })).rejects.toThrow(/That would not be a valid base \(filters\.and\[0\]/);
    await expect(call("base:edit", { path: "B.base", remove_views: ["Nope"] })).rejects.toThrow('B.base has no view "Nope"; its views are "All".');
    expect(await readFile(join(root, "B.base"), "utf8")).toBe(before);
  });

  it("refuses to create over an existing base and to treat a note as a base", async () => {
    await call("base:create", { path: "C.base", views: [{ name: "All" }] });
    await expect(call("base:create", { path: "C.base", views: [{ name: "All" }] })).rejects.toThrow();
    await expect(call("base:read", { path: "Home.md" })).rejects.toThrow('"Home.md" is not a .base file');
  });
});

describe("grounding of .base paths", () => {
  it("admits the vault's .base files for base:read, base:edit and base:query's path, and nothing else; base:create's path stays free", async () => {
    const { GbnfRecognizer, SubsetCache } = await import("../../../src/core/grammar");
    const { VaultPathIndex } = await import("../../../src/core/grammar/vault-paths");
    const index = new VaultPathIndex();
    index.load(["Bases/Projects.base", "Projects/Atlas.md"]);
    const cache = new SubsetCache(registry.grammarTools());
    cache.setVaultPaths(index);
    const envelope = (name: string, args: object) => JSON.stringify({ thought: "", status: "Task", message_to_user: null, tool_calls: [{ name, args }] });
    const r = new GbnfRecognizer(cache.get(["base:read", "base:edit", "base:query", "base:create"], "dynamic").gbnf);
    for (const name of ["base:read", "base:edit", "base:query"]) {
      expect(r.accepts(envelope(name, { path: "Bases/Projects.base" })), name).toBe(true);
      expect(r.accepts(envelope(name, { path: "Bases/Other.base" })), name).toBe(false);
    }
    expect(r.accepts(envelope("base:create", { path: "Bases/New.base", views: [{ name: "All" }] }))).toBe(true);
  });
});
