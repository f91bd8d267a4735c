/** `eval --suite search [--embed-model F] [--keep DIR] [--json]`: the search suite, one table or one JSON object. */
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { UsageError } from "../../cli-types";
import { formatSearchSuite, runSearchSuite } from "./search-suite";

/** Exit 0 when every language reaches `--min` (default 0.9) top-3. */
export async function runSearchCommand(options: Record<string, unknown>): Promise<number> {
  const embedModel = typeof options["embed-model"] === "string" ? resolve(options["embed-model"]) : undefined;
  if (embedModel && !existsSync(embedModel)) throw new UsageError(`The embedding model ${embedModel} does not exist.`);
  const min = options.min === undefined ? 0.9 : Number(options.min);
  if (!(min >= 0 && min <= 1)) throw new UsageError(`--min must be a number from 0 to 1, got "${String(options.min)}".`);
  const result = await runSearchSuite({ embedModel, keep: typeof options.keep === "string" ? resolve(options.keep) : undefined, log: (l) => void process.stderr.write(l + "\n") });
  process.stdout.write((options.json ? JSON.stringify(result) : formatSearchSuite(result)) + "\n");
  return result.min_top3_rate >= min ? 0 : 1;
}
