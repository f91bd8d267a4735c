/**
 * `bench grammar`: compile speed on the realistic synthetic 50-tool catalog — the whole catalog,
 * random 3-tool subsets (uncached), and a subset-cache hit. Medians.
 */
import { z } from "zod";
import { SubsetCache, compileEnvelopeGrammar, type GrammarTool } from "../../core/grammar";
import { syntheticCatalog } from "./synthetic-catalog";

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

/** A deterministic sequence of 3-tool subsets. */
function subsets(tools: GrammarTool[], count: number): GrammarTool[][] {
  let x = 12345;
  const next = () => (x = (x * 1103515245 + 12345) % 2147483648) / 2147483648;
  return Array.from({ length: count }, () => {
    const picked = new Set<number>();
    while (picked.size < 3) picked.add(Math.floor(next() * tools.length));
    return [...picked].map((i) => tools[i]);
  });
}

/** This benchmark's line in `bench --help`. */
export const usage =
  "grammar [--json]   compile speed on the 50-tool synthetic catalog: whole catalog, random 3-tool subsets, subset-cache hit";

export async function run(): Promise<Record<string, unknown>> {
  const tools = syntheticCatalog().map((t) => ({ name: t.name, schema: z.toJSONSchema(t.args) }));
  const time = (f: () => void) => {
    const start = performance.now();
    f();
    return performance.now() - start;
  };

  // The first compile in a fresh process (no warm JIT, no memoized pattern work).
  const coldMs = time(() => compileEnvelopeGrammar(tools));
  for (let i = 0; i < 100; i++) compileEnvelopeGrammar(tools);
  const all = Array.from({ length: 300 }, () => time(() => compileEnvelopeGrammar(tools)));

  const picks = subsets(tools, 300);
  const subset3 = picks.map((p) => time(() => compileEnvelopeGrammar(p)));

  const cache = new SubsetCache(tools);
  const names = picks[0].map((t) => t.name);
  cache.get(names);
  const perHit: number[] = [];
  for (let round = 0; round < 31; round++) {
    const n = 2000;
    const start = performance.now();
    for (let i = 0; i < n; i++) cache.get(names);
    perHit.push(((performance.now() - start) / n) * 1000);
  }

  const full = compileEnvelopeGrammar(tools);
  const round = (x: number, d = 3) => Math.round(x * 10 ** d) / 10 ** d;
  return {
    tools: tools.length,
    compile_all_ms: round(median(all)),
    subset3_ms: round(median(subset3)),
    cache_hit_us: round(median(perHit)),
    compile_all_cold_ms: round(coldMs),
    gbnf_bytes_all: full.gbnf.length,
    relaxations_all: full.relaxations.length,
  };
}
