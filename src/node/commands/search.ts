/** `search --vault DIR [--semantic] [--folder F] QUERY`: searches the vault's memory (updating the index first). */
import { parseArgs, UsageError } from "../cli-types";
import { openFolderMemory } from "../folder-vault/folder-memory";
import { progressPrinter } from "../folder-vault/index-progress";

export const usage = "search --vault DIR [--semantic --embed-model F] [--folder F] [--limit N] [--json] QUERY   full-text (or semantic) search of the vault or one folder";

export async function run(argv: string[]): Promise<number> {
  const { options, positionals } = parseArgs(argv, { strings: ["vault", "embed-model", "index-dir", "limit", "threads", "folder"], booleans: ["semantic", "json"] });
  if (typeof options.vault !== "string") throw new UsageError("Name the vault folder with --vault DIR.");
  const query = positionals.join(" ").trim();
  if (!query) throw new UsageError("Give a QUERY to search for.");
  const limit = options.limit === undefined ? 10 : Number(options.limit);
  if (!Number.isInteger(limit) || limit < 1 || limit > 100) throw new UsageError(`--limit must be a whole number from 1 to 100, got "${String(options.limit)}".`);
  if (options.semantic && typeof options["embed-model"] !== "string") {
    throw new UsageError("Semantic search needs the embedding model the index was built with: add --embed-model F.");
  }
  const folder = typeof options.folder === "string" ? options.folder.replace(/^\/+|\/+$/g, "") : "";
  if (folder.split("/").some((s) => s === ".." || s.startsWith("."))) throw new UsageError(`--folder must be a folder inside the vault, got "${String(options.folder)}".`);
  // Inside the index query, so a match in a small folder is never crowded out by better ones elsewhere.
  const filter = folder === "" ? undefined : { pathPrefix: `${folder}/` };
  const printer = progressPrinter();
  const memory = await openFolderMemory({
    vault: options.vault,
    embedModel: options.semantic ? (options["embed-model"] as string) : undefined,
    indexDir: options["index-dir"] as string | undefined,
    threads: options.threads === undefined ? undefined : Number(options.threads),
    onProgress: printer.progress,
    onNotice: (m) => process.stderr.write(`notice: ${m}\n`),
  });
  try {
    await memory.indexer.build();
    printer.done();
    let rows: { path: string; score: number; heading?: string; text: string }[];
    if (options.semantic) {
      const hits = await memory.search.semanticSearch!(query, limit, filter);
      rows = hits.map((h) => ({ path: h.path, score: h.score, heading: h.heading, text: h.text.replace(/\s+/g, " ").slice(0, 200) }));
    } else {
      rows = (await memory.search.textSearch(query, limit, filter)).map((h) => ({ path: h.path, score: h.score, text: h.snippet }));
    }
    if (options.json) {
      for (const r of rows) process.stdout.write(JSON.stringify(r) + "\n");
    } else if (rows.length === 0) {
      process.stdout.write(`No notes match "${query}".\n`);
    } else {
      for (const r of rows) process.stdout.write(`${r.score.toFixed(3)}  ${r.path}${r.heading ? ` > ${r.heading}` : ""}\n        ${r.text}\n`);
    }
    return 0;
  } finally {
    await memory.close();
  }
}
