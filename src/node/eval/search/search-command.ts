/**
 * `eval --suite search [--embed-model F] [--keep DIR] [--min R] [--json]`: the search suite on its own vault, or with
 * `--vault DIR --questions F` the held-out questions of F on that vault. A table, then one JSON object last (only the
 * JSON object with --json).
 */
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { UsageError } from "../../cli-types";
import { formatSearchSuite, runSearchSuite } from "./search-suite";
import { runHeldOut } from "./held-out";

/** Exit 0 when every language reaches `--min` (default 0.9) top-3. */
export async function runSearchCommand(options: Record<string, unknown>): Promise<number> {
  const embedModel = typeof options["embed-model"] === "string" ? resolve(options["embed-model"]) : undefined;
  if (embedModel && !existsSync(embedModel)) throw new UsageError(`The embedding model ${embedModel} does not exist.`);
  const min = options.min === undefined ? 0.9 : Number(options.min);
  if (!(min >= 0 && min <= 1)) throw new UsageError(`--min must be a number from 0 to 1, got "${String(options.min)}".`);
  const vault = typeof options.vault === "string" ? resolve(options.vault) : undefined;
  const questions = typeof options.questions === "string" ? resolve(options.questions) : undefined;
  if (!vault !== !questions) throw new UsageError("A held-out check needs both --vault DIR and --questions F.");
  if (vault && options.keep !== undefined) throw new UsageError("--keep goes with the suite's own vault, not with --vault.");
  if (questions && !existsSync(questions)) throw new UsageError(`The questions file ${questions} does not exist.`);
  const log = (l: string) => void process.stderr.write(l + "\n");
  const result = vault && questions ? await runHeldOut({ vault, questions, embedModel, log }) : await runSearchSuite({ embedModel, keep: typeof options.keep === "string" ? resolve(options.keep) : undefined, log });
  process.stdout.write((options.json ? "" : formatSearchSuite(result) + "\n") + JSON.stringify(result) + "\n");
  return result.min_top3_rate >= min ? 0 : 1;
}
