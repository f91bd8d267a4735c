/** `index --vault DIR [--embed-model F]`: builds or updates the vault's memory (full-text, and vectors with a model). */
import { parseArgs, UsageError } from "../cli-types";
import { openFolderMemory } from "../folder-vault/folder-memory";
import { progressPrinter } from "../folder-vault/index-progress";

export const usage = "index --vault DIR [--embed-model F] [--index-dir D] [--exclude A,B] [--json]   build or update the memory indexes (progress on stderr)";

export async function run(argv: string[]): Promise<number> {
  const { options, positionals } = parseArgs(argv, { strings: ["vault", "embed-model", "index-dir", "exclude", "threads"], booleans: ["json"] });
  if (positionals.length) throw new UsageError(`Unexpected argument "${positionals[0]}".`);
  if (typeof options.vault !== "string") throw new UsageError("Name the vault folder with --vault DIR.");
  const threads = options.threads === undefined ? undefined : Number(options.threads);
  if (threads !== undefined && (!Number.isInteger(threads) || threads < 1)) throw new UsageError("--threads must be a whole number of at least 1.");
  const printer = progressPrinter();
  const memory = await openFolderMemory({
    vault: options.vault,
    embedModel: options["embed-model"] as string | undefined,
    indexDir: options["index-dir"] as string | undefined,
    excludedFolders: typeof options.exclude === "string" ? options.exclude.split(",").map((s) => s.trim()).filter(Boolean) : [],
    threads,
    onProgress: printer.progress,
    onNotice: (m) => process.stderr.write(`notice: ${m}\n`),
  });
  const controller = new AbortController();
  const onSigint = () => controller.abort();
  process.once("SIGINT", onSigint);
  try {
    const report = await memory.indexer.build(controller.signal);
    printer.done();
    const s = report.skipped;
    const line = report.cancelled
      ? `Cancelled after embedding ${report.embedded} chunks; run index again to finish.`
      : `Indexed ${report.notes} notes (${report.chunks} chunks): ${report.embedded} embedded, ${report.deleted} removed, ${report.read} notes read; ` +
        `skipped ${s.binary} binary, ${s.huge} over 10 MB, ${s.nonUtf8} not UTF-8, ${s.excluded} excluded. ${memory.vectors ? "" : "Full-text only (no --embed-model). "}Index: ${memory.indexDir}`;
    process.stdout.write(options.json ? JSON.stringify({ ...report, indexDir: memory.indexDir, semantic: !!memory.vectors }) + "\n" : line + "\n");
    return report.cancelled ? 1 : 0;
  } finally {
    process.off("SIGINT", onSigint);
    await memory.close();
  }
}
