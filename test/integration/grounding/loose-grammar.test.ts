/**
 * Grounded grammars with llama.cpp holding their loose twin (vault-loose.ts): the vault's rules become free string
 * content for llama.cpp, and the engine host's walker holds them (exact masks inside them, every sampled token checked
 * before it is evaluated). On the random-weight test model, through the host's own walker cache and generator, every
 * envelope must stay in the grounded grammar's language: existing paths only, headings and text of the note in
 * context, the vault's tags. A model pushed toward text the vault lacks (a bias that lifts tokens no path holds, and
 * the end of generation) must be put back, never evaluated.
 */
import { getLlama, LlamaGrammarEvaluationState, TokenBias, type LlamaContext, type LlamaContextSequence, type LlamaModel, type Token } from "node-llama-cpp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GbnfRecognizer, SubsetCache } from "../../../src/core/grammar";
import { parseGbnf } from "../../../src/core/grammar/gbnf-parser";
import { printGbnf } from "../../../src/core/grammar/gbnf-printer";
import { GrammarSampler } from "../../../src/core/grammar/sampler";
import { sentencePieceBytes, splitCharacterTokens } from "../../../src/core/grammar/utf8-guard";
import { looseGrounding, LOOSE_RULE } from "../../../src/core/grammar/vault-loose";
import { VaultPathIndex } from "../../../src/core/grammar/vault-paths";
import { VaultTagSet } from "../../../src/core/grammar/vault-tags";
import { clampTools } from "../../../src/app/clamp-schema";
import { TEST_MODEL_CLAMP, TEST_MODEL_GRAMMAR } from "../../../src/node/compose";
import { createToolCatalog } from "../../../src/tools";
import { ToolRegistry } from "../../../src/tools/registry";
import { loadLlamaRuntime } from "../../../src/host/llama-runtime";
import { generateConstrained } from "../../../src/host/forced-text-generator";
import { GrammarStates } from "../../../src/host/grammar-states";
import { GrammarWalkers } from "../../../src/host/grammar-walkers";
import { TokenTexts } from "../../../src/host/token-texts";
import { testModelPath } from "../../helpers/test-model";
import { scaled } from "../../helpers/scale";

const ENVELOPES = scaled(120, 60);
const TOOLS = ["vault:read", "vault:edit", "vault:delete", "tags:notes"];
/** Names whose first characters are more than a choice mask takes (64), so the root of the tree is a large choice. */
const FIRSTS = [..."ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789ÄÖÜéñ"];
const PATHS = [
  ...FIRSTS.map((c, i) => `${c}${["lpha", "eta plan", "-notes", "ourney"][i % 4]}.md`),
  "Projects/Alpha.md",
  "Projects/Beta plan.md",
  "Café/Crème brûlée.md",
  "日本/メモ.md",
  "Emoji 🚀 launch.md",
  'Quotes "x" and \\ back.md',
  "Files/scan.pdf",
];
const NOTE = {
  path: "Projects/Alpha.md",
  text: "# Alpha\nLaunch on Friday, après review.\n## Risks\nBudget is \"tight\" — 日本 too.\n## Next steps\n- call Maya\n",
  headings: ["Alpha", "Risks", "Next steps"],
};
const TAGS = ["work", "work/q3", "home", "café"];

let model: LlamaModel;
let context: LlamaContext;
let sequence: LlamaContextSequence;
let splitBan: TokenBias;
beforeAll(async () => {
  await loadLlamaRuntime();
  const llama = await getLlama({ gpu: false, build: "never" });
  model = await llama.loadModel({ modelPath: await testModelPath() });
  context = await model.createContext({ contextSize: 4096, threads: 1 });
  sequence = context.getSequence();
  const meta = model.fileInfo.metadata as unknown as { tokenizer: { ggml: { tokens: string[]; token_type: number[] } } };
  splitBan = new TokenBias(model.tokenizer);
  for (const t of splitCharacterTokens(meta.tokenizer.ggml.tokens.map((p, i) => sentencePieceBytes(p, meta.tokenizer.ggml.token_type[i] === 3)))) splitBan.set(t as Token, "never");
});
afterAll(async () => {
  await context?.dispose();
  await model?.dispose();
});

function grounded(paths = PATHS, notes = [NOTE]) {
  const registry = new ToolRegistry(createToolCatalog());
  const cache = new SubsetCache(clampTools(registry.grammarTools(), TEST_MODEL_CLAMP), TEST_MODEL_GRAMMAR);
  const index = new VaultPathIndex();
  index.load(paths);
  cache.setVaultPaths(index);
  const tags = new VaultTagSet();
  tags.set(TAGS);
  cache.setVaultTags(tags);
  return { grammar: cache.get(TOOLS, "dynamic", { notes }), index, tags };
}

/** Why an envelope misses the vault, or null when every reference exists. */
function miss(text: string, index: VaultPathIndex, tags: VaultTagSet): string | null {
  const env = JSON.parse(text) as { tool_calls: { name: string; args: Record<string, unknown> }[] };
  for (const { name, args } of env.tool_calls) {
    if (name === "tags:notes") {
      if (typeof args.tag !== "string" || !tags.has(args.tag)) return `missing tag ${String(args.tag)}`;
      continue;
    }
    const path = typeof args.path === "string" ? index.resolve(args.path) : null;
    if (path === null) return `missing path ${String(args.path)}`;
    if (path !== NOTE.path) continue;
    if (typeof args.heading === "string" && !NOTE.headings.includes(args.heading)) return `missing heading ${args.heading}`;
    if (typeof args.find === "string" && !NOTE.text.includes(args.find)) return `find not in the note: ${args.find}`;
  }
  return null;
}

/** Generates envelopes with llama.cpp holding the loose twin; returns the failures and what was seen. */
async function generate(bias: TokenBias, n: number, seed0: number, paths = PATHS, notes = [NOTE]) {
  const { grammar, index, tags } = grounded(paths, notes);
  const recognizer = new GbnfRecognizer(grammar.gbnf);
  const walking = new GrammarWalkers(model).get(grammar.gbnf, bias)!;
  expect(walking.looseGrammar).toBeDefined();
  const compiled = await model.llama.createGrammar({ grammar: grammar.gbnf });
  let looseUsed = 0;
  const looseGrammar = async () => {
    const g = await walking.looseGrammar!();
    if (g) looseUsed++;
    return g;
  };
  const failures: string[] = [];
  const seen = { envelopes: 0, calls: 0, notePaths: 0, finds: 0, headings: 0, tags: 0 };
  for (let i = 0; i < n; i++) {
    const prompt = model.tokenize(`<|im_start|>user\nCall ${i}: read, edit or delete a note, or list a tag's notes.<|im_end|>\n<|im_start|>assistant\n`, true);
    const res = await generateConstrained({
      sequence, grammar: compiled, walker: walking.walker, masks: walking.masks, looseGrammar,
      prompt, maxTokens: Math.min(grammar.maxBytes, 1024), temperature: 1, topP: 0.95, seed: seed0 + i, baseBias: bias,
    });
    if (res.stopReason !== "eos") {
      failures.push(`stopped by ${res.stopReason}: ${res.text.slice(0, 200)}`);
      continue;
    }
    seen.envelopes++;
    if (!recognizer.accepts(res.text)) failures.push(`not in the grounded grammar: ${res.text.slice(0, 300)}`);
    else {
      const why = miss(res.text, index, tags);
      if (why) failures.push(why);
      for (const c of (JSON.parse(res.text) as { tool_calls: { name: string; args: Record<string, unknown> }[] }).tool_calls) {
        seen.calls++;
        if (c.name === "tags:notes") seen.tags++;
        if (typeof c.args.path === "string" && index.resolve(c.args.path) === NOTE.path) seen.notePaths++;
        if (typeof c.args.find === "string") seen.finds++;
        if (typeof c.args.heading === "string") seen.headings++;
      }
    }
    if (model.detokenize(res.tokens, false, prompt.slice(-1)) !== res.text) failures.push("tokens do not spell the text");
    if (res.sampled + res.forced !== res.tokens.length) failures.push("sampled + forced is not the produced count");
    if (res.tokens.length > Math.min(grammar.maxBytes, 1024)) failures.push("past the token cap");
  }
  return { failures, seen, looseUsed };
}

describe("a grounded grammar's loose twin", () => {
  it("admits every text of the grounded grammar, holds none of the vault's rules, and is the plain envelope's size", () => {
    const { grammar } = grounded();
    const loose = looseGrounding(parseGbnf(grammar.gbnf))!;
    const text = printGbnf(loose);
    expect(text).not.toMatch(/\b(vpt|vnt|vtg)-/);
    expect(text).toContain(LOOSE_RULE);
    expect(text.length).toBeLessThan(grammar.gbnf.length / 2);
    const looseRecognizer = new GbnfRecognizer(text);
    const sampler = new GrammarSampler(grammar.gbnf, { random: (() => { let s = 5; return () => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32); })() });
    for (let i = 0; i < 300; i++) {
      const sample = sampler.sample();
      expect(looseRecognizer.accepts(sample), sample).toBe(true);
    }
    // And it is looser: a path the vault lacks.
    expect(looseRecognizer.accepts(JSON.stringify({ thought: "", status: "Task", message_to_user: null, tool_calls: [{ name: "vault:delete", args: { path: "Nowhere.md" } }] }))).toBe(true);
  });

  it("masks exactly inside the vault's rules: at a tree root wider than a small choice, inside a name, a tag and the note's text, the lifted tokens are the ones llama.cpp's grounded grammar accepts", { timeout: 300_000 }, async () => {
    const { grammar } = grounded();
    const walking = new GrammarWalkers(model).get(grammar.gbnf, splitBan)!;
    const { walker, masks } = walking;
    const compiled = await model.llama.createGrammar({ grammar: grammar.gbnf });
    const texts = TokenTexts.of(model);
    const bindings = (state: LlamaGrammarEvaluationState) => (state as unknown as { _llama: { _bindings: { AddonSampler: {
      acceptGrammarEvaluationStateToken(s: unknown, t: Token): void;
      canBeNextTokenForGrammarEvaluationState(s: unknown, t: Token): boolean;
    } } }; _state: unknown });
    const call = (json: string) => `{"thought":"hi","status":"Task","message_to_user":null,"tool_calls":[${json}`;
    const prefixes = [
      call('{"name":"vault:delete","args":{"path":"'),
      call('{"name":"vault:delete","args":{"path":"Projects/'),
      call('{"name":"vault:delete","args":{"path":"Caf'),
      call('{"name":"tags:notes","args":{"tag":"'),
      call('{"name":"vault:edit","args":{"path":"Projects/Alpha.md","find":"'),
      call('{"name":"vault:edit","args":{"path":"Projects/Alpha.md","find":"Budget is'),
    ];
    const banned = new Set((splitBan as unknown as { _biases: Map<Token, number> })._biases.keys());
    for (const prefix of prefixes) {
      const pos = walker.advance(walker.start(), prefix);
      expect(pos, prefix).not.toBeNull();
      expect(walker.marked(pos!), prefix).toBe(true);
      const bias = masks.exact(pos!);
      const state = new LlamaGrammarEvaluationState({ model, grammar: compiled });
      const b = bindings(state);
      const prefixTokens = model.tokenize(prefix, false, "trimLeadingSpace");
      expect(model.detokenize(prefixTokens)).toBe(prefix);
      for (const t of prefixTokens) b._llama._bindings.AddonSampler.acceptGrammarEvaluationStateToken(b._state, t);
      const expected: number[] = [];
      texts.texts.forEach((text, id) => {
        if (text !== null && !banned.has(id as Token) && b._llama._bindings.AddonSampler.canBeNextTokenForGrammarEvaluationState(b._state, id as Token)) expected.push(id);
      });
      // Where a character is admitted that no whole token begins (the vocabulary spells it in pieces), there is no
      // mask: llama.cpp's grounded grammar then takes over (the generator's own test below).
      const next = walker.nextChars(pos!, 4096)!;
      if (next.some((c) => !expected.some((t) => texts.texts[t]!.codePointAt(0) === c))) {
        expect(bias, prefix).toBeNull();
        continue;
      }
      expect(bias, prefix).not.toBeNull();
      const lifted = [...(bias as unknown as { _biases: Map<Token, number> })._biases].filter(([, v]) => v > 0).map(([t]) => t as number);
      expect(lifted.sort((x, y) => x - y), prefix).toEqual(expected.sort((x, y) => x - y));
    }
    // The root of the tree has more first characters than a small choice takes: only the exact mask covers it.
    expect(walker.nextChars(walker.advance(walker.start(), prefixes[0])!, 64)).toBeNull();
  });

  it(`on the random-weight test model, with llama.cpp holding the loose twin: ${ENVELOPES} envelopes name only the vault's paths, the note's headings and text, and its tags`, { timeout: 900_000 }, async () => {
    const { failures, seen, looseUsed } = await generate(splitBan, ENVELOPES, 1);
    console.log(`loose twin: ${JSON.stringify(seen)}`);
    expect(failures).toEqual([]);
    expect(looseUsed).toBe(ENVELOPES);
    expect(seen.envelopes).toBe(ENVELOPES);
    expect(seen.calls).toBeGreaterThan(ENVELOPES / 2);
    expect(seen.notePaths + seen.tags).toBeGreaterThan(0);
  });

  it("puts back what a model pushed off the vault samples (tokens no path holds, the end of generation): nothing missing is ever evaluated", { timeout: 900_000 }, async () => {
    // Lifted as high as the masks lift admitted tokens: at every step inside a path, half the mass or more is on text
    // the vault does not have, which llama.cpp's loose grammar accepts.
    const pushed = new TokenBias(model.tokenizer);
    for (const [t, v] of (splitBan as unknown as { _biases: Map<Token, number> })._biases) pushed.set(t, { logit: v });
    for (const text of ["Zq", "Nowhere", "zz", "~", "Xy"]) for (const t of model.tokenize(text, false, "trimLeadingSpace")) pushed.set(t, { logit: 1000 });
    const eos = model.tokens.eos;
    if (eos !== null) pushed.set(eos, { logit: 1000 });
    const proto = GrammarStates.prototype as unknown as { restart(tokens: Token[], grammar?: unknown): void };
    const restart = proto.restart;
    let putBack = 0;
    proto.restart = function (this: unknown, tokens: Token[], grammar?: unknown) {
      putBack++;
      return restart.call(this, tokens, grammar);
    };
    try {
      const { failures, seen } = await generate(pushed, scaled(40, 20), 500);
      console.log(`pushed off the vault: ${JSON.stringify(seen)}, ${putBack} tokens put back`);
      expect(failures).toEqual([]);
      expect(putBack).toBeGreaterThan(0);
    } finally {
      proto.restart = restart;
    }
  });
});
