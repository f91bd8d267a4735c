import { runSamplingBench } from "./src/engine/bench/sampling-bench.ts";
import { cachedTestModel } from "./src/node/test-model/model-cache.ts";
import { compileEnvelopeGrammar } from "./src/core/grammar/index.ts";
const LIMITS = { maxThoughtChars: 200, maxMessageChars: 200, maxToolCalls: 2 };
const nlc = { type: "object", properties: { thought: { type: "string", maxLength: 200 }, status: { enum: ["Task", "Reflect", "Idle", "Process"] }, message_to_user: { oneOf: [{ type: "string", maxLength: 200 }, { type: "null" }] }, tool_calls: { type: "array", maxItems: 0 } }, required: ["thought", "status", "message_to_user", "tool_calls"], additionalProperties: false };
const r = await runSamplingBench({ modelPath: cachedTestModel({ vocab: 32000 }), gbnf: compileEnvelopeGrammar([], LIMITS).gbnf, nlcSchema: nlc, runs: 16, log: console.log });
console.log(r);
