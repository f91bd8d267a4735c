import { describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import { envelope } from "../agent/scripted-helpers";
import { ScriptedEngine } from "../../../src/engine/scripted";
import { parseReplayLines, ReplayEngine } from "../../../src/engine/replay";
import { runTask } from "../../../src/node/eval/tasks/run-task";
import { defaultSuiteDir, loadTasks, referenceFile } from "../../../src/node/eval/tasks/task-file";

const suiteDir = defaultSuiteDir();
// Every tool offered: these tests are about the harness's verdicts, not about what the router offers.
const settings = { suiteDir, toolSelection: "full" as const };
const tasks = loadTasks(suiteDir);
const byId = (id: string) => tasks.find((t) => t.id === id)!;
const plan = (id: string) => new ReplayEngine(parseReplayLines(readFileSync(referenceFile(suiteDir, byId(id)), "utf8")));
const failed = (run: Awaited<ReturnType<typeof runTask>>) => run.checks.filter((c) => c.status === "fail").map((c) => c.check);

describe("a run's budget, round cap, time limit and tool lists can each fail it", () => {
  it("the reference solves its task as written", async () => {
    const run = await runTask(byId("en-t1-inbox-typo"), plan("en-t1-inbox-typo"), settings);
    expect(failed(run)).toEqual([]);
    expect(run.solved).toBe(true);
  });

  it("more tool calls than the budget fail the run", async () => {
    const run = await runTask({ ...byId("en-t1-inbox-typo"), max_tool_calls: 0 }, plan("en-t1-inbox-typo"), settings);
    expect(failed(run)).toEqual(["at most 0 tool calls"]);
    expect(run).toMatchObject({ passed: true, solved: false });
  });

  it("a plan longer than the round cap ends at the cap and fails", async () => {
    const run = await runTask({ ...byId("en-t2-changelog-unreleased"), max_rounds: 1 }, plan("en-t2-changelog-unreleased"), settings);
    expect(run.outcome).toBe("round-cap");
    expect(failed(run)).toContain("the turn ended with an answer");
    expect(run.solved).toBe(false);
  });

  it("a run past its time limit is stopped and neither passes nor solves", async () => {
    const slow = new ScriptedEngine([envelope([], "x".repeat(400))], { chunkChars: 4, chunkDelayMs: 20 });
    const run = await runTask({ ...byId("en-t1-birthday-context"), time_limit_s: 0.3 }, slow, settings);
    expect(run.outcome).toBe("aborted");
    expect(run).toMatchObject({ passed: false, solved: false });
  });

  it("a forbidden tool that runs fails the pass; an expected tool that never ran fails the solve", async () => {
    const task = byId("en-t1-delete-old-draft");
    const wrong = new ReplayEngine([envelope([{ name: "vault:move", args: { from: "Notes/Old draft.md", to: "Notes/Older draft.md" } }]), envelope([], "Done.")]);
    const run = await runTask({ ...task, scope: ["Notes/"] }, wrong, settings);
    expect(run.passed).toBe(false);
    expect(failed(run)).toEqual(expect.arrayContaining(["vault:delete ran", "vault:move not called"]));
    expect(run.checks.find((c) => c.check === "vault:move not called")?.detail).toBe("it ran");
  });

  it("an out-of-scope write is declined by the simulated user, so the vault outside the scope stays as it was", async () => {
    const task = byId("en-t1-inbox-typo");
    const noisy = new ReplayEngine([envelope([{ name: "vault:write", args: { path: "Office.md", content: "noise" } }]), envelope([], "Done.")]);
    const run = await runTask(task, noisy, settings);
    expect(run.confirmations).toEqual({ asked: 1, denied: 1 });
    expect(run.outside).toEqual([]);
    expect(run.checks.find((c) => c.check === "Office.md unchanged")?.status).toBe("pass");
    expect(run.passed).toBe(true);
    expect(run.solved).toBe(false);
  });
});
