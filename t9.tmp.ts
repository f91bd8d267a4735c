import { getLlama, LlamaCompletion } from "node-llama-cpp";
import { compileEnvelopeGrammar } from "./src/core/grammar/index.ts";
import { cachedTestModel } from "./src/node/test-model/model-cache.ts";
const llama = await getLlama({ gpu: false, build: "never" });
const model = await llama.loadModel({ modelPath: cachedTestModel({}) });
const ctx = await model.createContext({ contextSize: 2048, threads: 1 });
const completion = new LlamaCompletion({ contextSequence: ctx.getSequence() });
const pieces = (model.fileInfo.metadata as any).tokenizer.ggml.tokens as string[];
const compiled = compileEnvelopeGrammar([], { maxThoughtChars: 48, maxMessageChars: 48 });
const grammar = await llama.createGrammar({ grammar: compiled.gbnf });
let found = 0;
for (let seed = 0; seed < 400 && found < 3; seed++) {
  const toks: number[] = [];
  const res = await completion.generateCompletionWithMeta("<|im_start|>user\nhi<|im_end|>\n<|im_start|>assistant\n", { grammar, temperature: 1, seed, maxTokens: compiled.maxBytes, onToken: (t) => toks.push(...t) });
  if (res.response.includes("\uFFFD")) {
    found++;
    const idx = toks.findIndex((t) => /^<0x/.test(pieces[t]));
    console.log(seed, JSON.stringify(res.response));
    console.log(toks.map(t => pieces[t]).filter((p, i) => /^<0x/.test(p)).join(" "), "| around:", toks.slice(Math.max(0, idx - 2), idx + 6).map(t => JSON.stringify(pieces[t])).join(" "));
  }
}
