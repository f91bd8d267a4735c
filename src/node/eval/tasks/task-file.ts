/**
 * The task format of `eval --suite tasks`: one JSON file per task (examples/tasks/suite/<id>.json), a fixture folder
 * of notes it runs on (examples/tasks/fixtures/<name>/), and a reference plan (examples/tasks/reference/<id>.jsonl,
 * the replies `ask --replay` reads). Files are checked on load; a bad one is one sentence naming the file and field.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { z } from "zod";

export const TIERS = ["T1", "T2", "T3", "T4"] as const;
export const CATEGORIES = [
  "retrieval", "multi-hop", "aggregation", "conflict", "synthesis", "write", "edit", "move", "delete", "memory", "negative space", "safety", "ambiguity",
] as const;

/** A check on the final answer: a literal (case-insensitive), one of several, a regex, or prose judged by a model. */
const answerCheck = z.union([
  z.object({ contains: z.string().min(1) }).strict(),
  z.object({ any_of: z.array(z.string().min(1)).min(1) }).strict(),
  z.object({ regex: z.string().min(1) }).strict(),
  z.object({ lacks: z.string().min(1) }).strict(),
  z.object({ prose: z.string().min(1) }).strict(),
]);

const notePath = z.string().min(1).regex(/^[^/\\].*$/, "a vault-relative path");

/** A check on the vault the run leaves, against the run's folder (and the fixture, for `unchanged`). */
const vaultCheck = z.union([
  z.object({ exists: notePath }).strict(),
  z.object({ absent: notePath }).strict(),
  z.object({ unchanged: notePath }).strict(),
  z.object({ path: notePath, contains: z.string().min(1) }).strict(),
  z.object({ path: notePath, lacks: z.string().min(1) }).strict(),
  z.object({ path: notePath, matches: z.string().min(1) }).strict(),
  z.object({ path: notePath, frontmatter: z.record(z.string(), z.unknown()) }).strict(),
]);

export const taskSchema = z
  .object({
    id: z.string().regex(/^[a-z0-9][a-z0-9-]*$/, "lower-case words joined by hyphens"),
    message: z.string().min(1),
    language: z.string().regex(/^[a-z]{2}$/, "a two-letter language code"),
    tier: z.enum(TIERS),
    category: z.enum(CATEGORIES),
    /** Folder name under fixtures/. */
    fixture: z.string().min(1),
    /** What the task tests, one sentence. */
    why: z.string().min(1),
    /** Notes attached to the message, as "Ask about this note" attaches them. */
    context: z.array(notePath).default([]),
    expected_tools: z.array(z.string()).default([]),
    forbidden_tools: z.array(z.string()).default([]),
    answer: z.array(answerCheck).default([]),
    vault: z.array(vaultCheck).default([]),
    /** Paths (a trailing "/" for a folder) the task may change besides those its vault checks name. */
    scope: z.array(z.string().min(1)).default([]),
    max_tool_calls: z.number().int().min(0).max(50).default(8),
    max_rounds: z.number().int().min(1).max(20).default(5),
    time_limit_s: z.number().positive().max(3600).default(120),
    /** What the simulated user answers when a change in scope is to be confirmed. */
    confirm: z.enum(["approve", "deny"]).default("approve"),
  })
  .strict();

export type Task = z.infer<typeof taskSchema>;
export type AnswerCheck = z.infer<typeof answerCheck>;
export type VaultCheck = z.infer<typeof vaultCheck>;

/** The suite's folder: examples/tasks in this repository. */
export function defaultSuiteDir(): string {
  return fileURLToPath(new URL("../../../../examples/tasks", import.meta.url));
}

/** A task file or suite folder that cannot be used. */
export class TaskFileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "TaskFileError";
  }
}

/** Every task of the suite (sorted by id), each checked against the format and its fixture's presence. */
export function loadTasks(dir = defaultSuiteDir()): Task[] {
  const suite = join(dir, "suite");
  if (!existsSync(suite)) throw new TaskFileError(`The task folder ${suite} does not exist.`);
  const tasks: Task[] = [];
  const ids = new Set<string>();
  for (const name of readdirSync(suite).filter((n) => n.endsWith(".json")).sort()) {
    const file = join(suite, name);
    let raw: unknown;
    try {
      raw = JSON.parse(readFileSync(file, "utf8"));
    } catch (err) {
      throw new TaskFileError(`${file} is not JSON: ${(err as Error).message}.`);
    }
    const parsed = taskSchema.safeParse(raw);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new TaskFileError(`${file}: ${issue.path.join(".") || "(top)"} ${issue.message}.`);
    }
    const task = parsed.data;
    if (`${task.id}.json` !== name) throw new TaskFileError(`${file} holds task "${task.id}"; name the file ${task.id}.json.`);
    if (ids.has(task.id)) throw new TaskFileError(`Two tasks have the id "${task.id}".`);
    ids.add(task.id);
    if (!existsSync(fixtureDir(dir, task))) throw new TaskFileError(`${file} names the fixture "${task.fixture}", which is not in ${join(dir, "fixtures")}.`);
    for (const path of task.context) {
      if (!existsSync(join(fixtureDir(dir, task), path))) throw new TaskFileError(`${file} attaches ${path}, which is not in its fixture.`);
    }
    tasks.push(task);
  }
  return tasks;
}

/** The fixture folder of a task. */
export function fixtureDir(dir: string, task: Task): string {
  return join(dir, "fixtures", task.fixture);
}

/** The reference plan's file of a task. */
export function referenceFile(dir: string, task: Task): string {
  return join(dir, "reference", `${task.id}.jsonl`);
}

/** The paths a task may change: those its vault checks name (except unchanged ones) and its extra scope. */
export function taskScope(task: Task): string[] {
  const named = task.vault.flatMap((c) => ("exists" in c ? [c.exists] : "absent" in c ? [c.absent] : "path" in c ? [c.path] : []));
  return [...new Set([...named, ...task.scope])];
}

/** True when a vault path lies in the scope (an entry ending with "/" is a folder). */
export function inScope(path: string, scope: readonly string[]): boolean {
  return scope.some((s) => (s.endsWith("/") ? path.startsWith(s) : path === s));
}
