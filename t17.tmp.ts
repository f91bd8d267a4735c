process.on("unhandledRejection", (e) => { console.log("UNHANDLED", String(e)); console.log((globalThis as any).__gen?.join(" ")); console.log((globalThis as any).__log?.slice(-6).join("\n")); process.exit(1); });
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
const pieces = meta.tokenizer.ggml.tokens;
const guard = new Utf8Guard(pieces.map((p: string, i: number) => sentencePieceBytes(p, meta.tokenizer.ggml.token_type[i] === 3)));
const log: string[] = []; (globalThis as any).__log = log;
const tokenBias = () => { const ct = sequence.contextTokens; const banned0 = guard.bannedAfter(ct); const banned = banned0.length > 100 ? banned0 : []; log.push(`${ct.length} ${ct.slice(-2).map((t: number) => pieces[t]).join("|")} banned=${banned.length}`); const b = new TokenBias(model.tokenizer); for (const t of banned) b.set(t as Token, "never"); return b; };
const compiled = compileEnvelopeGrammar([], { maxThoughtChars: 48, maxMessageChars: 48 });
const grammar = await llama.createGrammar({ grammar: compiled.gbnf });
const gen: string[] = []; (globalThis as any).__gen = gen;
try {
for (let seed = 0; seed < 30; seed++) {
  log.length = 0; gen.length = 0;
  const res = await completion.generateCompletionWithMeta("<|im_start|>user\nhi<|im_end|>\n<|im_start|>assistant\n", { grammar, temperature: 1, seed, maxTokens: compiled.maxBytes, tokenBias, onToken: (t) => gen.push(...t.map((x: number) => pieces[x])) });
  if (res.response.includes("\uFFFD")) { console.log(seed, gen.join(" ")); console.log(log.slice(-40).join("\n")); break; }
}
} catch (e) { console.log(String(e)); console.log(gen.join(" ")); console.log(log.slice(-20).join("\n")); }
