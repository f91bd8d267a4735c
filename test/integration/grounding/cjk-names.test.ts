/**
 * A vault whose names all start with characters the vocabulary spells only as byte pieces (CJK on the test model's
 * 8,192-token vocabulary): every path the grounded grammar admits begins with a character split over tokens. On the
 * random-weight test model, through the host's walker cache and generator with the UTF-8 guard the host uses, every
 * reply must complete under the grounded grammar and name only notes that exist, with llama.cpp holding the loose
 * twin (the walker holding the vault's rules) and with llama.cpp holding the grounded grammar itself.
 */
import { getLlama, TokenBias, type Token, type LlamaContext, type LlamaContextSequence, type LlamaModel } from "node-llama-cpp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GbnfRecognizer, SubsetCache } from "../../../src/core/grammar";
import { sentencePieceBytes, splitCharacterTokens } from "../../../src/core/grammar/utf8-guard";
import { VaultPathIndex } from "../../../src/core/grammar/vault-paths";
import { clampTools } from "../../../src/app/clamp-schema";
import { TEST_MODEL_CLAMP, TEST_MODEL_GRAMMAR } from "../../../src/node/compose";
import { createToolCatalog } from "../../../src/tools";
import { ToolRegistry } from "../../../src/tools/registry";
import { loadLlamaRuntime } from "../../../src/host/llama-runtime";
import { generateConstrained } from "../../../src/host/forced-text-generator";
import { GrammarWalkers } from "../../../src/host/grammar-walkers";
import { Utf8TokenGuard } from "../../../src/host/utf8-token-guard";
import { UTF8_BOUNDARY } from "../../../src/host/utf8-state";
import { testModelPath } from "../../helpers/test-model";
import { scaled } from "../../helpers/scale";

const REPLIES = scaled(60, 30);
const TOOLS = ["vault:read", "vault:delete"];
const SMALL = ["会议.md", "日記.md", "标签.md", "会议/周报.md", "日本語メモ.md", "项目计划.md", "読書.md"];
/** Over a hundred distinct first characters: the root of the tree is wider than any choice mask. */
const WIDE = Array.from({ length: 120 }, (_, i) => `${String.fromCodePoint(0x4e00 + i * 7)}${String.fromCodePoint(0x8bb0 + i)}.md`);
const PATHS = [...SMALL, ...WIDE];

let model: LlamaModel;
let context: LlamaContext;
let sequence: LlamaContextSequence;
beforeAll(async () => {
  await loadLlamaRuntime();
  const llama = await getLlama({ gpu: false, build: "never" });
  model = await llama.loadModel({ modelPath: await testModelPath() });
  context = await model.createContext({ contextSize: 4096, threads: 1 });
  sequence = context.getSequence();
});
afterAll(async () => {
  await context?.dispose();
  await model?.dispose();
});

function splitBan() {
  const meta = model.fileInfo.metadata as unknown as { tokenizer: { ggml: { tokens: string[]; token_type: number[] } } };
  const b = new TokenBias(model.tokenizer);
  for (const t of splitCharacterTokens(meta.tokenizer.ggml.tokens.map((p, i) => sentencePieceBytes(p, meta.tokenizer.ggml.token_type[i] === 3)))) b.set(t as Token, "never");
  return b;
}

function grounded() {
  const registry = new ToolRegistry(createToolCatalog());
  const cache = new SubsetCache(clampTools(registry.grammarTools(), TEST_MODEL_CLAMP), TEST_MODEL_GRAMMAR);
  const index = new VaultPathIndex();
  index.load(PATHS);
  cache.setVaultPaths(index);
  return { grammar: cache.get(TOOLS, "dynamic", { notes: [] }), index };
}

/**
 * `splitBan`: the base bias bans every token that is not a whole character (the tests' harness, loose-grammar.test.ts),
 * with no UTF-8 tracker; otherwise the host's UTF-8 guard (its bias at a boundary, its tracker).
 */
async function generate(loose: boolean, ban: boolean, n: number, seed0: number) {
  const { grammar, index } = grounded();
  const recognizer = new GbnfRecognizer(grammar.gbnf);
  const guard = Utf8TokenGuard.for(model);
  const base = ban ? splitBan() : guard.bias(UTF8_BOUNDARY);
  const walking = new GrammarWalkers(model).get(grammar.gbnf, base)!;
  const compiled = await model.llama.createGrammar({ grammar: grammar.gbnf });
  const failures: string[] = [];
  let paths = 0;
  for (let i = 0; i < n; i++) {
    const prompt = model.tokenize(`<|im_start|>user\nCall ${i}: read or delete a note.<|im_end|>\n<|im_start|>assistant\n`, true);
    const maxTokens = Math.min(grammar.maxBytes, 1024);
    let res;
    try {
      res = await generateConstrained({
        sequence, grammar: compiled, walker: walking.walker, masks: walking.masks,
        looseGrammar: loose ? walking.looseGrammar : undefined,
        prompt, maxTokens, temperature: 1, topP: 0.95, seed: seed0 + i,
        baseBias: base, utf8: ban ? undefined : guard.tracker(),
      });
    } catch (e) {
      failures.push(`seed ${seed0 + i}: ${(e as Error).message}`);
      continue;
    }
    if (res.stopReason !== "eos") {
      failures.push(`seed ${seed0 + i}: stopped by ${res.stopReason}: ${res.text.slice(0, 200)}`);
      continue;
    }
    if (!res.utf8Valid) failures.push(`seed ${seed0 + i}: not UTF-8`);
    if (!recognizer.accepts(res.text)) {
      failures.push(`seed ${seed0 + i}: not in the grounded grammar: ${res.text.slice(0, 300)}`);
      continue;
    }
    for (const c of (JSON.parse(res.text) as { tool_calls: { name: string; args: Record<string, unknown> }[] }).tool_calls) {
      const path = typeof c.args.path === "string" ? index.resolve(c.args.path) : null;
      if (path === null) failures.push(`seed ${seed0 + i}: missing path ${String(c.args.path)}`);
      else paths++;
    }
    if (model.detokenize(res.tokens, false, prompt.slice(-1)) !== res.text) failures.push(`seed ${seed0 + i}: tokens do not spell the text`);
    if (res.tokens.length > maxTokens) failures.push(`seed ${seed0 + i}: past the token cap`);
  }
  return { failures, paths };
}

describe("a vault whose names start with characters the vocabulary spells only in byte pieces (CJK)", () => {
  for (const loose of [true, false]) {
    for (const ban of [true, false]) {
      const holder = loose ? "llama.cpp holding the loose twin" : "llama.cpp holding the grounded grammar";
      const bias = ban ? "a base bias that bans split-character tokens" : "the host's UTF-8 guard";
      // Before the fix, with the split-character ban, llama.cpp's sampler was left with no admitted token at a
      // name's first character: it sampled one the grammar refuses (accept threw "Unexpected empty grammar stack")
      // or never returned.
      it(`${REPLIES} replies at temperature 1 complete under the grounded grammar and name only existing notes (${holder}, ${bias})`, { timeout: 300_000 }, async () => {
        const { failures, paths } = await generate(loose, ban, REPLIES, (loose ? 1 : 1001) + (ban ? 0 : 5000));
        console.log(`${holder}, ${bias}: ${paths} paths named`);
        expect(failures).toEqual([]);
        expect(paths).toBeGreaterThan(REPLIES / 4);
      });
    }
  }
});
