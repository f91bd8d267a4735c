/** A change that stays in the conversation (memory:save staging a fact) passes the gatekeeper without a question. */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { Gatekeeper } from "../../../src/core/gatekeeper/gatekeeper";
import type { ConfirmRequest } from "../../../src/core/ports/user";
import { DEFAULT_TOOL_SETTINGS, type ToolContext } from "../../../src/core/protocol/tool";
import { FolderVault } from "../../../src/node/folder-vault/folder-vault";
import { ToolRegistry } from "../../../src/tools/registry";
import { memoryTools, stagedMemoryTools } from "../../../src/tools/memory";

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function gatekeeperFor(tools: typeof memoryTools) {
  const dir = mkdtempSync(join(tmpdir(), "gk-staged-"));
  dirs.push(dir);
  const asked: ConfirmRequest[] = [];
  const ctx: ToolContext = { vault: new FolderVault(dir, { watch: false }), user: { confirm: async (r) => (asked.push(r), "deny"), notify: () => {} }, settings: DEFAULT_TOOL_SETTINGS, now: () => new Date() };
  return { gk: new Gatekeeper(new ToolRegistry(tools), ctx), ctx, asked };
}

const call = { name: "memory:save", args: { content: "The boiler is serviced in May." } };
const policy = (writes: "confirm" | "refuse") => ({ writes, writesOffHint: "turn writes on.", alwaysAllowed: new Set<string>() });

describe("conversation-only changes", () => {
  it("staging memory:save is neither confirmed nor refused when writes are off", async () => {
    const { gk, ctx, asked } = gatekeeperFor(stagedMemoryTools);
    const checked = gk.check(call, { state: "Task", offered: new Set(["memory:save"]) });
    await expect(gk.authorize(checked, ctx, policy("refuse"))).resolves.toBeUndefined();
    await expect(gk.authorize(checked, ctx, policy("confirm"))).resolves.toBeUndefined();
    expect(asked).toEqual([]);
  });

  it("the writing memory:save still asks first, and is refused with writes off", async () => {
    const { gk, ctx, asked } = gatekeeperFor(memoryTools);
    const checked = gk.check(call, { state: "Task", offered: new Set(["memory:save"]) });
    await expect(gk.authorize(checked, ctx, policy("refuse"))).rejects.toMatchObject({ code: "write_not_permitted" });
    await expect(gk.authorize(checked, ctx, policy("confirm"))).rejects.toMatchObject({ code: "denied_by_user" });
    expect(asked.map((r) => r.tool)).toEqual(["memory:save"]);
  });

  it("staging is still a change to the router's eyes and to the Reflect state", () => {
    const { gk } = gatekeeperFor(stagedMemoryTools);
    expect(stagedMemoryTools[0]).toMatchObject({ effect: "write", conversationOnly: true });
    expect(() => gk.check(call, { state: "Reflect", offered: new Set(["memory:save"]) })).toThrow(/only read tools run while reflecting/);
  });
});
