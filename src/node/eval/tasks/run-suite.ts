/**
 * Runs the task suite: every task k times on a model's engine, or once per run on the replay of its reference plan
 * (routing and per-round grammar narrowing on, exactly as for a model). A progress line per task goes to `log`.
 */
import { existsSync, readFileSync } from "node:fs";
import type { Engine } from "../../../core/ports/engine";
import { parseReplayLines, ReplayEngine } from "../../../engine/replay";
import { suiteReport, taskRow, type SuiteReport } from "./report";
import { runTask, type RunResult, type RunSettings } from "./run-task";
import { referenceFile, type Task } from "./task-file";

export interface SuiteOptions extends RunSettings {
  tasks: Task[];
  repeat: number;
  /** The model's engine; absent = each task's reference plan is replayed. */
  engine?: Engine;
  /** Shown in the report. */
  model: string;
  log?: (line: string) => void;
}

/** Why a reference plan did not solve its task: a tool not offered in a round, a plan too short, or a check. */
function referenceWhy(replay: ReplayEngine, run: RunResult): string | undefined {
  if (run.solved) return undefined;
  const refusal = replay.refusals[0];
  const offered = run.offered.at(-1);
  if (refusal?.toolNotOffered && !run.catalog.includes(refusal.toolNotOffered)) return `tool missing: ${refusal.toolNotOffered} is not in the catalog (reply ${refusal.reply})`;
  if (refusal?.toolNotOffered) return `tool not offered: ${refusal.reason} (offered: ${offered?.length ? offered.join(", ") : "none, chat only"})`;
  if (refusal) return `plan refused: ${refusal.reason}`;
  if (replay.ranOut) return `plan too short: the agent asked for reply ${replay.served + 1} (a tool call was refused or a round more was needed: ${run.errors[0] ?? run.outcome})`;
  const failed = run.checks.find((c) => c.status === "fail");
  if (failed) return `check failed: ${failed.check}: ${failed.detail ?? ""}${replay.remaining ? ` (${replay.remaining} replies unused)` : ""}`;
  if (run.outside.length) return `check wrong or plan wrong: changed outside scope ${run.outside.join(", ")}`;
  return run.crash ? `crashed: ${run.crash}` : undefined;
}

export async function runTaskSuite(options: SuiteOptions): Promise<SuiteReport> {
  const rows = [];
  const runMs: number[] = [];
  for (const task of options.tasks) {
    const runs: RunResult[] = [];
    let why: string | undefined;
    for (let i = 0; i < options.repeat; i++) {
      let engine = options.engine;
      let replay: ReplayEngine | undefined;
      if (!engine) {
        const file = referenceFile(options.suiteDir, task);
        replay = new ReplayEngine(existsSync(file) ? parseReplayLines(readFileSync(file, "utf8"), file) : []);
        if (!existsSync(file)) why = "no reference plan";
        engine = replay;
      }
      const run = await runTask(task, engine, { ...options, seed: options.seed !== undefined ? options.seed + i : undefined });
      if (replay && !why) why = referenceWhy(replay, run);
      runs.push(run);
      runMs.push(run.ms);
    }
    const row = taskRow(task, runs, why);
    rows.push(row);
    options.log?.(`[task] ${task.id}: solved ${row.solved}/${row.runs}, passed ${row.passed}/${row.runs}, ${row.median_ms} ms${row.why ? ` — ${row.why}` : ""}`);
  }
  return suiteReport(options.model, options.repeat, rows, runMs, options.grounding !== false);
}
