/**
 * The `base` family: Obsidian Bases (`.base` files). base:query evaluates a view, or an ad-hoc filter, sort and
 * summary, over the vault's notes, so counts and sums are computed rather than generated; base:read says what a base
 * does; base:create and base:edit write `.base` YAML that is parsed back and checked before it is written.
 */
import * as z from "zod";
import type { ToolContext } from "../core/protocol/tool";
import type { YamlPort } from "../core/ports/yaml";
import { BaseError, describeBase, loadRows, parseBaseText, runQuery, toJson, toText, type BaseSpec, type QueryResult, type Value } from "../core/bases";
import { defineNoteWriteTool, defineTool } from "./define-tool";
import { PATH_ALIASES } from "./arg-schemas";
import { cleanPath, guardPath, isExcluded } from "./note-path";
import { readOrNull } from "./note-change";
import { ToolError } from "./tool-error";
import { clip } from "../core/text/clip";

const basePathArg = (what = "Vault-relative path of the .base file, e.g. Projects/Active.base") => z.string().min(1).max(300).describe(what);
const exprList = (what: string) => z.array(z.string().min(1).max(300)).max(20).optional().describe(what);
const propertyName = z.string().min(1).max(100).describe("A property: a note property (price), file.name, file.folder, file.mtime, formula.NAME ...");
const direction = z.enum(["ASC", "DESC"]).optional().describe("ASC (default) or DESC.");
const sortArg = z.object({ property: propertyName, direction });
const SUMMARIES = ["Count", "Sum", "Average", "Min", "Max", "Range", "Median", "Stddev", "Earliest", "Latest", "Checked", "Unchecked", "Empty", "Filled", "Unique", "Distinct"] as const;
const summaryArg = z.object({ property: propertyName, summary: z.enum(SUMMARIES).describe("The aggregate of the property over the rows.") });
const viewArg = z.object({
  name: z.string().min(1).max(100).describe("The view's name."),
  type: z.enum(["table", "cards", "list", "map"]).optional().describe("Layout (default table)."),
  filters: exprList("Conditions every row of this view meets, e.g. status == \"active\"."),
  order: z.array(propertyName).max(30).optional().describe("Properties shown, in order."),
  sort: z.array(sortArg).max(5).optional().describe("Sort keys, first one first."),
  limit: z.number().int().min(1).max(100000).optional().describe("Show at most this many rows."),
  group_by: sortArg.optional().describe("Group rows by this property."),
  summaries: z.array(summaryArg).max(20).optional().describe("Summaries shown under the view."),
});
const formulaArg = z.object({ name: z.string().min(1).max(100).describe("Formula name (used as formula.NAME)."), expression: z.string().max(500).describe("A Bases expression, e.g. price / hours; empty removes the formula.") });

/** A `.base` path the model wrote: cleaned, `.base` added when there is no extension. */
function basePath(raw: string, ctx: ToolContext): string {
  const p = cleanPath(raw);
  const path = guardPath(/\.[A-Za-z0-9]{1,5}$/.test(p.split("/").pop() ?? p) ? p : `${p}.base`, ctx);
  if (!path.endsWith(".base")) throw new ToolError(`"${path}" is not a .base file; base tools read and write Obsidian Bases files only.`, "bad_args");
  return path;
}

function yamlOf(ctx: ToolContext): YamlPort {
  if (!ctx.yaml) throw new ToolError("Bases need a YAML parser, which this host did not provide.", "unavailable");
  return ctx.yaml;
}

async function readBaseAt(ctx: ToolContext, path: string): Promise<{ base: BaseSpec }> {
  const text = await readOrNull(ctx, path);
  if (text === null) throw new ToolError(`There is no base at "${path}"; find .base files with vault:list.`, "not_found");
  const read = parseBaseText(text, yamlOf(ctx));
  if (!read.ok) throw new ToolError(`${path} is not a valid base: ${read.error}`, "bad_args");
  return { base: read.base };
}

const show = (v: Value) => (Array.isArray(v) ? `[${v.map(toText).join(", ")}]` : toText(v));

/** A query result as text: a count, the rows (bounded) and the summaries. */
function resultText(r: QueryResult, what: string, maxChars: number): string {
  const lines = [`${r.matched} ${r.matched === 1 ? "file matches" : "files match"} ${what}${r.rows.length < r.matched ? `; the first ${r.rows.length} are shown` : ""}.`];
  const row = (x: QueryResult["rows"][number]) => `- ${x.path}: ${Object.entries(x.values).filter(([k]) => k !== "file.name").map(([k, v]) => `${k} ${show(v) || "(empty)"}`).join("; ")}`.replace(/: $/, "");
  if (r.groups) for (const g of r.groups) lines.push(`Group ${show(g.key) || "(empty)"} (${g.rows.length}): ${Object.entries(g.summaries).map(([k, v]) => `${k} = ${show(v)}`).join("; ")}`, ...g.rows.map(row));
  else lines.push(...r.rows.map(row));
  for (const [k, v] of Object.entries(r.summaries)) lines.push(`${k} = ${show(v)}`);
  for (const e of r.errors.slice(0, 3)) lines.push(`Note: ${e}`);
  // Summaries matter most: they go first when the rows must be cut.
  const text = lines.join("\n");
  return text.length <= maxChars ? text : clip([lines[0], ...lines.filter((l) => / = /.test(l) && !l.startsWith("- ")), ...lines.slice(1)].join("\n"), maxChars, "add filters or a limit");
}

const query = defineTool({
  name: "base:query",
  family: "base",
  description:
    "Compute over notes' properties exactly: filter notes (Bases expressions such as status == \"active\", file.inFolder(\"Projects\"), file.hasTag(\"book\")), sort, limit and aggregate (Count, Sum, Average, Min, Max, Distinct...). Also runs a .base file's view. Use it for how many, totals, averages and which notes match.",
  routingHints: [
    "how many invoices are unpaid", "add up the cost of my trips", "total hours across all notes", "average rating of my books",
    "books whose status is read", "run the base view", "sum of the property", "which notes have a property greater than",
  ],
  args: z.object({
    path: basePathArg("A .base file whose view to run; omit for an ad-hoc query over every note.").optional(),
    view: z.string().min(1).max(100).optional().describe("The view's name (default the base's first view)."),
    folder: z.string().min(1).max(300).optional().describe("Only notes in this folder (and its subfolders)."),
    filters: exprList("Conditions every note meets (all must hold), e.g. status == \"active\", owner == \"Priya\", price > 1000."),
    sort: z.array(sortArg).max(5).optional().describe("Sort keys (replace the view's)."),
    limit: z.number().int().min(1).max(10000).optional().describe("At most this many rows."),
    properties: z.array(propertyName).max(20).optional().describe("Properties to show for each note."),
    summaries: z.array(summaryArg).max(10).optional().describe("Summaries over the matching notes, e.g. Sum of price."),
    group_by: propertyName.optional().describe("Group the notes by this property (summaries per group)."),
  }),
  aliases: { ...PATH_ALIASES, base: "path", filter: "filters", where: "filters", columns: "properties", groupBy: "group_by" },
  effect: "read",
  pathArgs: ["path", "folder"],
  existingPaths: ["path"],
  pathKinds: { path: ["base"] },
  async handler(args, ctx) {
    const path = args.path === undefined ? null : basePath(args.path, ctx);
    const base: BaseSpec = path ? (await readBaseAt(ctx, path)).base : { formulas: {}, properties: {}, summaries: {}, views: [] };
    const folder = args.folder ? guardPath(cleanPath(args.folder), ctx) : "";
    const filters = [...(folder ? [`file.inFolder(${JSON.stringify(folder)})`] : []), ...(args.filters ?? [])];
    if (!path) filters.unshift('file.ext == "md"');
    const rows = await loadRows(ctx.vault, (p) => !isExcluded(p, ctx) && !p.split("/").some((s) => s.startsWith(".")));
    try {
      const result = runQuery(base, rows, {
        view: args.view, filters, sort: args.sort?.map((s) => ({ property: s.property, direction: s.direction ?? "ASC" })), limit: args.limit,
        properties: args.properties ?? (path ? undefined : ["file.name", ...new Set((args.summaries ?? []).map((s) => s.property))]),
        summaries: Object.fromEntries((args.summaries ?? []).map((s) => [s.property, s.summary])),
        groupBy: args.group_by ? { property: args.group_by, direction: "ASC" } : undefined,
        now: ctx.now(), self: rows.find((r) => r.path === path) ?? null, summarizeAll: !path,
      });
      const what = path ? `${path}${result.view ? ` (view "${result.view}")` : ""}` : filters.length > 1 ? `where ${filters.slice(1).join(" and ")}` : "among the notes";
      return {
        content: resultText(result, what, ctx.settings.readPageChars),
        data: { matched: result.matched, rows: result.rows.map((r) => ({ path: r.path, values: toJson(r.values) })), summaries: toJson(result.summaries), groups: result.groups?.map((g) => ({ key: toJson(g.key), count: g.rows.length, summaries: toJson(g.summaries) })) ?? null },
        empty: result.matched === 0,
      };
    } catch (err) {
      if (err instanceof BaseError) throw new ToolError(err.message, "bad_args");
      throw err;
    }
  },
});

const read = defineTool({
  name: "base:read",
  family: "base",
  description: "Explain an Obsidian base (.base file) in plain words: its filters, formulas, displayed properties and views.",
  routingHints: ["what does this base show", "explain the base", "read the .base file", "which views does the base have", "what are the filters of the base"],
  args: z.object({ path: basePathArg() }),
  aliases: { ...PATH_ALIASES, base: "path" },
  effect: "read",
  pathArgs: ["path"],
  existingPaths: ["path"],
  pathKinds: { path: ["base"] },
  async handler(args, ctx) {
    const path = basePath(args.path, ctx);
    const { base } = await readBaseAt(ctx, path);
    return { content: `${path}\n${describeBase(base)}`, data: { path, base } };
  },
});

type ViewArg = z.infer<typeof viewArg>;
type FormulaArg = z.infer<typeof formulaArg>;

const filterGroup = (list: string[] | undefined, any?: boolean) => (list?.length ? { [any ? "or" : "and"]: list } : undefined);

/** A view as the .base file writes it. */
function viewYaml(v: ViewArg): Record<string, unknown> {
  const out: Record<string, unknown> = { type: v.type ?? "table", name: v.name };
  if (v.filters?.length) out.filters = filterGroup(v.filters);
  if (v.order?.length) out.order = v.order;
  if (v.sort?.length) out.sort = v.sort.map((s) => ({ property: s.property, direction: s.direction ?? "ASC" }));
  if (v.limit) out.limit = v.limit;
  if (v.group_by) out.groupBy = { property: v.group_by.property, direction: v.group_by.direction ?? "ASC" };
  if (v.summaries?.length) out.summaries = Object.fromEntries(v.summaries.map((s) => [s.property, s.summary]));
  return out;
}

function setFormulas(data: Record<string, unknown>, formulas: FormulaArg[] | undefined): void {
  if (!formulas?.length) return;
  const current = { ...((data.formulas as Record<string, string> | undefined) ?? {}) };
  for (const f of formulas) {
    if (f.expression.trim() === "") delete current[f.name];
    else current[f.name] = f.expression;
  }
  if (Object.keys(current).length) data.formulas = current;
  else delete data.formulas;
}

/** The YAML text of a base, refused unless it parses back as a valid base. */
function checkedText(data: Record<string, unknown>, ctx: ToolContext, path: string): string {
  const yaml = yamlOf(ctx);
  const text = yaml.stringify(data);
  const back = parseBaseText(text, yaml);
  if (!back.ok) throw new ToolError(`That would not be a valid base (${back.error}); nothing was written to ${path}.`, "bad_args");
  return text;
}

const create = defineNoteWriteTool({
  name: "base:create",
  family: "base",
  description: "Create an Obsidian base (.base file): filters that choose the notes, formulas, and views (a table or cards) with order, sort, group-by, limit and summaries.",
  routingHints: ["create a base of my recipes", "make a table view of notes with status", "new .base file", "build a database view of my books", "make a base that shows my reading list"],
  args: z.object({
    path: basePathArg("Vault-relative path of the new .base file, e.g. Projects/Active.base."),
    filters: exprList("Conditions that choose the notes of every view, e.g. file.inFolder(\"Projects\")."),
    any: z.boolean().optional().describe("true: a note needs to meet any one of the filters instead of all."),
    formulas: z.array(formulaArg).max(20).optional().describe("Computed properties."),
    views: z.array(viewArg).min(1).max(10).describe("The views, the default one first."),
  }),
  aliases: { ...PATH_ALIASES, base: "path", filter: "filters" },
  pathArgs: ["path"],
  newPaths: ["path"],
  target: (args, ctx) => basePath(args.path, ctx),
  plan: (args, ctx, path, before) => {
    if (before !== null) throw new ToolError(`"${path}" already exists; change it with base:edit.`, "conflict");
    const data: Record<string, unknown> = {};
    const filters = filterGroup(args.filters, args.any);
    if (filters) data.filters = filters;
    setFormulas(data, args.formulas);
    data.views = args.views.map(viewYaml);
    return { path, before, after: checkedText(data, ctx, path) };
  },
  asking: "Create",
  done: "Created",
});

const edit = defineNoteWriteTool({
  name: "base:edit",
  family: "base",
  description: "Change an Obsidian base (.base file): replace its filters, set or remove formulas, add or replace views by name, remove views.",
  routingHints: ["add a view to the base", "change the filter of the base", "sort the base by", "add a formula to the base", "remove the view from the base"],
  args: z.object({
    path: basePathArg(),
    filters: exprList("New filters for every view (replace the old ones; an empty list removes them)."),
    any: z.boolean().optional().describe("true: a note needs to meet any one of the new filters."),
    formulas: z.array(formulaArg).max(20).optional().describe("Formulas to set (an empty expression removes one)."),
    views: z.array(viewArg).max(10).optional().describe("Views to add, or to replace when one has the same name."),
    remove_views: z.array(z.string().min(1).max(100)).max(10).optional().describe("Names of views to remove."),
  }),
  aliases: { ...PATH_ALIASES, base: "path", filter: "filters" },
  pathArgs: ["path"],
  existingPaths: ["path"],
  pathKinds: { path: ["base"] },
  target: (args, ctx) => basePath(args.path, ctx),
  plan: (args, ctx, path, before) => {
    if (before === null) throw new ToolError(`There is no base at "${path}"; create it with base:create.`, "not_found");
    const parsed = yamlOf(ctx).parse(before);
    const data: Record<string, unknown> = typeof parsed === "object" && parsed !== null ? { ...(parsed as Record<string, unknown>) } : {};
    if (args.filters) {
      const f = filterGroup(args.filters, args.any);
      if (f) data.filters = f;
      else delete data.filters;
    }
    setFormulas(data, args.formulas);
    let views = Array.isArray(data.views) ? [...(data.views as Record<string, unknown>[])] : [];
    const missing = (args.remove_views ?? []).filter((n) => !views.some((v) => v?.name === n));
    if (missing.length) throw new ToolError(`${path} has no view ${missing.map((n) => `"${n}"`).join(", ")}; its views are ${views.map((v) => `"${String(v?.name)}"`).join(", ") || "none"}.`, "not_found");
    views = views.filter((v) => !args.remove_views?.includes(v?.name as string));
    for (const v of args.views ?? []) {
      const at = views.findIndex((x) => x?.name === v.name);
      if (at >= 0) views[at] = { ...views[at], ...viewYaml(v) };
      else views.push(viewYaml(v));
    }
    data.views = views;
    return { path, before, after: checkedText(data, ctx, path) };
  },
  asking: "Edit",
  done: "Edited",
});

export const baseTools = [query, read, create, edit];
