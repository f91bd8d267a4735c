/**
 * The task suite's report: per task k/N solved and passed, pass^k and solve^k (every one of the k runs passed or
 * solved), by tier, category and language, with tokens, rounds, recoveries and time; `--compare` names what got
 * worse against an earlier JSON report.
 */
import { alignedTable, pct } from "../recording-engine";
import type { RunResult } from "./run-task";
import type { Task } from "./task-file";
import { addCauses, groundMisses, noCauses, type CauseCounts } from "./ground-misses";

/** One task over its k runs. */
export interface TaskRow {
  id: string;
  tier: string;
  category: string;
  language: string;
  runs: number;
  solved: number;
  passed: number;
  /** Every run passed (clean). */
  pass_k: boolean;
  /** Every run solved. */
  solve_k: boolean;
  replies: number;
  valid_replies: number;
  outside_scope: string[];
  crashes: number;
  mean_tokens: number;
  mean_rounds: number;
  /** Rounds over all runs. */
  total_rounds: number;
  recoveries: number;
  /** Failed calls by cause over the runs (path, heading, find, key: the call missed the vault; unread; other). */
  failed_calls: CauseCounts;
  /** Rounds spent recovering from a failure, by its cause. */
  recovery_rounds: CauseCounts;
  /** Up to three sentences of calls that missed the vault. */
  miss_examples?: string[];
  /** Up to two sentences of other failed calls. */
  other_examples?: string[];
  median_ms: number;
  prose_skipped: number;
  /** Confirmations the simulated user was asked, and how many it declined (out of scope, or a task testing restraint). */
  confirmations: number;
  declined: number;
  /** Why the last failing run did not solve the task (the first failed check, a crash, a change outside scope). */
  why?: string;
}

/** Rates over a group of tasks. */
export interface GroupRates {
  tasks: number;
  pass_k: number;
  solve_k: number;
  pass_rate: number;
  solve_rate: number;
}

export interface SuiteReport {
  suite: "tasks";
  model: string;
  repeat: number;
  tasks: number;
  /** Tasks solved in all k runs. */
  solved: number;
  /** Tasks passed (clean) in all k runs. */
  passed: number;
  /** Percent of tasks passed in all k runs. */
  pass_k: number;
  /** Percent of tasks solved in all k runs. */
  solve_k: number;
  /** Percent of runs passed / solved. */
  pass_rate: number;
  solve_rate: number;
  valid_envelope_pct: number;
  outside_scope_changes: number;
  crashes: number;
  median_ms: number;
  prose_skipped: number;
  confirmations: number;
  declined: number;
  /** Whether path args, headings, edit text and keys were grounded in the vault (false: --ungrounded). */
  grounded: boolean;
  /** Rounds in all: how many replies the engine gave. */
  rounds: number;
  /** Failed calls by cause, over every run. */
  failed_calls: CauseCounts;
  /** Recovery rounds by cause, over every run. */
  recovery_rounds: CauseCounts;
  /** Recovery rounds caused by a call that missed the vault (path, heading, edit text or key): the goal is 0 grounded. */
  ground_miss_rounds: number;
  by_tier: Record<string, GroupRates>;
  by_category: Record<string, GroupRates>;
  by_language: Record<string, GroupRates>;
  rows: TaskRow[];
}

function median(values: number[]): number {
  if (!values.length) return 0;
  const s = [...values].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m] : Math.round((s[m - 1] + s[m]) / 2);
}

/** Why a run did not solve its task, in a few words. */
export function whyUnsolved(run: RunResult): string | undefined {
  if (run.solved) return undefined;
  if (run.crash) return `crashed: ${run.crash}`;
  if (run.outside.length) return `changed outside its scope: ${run.outside.join(", ")}`;
  if (run.validReplies < run.replies) return `${run.replies - run.validReplies} replies were not valid envelopes`;
  const failed = run.checks.find((c) => c.status === "fail" && c.check === "the turn ended with an answer") ?? run.checks.find((c) => c.status === "fail");
  return failed ? `${failed.check}: ${failed.detail ?? "failed"}` : run.outcome === "aborted" ? "ran past its time limit" : "not clean";
}

/** A reason on one line, short enough for a table cell (check texts can hold whole notes). */
function oneLine(text: string): string {
  const flat = text.replace(/\n/g, "⏎");
  return flat.length > 240 ? `${flat.slice(0, 240)}…` : flat;
}

export function taskRow(task: Task, runs: RunResult[], why?: string): TaskRow {
  const failing = [...runs].reverse().find((r) => !r.solved);
  return {
    id: task.id,
    tier: task.tier,
    category: task.category,
    language: task.language,
    runs: runs.length,
    solved: runs.filter((r) => r.solved).length,
    passed: runs.filter((r) => r.passed).length,
    pass_k: runs.every((r) => r.passed),
    solve_k: runs.every((r) => r.solved),
    replies: runs.reduce((n, r) => n + r.replies, 0),
    valid_replies: runs.reduce((n, r) => n + r.validReplies, 0),
    outside_scope: [...new Set(runs.flatMap((r) => r.outside))],
    crashes: runs.filter((r) => r.crash).length,
    mean_tokens: Math.round(runs.reduce((n, r) => n + r.tokensIn + r.tokensOut, 0) / Math.max(1, runs.length)),
    mean_rounds: Math.round((10 * runs.reduce((n, r) => n + r.rounds, 0)) / Math.max(1, runs.length)) / 10,
    total_rounds: runs.reduce((n, r) => n + r.rounds, 0),
    recoveries: runs.reduce((n, r) => n + r.recoveries, 0),
    failed_calls: runs.reduce((c, r) => addCauses(c, r.misses.calls), noCauses()),
    recovery_rounds: runs.reduce((c, r) => addCauses(c, r.misses.rounds), noCauses()),
    ...(runs.some((r) => r.missExamples.length) ? { miss_examples: runs.flatMap((r) => r.missExamples).slice(0, 3) } : {}),
    ...(runs.some((r) => r.otherExamples.length) ? { other_examples: runs.flatMap((r) => r.otherExamples).slice(0, 2) } : {}),
    median_ms: median(runs.map((r) => r.ms)),
    prose_skipped: runs.reduce((n, r) => n + r.checks.filter((c) => c.status === "skipped").length, 0),
    confirmations: runs.reduce((n, r) => n + r.confirmations.asked, 0),
    declined: runs.reduce((n, r) => n + r.confirmations.denied, 0),
    ...(failing ? { why: oneLine(why ?? whyUnsolved(failing) ?? "") } : {}),
  };
}

function rates(rows: TaskRow[]): GroupRates {
  const runs = rows.reduce((n, r) => n + r.runs, 0);
  return {
    tasks: rows.length,
    pass_k: pct(rows.filter((r) => r.pass_k).length, rows.length),
    solve_k: pct(rows.filter((r) => r.solve_k).length, rows.length),
    pass_rate: pct(rows.reduce((n, r) => n + r.passed, 0), runs),
    solve_rate: pct(rows.reduce((n, r) => n + r.solved, 0), runs),
  };
}

function groupBy(rows: TaskRow[], key: (r: TaskRow) => string): Record<string, GroupRates> {
  const groups = new Map<string, TaskRow[]>();
  for (const r of rows) groups.set(key(r), [...(groups.get(key(r)) ?? []), r]);
  return Object.fromEntries([...groups].sort(([a], [b]) => a.localeCompare(b)).map(([k, rs]) => [k, rates(rs)]));
}

export function suiteReport(model: string, repeat: number, rows: TaskRow[], runMs: number[], grounded = true): SuiteReport {
  const all = rates(rows);
  const recoveryRounds = rows.reduce((c, r) => addCauses(c, r.recovery_rounds), noCauses());
  const replies = rows.reduce((n, r) => n + r.replies, 0);
  return {
    suite: "tasks",
    model,
    repeat,
    tasks: rows.length,
    solved: rows.filter((r) => r.solve_k).length,
    passed: rows.filter((r) => r.pass_k).length,
    pass_k: all.pass_k,
    solve_k: all.solve_k,
    pass_rate: all.pass_rate,
    solve_rate: all.solve_rate,
    valid_envelope_pct: replies ? pct(rows.reduce((n, r) => n + r.valid_replies, 0), replies) : 100,
    outside_scope_changes: rows.reduce((n, r) => n + r.outside_scope.length, 0),
    crashes: rows.reduce((n, r) => n + r.crashes, 0),
    median_ms: median(runMs),
    prose_skipped: rows.reduce((n, r) => n + r.prose_skipped, 0),
    confirmations: rows.reduce((n, r) => n + r.confirmations, 0),
    declined: rows.reduce((n, r) => n + r.declined, 0),
    grounded,
    rounds: rows.reduce((n, r) => n + (r.total_rounds ?? 0), 0),
    failed_calls: rows.reduce((c, r) => addCauses(c, r.failed_calls), noCauses()),
    recovery_rounds: recoveryRounds,
    ground_miss_rounds: groundMisses(recoveryRounds),
    by_tier: groupBy(rows, (r) => r.tier),
    by_category: groupBy(rows, (r) => r.category),
    by_language: groupBy(rows, (r) => r.language),
    rows,
  };
}

/** The report as text: one line per task, then the groups, then the totals. */
export function formatSuite(report: SuiteReport): string {
  const k = report.repeat;
  const taskTable = alignedTable(
    ["task", "tier", "solved", "passed", "tokens", "rounds", "recov", "ms"],
    report.rows.map((r) => [r.id, r.tier, `${r.solved}/${r.runs}`, `${r.passed}/${r.runs}`, String(r.mean_tokens), String(r.mean_rounds), String(r.recoveries), String(r.median_ms)]),
  );
  const unsolved = report.rows.filter((r) => r.why).map((r) => `  ${r.id}: ${r.why}`);
  const group = (title: string, g: Record<string, GroupRates>): string =>
    alignedTable([title, "tasks", `pass^${k} %`, `solve^${k} %`, "pass %", "solve %"], Object.entries(g).map(([name, r]) => [name, String(r.tasks), String(r.pass_k), String(r.solve_k), String(r.pass_rate), String(r.solve_rate)]));
  const totals =
    `${report.tasks} tasks, ${k} run(s) each: pass^${k} ${report.pass_k}% (${report.passed}), solve^${k} ${report.solve_k}% (${report.solved}); ` +
    `runs passed ${report.pass_rate}%, solved ${report.solve_rate}%; valid envelopes ${report.valid_envelope_pct}%; ` +
    `changes outside scope ${report.outside_scope_changes}; confirmations ${report.confirmations} (${report.declined} declined); crashes ${report.crashes}; median ${report.median_ms} ms per run` +
    (report.prose_skipped ? `; ${report.prose_skipped} prose checks skipped (no --judge-model), not counted as passed` : "") +
    `\n${report.grounded ? "grounded" : "ungrounded (--ungrounded)"} grammar: recovery rounds caused by a call that missed the vault ${report.ground_miss_rounds} ` +
    `(${causeText(report.recovery_rounds)}); failed calls ${causeText(report.failed_calls)}`;
  return [taskTable, ...(unsolved.length ? ["", "Not solved in every run:", ...unsolved] : []), "", group("tier", report.by_tier), "", group("category", report.by_category), "", group("language", report.by_language), "", totals].join("\n");
}

function causeText(c: CauseCounts): string {
  return `path ${c.path}, heading ${c.heading}, edit text ${c.find}, key ${c.key}, edit before read ${c.unread}, free path refused ${c.free}, other ${c.other}`;
}

/** What got worse against a baseline report: tasks that lost pass^k or solve^k, and lower totals. */
export function compareReports(baseline: SuiteReport, now: SuiteReport): string[] {
  const lines: string[] = [];
  const before = new Map(baseline.rows.map((r) => [r.id, r]));
  for (const row of now.rows) {
    const was = before.get(row.id);
    if (!was) continue;
    if (was.solve_k && !row.solve_k) lines.push(`${row.id}: no longer solved in every run (${row.solved}/${row.runs}; ${row.why ?? ""})`);
    if (was.pass_k && !row.pass_k) lines.push(`${row.id}: no longer clean in every run (${row.passed}/${row.runs})`);
  }
  for (const key of ["pass_k", "solve_k", "pass_rate", "solve_rate", "valid_envelope_pct"] as const) {
    if (now[key] < baseline[key]) lines.push(`${key}: ${baseline[key]}% -> ${now[key]}%`);
  }
  if (now.outside_scope_changes > baseline.outside_scope_changes) lines.push(`changes outside scope: ${baseline.outside_scope_changes} -> ${now.outside_scope_changes}`);
  if (now.crashes > baseline.crashes) lines.push(`crashes: ${baseline.crashes} -> ${now.crashes}`);
  return lines;
}
