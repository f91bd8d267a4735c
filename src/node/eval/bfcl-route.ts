/** Router recall on BFCL: every function of the sample as one catalog; is each request's function in the top 1/3/10? */
import { parseCatalog } from "../../core/router/catalog";
import { ToolRouter } from "../../core/router/tool-router";
import { baseName, bfclCatalog, bfclRequest, type BfclItem } from "./bfcl";

export interface BfclRouteMetrics {
  items: number;
  functions: number;
  top1: number;
  top3: number;
  top10: number;
  /** Per category: top-3 recall. */
  top3_by_category: Record<string, number>;
  /** Mean routing time per request, ms (text only). */
  route_ms_mean: number;
  misses: { id: string; expected: string; got: string[] }[];
}

const ratio = (n: number, d: number): number => (d ? Math.round((1000 * n) / d) / 1000 : 0);

export function bfclRouteMetrics(items: readonly BfclItem[]): BfclRouteMetrics {
  const catalog = bfclCatalog(items);
  const router = new ToolRouter(parseCatalog(catalog));
  let top1 = 0;
  let top3 = 0;
  let top10 = 0;
  const byCat = new Map<string, { n: number; hit: number }>();
  const misses: BfclRouteMetrics["misses"] = [];
  let ms = 0;
  for (const item of items) {
    const expected = item.answer[0].name;
    const started = performance.now();
    // Repeats of one name count once: the ranking is of distinct functions.
    const ranked = [...new Set(router.rankText(bfclRequest(item), 40).map((t) => baseName(t.name)))].slice(0, 10);
    ms += performance.now() - started;
    const at = ranked.indexOf(expected);
    if (at === 0) top1++;
    if (at >= 0 && at < 3) top3++;
    if (at >= 0) top10++;
    const c = byCat.get(item.category) ?? { n: 0, hit: 0 };
    c.n++;
    if (at >= 0 && at < 3) c.hit++;
    byCat.set(item.category, c);
    if (at < 0 || at >= 3) misses.push({ id: item.id, expected, got: ranked.slice(0, 3) });
  }
  return {
    items: items.length,
    functions: catalog.length,
    top1: ratio(top1, items.length),
    top3: ratio(top3, items.length),
    top10: ratio(top10, items.length),
    top3_by_category: Object.fromEntries([...byCat].map(([k, v]) => [k, ratio(v.hit, v.n)])),
    route_ms_mean: Math.round((ms / Math.max(1, items.length)) * 1000) / 1000,
    misses,
  };
}
