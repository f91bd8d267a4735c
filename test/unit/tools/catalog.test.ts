import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { readFile } from "node:fs/promises";
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { createToolCatalog, SEMANTIC_TOOLS } from "../../../src/tools";
import { ToolRegistry } from "../../../src/tools/registry";
import { ToolError } from "../../../src/tools/tool-error";
import { makeHarness, type Harness } from "./tool-harness";

const NAMES = [
  "vault:read", "vault:write", "vault:append", "vault:edit", "vault:list", "vault:search", "vault:semantic_search",
  "vault:move", "vault:delete", "note:active", "note:selection", "note:outline", "tags:list", "tags:notes",
  "links:backlinks", "links:outgoing", "frontmatter:get", "frontmatter:set", "daily:get", "daily:append",
  "tasks:list", "tasks:add", "tasks:complete", "clock:now", "memory:save", "memory:recall", "web:fetch",
  "canvas:read", "canvas:create", "canvas:edit",
  "pdf:read",
  "base:query", "base:read", "base:create", "base:edit",
];

describe("tool catalog", () => {
  const catalog = createToolCatalog();

  it("has exactly the tools the issue names", () => {
    expect(catalog.map((t) => t.name).sort()).toEqual([...NAMES].sort());
  });

  it("gives every tool a description, routing hints and described, bounded args", () => {
    for (const t of catalog) {
      expect(t.description.length, t.name).toBeGreaterThan(30);
      expect(t.routingHints.length, t.name).toBeGreaterThanOrEqual(4);
      expect(t.family).toBe(t.name.split(":")[0]);
      const schema = z.toJSONSchema(t.args, { io: "input" }) as { properties?: Record<string, Record<string, unknown>> };
      for (const [key, prop] of Object.entries(schema.properties ?? {})) {
        expect(typeof prop.description, `${t.name}.${key} needs .describe()`).toBe("string");
        if (prop.type === "string" && !prop.enum) expect(prop.maxLength, `${t.name}.${key} needs maxLength`).toBeGreaterThan(0);
      }
    }
  });

  it("gives every write or destructive tool a preview, and only them", () => {
    for (const t of catalog) expect(!!t.preview, t.name).toBe(t.effect !== "read");
  });

  it("names every path-taking arg in pathArgs", () => {
    for (const t of catalog) {
      for (const key of ["path", "from", "to", "folder"]) {
        if (key in t.args.shape) expect(t.pathArgs ?? [], `${t.name}.${key}`).toContain(key);
      }
    }
  });

  it("drops the semantic tool when there is no embedding model, and web when network is off", () => {
    const names = createToolCatalog({ semantic: false, network: false }).map((t) => t.name);
    for (const n of SEMANTIC_TOOLS) expect(names).not.toContain(n);
    expect(names).not.toContain("web:fetch");
    expect(names).toContain("vault:search");
  });

  it("passes the registry's startup checks", () => {
    const registry = new ToolRegistry(catalog);
    expect(registry.names().length).toBe(NAMES.length);
  });
});

describe("path policy in every path-taking tool", () => {
  let h: Harness;
  beforeEach(async () => {
    h = await makeHarness();
  });
  afterEach(async () => {
    await h.cleanup();
  });

  const minimal: Record<string, Record<string, unknown>> = {
    "vault:write": { content: "x" },
    "vault:append": { content: "x" },
    "vault:edit": { find: "{", replace: "[" },
    "vault:search": { query: "x" },
    "vault:semantic_search": { query: "x" },
    "frontmatter:set": { key: "k", value: "v" },
    "tasks:add": { text: "x" },
    "tasks:complete": { task: "x" },
    "vault:move": { from: "Inbox.md", to: "Moved.md" },
    "canvas:create": { ops: [{ op: "add_text", text: "x" }] },
    "canvas:edit": { ops: [{ op: "add_text", text: "x" }] },
    "base:create": { views: [{ name: "All" }] },
  };
  const bad = [".obsidian/app.json", "../escape.md", ".trash/x.md", "Private/secret.md"];

  for (const tool of createToolCatalog().filter((t) => (t.pathArgs ?? []).length > 0)) {
    it(`${tool.name} refuses the config dir, hidden folders, ".." and excluded folders`, async () => {
      h.ctx.settings.excludedFolders = ["Private"];
      h.ctx.memory = { textSearch: () => Promise.resolve([]), semanticSearch: () => Promise.resolve([]) };
      const before = await readFile(join(h.root, ".obsidian/app.json"), "utf8");
      for (const pathArg of tool.pathArgs ?? []) {
        for (const p of bad) {
          const args = tool.args.parse({ ...minimal[tool.name], [pathArg]: p });
          // Preview and handler each refuse on their own: a host may run the handler without a preview.
          const steps = tool.preview ? [tool.preview.bind(tool), tool.handler.bind(tool)] : [tool.handler.bind(tool)];
          for (const step of steps) {
            const err = await step(args, h.ctx).then(() => null, (e: unknown) => e);
            expect(err, `${tool.name} ${pathArg}=${p}`).toBeInstanceOf(ToolError);
            expect((err as ToolError).code, `${tool.name} ${pathArg}=${p}: ${String(err)}`).toBe("refused");
          }
        }
      }
      expect(await readFile(join(h.root, ".obsidian/app.json"), "utf8")).toBe(before);
    });
  }
});

describe("path policy for paths that come from settings", () => {
  let h: Harness;
  beforeEach(async () => {
    h = await makeHarness();
  });
  afterEach(async () => {
    await h.cleanup();
  });

  const refused = async (name: string, args: Record<string, unknown>) => {
    const err = await h.call(name, args).then(() => null, (e: unknown) => e);
    expect(err, name).toBeInstanceOf(ToolError);
    expect((err as ToolError).code).toBe("refused");
  };

  it("memory:save, daily:append and tasks:add refuse a memory or daily folder that is hidden or excluded", async () => {
    h.ctx.settings.excludedFolders = ["Private"];
    h.ctx.settings.memoryFolder = "Private/Memory";
    await refused("memory:save", { content: "The cabin key is under the mat." });
    h.ctx.settings.memoryFolder = ".obsidian";
    await refused("memory:save", { content: "The cabin key is under the mat." });
    h.ctx.settings.dailyFolder = ".obsidian/plugins";
    await refused("daily:append", { content: "x" });
    await refused("daily:get", {});
    await refused("tasks:add", { text: "x" });
    h.ctx.settings.dailyFolder = "Private";
    await refused("daily:append", { content: "x" });
    expect((await h.vault.list()).map((f) => f.path).filter((p) => p.startsWith("Private/"))).toEqual([]);
    expect(existsSync(join(h.root, ".obsidian/plugins"))).toBe(false);
    expect(readdirSync(join(h.root, ".obsidian")).sort()).toEqual(["app.json", "daily-notes.json"]);
  });
});
