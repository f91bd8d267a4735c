import { describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import { envelope } from "../agent/scripted-helpers";
import { parseReplayLines, ReplayEngine } from "../../../src/engine/replay";
import { runTaskSuite } from "../../../src/node/eval/tasks/run-suite";
import { runTask } from "../../../src/node/eval/tasks/run-task";
import { defaultSuiteDir, loadTasks, referenceFile } from "../../../src/node/eval/tasks/task-file";

const suiteDir = defaultSuiteDir();
const tasks = loadTasks(suiteDir);
const byId = (id: string) => tasks.find((t) => t.id === id)!;
const reference = (id: string) => parseReplayLines(readFileSync(referenceFile(suiteDir, byId(id)), "utf8"));

describe("reference plans through the real agent, routing and per-round grammar on", () => {
  it("three reference plans solve their tasks end to end: a surgical edit, a move that keeps links, a declined delete", async () => {
    const ids = ["en-t1-inbox-typo", "en-t2-move-dune-keeps-links", "es-t2-borrar-ideas-denegado"];
    const report = await runTaskSuite({ tasks: ids.map(byId), repeat: 1, suiteDir, model: "reference plans" });
    for (const row of report.rows) expect(row, row.why).toMatchObject({ solve_k: true, pass_k: true, replies: reference(row.id).length, valid_replies: reference(row.id).length, outside_scope: [] });
    expect(report).toMatchObject({ tasks: 3, solved: 3, pass_k: 100, solve_k: 100, crashes: 0 });
  });

  it("a plan that edits one line too many fails the vault check that guards that line", async () => {
    const task = byId("en-t1-inbox-typo");
    const wrong = [
      envelope([{ name: "vault:edit", args: { path: "Inbox.md", find: "recieve the signed contract from Beacon's sponsor\n- Book the meeting room for Thursday", replace: "receive the signed contract from Beacon's sponsor\n- Book the meeting room for Friday" } }]),
      envelope([], "Fixed the typo."),
    ];
    const run = await runTask(task, new ReplayEngine(wrong), { suiteDir });
    expect(run.passed).toBe(true); // clean: the change stayed inside the task's scope
    expect(run.solved).toBe(false);
    expect(run.checks.find((c) => c.status === "fail")?.check).toMatch(/^Inbox\.md contains "# Inbox/);
  });

  it("a replayed reply calling a tool the round does not offer is refused, named, and changes nothing", async () => {
    const task = byId("en-t1-inbox-typo");
    const replay = new ReplayEngine([envelope([{ name: "web:fetch", args: { url: "https://example.com/x" } }])]);
    const run = await runTask(task, replay, { suiteDir });
    expect(replay.refusals[0]).toMatchObject({ reply: 1, toolNotOffered: "web:fetch" });
    expect(run.outcome).toBe("failed");
    expect(run.solved).toBe(false);
    expect(run.outside).toEqual([]);
    expect(run.checks.find((c) => c.check === "Office.md unchanged")?.status).toBe("pass");
    expect(run.offered.at(-1)).toContain("vault:edit");
    expect(run.catalog).toContain("vault:edit");
    expect(run.catalog).not.toContain("web:fetch");
  });

  it("with every tool offered, every reference plan solves its task (plans and checks are right; what fails with narrowing is routing)", async () => {
    const report = await runTaskSuite({ tasks, repeat: 1, suiteDir, model: "reference plans", toolSelection: "full" });
    expect(report.rows.filter((r) => !r.solve_k).map((r) => `${r.id}: ${r.why}`)).toEqual([]);
    expect(report.valid_envelope_pct).toBe(100);
  }, 120_000);
});
