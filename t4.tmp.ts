import { getLlama, LlamaCompletion } from "node-llama-cpp";
import { cachedTestModel } from "./src/node/test-model/model-cache.ts";
import { compileEnvelopeGrammar } from "./src/core/grammar/index.ts";
import { syntheticCatalog } from "./src/node/bench/synthetic-catalog.ts";
import { z } from "zod";
const cat = syntheticCatalog().map(t => ({ name: t.name, schema: z.toJSONSchema(t.args) as Record<string, unknown> }));
const opts = { maxThoughtChars: 40, maxMessageChars: 40, maxToolCalls: 2, maxStringChars: 40, maxItems: 3, maxKeys: 3 };
const per = cat.map(t => ({ t, b: compileEnvelopeGrammar([t], opts).maxBytes })).sort((a,b)=>a.b-b.b);
console.log(per.map(p => `${p.t.name}:${p.b}`).join(" "));
const t0 = performance.now();
const path = cachedTestModel({});
console.log("model", path, performance.now() - t0);
const llama = await getLlama({ gpu: false, build: "never" });
const model = await llama.loadModel({ modelPath: path });
const ctx = await model.createContext({ contextSize: 4096, threads: 1 });
const completion = new LlamaCompletion({ contextSequence: ctx.getSequence() });
const small = per.filter(p => p.b < 4000).map(p => p.t);
const g = compileEnvelopeGrammar(small.slice(0, 4), opts);
const grammar = await llama.createGrammar({ grammar: g.gbnf });
for (let i = 0; i < 5; i++) {
  const s = performance.now(); let n = 0;
  const res = await completion.generateCompletionWithMeta("<|im_start|>user\nhi<|im_end|>\n<|im_start|>assistant\n", { grammar, temperature: 1, seed: i, maxTokens: g.maxBytes, onToken: (t) => { n += t.length; } });
  console.log(performance.now() - s, n, res.metadata.stopReason, res.response.slice(0, 300));
  try { JSON.parse(res.response); console.log("ok"); } catch (e) { console.log("PARSE FAIL"); }
}
