/** `route [--top K] [--json] [--vault DIR] [--semantic] [--catalog F.json] (QUERY | --file F)`: the router's choice per query, as JSON lines. */
import { existsSync, readFileSync } from "node:fs";
import { resolve } from "node:path";
import { FolderVault } from "../folder-vault/folder-vault";
import { CatalogError, parseCatalogText } from "../../core/router/catalog";
import type { Reading } from "../../core/router/stepwise";
import { ToolRouter } from "../../core/router/tool-router";
import type { RoutableTool } from "../../core/router/tool-card";
import { createToolCatalog } from "../../tools/index";
import { parseArgs, UsageError } from "../cli-types";

export const usage =
  "route [--top K] [--json] [--vault DIR] [--semantic] [--catalog F.json] (QUERY | --file F)   the router's tools per query (one query per line in F), as JSON lines; " +
  "--catalog routes over the tools in F ([{name, description, parameters}] or MCP's {tools: [...]}); --semantic offers vault:semantic_search as the chat pane does once the index has embeddings; " +
  "with --vault, note names in a query read as notes, as in ask; --json adds the reading: per step its words, tools and negated words";

/** The tools of a catalog file; an unreadable or malformed file is one sentence. */
export function loadCatalogFile(path: string): RoutableTool[] {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch {
    throw new UsageError(`Cannot read the catalog file ${path}; check the path.`);
  }
  try {
    return parseCatalogText(text);
  } catch (err) {
    if (err instanceof CatalogError) throw new UsageError(`${path}: ${err.message}`);
    throw err;
  }
}

/**
 * The router's reading as `route --json` shows it: per step the words read as that step, the tools it chose and,
 * when so read, the negated words (`negated`: the cue and the step's words) and the answer-only cue; then the readers
 * added to look before acting and whether the request was read as changing nothing.
 */
export function readingJson(reading: Reading): Record<string, unknown> {
  return {
    steps: reading.steps.map((s) => ({
      words: s.text,
      tools: s.tools,
      ...(s.negated ? { negated: { cue: s.negated, words: s.text } } : {}),
      ...(s.answerOnly ? { answerOnly: s.answerOnly } : {}),
    })),
    lookFirst: reading.lookFirst,
    readOnly: reading.readOnly,
  };
}

export async function run(argv: string[]): Promise<number> {
  const { options, positionals } = parseArgs(argv, { strings: ["top", "file", "vault", "catalog"], booleans: ["json", "semantic"] });
  const top = options.top === undefined ? 3 : Number(options.top);
  if (!Number.isInteger(top) || top < 1 || top > 50) throw new UsageError(`--top must be a whole number from 1 to 50, got "${String(options.top)}".`);
  if (typeof options.catalog === "string" && options.semantic) throw new UsageError("--semantic adds a built-in tool; it cannot be combined with --catalog.");
  let queries: string[];
  if (typeof options.file === "string") {
    if (positionals.length) throw new UsageError("Give either a QUERY or --file F, not both.");
    let text: string;
    try {
      text = readFileSync(options.file, "utf8");
    } catch {
      throw new UsageError(`Cannot read the query file ${options.file}; check the path.`);
    }
    queries = text.split(/\r?\n/).map((l) => l.trim()).filter(Boolean);
  } else {
    const q = positionals.join(" ").trim();
    if (!q) throw new UsageError("Give a QUERY or --file F with one query per line.");
    queries = [q];
  }
  const tools = typeof options.catalog === "string" ? loadCatalogFile(options.catalog) : createToolCatalog({ semantic: !!options.semantic });
  const router = new ToolRouter(tools, { topK: top });
  if (typeof options.vault === "string") {
    const root = resolve(options.vault);
    if (!existsSync(root)) throw new UsageError(`The vault folder ${root} does not exist; pass an existing folder with --vault.`);
    router.setNotes((await new FolderVault(root, { watch: false }).list()).map((f) => f.path));
  }
  for (const query of queries) {
    const d = router.readText(query, top);
    const line = { query, tools: d.tools, chatOnly: d.chatOnly, unsure: d.unsure, ...(options.json ? { reading: readingJson(d.reading) } : {}) };
    process.stdout.write(JSON.stringify(line) + "\n");
  }
  return 0;
}
