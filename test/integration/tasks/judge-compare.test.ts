import { describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import { ScriptedEngine } from "../../../src/engine/scripted";
import { parseReplayLines, ReplayEngine } from "../../../src/engine/replay";
import { engineJudge } from "../../../src/node/eval/tasks/judge";
import { compareReports, formatSuite } from "../../../src/node/eval/tasks/report";
import { runTaskSuite } from "../../../src/node/eval/tasks/run-suite";
import { runTask } from "../../../src/node/eval/tasks/run-task";
import { defaultSuiteDir, loadTasks, referenceFile } from "../../../src/node/eval/tasks/task-file";

const suiteDir = defaultSuiteDir();
const tasks = loadTasks(suiteDir);
const overview = tasks.find((t) => t.id === "it-t3-sintesi-riunioni")!;
const plan = () => new ReplayEngine(parseReplayLines(readFileSync(referenceFile(suiteDir, overview), "utf8")));

describe("prose checks and --compare", () => {
  it("a prose check is skipped without a judge (never a pass), passes or fails on the judge's word", async () => {
    const settings = { suiteDir, toolSelection: "full" as const };
    const prose = (run: Awaited<ReturnType<typeof runTask>>) => run.checks.find((c) => c.check.startsWith("prose:"));
    const unjudged = await runTask(overview, plan(), settings);
    expect(prose(unjudged)).toMatchObject({ status: "skipped", detail: "no --judge-model given" });
    const yes = new ScriptedEngine(["yes"]);
    const judgedYes = await runTask(overview, plan(), { ...settings, judge: engineJudge(yes) });
    expect(prose(judgedYes)?.status).toBe("pass");
    expect(judgedYes.solved).toBe(true);
    expect(yes.requests[0].messages[1].content).toContain("moved from 2 April to 9 April");
    const judgedNo = await runTask(overview, plan(), { ...settings, judge: engineJudge(new ScriptedEngine(["no"])) });
    expect(prose(judgedNo)).toMatchObject({ status: "fail", detail: "the judge said no" });
    expect(judgedNo.solved).toBe(false);
  });

  it("--compare names each task that lost solve^k: routed references against the full-catalog baseline", async () => {
    const some = tasks.filter((t) => t.id.startsWith("it-t3-"));
    const baseline = await runTaskSuite({ tasks: some, repeat: 1, suiteDir, model: "reference plans", toolSelection: "full" });
    const routed = await runTaskSuite({ tasks: some, repeat: 1, suiteDir, model: "reference plans" });
    const lost = routed.rows.filter((r) => !r.solve_k).map((r) => r.id);
    const worse = compareReports(baseline, routed);
    for (const id of lost) expect(worse.some((l) => l.startsWith(`${id}: no longer solved`))).toBe(true);
    expect(worse.some((l) => l.startsWith("solve_k:"))).toBe(lost.length > 0);
    expect(compareReports(baseline, baseline)).toEqual([]);
    expect(formatSuite(routed)).toMatch(/tier\s+tasks\s+pass\^1 %\s+solve\^1 %/);
  });
});
