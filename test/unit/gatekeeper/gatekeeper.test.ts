import { mkdtempSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { Gatekeeper, ToolRefusal } from "../../../src/core/gatekeeper/gatekeeper";
import type { ConfirmRequest, UserPort } from "../../../src/core/ports/user";
import { DEFAULT_TOOL_SETTINGS, type ToolContext } from "../../../src/core/protocol/tool";
import { FolderVault } from "../../../src/node/folder-vault/folder-vault";
import { ToolRegistry } from "../../../src/tools/registry";
import { localTools } from "../agent/local-tools";

function refusal(fn: () => unknown): ToolRefusal {
  try {
    fn();
  } catch (err) {
    if (err instanceof ToolRefusal) return err;
    throw err;
  }
  throw new Error("expected a refusal");
}

describe("gatekeeper", () => {
  let ctx: ToolContext;
  let gk: Gatekeeper;
  let asked: ConfirmRequest[];
  let answer: "approve" | "deny" | "always";
  const registry = new ToolRegistry(localTools);
  const offered = new Set(["notes:read", "notes:append", "math:count"]);

  beforeEach(() => {
    const dir = mkdtempSync(join(tmpdir(), "gk-"));
    mkdirSync(join(dir, ".obsidian"));
    writeFileSync(join(dir, "Inbox.md"), "first\n");
    asked = [];
    answer = "approve";
    const user: UserPort = { confirm: async (r) => (asked.push(r), answer), notify: () => {} };
    ctx = {
      vault: new FolderVault(dir, { watch: false }),
      user,
      settings: { ...DEFAULT_TOOL_SETTINGS, excludedFolders: ["Private"] },
      now: () => new Date(),
    };
    gk = new Gatekeeper(registry, ctx);
  });

  it("repairs an alias, validates with ajv and normalizes the path", () => {
    const c = gk.check({ name: "notes:read", args: { file: "Projects\\Alpha.md" } }, { state: "Task", offered });
    expect(c.args).toEqual({ path: "Projects/Alpha.md" });
    expect(c.renamed).toEqual([{ from: "file", to: "path" }]);
  });

  it("fills zod defaults the model left out", () => {
    expect(gk.check({ name: "math:count", args: { from: 1, to: 3 } }, { state: "Task", offered }).args).toEqual({ from: 1, to: 3, step: 1 });
  });

  it("refuses arguments that break the schema with a sentence naming the problem", () => {
    const r = refusal(() => gk.check({ name: "math:count", args: { from: 1, to: 99 } }, { state: "Task", offered }));
    expect(r.code).toBe("invalid_args");
    expect(r.message).toMatch(/"to" must be <= 10/);
    expect(r.malformed).toBe(true);
  });

  it("refuses unknown keys that no alias explains", () => {
    const r = refusal(() => gk.check({ name: "notes:read", args: { path: "a.md", colour: "red" } }, { state: "Task", offered }));
    expect(r.message).toMatch(/unknown key "colour"/);
  });

  it("refuses an empty required field", () => {
    const r = refusal(() => gk.check({ name: "notes:read", args: { path: "  " } }, { state: "Task", offered }));
    expect(r.code).toBe("empty_required");
    expect(r.message).toMatch(/non-empty "path"/);
  });

  it("refuses tools that do not exist or were not offered", () => {
    expect(refusal(() => gk.check({ name: "notes:burn", args: {} }, { state: "Task", offered })).code).toBe("unknown_tool");
    expect(refusal(() => gk.check({ name: "math:count", args: { from: 1, to: 2 } }, { state: "Task", offered: new Set(["notes:read"]) })).code).toBe("not_offered");
  });

  it("applies the state allowlists", () => {
    const write = { name: "notes:append", args: { path: "Inbox.md", line: "x" } };
    expect(refusal(() => gk.check(write, { state: "Reflect", offered })).code).toBe("not_allowed_in_state");
    expect(gk.check({ name: "notes:read", args: { path: "Inbox.md" } }, { state: "Reflect", offered }).args.path).toBe("Inbox.md");
    expect(refusal(() => gk.check({ name: "notes:read", args: { path: "Inbox.md" } }, { state: "Idle", offered })).code).toBe("not_allowed_in_state");
    expect(refusal(() => gk.check(write, { state: "Recover", offered, targets: new Set(["notes:read"]) })).code).toBe("not_allowed_in_state");
    expect(gk.check(write, { state: "Recover", offered, targets: new Set(["notes:append"]) }).args.line).toBe("x");
  });

  it("makes a state refusal a correction the recovery loop acts on, while policy refusals stay answers", () => {
    const idle = refusal(() => gk.check({ name: "notes:read", args: { path: "Inbox.md" } }, { state: "Idle", offered }));
    expect(idle.malformed).toBe(true);
    expect(idle.message).toMatch(/use status "Task" to call one/);
    const escape = refusal(() => gk.check({ name: "notes:read", args: { path: "../x.md" } }, { state: "Task", offered }));
    expect(escape.malformed).toBe(false);
    expect(new ToolRefusal("write_not_permitted", "off", "notes:append").malformed).toBe(false);
    expect(new ToolRefusal("denied_by_user", "no", "notes:append").malformed).toBe(false);
  });

  it("refuses path escapes, the config folder and excluded folders", () => {
    for (const path of ["../outside.md", "/etc/passwd", ".obsidian/app.json", "Private/diary.md"]) {
      expect(refusal(() => gk.check({ name: "notes:read", args: { path } }, { state: "Task", offered })).code, path).toBe("path_refused");
    }
  });

  it("refuses writes when writes are off, with the hint, without asking", async () => {
    const c = gk.check({ name: "notes:append", args: { path: "Inbox.md", line: "x" } }, { state: "Task", offered });
    await expect(gk.authorize(c, ctx, { writes: "refuse", writesOffHint: "rerun with --allow-writes.", alwaysAllowed: new Set() })).rejects.toThrow(
      /writes are off: rerun with --allow-writes/,
    );
    expect(asked).toHaveLength(0);
  });

  it("asks with the tool's preview; deny refuses, always remembers", async () => {
    const c = gk.check({ name: "notes:append", args: { path: "Inbox.md", line: "x" } }, { state: "Task", offered });
    const always = new Set<string>();
    answer = "deny";
    await expect(gk.authorize(c, ctx, { writes: "confirm", writesOffHint: "", alwaysAllowed: always })).rejects.toMatchObject({ code: "denied_by_user" });
    expect(asked[0]).toMatchObject({ tool: "notes:append", summary: "Append 1 line to Inbox.md", previewKind: "diff" });
    answer = "always";
    await gk.authorize(c, ctx, { writes: "confirm", writesOffHint: "", alwaysAllowed: always });
    await gk.authorize(c, ctx, { writes: "confirm", writesOffHint: "", alwaysAllowed: always });
    expect(asked).toHaveLength(2);
    expect(always.has("notes:append")).toBe(true);
    expect(readFileSync(join((ctx.vault as FolderVault).root, "Inbox.md"), "utf8")).toBe("first\n");
  });

  it("lets reads through without asking", async () => {
    const c = gk.check({ name: "notes:read", args: { path: "Inbox.md" } }, { state: "Task", offered });
    await gk.authorize(c, ctx, { writes: "refuse", writesOffHint: "", alwaysAllowed: new Set() });
    expect(asked).toHaveLength(0);
  });
});
