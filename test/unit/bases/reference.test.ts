/**
 * base:query's evaluator against a reference evaluation written here in plain JS over the fixture's objects, on the
 * filter and formula examples of Obsidian's Bases help (Bases syntax, Functions, Formulas), one or more per function
 * the evaluator claims: dates, lists, tags, links and empty values included.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rm } from "node:fs/promises";
import { loadRows, readBase, runQuery, toJson, type BaseRow, type BaseSpec } from "../../../src/core/bases";
import { NOTES, NOW, writeFixture, type FixtureNote } from "./fixture";

let rows: BaseRow[] = [];
let root = "";

beforeAll(async () => {
  const f = await writeFixture();
  root = f.root;
  rows = await loadRows(f.vault);
  f.vault.close();
});
afterAll(() => rm(root, { recursive: true, force: true }));

// ---- The reference: direct JS over the fixture objects, independent of the evaluator. ----
const fm = (n: FixtureNote): Record<string, unknown> => n.fm ?? {};
const md = (n: FixtureNote) => n.path.endsWith(".md");
const tagsOf = (n: FixtureNote): string[] => {
  const own = ((fm(n).tags as string[] | undefined) ?? []).map((t) => t.toLowerCase());
  const inline = md(n) ? [...n.body.matchAll(/#([\w/-]+)/g)].map((m) => m[1].toLowerCase()) : [];
  return [...own, ...inline];
};
const hasTag = (n: FixtureNote, ...want: string[]) => tagsOf(n).some((t) => want.some((w) => t === w || t.startsWith(`${w}/`)));
const linksOf = (n: FixtureNote): string[] => [...`${n.body} ${JSON.stringify(n.fm ?? {})}`.matchAll(/\[\[([^\]|#]+)/g)].map((m) => m[1]);
const local = (s: string): number => {
  const m = /^(\d+)-(\d+)-(\d+)(?: (\d+):(\d+))?$/.exec(s)!;
  return new Date(+m[1], +m[2] - 1, +m[3], +(m[4] ?? 0), +(m[5] ?? 0)).getTime();
};
const dateOf = (n: FixtureNote, key: string): number | null => (typeof fm(n)[key] === "string" ? local(fm(n)[key] as string) : null);
const numOf = (n: FixtureNote, key: string): number | null => (typeof fm(n)[key] === "number" ? (fm(n)[key] as number) : null);
const strOf = (n: FixtureNote, key: string): string | null => (typeof fm(n)[key] === "string" ? (fm(n)[key] as string) : null);
const listOf = (n: FixtureNote, key: string): unknown[] | null => (Array.isArray(fm(n)[key]) ? (fm(n)[key] as unknown[]) : null);
const name = (n: FixtureNote) => n.path.split("/").pop()!;
const basename = (n: FixtureNote) => name(n).replace(/\.[^.]+$/, "");
const folder = (n: FixtureNote) => (n.path.includes("/") ? n.path.slice(0, n.path.lastIndexOf("/")) : "/");
const today = new Date(NOW.getFullYear(), NOW.getMonth(), NOW.getDate()).getTime();
const DAY = 864e5;
const addMonths = (ms: number, k: number) => {
  const d = new Date(ms);
  d.setMonth(d.getMonth() + k);
  return d.getTime();
};
const mtime = (n: FixtureNote) => NOW.getTime() - n.ageDays * DAY;

// ---- Filters: expression, and which files the reference says pass. ----
const FILTERS: [string, (n: FixtureNote) => boolean][] = [
  // Comparisons and boolean operators (Bases syntax, Formulas page)
  ['status == "active"', (n) => fm(n).status === "active"],
  ['status != "done"', (n) => fm(n).status !== "done"],
  ["budget > 2500", (n) => (numOf(n, "budget") ?? -Infinity) > 2500],
  ["budget >= 2500", (n) => (numOf(n, "budget") ?? -Infinity) >= 2500],
  ["hours < 5", (n) => numOf(n, "hours") !== null && numOf(n, "hours")! < 5],
  ["hours <= 7.5", (n) => numOf(n, "hours") !== null && numOf(n, "hours")! <= 7.5],
  ['status == "active" && budget > 3000', (n) => fm(n).status === "active" && (numOf(n, "budget") ?? 0) > 3000],
  ['status == "paused" || budget > 5000', (n) => fm(n).status === "paused" || (numOf(n, "budget") ?? 0) > 5000],
  ["!read", (n) => !fm(n).read],
  ["read", (n) => fm(n).read === true],
  ["price > 0 && quantity > 0", (n) => (numOf(n, "price") ?? 0) > 0 && (numOf(n, "quantity") ?? 0) > 0],
  ["budget % 1000 == 0", (n) => numOf(n, "budget") !== null && numOf(n, "budget")! % 1000 === 0],
  ["(budget / hours) > 300", (n) => numOf(n, "budget") !== null && numOf(n, "budget")! / numOf(n, "hours")! > 300],
  ["price * quantity > 50", (n) => (numOf(n, "price") ?? 0) * (numOf(n, "quantity") ?? 0) > 50],
  ['note.status == "done"', (n) => fm(n).status === "done"],
  ['note["role"] == "lead"', (n) => fm(n).role === "lead"],
  // File properties and functions
  ['file.ext == "md"', (n) => md(n)],
  ['file.ext != "md"', (n) => !md(n)],
  ['file.hasTag("project")', (n) => hasTag(n, "project")],
  ['file.hasTag("client")', (n) => hasTag(n, "client")],
  ['file.hasTag("book", "person")', (n) => hasTag(n, "book", "person")],
  ['file.hasTag("urgent")', (n) => hasTag(n, "urgent")],
  ['file.inFolder("Projects")', (n) => n.path.startsWith("Projects/")],
  ['file.inFolder("Projects/Archive")', (n) => n.path.startsWith("Projects/Archive/")],
  ['file.hasLink("Atlas")', (n) => linksOf(n).includes("Atlas")],
  ['file.hasLink("Priya")', (n) => linksOf(n).includes("Priya")],
  ['file.hasProperty("rating")', (n) => "rating" in fm(n)],
  ['file.name == "Emma.md"', (n) => name(n) === "Emma.md"],
  ['file.basename.startsWith("Dune")', (n) => basename(n).startsWith("Dune")],
  ['file.folder == "People"', (n) => folder(n) === "People"],
  ['file.path.contains("Archive")', (n) => n.path.includes("Archive")],
  ["file.size > 0", () => true],
  ['file.tags.contains("#person")', (n) => tagsOf(n).includes("person")],
  ['file.links.contains(link("Atlas"))', (n) => linksOf(n).includes("Atlas")],
  ["file.links.length >= 2", (n) => linksOf(n).length >= 2],
  ['file.mtime > now() - "1 week"', (n) => mtime(n) > NOW.getTime() - 7 * DAY],
  ['file.mtime < today() - "1y"', (n) => mtime(n) < addMonths(today, -12)],
  ['file.properties.keys().contains("email")', (n) => "email" in fm(n)],
  // the Bases syntax page's compound filter: or / and / not
  ['!file.hasTag("book") && !file.inFolder("Projects") && file.ext == "md"', (n) => md(n) && !hasTag(n, "book") && !n.path.startsWith("Projects/")],
  // Dates
  ['due < date("2026-02-15")', (n) => dateOf(n, "due") !== null && dateOf(n, "due")! < local("2026-02-15")],
  ["due < now()", (n) => dateOf(n, "due") !== null && dateOf(n, "due")! < NOW.getTime()],
  ['due <= today() + "30d"', (n) => dateOf(n, "due") !== null && dateOf(n, "due")! <= today + 30 * DAY],
  ['start + "2w" > date("2026-01-20")', (n) => dateOf(n, "start") !== null && dateOf(n, "start")! + 14 * DAY > local("2026-01-20")],
  ['due - "1M" < date("2026-01-20")', (n) => dateOf(n, "due") !== null && addMonths(dateOf(n, "due")!, -1) < local("2026-01-20")],
  ["due.year == 2026 && due.month == 3", (n) => dateOf(n, "due") !== null && new Date(dateOf(n, "due")!).getFullYear() === 2026 && new Date(dateOf(n, "due")!).getMonth() === 2],
  ['due.format("YYYY-MM") == "2026-02"', (n) => strOf(n, "due")?.startsWith("2026-02") === true],
  ['start.time() == "14:00:00"', (n) => strOf(n, "start")?.endsWith("14:00") === true],
  ["(due - start) > 60 * 86400000", (n) => dateOf(n, "due") !== null && dateOf(n, "start") !== null && dateOf(n, "due")! - dateOf(n, "start")! > 60 * DAY],
  ['due > now() + (duration("1d") * 30)', (n) => dateOf(n, "due") !== null && dateOf(n, "due")! > NOW.getTime() + 30 * DAY],
  ["finished.date() == date(\"2025-08-14\")", (n) => strOf(n, "finished") === "2025-08-14"],
  // Lists
  ['genres.contains("classic")', (n) => listOf(n, "genres")?.includes("classic") === true],
  ['genres.containsAll("classic", "romance")', (n) => ["classic", "romance"].every((g) => listOf(n, "genres")?.includes(g))],
  ['genres.containsAny("sci-fi", "poetry")', (n) => ["sci-fi", "poetry"].some((g) => listOf(n, "genres")?.includes(g))],
  ['reviewers.contains(link("Tom Reyes"))', (n) => listOf(n, "reviewers")?.includes("[[Tom Reyes]]") === true],
  ["reviewers.length == 1", (n) => listOf(n, "reviewers")?.length === 1],
  ["tags.isEmpty()", (n) => !listOf(n, "tags")?.length],
  ['list(status).contains("paused")', (n) => fm(n).status === "paused"],
  ["genres[0] == \"classic\"", (n) => listOf(n, "genres")?.[0] === "classic"],
  ['genres.filter(value.startsWith("c")).length == 1', (n) => (listOf(n, "genres") ?? []).filter((g) => String(g).startsWith("c")).length === 1],
  ['genres.map(value.lower()).join(",") == "sci-fi,classic"', (n) => (listOf(n, "genres") ?? null)?.join(",") === "sci-fi,classic"],
  ['genres.sort()[0] == "classic"', (n) => listOf(n, "genres") !== null && [...listOf(n, "genres")!].sort()[0] === "classic"],
  ['genres.reverse()[0] == "romance"', (n) => listOf(n, "genres")?.[listOf(n, "genres")!.length - 1] === "romance"],
  ['tags.slice(1).contains("client/acme")', (n) => listOf(n, "tags")?.slice(1).includes("client/acme") === true],
  ["[rating, rating].unique().length == 1", (n) => true],
  ['[genres, ["x"]].flat().length == 3', (n) => (listOf(n, "genres")?.length ?? -1) === 2],
  ["[1,2,3].reduce(acc + value, 0) == 6", () => true],
  // Links
  ['owner == link("Priya")', (n) => fm(n).owner === "[[Priya]]"],
  ['owner.asFile().hasProperty("email")', (n) => fm(n).owner === "[[Priya]]"],
  ['owner.linksTo(link("Atlas"))', (n) => fm(n).owner === "[[Priya]]"],
  ['file.hasLink(link("Tom Reyes"))', (n) => linksOf(n).includes("Tom Reyes")],
  // Empty values
  ["rating.isEmpty()", (n) => numOf(n, "rating") === null],
  ["!start", (n) => !fm(n).start],
  ["start == null", (n) => fm(n).start === undefined],
  ["email.isEmpty() == false", (n) => !!strOf(n, "email")],
  ["owner.isTruthy()", (n) => !!fm(n).owner],
  // Strings
  ['title.lower().contains("co")', (n) => strOf(n, "title")?.toLowerCase().includes("co") === true],
  ['title.containsAll("A", "o")', (n) => ["A", "o"].every((s) => strOf(n, "title")?.includes(s))],
  ['title.containsAny("x", "y", "e")', (n) => ["x", "y", "e"].some((s) => strOf(n, "title")?.includes(s))],
  ['title.endsWith("relaunch")', (n) => strOf(n, "title")?.endsWith("relaunch") === true],
  ['title.trim() == "Cobalt migration"', (n) => strOf(n, "title")?.trim() === "Cobalt migration"],
  ['title.title() == "Beacon Relaunch"', (n) => strOf(n, "title") === "beacon relaunch"],
  ['title.slice(0, 4) == "Atla"', (n) => strOf(n, "title")?.slice(0, 4) === "Atla"],
  ["title.length > 10", (n) => (strOf(n, "title")?.length ?? 0) > 10],
  ['author.split(" ")[1] == "Austen"', (n) => strOf(n, "author")?.split(" ")[1] === "Austen"],
  ['author.replace(/(\\w+) (\\w+)/, "$2, $1") == "Herbert, Frank"', (n) => strOf(n, "author") === "Frank Herbert"],
  ['role.repeat(2) == "leadlead"', (n) => strOf(n, "role") === "lead"],
  ['role.reverse() == "dael"', (n) => strOf(n, "role") === "lead"],
  ['/^\\w+@example\\.com$/.matches(email)', (n) => /^\w+@example\.com$/.test(strOf(n, "email") ?? "")],
  ['escapeHTML(title).contains("&amp;")', (n) => strOf(n, "title")?.includes("&") === true],
  // Numbers and any
  ['(budget / 3).round(1) == 833.3', (n) => numOf(n, "budget") !== null && Math.round((numOf(n, "budget")! / 3) * 10) / 10 === 833.3],
  ['price.toFixed(1) == "20.0"', (n) => numOf(n, "price")?.toFixed(1) === "20.0"],
  ["hours.ceil() == 8", (n) => numOf(n, "hours") !== null && Math.ceil(numOf(n, "hours")!) === 8],
  ["hours.floor() == 7", (n) => numOf(n, "hours") !== null && Math.floor(numOf(n, "hours")!) === 7],
  ["(rating - 5).abs() >= 2", (n) => numOf(n, "rating") !== null && Math.abs(numOf(n, "rating")! - 5) >= 2],
  ['rating.isType("number") && !pages.isType("number")', (n) => numOf(n, "rating") !== null && numOf(n, "pages") === null],
  ['budget.toString() == "500"', (n) => numOf(n, "budget") === 500],
  ['number("3.4") + budget > 6000', (n) => (numOf(n, "budget") ?? -Infinity) + 3.4 > 6000],
  ["max(budget, 3000) == budget", (n) => numOf(n, "budget") !== null && numOf(n, "budget")! >= 3000],
  ["min(hours, 5) == hours", (n) => numOf(n, "hours") !== null && numOf(n, "hours")! <= 5],
  ['if(budget > 3000, "big", "small") == "big"', (n) => (numOf(n, "budget") ?? -Infinity) > 3000],
  ['if(rating, "rated") == "rated"', (n) => !!numOf(n, "rating")],
  ["number(read) == 1", (n) => fm(n).read === true],
  ["{\"a\": 1, \"b\": 2}.values().length == 2", () => true],
];

/** Paths of the fixture the evaluator lists for a filter (over every file, as a base without filters starts). */
function run(base: BaseSpec, extra: Parameters<typeof runQuery>[2] = { now: NOW }) {
  return runQuery(base, rows, { ...extra, now: NOW });
}
const EMPTY: BaseSpec = { formulas: {}, properties: {}, summaries: {}, views: [] };
const sorted = (xs: string[]) => [...xs].sort();

describe("Bases filters agree with the reference evaluation", () => {
  it("has at least 60 filter cases", () => expect(FILTERS.length).toBeGreaterThanOrEqual(60));
  it.each(FILTERS)("%s", (expr, ref) => {
    const got = run(EMPTY, { now: NOW, filters: [expr], limit: 1000 }).rows.map((r) => r.path);
    expect(sorted(got)).toEqual(sorted(NOTES.filter(ref).map((n) => n.path)));
  });
});

// ---- Formulas: value per project note. ----
const FORMULAS: [string, (n: FixtureNote) => unknown][] = [
  ['if(price, price.toFixed(2) + " dollars")', (n) => (numOf(n, "price") ? `${numOf(n, "price")!.toFixed(2)} dollars` : null)],
  ["price * quantity", (n) => (numOf(n, "price") !== null && numOf(n, "quantity") !== null ? numOf(n, "price")! * numOf(n, "quantity")! : null)],
  ["(budget / hours).toFixed(2)", (n) => (numOf(n, "budget")! / numOf(n, "hours")!).toFixed(2)],
  ['start + "2w"', (n) => (dateOf(n, "start") === null ? null : toDay(dateOf(n, "start")! + 14 * DAY, strOf(n, "start")!.includes(" ")))],
  ['if(due < now() && status != "done", "Overdue", "")', (n) => (dateOf(n, "due")! < NOW.getTime() && fm(n).status !== "done" ? "Overdue" : "")],
  ["tags.length", (n) => listOf(n, "tags")!.length],
  ["(rating * hours) / budget", (n) => (numOf(n, "rating") === null ? null : (numOf(n, "rating")! * numOf(n, "hours")!) / numOf(n, "budget")!)],
  ['file.basename + " - " + status', (n) => `${basename(n)} - ${String(fm(n).status)}`],
  ['due.format("dddd D MMMM YYYY")', (n) => new Date(dateOf(n, "due")!).toLocaleDateString("en-GB", { weekday: "long", day: "numeric", month: "long", year: "numeric" }).replace(",", "")],
  ['due.date().format("YYYY-MM-DD HH:mm:ss")', (n) => `${strOf(n, "due")} 00:00:00`],
  ["hours.round()", (n) => Math.round(numOf(n, "hours")!)],
  ["owner.asFile().file.name", (n) => `${String(fm(n).owner).slice(2, -2)}.md`],
  ['date("2024-12-01") + "1M" + "4h" + "3m"', () => "2025-01-01 04:03:00"],
  ["status.title()", (n) => String(fm(n).status)[0].toUpperCase() + String(fm(n).status).slice(1)],
  ['[1,2,3,4].map(value + 1).join("")', () => "2345"],
  ['tags.filter(value.contains("/")).map(value.split("/")[1])', (n) => listOf(n, "tags")!.map(String).filter((t) => t.includes("/")).map((t) => t.split("/")[1])],
];

function toDay(ms: number, withTime: boolean): string {
  const d = new Date(ms);
  const p = (x: number) => String(x).padStart(2, "0");
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}${withTime ? ` ${p(d.getHours())}:${p(d.getMinutes())}:00` : ""}`;
}

describe("Bases formulas agree with the reference evaluation", () => {
  it.each(FORMULAS)("%s", (formula, ref) => {
    const base: BaseSpec = { ...EMPTY, formulas: { f: formula } };
    const got = run(base, { now: NOW, filters: ['file.inFolder("Projects")'], properties: ["formula.f"] });
    const projects = NOTES.filter((n) => n.path.startsWith("Projects/"));
    expect(Object.fromEntries(got.rows.map((r) => [r.path, toJson(r.values["formula.f"])]))).toEqual(Object.fromEntries(projects.map((n) => [n.path, ref(n)])));
    expect(got.errors).toEqual([]);
  });

  it("lets a formula use another formula and refuses a cycle in one sentence", () => {
    const base: BaseSpec = { ...EMPTY, formulas: { rate: "budget / hours", marked: "formula.rate * 1.1", a: "formula.b", b: "formula.a" } };
    const got = run(base, { now: NOW, filters: ['file.inFolder("Projects")'], properties: ["formula.marked", "formula.a"] });
    const want = NOTES.filter((n) => n.path.startsWith("Projects/")).map((n) => [n.path, (numOf(n, "budget")! / numOf(n, "hours")!) * 1.1]);
    expect(Object.fromEntries(got.rows.map((r) => [r.path, r.values["formula.marked"]]))).toEqual(Object.fromEntries(want));
    expect(got.errors.some((e) => e.includes("refers to itself"))).toBe(true);
  });
});

// ---- Summaries, sort, limit, group-by. ----
const active = NOTES.filter((n) => fm(n).status === "active" || fm(n).status === "done");
const budgets = active.map((n) => numOf(n, "budget")!);
function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
}
/** Distinct values come in row order; the reference compares them as sets. */
const norm = (v: unknown) => (Array.isArray(v) ? [...(v as string[])].sort() : v);
const SUMMARIES: [string, string, unknown][] = [
  ["Sum", "budget", budgets.reduce((a, b) => a + b, 0)],
  ["Average", "budget", budgets.reduce((a, b) => a + b, 0) / budgets.length],
  ["Min", "budget", Math.min(...budgets)],
  ["Max", "budget", Math.max(...budgets)],
  ["Range", "budget", Math.max(...budgets) - Math.min(...budgets)],
  ["Median", "budget", median(budgets)],
  ["Count", "budget", active.length],
  ["Filled", "rating", active.filter((n) => numOf(n, "rating") !== null).length],
  ["Empty", "start", active.filter((n) => dateOf(n, "start") === null).length],
  ["Unique", "owner", new Set(active.map((n) => fm(n).owner)).size],
  ["Distinct", "status", [...new Set(active.map((n) => fm(n).status))]],
  ["Earliest", "due", toDay(Math.min(...active.map((n) => dateOf(n, "due")!)), false)],
  ["Latest", "due", toDay(Math.max(...active.map((n) => dateOf(n, "due")!)), false)],
];

describe("Bases summaries, sorting and grouping agree with the reference", () => {
  it.each(SUMMARIES)("%s of %s", (summary, prop, want) => {
    const got = run(EMPTY, { now: NOW, filters: ['status == "active" || status == "done"'], summaries: { [prop]: summary } });
    expect(norm(toJson(got.summaries[`${summary} of ${prop}`]))).toEqual(norm(want));
  });

  it("computes a custom summary formula over values (the syntax page's customAverage)", () => {
    const base: BaseSpec = { ...EMPTY, summaries: { customAverage: "values.mean().round(3)", total: "values.reduce(acc + value, 0)" } };
    const got = run(base, { now: NOW, filters: ['file.inFolder("Projects")'], summaries: { hours: "total", budget: "customAverage" } });
    const projects = NOTES.filter((n) => n.path.startsWith("Projects/"));
    expect(got.summaries["total of hours"]).toBe(projects.reduce((s, n) => s + numOf(n, "hours")!, 0));
    expect(got.summaries["customAverage of budget"]).toBe(Math.round((projects.reduce((s, n) => s + numOf(n, "budget")!, 0) / projects.length) * 1000) / 1000);
  });

  it("sorts by a property descending, then limits", () => {
    const got = run(EMPTY, { now: NOW, filters: ["budget > 0"], sort: [{ property: "budget", direction: "DESC" }], limit: 3 });
    const want = NOTES.filter((n) => numOf(n, "budget") !== null).sort((a, b) => numOf(b, "budget")! - numOf(a, "budget")!).slice(0, 3);
    expect(got.rows.map((r) => r.path)).toEqual(want.map((n) => n.path));
    expect(got.matched).toBe(NOTES.filter((n) => numOf(n, "budget") !== null).length);
  });

  it("sorts dates and puts empty values last", () => {
    const got = run(EMPTY, { now: NOW, filters: ['file.inFolder("Projects")'], sort: [{ property: "start", direction: "ASC" }] });
    const projects = NOTES.filter((n) => n.path.startsWith("Projects/"));
    const want = [...projects].sort((a, b) => (dateOf(a, "start") ?? Infinity) - (dateOf(b, "start") ?? Infinity));
    expect(got.rows.map((r) => r.path)).toEqual(want.map((n) => n.path));
  });

  it("groups by owner with a summary per group", () => {
    const got = run(EMPTY, { now: NOW, filters: ['file.inFolder("Projects")'], groupBy: { property: "owner", direction: "ASC" }, summaries: { budget: "Sum" } });
    const owners = [...new Set(NOTES.filter((n) => n.path.startsWith("Projects/")).map((n) => String(fm(n).owner)))].sort();
    expect(got.groups!.map((g) => toJson(g.key))).toEqual(owners);
    for (const g of got.groups!) {
      const want = NOTES.filter((n) => n.path.startsWith("Projects/") && fm(n).owner === toJson(g.key)).reduce((s, n) => s + numOf(n, "budget")!, 0);
      expect(g.summaries["Sum of budget"]).toBe(want);
    }
  });

  it("joins the base's and the view's filters with and, as the syntax page says", () => {
    const read = readBase({ filters: { or: ['file.hasTag("book")', 'file.inFolder("People")'] }, views: [{ type: "table", name: "Rated", filters: { not: ["rating.isEmpty()"] }, order: ["file.name", "rating"] }] });
    if (!read.ok) throw new Error(read.error);
    const got = run(read.base);
    expect(sorted(got.rows.map((r) => r.path))).toEqual(sorted(NOTES.filter((n) => (hasTag(n, "book") || n.path.startsWith("People/")) && numOf(n, "rating") !== null).map((n) => n.path)));
    expect(got.columns).toEqual(["file.name", "rating"]);
  });
});
