import { runSamplingBench } from "./src/engine/bench/sampling-bench.ts";
import { cachedTestModel } from "./src/node/test-model/model-cache.ts";
import { compileEnvelopeGrammar } from "./src/core/grammar/index.ts";
import { envelopeJsonSchema } from "./src/node/bench/sampling.ts";
import { syntheticCatalog } from "./src/node/bench/synthetic-catalog.ts";
import { z } from "zod";
function allRequired(schema: any): any { const out = { ...schema }; if (out.properties) { out.properties = Object.fromEntries(Object.entries(out.properties).map(([k, v]: any) => [k, typeof v === "object" ? allRequired(v) : v])); out.required = Object.keys(out.properties); } if (out.items && typeof out.items === "object") out.items = allRequired(out.items); return out; }
const LIMITS = { maxThoughtChars: 200, maxMessageChars: 200, maxToolCalls: 2 };
for (const name of ["vault:read", "vault:list", "search:text", "task:add", "daily:open"]) {
  const tools = syntheticCatalog().filter(t => t.name === name).map(t => ({ name: t.name, schema: allRequired(z.toJSONSchema(t.args)) }));
  const r = await runSamplingBench({ modelPath: cachedTestModel({ vocab: 32000 }), gbnf: compileEnvelopeGrammar(tools, LIMITS).gbnf, nlcSchema: envelopeJsonSchema(tools), runs: 10 });
  console.log(name, r.envelope_ms_per_token, r.nlc_ms_per_token, r.ratio_vs_nlc, JSON.stringify(r.tokens));
}
