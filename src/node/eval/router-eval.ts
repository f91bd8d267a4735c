/**
 * `eval --suite router`: the router alone, text scores only (no model, no embeddings): per language, top-3
 * recall and chat-only recall/precision on the suite, the held-out set and the blind set; and BFCL recall with all of the
 * sample's functions as one catalog.
 */
import { ToolRouter } from "../../core/router/tool-router";
import { createToolCatalog } from "../../tools/index";
import { bfclRouteMetrics, type BfclRouteMetrics } from "./bfcl-route";
import { loadBfcl } from "./bfcl";
import { languageCases, ROUTE_SETS, SUITE_LANGUAGES, type RouteSet } from "./language-suites";
import { PLAN_SETS, planCases, planMetrics, type PlanCase, type PlanMetrics, type PlanSet } from "./multistep-suite";
import { routeMetrics, type RouteMetrics } from "./route-metrics";

export interface LanguageRow {
  language: string;
  set: RouteSet;
  metrics: Omit<RouteMetrics, "misses">;
  misses: RouteMetrics["misses"];
}

/** One language's multi-step suite (or all languages together, "all"; every language but English, "other"). */
export interface PlanRow {
  language: string;
  set: PlanSet;
  metrics: Omit<PlanMetrics, "misses">;
  misses: PlanMetrics["misses"];
}

export interface RouterEvalResult {
  languages: LanguageRow[];
  plans: PlanRow[];
  bfcl: Omit<BfclRouteMetrics, "misses"> | { error: string };
}

/** The router as the chat pane builds it without an embedding model (web tools included: they are in the catalog). */
export function defaultRouter(): ToolRouter {
  return new ToolRouter(createToolCatalog({ semantic: false }));
}

export function languageRows(router = defaultRouter()): LanguageRow[] {
  const rows: LanguageRow[] = [];
  for (const set of ROUTE_SETS) {
    for (const language of SUITE_LANGUAGES) {
      const { misses, ...metrics } = routeMetrics(router, languageCases(language, set));
      rows.push({ language, set, metrics, misses });
    }
  }
  return rows;
}

/** The multi-step suite per language, scored on the first round's offer, with totals for all and for non-English. */
export function planRows(router = defaultRouter()): PlanRow[] {
  const tools = createToolCatalog({ semantic: false });
  const catalog = tools.map((t) => t.name);
  const writers = new Set(tools.filter((t) => t.effect !== "read").map((t) => t.name));
  const score = (cases: PlanCase[]): PlanMetrics =>
    planMetrics(cases, (q) => router.routeText(q), catalog, (n) => writers.has(n));
  const rows: PlanRow[] = [];
  for (const set of PLAN_SETS) {
    const all: PlanCase[] = [];
    const other: PlanCase[] = [];
    for (const language of SUITE_LANGUAGES) {
      const cases = planCases(language, set);
      all.push(...cases);
      if (language !== "en") other.push(...cases);
      const { misses, ...metrics } = score(cases);
      rows.push({ language, set, metrics, misses });
    }
    for (const [language, cases] of [["other", other], ["all", all]] as const) {
      const { misses, ...metrics } = score(cases);
      rows.push({ language, set, metrics, misses });
    }
  }
  return rows;
}

export function runRouterEval(bfclDir?: string): RouterEvalResult {
  let bfcl: RouterEvalResult["bfcl"];
  try {
    const { misses: _misses, ...rest } = bfclRouteMetrics(loadBfcl(bfclDir));
    bfcl = rest;
  } catch (err) {
    bfcl = { error: (err as Error).message };
  }
  return { languages: languageRows(), plans: planRows(), bfcl };
}

export function formatRouterEval(result: RouterEvalResult): string {
  const head = ["language", "set", "tool reqs", "top-3 recall", "unsure", "chat items", "chat recall", "chat precision"];
  const body = result.languages.map((r) => [
    r.language,
    r.set,
    String(r.metrics.tool_cases),
    r.metrics.top3_recall.toFixed(3),
    r.metrics.unsure.toFixed(3),
    String(r.metrics.chat_cases),
    r.metrics.chat_recall.toFixed(3),
    r.metrics.chat_precision.toFixed(3),
  ]);
  const lines = [...table(head, body), "", ...planTable(result.plans), ""];
  const b = result.bfcl;
  if ("error" in b) lines.push(`BFCL: ${b.error}`);
  else lines.push(`BFCL, all ${b.functions} functions as one catalog, ${b.items} requests: top-1 ${b.top1}, top-3 ${b.top3}, top-10 ${b.top10} (mean ${b.route_ms_mean} ms per request)`);
  return lines.join("\n");
}

/** Columns padded to their widest cell; the first two left-aligned, the rest right-aligned. */
function table(head: string[], body: string[][]): string[] {
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((b) => b[i].length)));
  const line = (cells: string[]): string => cells.map((c, i) => (i < 2 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join("  ");
  return [line(head), line(widths.map((w) => "-".repeat(w))), ...body.map(line)];
}

function planTable(rows: readonly PlanRow[]): string[] {
  const head = ["language", "set", "requests", "whole plan", "first step", "mean offered", "read-only with writers"];
  const body = rows.map((r) => [
    r.language,
    r.set,
    String(r.metrics.cases),
    r.metrics.whole_plan.toFixed(3),
    r.metrics.first_step.toFixed(3),
    r.metrics.mean_offered.toFixed(2),
    r.metrics.readonly_writers.toFixed(3),
  ]);
  return ["Multi-step requests, first round's offer (whole plan: every step has one of its tools on offer):", ...table(head, body)];
}
