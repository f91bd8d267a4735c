/**
 * `search --vault DIR [--semantic | --hybrid] [--folder F] (QUERY | --file F)`: searches the vault's memory, updating the
 * index first (unchanged notes, by size and modification time, are not read). With --file, one query per line and one
 * JSON line out per query: `{"query","ms","results":[{"path","score","heading"?,"text"}]}`.
 */
import { readFileSync } from "node:fs";
import { parseArgs, UsageError } from "../cli-types";
import { hybridSearch } from "../../core/memory/hybrid";
import { openFolderMemory } from "../folder-vault/folder-memory";
import { progressPrinter } from "../folder-vault/index-progress";

export const usage =
  "search --vault DIR [--semantic | --hybrid] [--embed-model F] [--folder F] [--limit N] [--json] (QUERY | --file F)   full-text (semantic, or both fused) search of the vault or one folder; --file: one query per line, JSON lines out";

type Row = { path: string; score: number; heading?: string; text: string };

export async function run(argv: string[]): Promise<number> {
  const { options, positionals } = parseArgs(argv, { strings: ["vault", "embed-model", "index-dir", "limit", "threads", "folder", "file"], booleans: ["semantic", "hybrid", "json"] });
  if (typeof options.vault !== "string") throw new UsageError("Name the vault folder with --vault DIR.");
  const query = positionals.join(" ").trim();
  const file = typeof options.file === "string" ? options.file : undefined;
  if (file && query) throw new UsageError("Give either a QUERY or --file F, not both.");
  if (!query && !file) throw new UsageError("Give a QUERY to search for, or --file F with one query per line.");
  let queries = [query];
  if (file) {
    try {
      queries = readFileSync(file, "utf8").split(/\r?\n/).map((q) => q.trim()).filter(Boolean);
    } catch {
      throw new UsageError(`Cannot read the query file ${file}.`);
    }
  }
  const limit = options.limit === undefined ? 10 : Number(options.limit);
  if (!Number.isInteger(limit) || limit < 1 || limit > 100) throw new UsageError(`--limit must be a whole number from 1 to 100, got "${String(options.limit)}".`);
  if ((options.semantic || options.hybrid) && typeof options["embed-model"] !== "string") {
    throw new UsageError(`${options.semantic ? "Semantic" : "Hybrid"} search needs the embedding model the index was built with: add --embed-model F.`);
  }
  if (options.semantic && options.hybrid) throw new UsageError("Give either --semantic or --hybrid, not both.");
  const folder = typeof options.folder === "string" ? options.folder.replace(/^\/+|\/+$/g, "") : "";
  if (folder.split("/").some((s) => s === ".." || s.startsWith("."))) throw new UsageError(`--folder must be a folder inside the vault, got "${String(options.folder)}".`);
  // Inside the index query, so a match in a small folder is never crowded out by better ones elsewhere.
  const filter = folder === "" ? undefined : { pathPrefix: `${folder}/` };
  const printer = progressPrinter();
  const memory = await openFolderMemory({
    vault: options.vault,
    embedModel: options.semantic || options.hybrid ? (options["embed-model"] as string) : undefined,
    indexDir: options["index-dir"] as string | undefined,
    threads: options.threads === undefined ? undefined : Number(options.threads),
    onProgress: printer.progress,
    onNotice: (m) => process.stderr.write(`notice: ${m}\n`),
  });
  try {
    await memory.indexer.build();
    printer.done();
    const search = async (q: string): Promise<Row[]> => {
      if (options.semantic) {
        const hits = await memory.search.semanticSearch!(q, limit, filter);
        return hits.map((h) => ({ path: h.path, score: h.score, heading: h.heading, text: h.text.replace(/\s+/g, " ").slice(0, 200) }));
      }
      if (options.hybrid) return (await hybridSearch(memory.search, q, limit, filter)).map((h) => ({ ...h, text: h.text.replace(/\s+/g, " ").slice(0, 200) }));
      return (await memory.search.textSearch(q, limit, filter)).map((h) => ({ path: h.path, score: h.score, text: h.snippet }));
    };
    for (const q of queries) {
      const started = performance.now();
      const rows = await search(q);
      const ms = Math.round((performance.now() - started) * 10) / 10;
      if (file) process.stdout.write(JSON.stringify({ query: q, ms, results: rows }) + "\n");
      else if (options.json) for (const r of rows) process.stdout.write(JSON.stringify(r) + "\n");
      else if (rows.length === 0) process.stdout.write(`No notes match "${q}".\n`);
      else for (const r of rows) process.stdout.write(`${r.score.toFixed(3)}  ${r.path}${r.heading ? ` > ${r.heading}` : ""}\n        ${r.text}\n`);
    }
    return 0;
  } finally {
    await memory.close();
  }
}
