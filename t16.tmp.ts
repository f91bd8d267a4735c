import { getLlama, LlamaCompletion, TokenBias, type Token } from "node-llama-cpp";
import { cachedTestModel } from "./src/node/test-model/model-cache.ts";
import { compileEnvelopeGrammar } from "./src/core/grammar/index.ts";
const llama = await getLlama({ gpu: false, build: "never" });
const model = await llama.loadModel({ modelPath: cachedTestModel({}) });
const ctx = await model.createContext({ contextSize: 2048, threads: 1 });
const seq = ctx.getSequence();
const completion = new LlamaCompletion({ contextSequence: seq });
const pieces = (model.fileInfo.metadata as any).tokenizer.ggml.tokens as string[];
const byteTok = (b: number) => pieces.indexOf(`<0x${b.toString(16).toUpperCase().padStart(2, "0")}>`);
const only = (allowed: number[]) => { const b = new TokenBias(model.tokenizer); for (let t = 0; t < pieces.length; t++) if (!allowed.includes(t)) b.set(t as Token, "never"); return b; };
const conts = Array.from({ length: 64 }, (_, i) => byteTok(0x80 + i));
const variant = process.argv[2];
const gbnf = variant === "env" ? compileEnvelopeGrammar([], { maxThoughtChars: 48, maxMessageChars: 48 }).gbnf : process.argv[2];
const grammar = await llama.createGrammar({ grammar: gbnf });
const out: number[] = []; let forced = -1;
await completion.generateCompletion("hello", { grammar, temperature: 1, seed: 1, maxTokens: 40, tokenBias: () => {
  const text = model.detokenize(out as any);
  if (forced < 0 && text.startsWith('{"thought":"') && text.length > 50) { forced = 0; }
  if (forced >= 0 && forced < 3) { const k = forced++; return k === 0 ? only([byteTok(0xE2)]) : only(conts); }
  return new TokenBias(model.tokenizer); }, onToken: (t) => out.push(...t) });
console.log(out.map((x) => pieces[x]).join(" "));
