/** `bench <name> [--json]`: each benchmark lives in src/node/bench/<name>.ts and prints one JSON object last. */
import { readdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { dirname, join } from "node:path";
import { UsageError } from "../cli-types";

const benchDir = join(dirname(fileURLToPath(import.meta.url)), "..", "bench");

function names(): string[] {
  return readdirSync(benchDir)
    .filter((f) => f.endsWith(".ts"))
    .map((f) => f.slice(0, -3))
    .sort();
}

export const usage = "bench <name|all> [--json]   benchmarks: engine, grammar, sampling, step, router, index, schemas (--file F.jsonl), install";

/** A benchmark module exports `run(argv)` resolving to the result object. */
interface BenchModule {
  run(argv: string[]): Promise<Record<string, unknown>>;
}

export async function run(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  const available = names();
  if (!name) throw new UsageError(`Name a benchmark: ${available.join(", ")}, or all.`);
  const selected = name === "all" ? available : [name];
  for (const n of selected) {
    if (!available.includes(n)) throw new UsageError(`Unknown benchmark "${n}". Available: ${available.join(", ")}.`);
  }
  const results: Record<string, unknown> = {};
  for (const n of selected) {
    const mod = (await import(`../bench/${n}.ts`)) as BenchModule;
    const result = await mod.run(rest.filter((a) => a !== "--json"));
    results[n] = result;
    if (name !== "all") process.stdout.write(JSON.stringify({ bench: n, ...result }) + "\n");
  }
  if (name === "all") process.stdout.write(JSON.stringify(results) + "\n");
  return 0;
}
