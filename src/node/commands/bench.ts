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

export const usage = "bench <name|all> [--json]   benchmarks: engine, grammar, sampling, step, router, index, schemas (--file F.jsonl), install, conversation, session, grounding, pdf, pdf-index; `bench <name> --help` shows one's options";

/** A benchmark module exports `run(argv)` resolving to the result object, and its `usage` line for `--help`. */
interface BenchModule {
  run(argv: string[]): Promise<Record<string, unknown>>;
  usage?: string;
}

/**
 * `bench --help`: the command's line, then every benchmark's own line with its options;
 * `bench <name> --help`: that benchmark's line alone.
 */
export async function help(argv: string[]): Promise<string> {
  const name = argv.find((a) => !a.startsWith("-"));
  const available = names();
  const line = async (n: string): Promise<string | undefined> => {
    const mod = (await import(`../bench/${n}.ts`)) as Partial<BenchModule>;
    // Helper modules in the folder (catalogs, the server half of bench engine) have no run: they are no benchmark.
    if (typeof mod.run !== "function") return undefined;
    return `bench ${mod.usage ?? `${n} [--json]`}`;
  };
  if (name && name !== "all") {
    const one = available.includes(name) ? await line(name) : undefined;
    if (one) return one;
    return `${usage}\nUnknown benchmark "${name}".`;
  }
  const lines = (await Promise.all(available.map(line))).filter((l): l is string => l !== undefined);
  return [usage, ...lines.map((l) => `    ${l}`)].join("\n");
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
