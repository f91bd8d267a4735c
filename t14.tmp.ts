import { getLlama } from "node-llama-cpp";
import { cachedTestModel } from "./src/node/test-model/model-cache.ts";
const llama = await getLlama({ gpu: false, build: "never" });
const model = await llama.loadModel({ modelPath: cachedTestModel({}) });
const tk = (model.fileInfo.metadata as any).tokenizer.ggml;
const i = tk.tokens.indexOf("<0xE2>");
console.log(i, tk.token_type[i], tk.model, JSON.stringify(model.detokenize([i] as any, true)), JSON.stringify(model.detokenize([tk.tokens.indexOf("<0x19>")] as any)));
