/**
 * The task suite's base:query tasks: each reference plan's base:query call, run on its fixture vault, computes the
 * numbers and names the plan's answer states, so the answers are computed, not written in.
 */
import { describe, expect, it } from "vitest";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parse, stringify } from "yaml";
import { DEFAULT_TOOL_SETTINGS, type ToolContext } from "../../../src/core/protocol/tool";
import { FolderVault } from "../../../src/node/folder-vault/folder-vault";
import { createToolCatalog } from "../../../src/tools";

const tasks = fileURLToPath(new URL("../../../examples/tasks", import.meta.url));
const query = createToolCatalog().find((t) => t.name === "base:query")!;
const ids = readdirSync(join(tasks, "reference")).filter((f) => f.includes("-base-")).map((f) => f.replace(/\.jsonl$/, ""));

interface Envelope {
  message_to_user: string | null;
  tool_calls: { name: string; args: Record<string, unknown> }[];
}

describe("aggregation tasks answered through base:query", () => {
  it("has at least six of them, in several languages", () => {
    expect(ids.length).toBeGreaterThanOrEqual(6);
    expect(new Set(ids.map((id) => id.slice(0, 2))).size).toBeGreaterThanOrEqual(4);
  });

  it.each(ids)("%s: the computed summaries are what the answer says", async (id) => {
    const task = JSON.parse(readFileSync(join(tasks, "suite", `${id}.json`), "utf8")) as { fixture: string };
    const replies = readFileSync(join(tasks, "reference", `${id}.jsonl`), "utf8").trim().split("\n").map((l) => JSON.parse((JSON.parse(l) as { reply: string }).reply) as Envelope);
    const call = replies.flatMap((r) => r.tool_calls).find((c) => c.name === "base:query")!;
    const answer = replies.at(-1)!.message_to_user!;
    const vault = new FolderVault(join(tasks, "fixtures", task.fixture), { watch: false });
    const ctx: ToolContext = { vault, user: { confirm: async () => "approve", notify: () => {} }, yaml: { parse, stringify }, settings: { ...DEFAULT_TOOL_SETTINGS }, now: () => new Date(2026, 2, 1) };
    try {
      const result = await query.handler(query.args.parse(call.args), ctx);
      const summaries = (result.data as { summaries: Record<string, unknown> }).summaries;
      expect(Object.keys(summaries).length).toBeGreaterThan(0);
      for (const value of Object.values(summaries)) {
        const words = Array.isArray(value) ? value.map(String) : [typeof value === "number" ? String(Math.round(value * 100) / 100) : String(value)];
        for (const w of words) expect(answer.replace(/(\d),(\d)/g, "$1.$2")).toContain(w);
      }
    } finally {
      vault.close();
    }
  });
});
