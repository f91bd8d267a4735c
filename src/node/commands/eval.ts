/**
 * `eval [--suite tools|router|bfcl|tasks] [--model F] [--embed-model F] [--limit N] [--json]`: the bundled tool-use suite
 * in four configurations (default), the router alone on every language's suite and BFCL (`router`), BFCL's
 * requests with their own catalogs in the four configurations (`bfcl`), or whole tasks on fixture vaults scored on
 * the vault they leave (`tasks`, see eval/tasks/tasks-command.ts).
 */
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { createNodeEngine } from "../../engine/client/node-launcher";
import { parseArgs, UsageError } from "../cli-types";
import { defaultTestModelPath } from "../compose";
import { formatTable, runEval } from "../eval/run-eval";
import { EVAL_SUITE } from "../eval/suite";
import { formatRouterEval, runRouterEval } from "../eval/router-eval";
import { formatBfclTable, runBfclEval } from "../eval/bfcl-eval";
import { loadBfcl } from "../eval/bfcl";
import { localLlamaEngine, localLlamaFromFlags, SERVER_FLAGS, SERVER_USAGE, serverFromFlags, serverRunsTestModel } from "../server-flags";
import type { Engine } from "../../core/ports/engine";
import { runTasksCommand } from "../eval/tasks/tasks-command";
import { runSearchCommand } from "../eval/search/search-command";

export const usage =
  `eval [--suite tools|router|bfcl] [--model F] [--embed-model F] ${SERVER_USAGE} [--limit N] [--bfcl DIR] [--layout previous] [--json]   tools: the ${EVAL_SUITE.length}-query tool-use suite in four configurations (default: the random test model); ` +
  "router: the router alone, per language (suite and held-out) and on BFCL's functions as one catalog; bfcl: BFCL requests with their own catalogs in the four configurations; " +
  "search [--embed-model F] [--keep DIR | --vault DIR --questions F] [--min R]: memory search on a multilingual vault (its own, or a held-out one), top-3 per language; tasks [--task PREFIX] [--repeat N] [--reference] [--compare BASELINE.json] [--judge-model F | --judge-url URL] [--full-catalog] [--ungrounded] [--threads N] [--tasks DIR]: whole tasks on fixture vaults, scored on the vault they leave, pass^k and solve^k";

/** Short envelopes for the random test model: every reply stays a few hundred bytes, so the run is quick. */
const TEST_MODEL_EVAL_GRAMMAR = { maxThoughtChars: 16, maxMessageChars: 24, maxStringChars: 16, maxToolCalls: 1, maxItems: 2, maxKeys: 2, recursionDepth: 1, anyValueDepth: 1, anyValueMembers: 2 };

/** `n` items spread evenly over the list, so a small --limit still samples every BFCL category. */
function spread<T>(items: T[], n: number): T[] {
  if (n >= items.length) return items;
  return Array.from({ length: n }, (_, i) => items[Math.floor((i * items.length) / n)]);
}

export async function run(argv: string[]): Promise<number> {
  const { options, positionals } = parseArgs(argv, { strings: ["suite", "model", "embed-model", "keep", "min", "vault", "questions", "limit", "seed", "bfcl", "layout", "task", "repeat", "compare", "judge-model", "judge-url", "tasks", "threads", ...SERVER_FLAGS], booleans: ["json", "reference", "full-catalog", "ungrounded"] });
  const server = serverFromFlags(options);
  const local = localLlamaFromFlags(options);
  if (server && typeof options.model === "string") throw new UsageError("Give either --model (the built-in engine) or --engine with --url (a server), not both.");
  if (positionals.length) throw new UsageError(`Unexpected argument "${positionals[0]}".`);
  const suite = options.suite ?? "tools";
  if (suite !== "tools" && suite !== "router" && suite !== "bfcl" && suite !== "tasks" && suite !== "search") throw new UsageError(`--suite must be tools, router, bfcl, tasks or search, got "${String(suite)}".`);
  if (suite === "tasks") return runTasksCommand(options);
  if (suite === "search") return runSearchCommand(options);
  for (const flag of ["task", "repeat", "compare", "judge-model", "judge-url", "tasks", "reference", "full-catalog", "ungrounded", "threads"]) {
    if (options[flag] !== undefined) throw new UsageError(`--${flag} goes with --suite tasks.`);
  }
  if (suite === "router") {
    const result = runRouterEval(typeof options.bfcl === "string" ? resolve(options.bfcl) : undefined);
    process.stdout.write((options.json ? JSON.stringify(result) : formatRouterEval(result)) + "\n");
    return "error" in result.bfcl ? 1 : 0;
  }
  const bfclItems = suite === "bfcl" ? loadBfcl(typeof options.bfcl === "string" ? resolve(options.bfcl) : undefined) : [];
  const limit = options.limit === undefined ? (suite === "bfcl" ? bfclItems.length : EVAL_SUITE.length) : Number(options.limit);
  if (!Number.isInteger(limit) || limit < 1) throw new UsageError(`--limit must be a positive whole number, got "${String(options.limit)}".`);
  const layout = options.layout;
  if (layout !== undefined && layout !== "previous" && layout !== "growing") throw new UsageError(`--layout takes "growing" (the default) or "previous" (the tools in the system message), got "${String(layout)}".`);
  let testModel = typeof options.model !== "string";
  let modelPath = testModel ? defaultTestModelPath() : resolve(options.model as string);
  if (!server && !existsSync(modelPath)) throw new UsageError(`The model file ${modelPath} does not exist; pass a GGUF file with --model.`);
  const embedModel = typeof options["embed-model"] === "string" ? resolve(options["embed-model"]) : undefined;
  if (embedModel && !existsSync(embedModel)) throw new UsageError(`The embedding model ${embedModel} does not exist.`);
  const log = (line: string): void => void process.stderr.write(line + "\n");
  const engine: Engine & { shutdown(): Promise<void> } = local
    ? localLlamaEngine(local)
    : server
    ? createNodeEngine({ server })
    : createNodeEngine({
        model: { path: modelPath, contextSize: 4096, threads: testModel ? 1 : undefined },
        ...(embedModel ? { embeddingModel: { path: embedModel } } : {}),
      });
  if (server || local) {
    const info = await engine.modelInfo().catch(async (err: unknown) => {
      await engine.shutdown();
      throw err;
    });
    modelPath = info.path || (server?.url ?? "");
    testModel = await serverRunsTestModel(info);
    log(`[engine] ${info.server ?? server?.url}: model ${info.name}, context ${info.contextSize ?? "unknown"}`);
  }
  if (testModel) log("[note] No --model given: the random-weight test model. Its accuracy numbers are noise; validity under a grammar must still be 100%.");
  try {
    if (suite === "bfcl") {
      const rows = await runBfclEval({
        engine,
        items: spread(bfclItems, limit),
        freeMaxTokens: testModel ? 64 : 384,
        grammarOptions: testModel ? TEST_MODEL_EVAL_GRAMMAR : { maxThoughtChars: 240, maxMessageChars: 240, maxStringChars: 1500, maxToolCalls: 2 },
        clamp: testModel ? { maxString: 16, maxItems: 2 } : undefined,
        seed: Number(options.seed ?? 1),
        temperature: 0,
        log,
      });
      process.stdout.write(options.json ? JSON.stringify({ model: modelPath, suite: "bfcl", items: Math.min(limit, bfclItems.length), results: rows }) + "\n" : formatBfclTable(rows) + "\n");
      const ok = rows.filter((r) => r.config !== "prompt only").every((r) => r.valid_json_pct === 100);
      if (!ok) log("Some replies under a grammar were not valid envelopes; that is a bug in the grammar or the engine, please report it.");
      return ok ? 0 : 1;
    }
    const rows = await runEval({
      engine,
      cases: EVAL_SUITE.slice(0, limit),
      freeMaxTokens: testModel ? 64 : 384,
      grammarOptions: testModel ? TEST_MODEL_EVAL_GRAMMAR : { maxThoughtChars: 240, maxMessageChars: 240, maxStringChars: 1500, maxToolCalls: 2 },
      clamp: testModel ? { maxString: 16, maxItems: 2 } : undefined,
      embedModel,
      seed: Number(options.seed ?? 1),
      temperature: 0,
      ...(layout === "previous" ? { promptLayout: "previous" as const } : {}),
      log,
    });
    process.stdout.write(options.json ? JSON.stringify({ model: modelPath, cases: limit, results: rows }) + "\n" : formatTable(rows) + "\n");
    const gramOk = rows.filter((r) => r.config !== "prompt only").every((r) => r.valid_json_pct === 100);
    if (!gramOk) log("Some replies under a grammar were not valid envelopes; that is a bug in the grammar or the engine, please report it.");
    return gramOk ? 0 : 1;
  } finally {
    await engine.shutdown();
  }
}
