/** Records of the shared JSONSchemaBench sample (read from ../shared/benchmarks, never copied into the repo). */
import { existsSync, readFileSync, readdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { dirname, join } from "node:path";
import type { JsonSchema } from "../../../../src/core/grammar";

/** The sample's folder: JSONSCHEMABENCH_DIR, or ../shared/benchmarks/jsonschemabench beside the repository. */
export const BENCHMARK_DIR = process.env.JSONSCHEMABENCH_DIR ?? join(dirname(fileURLToPath(import.meta.url)), "../../../../../shared/benchmarks/jsonschemabench");

export interface BenchmarkRecord {
  id: string;
  schema: JsonSchema;
  tests?: Array<{ valid: boolean; data: unknown }>;
}

/** True when the sample is present (tests that need it are skipped otherwise). */
export const hasBenchmark = existsSync(BENCHMARK_DIR);

/** Every record of one split, or the first `perSplit` of every split. */
export function sampleSchemas(perSplit = Infinity, split?: string): BenchmarkRecord[] {
  if (!hasBenchmark) return [];
  const out: BenchmarkRecord[] = [];
  for (const file of readdirSync(BENCHMARK_DIR).filter((f) => f.endsWith(".jsonl") && (!split || f === `${split}.jsonl`)).sort()) {
    const lines = readFileSync(join(BENCHMARK_DIR, file), "utf8").split("\n").filter(Boolean);
    for (const line of lines.slice(0, perSplit)) out.push(JSON.parse(line) as BenchmarkRecord);
  }
  return out;
}

/** One record by id (`Github_medium/o42580`). */
export function benchmarkRecord(id: string): BenchmarkRecord {
  const found = sampleSchemas(Infinity, id.slice(0, id.indexOf("/"))).find((r) => r.id === id);
  if (!found) throw new Error(`No record ${id} in ${BENCHMARK_DIR}.`);
  return found;
}
