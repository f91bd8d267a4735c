import { getLlama, LlamaCompletion, TokenBias, type Token } from "node-llama-cpp";
import { compileEnvelopeGrammar } from "./src/core/grammar/index.ts";
import { Utf8Guard, sentencePieceBytes } from "./src/core/grammar/utf8-guard.ts";
import { cachedTestModel } from "./src/node/test-model/model-cache.ts";
const llama = await getLlama({ gpu: false, build: "never" });
const model = await llama.loadModel({ modelPath: cachedTestModel({}) });
const ctx = await model.createContext({ contextSize: 2048, threads: 1 });
const sequence = ctx.getSequence();
const completion = new LlamaCompletion({ contextSequence: sequence });
const meta = model.fileInfo.metadata as any;
const guard = new Utf8Guard(meta.tokenizer.ggml.tokens.map((p: string, i: number) => sentencePieceBytes(p, meta.tokenizer.ggml.token_type[i] === 3)));
console.log("idle banned", guard.bannedAfter([]).length);
const biases = new Map<number[], TokenBias>();
let calls = 0, states: Record<number, number> = {};
const tokenBias = () => { calls++; const banned = guard.bannedAfter(sequence.contextTokens); states[banned.length] = (states[banned.length] ?? 0) + 1; let b = biases.get(banned); if (!b) { b = new TokenBias(model.tokenizer); for (const t of banned) b.set(t as Token, "never"); biases.set(banned, b); } return b; };
const compiled = compileEnvelopeGrammar([], { maxThoughtChars: 48, maxMessageChars: 48 });
const grammar = await llama.createGrammar({ grammar: compiled.gbnf });
for (const useBias of [true]) {
  const t0 = performance.now(); let bad = 0; let n = 0;
  for (let seed = 0; seed < 30; seed++) {
    const res = await completion.generateCompletionWithMeta("<|im_start|>user\nhi<|im_end|>\n<|im_start|>assistant\n", { grammar, temperature: 1, seed, maxTokens: compiled.maxBytes, tokenBias: useBias ? tokenBias : undefined, onToken: (t) => (n += t.length) });
    if (res.response.includes("\uFFFD")) bad++;
    try { JSON.parse(res.response); } catch { bad += 1000; console.log(JSON.stringify(res.response)); }
  }
  console.log(useBias, performance.now() - t0, n, bad, calls, JSON.stringify(states));
}
