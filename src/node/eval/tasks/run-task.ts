/**
 * One run of one task: the fixture copied into a fresh temporary vault, the real agent built by the one assembly
 * (src/app through composeHeadless), the message sent with its context notes attached, a simulated user answering
 * confirmations, then the answer and the vault scored. A run is *clean* (passed) when nothing crashed, every reply
 * was a valid envelope, nothing outside the task's scope changed, no forbidden tool ran and it ended in time; it is
 * *solved* when it is clean and every check holds.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { AgentEvent } from "../../../core/agent/events";
import type { GrammarOptions } from "../../../core/grammar";
import type { Engine } from "../../../core/ports/engine";
import type { ConfirmRequest, UserPort } from "../../../core/ports/user";
import type { ClampOptions } from "../../../app/clamp-schema";
import { composeHeadless } from "../../compose";
import { RecordingEngine } from "../recording-engine";
import { changedPaths, checkAnswer, checkVault, outsideScope, snapshotFolder, type CheckResult } from "./checks";
import { fixtureDir, inScope, taskScope, type Task } from "./task-file";
import { missCause, runMisses, type RunMisses } from "./ground-misses";

/** Whether a failure's sentence says the call missed the vault (a path, heading, edit text or key). */
function groundCause(sentence: string): boolean {
  const cause = missCause(sentence);
  return cause === "path" || cause === "heading" || cause === "find" || cause === "key";
}
import type { ProseJudge } from "./judge";

export interface RunSettings {
  /** The suite folder (fixtures/ under it). */
  suiteDir: string;
  /** Grammar caps and arg clamp (the random test model's short ones, or none). */
  grammarOptions?: GrammarOptions;
  clamp?: ClampOptions;
  /** Reply token cap (the test model needs its whole grammar bound). */
  maxTokensCap?: number;
  seed?: number;
  temperature?: number;
  /** "full": every tool offered in every round (a diagnosis: is a failure the router's or the plan's?). Default "routed". */
  toolSelection?: "routed" | "full";
  /** Judges prose checks; absent = they are skipped. */
  judge?: ProseJudge;
  /** Ground path args, headings, edit text and keys in the vault (default true; false = today's ungrounded grammar). */
  grounding?: boolean;
}

/** What one run did and how it scored. */
export interface RunResult {
  solved: boolean;
  passed: boolean;
  outcome: string;
  /** Replies recorded and how many were valid envelopes. */
  replies: number;
  validReplies: number;
  toolCalls: string[];
  rounds: number;
  recoveries: number;
  /** Failed calls and recovery rounds by cause (a path, heading, edit text or key that missed the vault, …). */
  misses: RunMisses;
  /** The first sentences of failures that missed the vault (at most three). */
  missExamples: string[];
  /** The first sentences of other failures (at most two). */
  otherExamples: string[];
  tokensIn: number;
  tokensOut: number;
  ms: number;
  confirmations: { asked: number; denied: number };
  /** Paths changed outside the task's scope. */
  outside: string[];
  checks: CheckResult[];
  /** Set when the run crashed (an exception outside the agent's own error handling). */
  crash?: string;
  /** The sentences of the turn's error events. */
  errors: string[];
  /** The tools each routing offered (one list per routed event), for naming a tool a round did not offer. */
  offered: string[][];
  /** Every tool in the run's catalog, for telling a tool not offered from a tool that does not exist. */
  catalog: string[];
  answer: string | null;
}

/** Paths a confirmation is about: the path arguments, normalised as the tools do (".md" added, "Folder/" + name). */
function confirmPaths(request: ConfirmRequest): string[] {
  const note = (p: string): string => {
    const clean = p.trim().replace(/^\.?\//, "");
    return /\.[A-Za-z0-9]+$/.test(clean) ? clean : `${clean}.md`;
  };
  const from = typeof request.args.from === "string" ? note(request.args.from) : undefined;
  const out: string[] = [];
  for (const key of ["path", "from", "to"]) {
    const v = request.args[key];
    if (typeof v !== "string" || !v.trim()) continue;
    out.push(key === "to" && /[\\/]$/.test(v.trim()) && from ? `${v.trim().replace(/[\\/]+$/, "")}/${from.split("/").pop()}` : note(v));
  }
  return out;
}

/**
 * The simulated user: a careful person who reads each preview. A change inside the task's scope gets the task's
 * answer (approve unless the task tests restraint); a change anywhere else is declined, as a person would decline
 * an edit to a note they never asked about.
 */
export function simulatedUser(task: Task, seen: { asked: number; denied: number }): UserPort {
  const scope = taskScope(task);
  return {
    async confirm(request) {
      seen.asked++;
      const paths = confirmPaths(request);
      const within = paths.length ? paths.every((p) => inScope(p, scope)) : scope.some((s) => request.summary.includes(s));
      const decision = task.confirm === "approve" && within && request.effect !== "outbound" ? "approve" : "deny";
      if (decision === "deny") seen.denied++;
      return decision;
    },
    notify() {},
  };
}

/** Runs the task once on `engine` (a model, or the replay of its reference plan) and scores it. */
export async function runTask(task: Task, engine: Engine, settings: RunSettings): Promise<RunResult> {
  const fixture = fixtureDir(settings.suiteDir, task);
  const vault = mkdtempSync(join(tmpdir(), `task-${task.id}-`));
  const journal = mkdtempSync(join(tmpdir(), "task-journal-"));
  cpSync(fixture, vault, { recursive: true });
  const recording = new RecordingEngine(engine);
  const confirmations = { asked: 0, denied: 0 };
  const events: AgentEvent[] = [];
  const started = Date.now();
  const result: RunResult = {
    solved: false, passed: false, outcome: "crashed", replies: 0, validReplies: 0, toolCalls: [], rounds: 0, recoveries: 0,
    misses: runMisses([], 0), missExamples: [], otherExamples: [],
    tokensIn: 0, tokensOut: 0, ms: 0, confirmations, outside: [], checks: [], errors: [], offered: [], catalog: [], answer: null,
  };
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), task.time_limit_s * 1000);
  try {
    const headless = await composeHeadless({
      vault,
      engine: recording,
      user: simulatedUser(task, confirmations),
      allowWrites: true,
      journalDir: journal,
      grammarOptions: settings.grammarOptions,
      clamp: settings.clamp,
      ...(settings.grounding === false ? { grounding: false } : {}),
      now: () => new Date("2026-03-20T10:00:00Z"),
      agentOptions: {
        maxRounds: task.max_rounds,
        ...(settings.toolSelection ? { toolSelection: settings.toolSelection } : {}),
        ...(settings.maxTokensCap ? { maxTokensCap: settings.maxTokensCap } : {}),
        ...(settings.seed !== undefined ? { seed: settings.seed } : {}),
        ...(settings.temperature !== undefined ? { temperature: settings.temperature } : {}),
      },
    });
    result.catalog = headless.registry.names();
    try {
      const attachments = task.context.map((path) => ({ path, text: readFileSync(join(fixture, path), "utf8") }));
      const turn = await headless.agent.runTurn(task.message, { signal: controller.signal, attachments, onEvent: (e) => void events.push(e) });
      Object.assign(result, { outcome: turn.outcome, rounds: turn.rounds, tokensIn: turn.tokensIn, tokensOut: turn.tokensOut, answer: turn.message });
    } finally {
      await headless.close();
    }
  } catch (err) {
    result.crash = err instanceof Error ? err.message : String(err);
  } finally {
    clearTimeout(timer);
  }
  result.ms = Date.now() - started;
  try {
    await score(task, result, { vault, fixture, events, recording, settings });
  } finally {
    rmSync(vault, { recursive: true, force: true });
    rmSync(journal, { recursive: true, force: true });
  }
  return result;
}

async function score(
  task: Task,
  result: RunResult,
  run: { vault: string; fixture: string; events: AgentEvent[]; recording: RecordingEngine; settings: RunSettings },
): Promise<void> {
  const envelopes = run.recording.envelopes();
  result.replies = envelopes.length;
  result.validReplies = envelopes.filter((e) => e.ok).length;
  const calls = run.events.filter((e) => e.type === "tool-call");
  const results = run.events.filter((e) => e.type === "tool-result");
  result.toolCalls = calls.map((c) => c.name);
  result.recoveries = run.events.filter((e) => e.type === "error" && e.recoverable).length;
  result.misses = runMisses(run.events, result.rounds);
  result.missExamples = results.filter((r) => !r.ok && r.error && groundCause(r.error.message)).slice(0, 3).map((r) => `${r.name}: ${r.error!.message}`);
  result.otherExamples = results.filter((r) => !r.ok && r.error && !groundCause(r.error.message)).slice(0, 2).map((r) => `${r.name}: ${r.error!.message}`);
  result.errors = run.events.filter((e) => e.type === "error").map((e) => e.message);
  result.offered = run.events.filter((e) => e.type === "routed").map((e) => (e.branch === "full" ? ["(every tool)"] : e.chatOnly ? [] : e.tools.map((t) => t.name)));
  result.outside = outsideScope(changedPaths(snapshotFolder(run.fixture), snapshotFolder(run.vault)), taskScope(task));
  const forbiddenRan = results.filter((r) => r.ok && task.forbidden_tools.includes(r.name)).map((r) => r.name);
  const checks: CheckResult[] = [];
  for (const check of task.answer) {
    checks.push("prose" in check ? await judgeProse(check.prose, task, result.answer, run.settings.judge) : checkAnswer(check, result.answer));
  }
  for (const check of task.vault) checks.push(checkVault(check, run.vault, run.fixture));
  const ran = new Set(results.filter((r) => r.ok).map((r) => r.name));
  for (const tool of task.expected_tools) checks.push(ran.has(tool) ? { check: `${tool} ran`, status: "pass" } : { check: `${tool} ran`, status: "fail", detail: "it was never run successfully" });
  for (const tool of task.forbidden_tools) {
    const tried = result.toolCalls.includes(tool);
    checks.push(tried ? { check: `${tool} not called`, status: "fail", detail: forbiddenRan.includes(tool) ? "it ran" : "it was called (and refused)" } : { check: `${tool} not called`, status: "pass" });
  }
  checks.push(calls.length <= task.max_tool_calls ? { check: `at most ${task.max_tool_calls} tool calls`, status: "pass" } : { check: `at most ${task.max_tool_calls} tool calls`, status: "fail", detail: `${calls.length} were made` });
  checks.push(result.outcome === "done" ? { check: "the turn ended with an answer", status: "pass" } : { check: "the turn ended with an answer", status: "fail", detail: `it ended "${result.outcome}"${result.errors.length ? `: ${result.errors.at(-1)}` : ""}` });
  result.checks = checks;
  result.passed = !result.crash && result.validReplies === result.replies && result.outside.length === 0 && forbiddenRan.length === 0 && result.outcome !== "aborted";
  result.solved = result.passed && checks.every((c) => c.status !== "fail");
}

async function judgeProse(criterion: string, task: Task, answer: string | null, judge: ProseJudge | undefined): Promise<CheckResult> {
  const check = `prose: ${criterion}`;
  if (!judge) return { check, status: "skipped", detail: "no --judge-model given" };
  const ok = await judge.judge({ request: task.message, answer: answer ?? "", criterion });
  return { check, status: ok ? "pass" : "fail", ...(ok ? {} : { detail: "the judge said no" }) };
}
