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
import { routeMetrics, type RouteMetrics } from "./route-metrics";

export interface LanguageRow {
  language: string;
  set: RouteSet;
  metrics: Omit<RouteMetrics, "misses">;
  misses: RouteMetrics["misses"];
}

export interface RouterEvalResult {
  languages: LanguageRow[];
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

export function runRouterEval(bfclDir?: string): RouterEvalResult {
  let bfcl: RouterEvalResult["bfcl"];
  try {
    const { misses: _misses, ...rest } = bfclRouteMetrics(loadBfcl(bfclDir));
    bfcl = rest;
  } catch (err) {
    bfcl = { error: (err as Error).message };
  }
  return { languages: languageRows(), bfcl };
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
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((b) => b[i].length)));
  const line = (cells: string[]): string => cells.map((c, i) => (i < 2 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join("  ");
  const lines = [line(head), line(widths.map((w) => "-".repeat(w))), ...body.map(line), ""];
  const b = result.bfcl;
  if ("error" in b) lines.push(`BFCL: ${b.error}`);
  else lines.push(`BFCL, all ${b.functions} functions as one catalog, ${b.items} requests: top-1 ${b.top1}, top-3 ${b.top3}, top-10 ${b.top10} (mean ${b.route_ms_mean} ms per request)`);
  return lines.join("\n");
}
