/**
 * `base query --vault DIR --file F.base [--view NAME] [--json]`: a base's view evaluated headlessly over a folder
 * vault, as Obsidian's Bases would list it: the rows (path, shown properties and formulas) and the summaries.
 */
import { existsSync, readFileSync, statSync } from "node:fs";
import { relative, resolve } from "node:path";
import { parse as parseYaml } from "yaml";
import { BaseError, loadRows, parseBaseText, runQuery, toJson, toText, type Value } from "../../core/bases";
import { parseArgs, UsageError } from "../cli-types";
import { FolderVault } from "../folder-vault/folder-vault";

export const usage = "base query --vault DIR --file F.base [--view NAME] [--json]   a base's view evaluated over the vault: rows and summaries";

const cell = (v: Value) => (Array.isArray(v) ? v.map(toText).join(", ") : toText(v));

export async function run(argv: string[]): Promise<number> {
  const { options, positionals } = parseArgs(argv, { strings: ["vault", "file", "view"], booleans: ["json"] });
  if (positionals[0] !== "query" || positionals.length !== 1) throw new UsageError("Say what to do with the base: base query.");
  if (typeof options.vault !== "string") throw new UsageError("Name the vault folder with --vault DIR.");
  if (typeof options.file !== "string") throw new UsageError("Name the base with --file F.base.");
  const root = resolve(options.vault);
  if (!existsSync(root) || !statSync(root).isDirectory()) throw new UsageError(`The vault folder "${options.vault}" does not exist.`);
  const file = existsSync(resolve(root, options.file)) ? resolve(root, options.file) : resolve(options.file);
  if (!existsSync(file)) throw new UsageError(`The base "${options.file}" does not exist in the vault or the current folder.`);
  const read = parseBaseText(readFileSync(file, "utf8"), { parse: parseYaml, stringify: String });
  if (!read.ok) {
    process.stderr.write(`${options.file} is not a valid base: ${read.error}\n`);
    return 1;
  }
  const vault = new FolderVault(root, { watch: false });
  try {
    const rows = await loadRows(vault);
    const path = relative(root, file).split("\\").join("/");
    const result = runQuery(read.base, rows, { view: typeof options.view === "string" ? options.view : undefined, now: new Date(), self: rows.find((r) => r.path === path) ?? null });
    const out = (line: string) => void process.stdout.write(`${line}\n`);
    if (options.json) {
      out(JSON.stringify({
        view: result.view, columns: result.columns, matched: result.matched, rows: result.rows.map((r) => ({ path: r.path, ...(toJson(r.values) as object) })),
        summaries: toJson(result.summaries), groups: result.groups?.map((g) => ({ key: toJson(g.key), paths: g.rows.map((r) => r.path), summaries: toJson(g.summaries) })) ?? null, errors: result.errors,
      }));
      return 0;
    }
    out(`${result.view ? `View "${result.view}": ` : ""}${result.rows.length} of ${result.matched} matching files`);
    out(["path", ...result.columns].join("\t"));
    for (const r of result.rows) out([r.path, ...result.columns.map((c) => cell(r.values[c]))].join("\t"));
    for (const [k, v] of Object.entries(result.summaries)) out(`${k}: ${cell(v)}`);
    for (const e of result.errors) process.stderr.write(`${e}\n`);
    return 0;
  } catch (err) {
    if (!(err instanceof BaseError)) throw err;
    process.stderr.write(`${err.message}\n`);
    return 1;
  } finally {
    vault.close();
  }
}
