import { cpSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { envelope } from "../agent/scripted-helpers";
import { runTaskSuite } from "../../../src/node/eval/tasks/run-suite";
import { defaultSuiteDir, loadTasks } from "../../../src/node/eval/tasks/task-file";

// A copy of the suite whose reference plans this test rewrites.
const suiteDir = mkdtempSync(join(tmpdir(), "suite-"));
cpSync(defaultSuiteDir(), suiteDir, { recursive: true });
afterAll(() => rmSync(suiteDir, { recursive: true, force: true }));
const task = loadTasks(suiteDir).find((t) => t.id === "en-t1-inbox-typo")!;
const setPlan = (replies: string[]) => writeFileSync(join(suiteDir, "reference", `${task.id}.jsonl`), replies.map((reply) => JSON.stringify({ reply })).join("\n") + "\n");
const why = async () => (await runTaskSuite({ tasks: [task], repeat: 1, suiteDir, model: "reference plans" })).rows[0].why;

describe("a reference plan that cannot solve its task says why", () => {
  it("a tool that is not in the catalog at all is a missing tool", async () => {
    setPlan([envelope([{ name: "web:fetch", args: { url: "https://example.com/" } }]), envelope([], "Done.")]);
    expect(await why()).toBe("tool missing: web:fetch is not in the catalog (reply 1)");
  });

  it("a catalog tool the round did not offer is named with what was offered", async () => {
    setPlan([envelope([{ name: "memory:recall", args: { query: "typo" } }]), envelope([], "Done.")]);
    expect(await why()).toMatch(/^tool not offered: Replayed reply 1 calls memory:recall, .* \(offered: .*vault:edit.*\)$/);
  });

  it("a plan that ends before the agent does is too short", async () => {
    setPlan([envelope([{ name: "vault:edit", args: { path: "Inbox.md", find: "recieve", replace: "receive" } }])]);
    expect(await why()).toMatch(/^plan too short: the agent asked for reply 2/);
  });

  it("a plan whose result a check rejects names the check", async () => {
    setPlan([envelope([{ name: "vault:edit", args: { path: "Inbox.md", find: "recieve", replace: "recieve " } }]), envelope([], "Fixed.")]);
    expect(await why()).toMatch(/^check failed: Inbox\.md contains "# Inbox/);
  });

  it("a missing plan file is named", async () => {
    rmSync(join(suiteDir, "reference", `${task.id}.jsonl`));
    expect(await why()).toBe("no reference plan");
  });
});
