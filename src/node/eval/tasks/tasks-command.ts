/**
 * `eval --suite tasks [--task PREFIX] [--repeat N] [--model F | --engine … | --reference] [--compare BASELINE.json]
 * [--judge-model F | --judge-url URL] [--full-catalog] [--ungrounded] [--threads N] [--json]`: whole tasks on fixture vaults, scored on the vault they leave, pass^k and solve^k.
 */
import { existsSync, readFileSync } from "node:fs";
import { resolve } from "node:path";
import { createNodeEngine } from "../../../engine/client/node-launcher";
import type { Engine } from "../../../core/ports/engine";
import { UsageError } from "../../cli-types";
import { defaultTestModelPath, TEST_MODEL_CLAMP } from "../../compose";
import { isGeneratedModel, localLlamaEngine, localLlamaFromFlags, serverFromFlags, serverRunsTestModel } from "../../server-flags";
import { engineJudge } from "./judge";
import { compareReports, formatSuite, type SuiteReport } from "./report";
import { runTaskSuite } from "./run-suite";
import { defaultSuiteDir, loadTasks, TaskFileError } from "./task-file";

/** Short envelopes on the random test model: noise fills every string to its cap, so small caps keep each run quick. */
const TEST_MODEL_TASK_GRAMMAR = { maxThoughtChars: 24, maxMessageChars: 48, maxStringChars: 24, maxToolCalls: 2, maxItems: 2, maxKeys: 2, recursionDepth: 1, anyValueDepth: 1, anyValueMembers: 2 };

type Options = Record<string, string | boolean | undefined>;

function whole(options: Options, name: string, fallback: number): number {
  const raw = options[name];
  if (raw === undefined) return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1) throw new UsageError(`--${name} must be a positive whole number, got "${String(raw)}".`);
  return n;
}

function seedOption(options: Options): number {
  const seed = Number(options.seed ?? 1);
  if (!Number.isInteger(seed)) throw new UsageError(`--seed must be a whole number, got "${String(options.seed)}".`);
  return seed;
}

function readBaseline(file: string): SuiteReport {
  if (!existsSync(file)) throw new UsageError(`The baseline ${file} does not exist; write one with eval --suite tasks --json > ${file}.`);
  const lines = readFileSync(file, "utf8").trim().split("\n");
  try {
    const report = JSON.parse(lines[lines.length - 1]) as SuiteReport;
    if (report.suite !== "tasks" || !Array.isArray(report.rows)) throw new Error("not a task report");
    return report;
  } catch {
    throw new UsageError(`The baseline ${file} does not end with the JSON object of eval --suite tasks --json.`);
  }
}

/** The model's engine (a GGUF through the host, a server, or llama.cpp on this computer) and whether it is the test model. */
async function modelEngine(options: Options, log: (line: string) => void): Promise<{ engine: Engine & { shutdown(): Promise<void> }; model: string; testModel: boolean }> {
  const server = serverFromFlags(options);
  const local = localLlamaFromFlags(options);
  if (server && typeof options.model === "string") throw new UsageError("Give either --model (the built-in engine) or --engine with --url (a server), not both.");
  if (server || local) {
    const engine = local ? localLlamaEngine(local) : createNodeEngine({ server: server! });
    const info = await engine.modelInfo().catch(async (err: unknown) => {
      await engine.shutdown();
      throw err;
    });
    log(`[engine] ${info.server ?? server?.url ?? "llama.cpp"}: model ${info.name}, context ${info.contextSize ?? "unknown"}`);
    return { engine, model: info.path || info.name, testModel: await serverRunsTestModel(info) };
  }
  const given = typeof options.model === "string";
  const model = given ? resolve(options.model as string) : defaultTestModelPath();
  if (!existsSync(model)) throw new UsageError(`The model file ${model} does not exist; pass a GGUF file with --model.`);
  // A generated model given with --model (a family model at a real size) has random weights too: the test caps apply.
  const testModel = !given || (await isGeneratedModel(model));
  // Whole tasks read several notes: 8192 tokens of context for a real model (as the replay engine reports), 4096 for the test model.
  const threads = options.threads === undefined ? (given ? undefined : 1) : whole(options, "threads", 1);
  return { engine: createNodeEngine({ model: { path: model, contextSize: testModel ? 4096 : 8192, threads } }), model, testModel };
}

export async function runTasksCommand(options: Options): Promise<number> {
  const log = (line: string): void => void process.stderr.write(line + "\n");
  const repeat = whole(options, "repeat", 1);
  const reference = options.reference === true;
  if (reference && (typeof options.model === "string" || options.engine !== undefined)) throw new UsageError("--reference replays the recorded plans; give it without --model or --engine.");
  const baseline = typeof options.compare === "string" ? readBaseline(resolve(options.compare)) : undefined;
  const suiteDir = typeof options.tasks === "string" ? resolve(options.tasks) : defaultSuiteDir();
  let tasks;
  try {
    tasks = loadTasks(suiteDir);
  } catch (err) {
    if (err instanceof TaskFileError) throw new UsageError(err.message);
    throw err;
  }
  const prefix = typeof options.task === "string" ? options.task : "";
  tasks = tasks.filter((t) => t.id.startsWith(prefix));
  if (!tasks.length) throw new UsageError(`No task id starts with "${prefix}".`);
  const judgeFile = typeof options["judge-model"] === "string" ? resolve(options["judge-model"]) : undefined;
  const judgeUrl = typeof options["judge-url"] === "string" ? options["judge-url"] : undefined;
  if (judgeFile && judgeUrl) throw new UsageError("Give the judge as --judge-model F or --judge-url URL, not both.");
  if (judgeFile && !existsSync(judgeFile)) throw new UsageError(`The judge model ${judgeFile} does not exist.`);
  const made = reference ? undefined : await modelEngine(options, log);
  if (made?.testModel) log(`[note] ${typeof options.model === "string" ? "A generated model (random weights)" : "No --model given: the random-weight test model"}. It solves ≈ nothing; what it shows is that every reply is a valid envelope, nothing outside a task's scope changes, and how often a call misses the vault.`);
  // The judge: a GGUF through its own host, or a llama-server (or OpenAI-compatible server) at --judge-url.
  const judgeEngine = judgeFile
    ? createNodeEngine({ model: { path: judgeFile, contextSize: 4096 } })
    : judgeUrl
    ? createNodeEngine({ server: { kind: "llama-server", url: judgeUrl } })
    : undefined;
  try {
    const report = await runTaskSuite({
      tasks,
      repeat,
      suiteDir,
      engine: made?.engine,
      model: reference ? "reference plans" : made!.model,
      ...(made?.testModel ? { grammarOptions: TEST_MODEL_TASK_GRAMMAR, clamp: { ...TEST_MODEL_CLAMP, maxString: 24, maxItems: 2 }, maxTokensCap: 4096 } : {}),
      // Each run samples with its own seed (seed, seed+1, …) at the engine's temperature: pass^k asks for k different tries.
      seed: seedOption(options),
      judge: judgeEngine ? engineJudge(judgeEngine) : undefined,
      ...(options["full-catalog"] === true ? { toolSelection: "full" as const } : {}),
      // --ungrounded: today's grammar (path args, headings and edit text free), to count the misses grounding removes.
      ...(options.ungrounded === true ? { grounding: false } : {}),
      log,
    });
    const worse = baseline ? compareReports(baseline, report) : [];
    if (baseline) process.stdout.write(worse.length ? `Worse than ${String(options.compare)}:\n${worse.map((l) => `  ${l}`).join("\n")}\n\n` : `Nothing got worse than ${String(options.compare)}.\n\n`);
    process.stdout.write((options.json ? JSON.stringify(report) : formatSuite(report)) + "\n");
    if (report.crashes > 0 || report.valid_envelope_pct < 100) return 1;
    if (reference && report.solved < report.tasks) return 1;
    return 0;
  } finally {
    await made?.engine.shutdown();
    await judgeEngine?.shutdown();
  }
}
