/**
 * Forced-text generation on the random-weight test model: jumps over forced text and choice masks
 * must keep every guarantee of plain grammar sampling — hundreds of envelopes at temperature 1 that
 * all parse, validate, are in the grammar's language and are whole UTF-8 — and stream, stop and cut
 * the way generation does.
 */
import { getLlama, LlamaGrammarEvaluationState, TokenBias, type LlamaContext, type LlamaContextSequence, type LlamaModel, type Token } from "node-llama-cpp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GbnfRecognizer, GbnfWalker, compileEnvelopeGrammar, type GrammarTool } from "../../../src/core/grammar";
import { ENVELOPE_STATUS_VALUES } from "../../../src/core/grammar/envelope";
import { sentencePieceBytes, splitCharacterTokens } from "../../../src/core/grammar/utf8-guard";
import { ChoiceMasks } from "../../../src/host/choice-masks";
import { loadLlamaRuntime } from "../../../src/host/llama-runtime";
import { generateConstrained, type ConstrainedGenerationInput } from "../../../src/host/forced-text-generator";
import { TokenTexts } from "../../../src/host/token-texts";
import { sealBias, sealedBiasArrays, useSealedBiases } from "../../../src/host/sealed-bias";
import { testModelPath } from "../../helpers/test-model";
import { validatorFor } from "../../unit/grammar/helpers/ajv";
import { syntheticGrammarTools } from "../../unit/grammar/helpers/catalog";
import { seededRandom } from "../../unit/grammar/helpers/rng";
import { scaled } from "../../helpers/scale";

const ENVELOPES = scaled(300, 150);
const PER_SUBSET = 10;
const OPTIONS = { maxThoughtChars: 48, maxMessageChars: 48, maxToolCalls: 2, maxStringChars: 48, maxItems: 3, maxKeys: 3 };

/** Tighter length and count bounds keep each random envelope short; the schema stays as strict as before. */
function tighten(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(tighten);
  if (typeof schema !== "object" || schema === null) return schema;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(schema)) out[k] = k === "enum" || k === "const" ? v : tighten(v);
  if (typeof out.maxLength === "number") out.maxLength = Math.max(Math.min(out.maxLength, 48), (out.minLength as number | undefined) ?? 0);
  if (typeof out.maxItems === "number") out.maxItems = Math.max(Math.min(out.maxItems, 3), (out.minItems as number | undefined) ?? 0);
  return out;
}

/** node-llama-cpp's own grammar bindings (the ones its token predictors use), to ask llama.cpp directly. */
function llamaGrammar(state: LlamaGrammarEvaluationState) {
  return (state as unknown as { _llama: { _bindings: { AddonSampler: {
    acceptGrammarEvaluationStateToken(s: unknown, t: Token): void;
    canBeNextTokenForGrammarEvaluationState(s: unknown, t: Token): boolean;
  } } } })._llama._bindings.AddonSampler;
}
const grammarState = (state: LlamaGrammarEvaluationState) => (state as unknown as { _state: unknown })._state;

let model: LlamaModel;
let context: LlamaContext;
let splitBan: TokenBias;
let sequence: LlamaContextSequence;
beforeAll(async () => {
  await loadLlamaRuntime();
  const llama = await getLlama({ gpu: false, build: "never" });
  model = await llama.loadModel({ modelPath: await testModelPath() });
  // One thread: the default count is hundreds of times slower on small shared machines.
  context = await model.createContext({ contextSize: 2048, threads: 1 });
  sequence = context.getSequence();
  const meta = model.fileInfo.metadata as unknown as { tokenizer: { ggml: { tokens: string[]; token_type: number[] } } };
  splitBan = new TokenBias(model.tokenizer);
  for (const t of splitCharacterTokens(meta.tokenizer.ggml.tokens.map((p, i) => sentencePieceBytes(p, meta.tokenizer.ggml.token_type[i] === 3)))) splitBan.set(t as Token, "never");
});
afterAll(async () => {
  await context?.dispose();
  await model?.dispose();
});

const simpleTools: GrammarTool[] = [
  { name: "vault:read", schema: { type: "object", properties: { path: { type: "string", maxLength: 24 } }, required: ["path"], additionalProperties: false } },
  { name: "task:add", schema: { type: "object", properties: { text: { type: "string", maxLength: 24 }, done: { type: "boolean" } }, required: ["text", "done"], additionalProperties: false } },
];

async function setup(tools: GrammarTool[], mode: "dynamic" | "static" = "dynamic") {
  const compiled = compileEnvelopeGrammar(tools, { ...OPTIONS, mode });
  const grammar = await model.llama.createGrammar({ grammar: compiled.gbnf });
  const walker = new GbnfWalker(compiled.gbnf);
  return { compiled, grammar, walker, masks: new ChoiceMasks(model, walker, splitBan), recognizer: new GbnfRecognizer(compiled.gbnf) };
}

function input(s: Awaited<ReturnType<typeof setup>>, prompt: string, extra: Partial<ConstrainedGenerationInput> = {}): ConstrainedGenerationInput {
  return {
    sequence,
    grammar: s.grammar,
    walker: s.walker,
    masks: s.masks,
    prompt: model.tokenize(prompt, true),
    maxTokens: s.compiled.maxBytes,
    temperature: 1,
    topP: 0.95,
    baseBias: splitBan,
    ...extra,
  };
}

describe("forced-text generation", () => {
  it(`yields ${ENVELOPES} envelopes across tool subsets that all parse, validate and are whole UTF-8, sampling fewer tokens than it produces`, async () => {
    const { grammarCatalog } = await import("../../../src/node/commands/grammar");
    const real = (await grammarCatalog()).tools.map((t) => ({ name: `real/${t.name}`, schema: t.schema }));
    const catalog: GrammarTool[] = [...syntheticGrammarTools(), ...real].map((t) => ({ name: t.name, schema: tighten(t.schema) as Record<string, unknown> }));
    const validators = new Map(catalog.map((t) => [t.name, validatorFor(t.schema)]));
    const random = seededRandom(11);
    const failures: string[] = [];
    let envelopes = 0;
    let calls = 0;
    let produced = 0;
    let sampled = 0;
    for (let subset = 0; envelopes < ENVELOPES; subset++) {
      const size = Math.floor(random() * 5);
      const offered = [...catalog].sort(() => random() - 0.5).slice(0, size);
      const mode = subset % 10 === 9 ? "static" : "dynamic";
      const s = await setup(offered, mode);
      for (let k = 0; k < PER_SUBSET && envelopes < ENVELOPES; k++) {
        const prompt = `<|im_start|>user\nTurn ${subset}.${k}: use ${offered.map((t) => t.name).join(", ") || "no tools"}.<|im_end|>\n<|im_start|>assistant\n`;
        let streamed = "";
        const res = await generateConstrained({ ...input(s, prompt, { seed: subset * 100 + k }), onText: (t) => (streamed += t) });
        envelopes++;
        produced += res.tokens.length;
        sampled += res.sampled;
        const text = res.text;
        const fail = (why: string) => failures.push(`${why}: ${text.slice(0, 300)}`);
        if (res.stopReason !== "eos") fail(`stopped by ${res.stopReason}`);
        if (streamed !== text) fail("streamed text differs from the result");
        if (model.detokenize(res.tokens, false, model.tokenize(prompt, true).slice(-1)) !== text) fail("tokens do not spell the text");
        if (res.sampled + res.forced !== res.tokens.length) fail("sampled + forced is not the produced count");
        if (Buffer.byteLength(text) > s.compiled.maxBytes) fail("longer than maxBytes");
        if (text.includes("\uFFFD")) fail("ill-formed UTF-8");
        if (!s.recognizer.accepts(text)) fail("not in the grammar's language");
        let envelope: Record<string, unknown>;
        try {
          envelope = JSON.parse(text) as Record<string, unknown>;
        } catch {
          fail("JSON.parse failed");
          continue;
        }
        if (Object.keys(envelope).join() !== "thought,status,message_to_user,tool_calls") fail("wrong keys");
        if (typeof envelope.thought !== "string" || [...envelope.thought].length > OPTIONS.maxThoughtChars) fail("bad thought");
        if (!ENVELOPE_STATUS_VALUES.includes(envelope.status as never)) fail("bad status");
        if (envelope.message_to_user !== null && typeof envelope.message_to_user !== "string") fail("bad message_to_user");
        const toolCalls = envelope.tool_calls as Array<{ name: string; args: unknown }>;
        if (!Array.isArray(toolCalls) || toolCalls.length > OPTIONS.maxToolCalls) fail("bad tool_calls");
        for (const call of toolCalls ?? []) {
          calls++;
          if (!offered.some((t) => t.name === call.name)) fail(`tool ${call.name} was not offered`);
          else if (mode === "dynamic" && !validators.get(call.name)!(call.args)) fail(`args invalid for ${call.name}`);
          else if (typeof call.args !== "object" || call.args === null || Array.isArray(call.args)) fail("args not an object");
        }
      }
    }
    console.log(`forced-text generation: ${envelopes} envelopes, ${calls} tool calls, ${produced} tokens produced, ${sampled} sampled, ${failures.length} failures`);
    expect(failures).toEqual([]);
    expect(calls).toBeGreaterThan(ENVELOPES / 4);
    // The envelope's keys and punctuation are forced: a real share of the tokens is never sampled.
    expect(sampled).toBeLessThan(produced * 0.9);
  });

  it("evaluates the same envelope without jumps (llama.cpp's grammar with choice masks only)", async () => {
    const s = await setup(simpleTools);
    const res = await generateConstrained(input(s, "<|im_start|>user\nRead a note.<|im_end|>\n<|im_start|>assistant\n", { seed: 3, jumpForward: false }));
    expect(res.forced).toBe(0);
    expect(res.sampled).toBe(res.tokens.length);
    expect(s.recognizer.accepts(res.text)).toBe(true);
  });

  it("streams forced text as it is produced: the opening arrives before the prompt's first sample", async () => {
    const s = await setup(simpleTools);
    const events: string[] = [];
    const res = await generateConstrained(
      input(s, "<|im_start|>user\nAdd a task.<|im_end|>\n<|im_start|>assistant\n", {
        seed: 5,
        onText: (t) => events.push(t),
        onPromptEvaluated: () => events.push("<prompt evaluated>"),
      }),
    );
    expect(events.filter((e) => e !== "<prompt evaluated>").join("")).toBe(res.text);
    expect(events[0].startsWith('{"thought')).toBe(true);
    expect(events[1]).toBe("<prompt evaluated>");
    expect(res.forced).toBeGreaterThan(0);
  });

  it("stops on abort with a prefix of an envelope and stopReason abort", async () => {
    const s = await setup(simpleTools);
    const controller = new AbortController();
    let chunks = 0;
    const res = await generateConstrained(
      input(s, "<|im_start|>user\nRead a note.<|im_end|>\n<|im_start|>assistant\n", {
        seed: 9,
        signal: controller.signal,
        onText: () => {
          if (++chunks === 4) controller.abort();
        },
      }),
    );
    expect(res.stopReason).toBe("abort");
    expect(chunks).toBe(4);
    expect(s.recognizer.acceptsPrefix(res.text)).toBe(true);
    expect(s.recognizer.accepts(res.text)).toBe(false);
  });

  it("returns at once, with nothing produced, when the signal is already aborted", async () => {
    const s = await setup(simpleTools);
    const controller = new AbortController();
    controller.abort();
    const res = await generateConstrained(input(s, "<|im_start|>user\nHi<|im_end|>\n<|im_start|>assistant\n", { signal: controller.signal }));
    expect(res).toMatchObject({ stopReason: "abort", text: "", sampled: 0, forced: 0 });
  });

  it("reports a cut at maxTokens as maxTokens, forced tokens counted, never past the cap", async () => {
    const s = await setup(simpleTools);
    for (const maxTokens of [1, 3, 7]) {
      const res = await generateConstrained(input(s, "<|im_start|>user\nHi<|im_end|>\n<|im_start|>assistant\n", { seed: 2, maxTokens }));
      expect(res.stopReason).toBe("maxTokens");
      expect(res.tokens.length).toBeGreaterThanOrEqual(1);
      expect(res.tokens.length).toBeLessThanOrEqual(maxTokens + 0);
      expect(s.recognizer.acceptsPrefix(res.text)).toBe(true);
    }
  });

  it("passes every produced token, forced ones included, through the UTF-8 guard and reports what it saw", async () => {
    const s = await setup(simpleTools);
    const seen: Token[] = [];
    let biasCalls = 0;
    const utf8 = {
      atBoundary: true,
      broken: false,
      bias: () => (biasCalls++, splitBan),
      push: (t: Token) => void seen.push(t),
    };
    const res = await generateConstrained(input(s, "<|im_start|>user\nRead a note.<|im_end|>\n<|im_start|>assistant\n", { seed: 4, utf8 }));
    expect(seen).toEqual(res.tokens);
    expect(res.forced).toBeGreaterThan(0);
    expect(res.utf8Valid).toBe(true);
    // Always at a character boundary: the guard's own bias is never needed in place of a mask.
    expect(biasCalls).toBe(0);
    utf8.broken = true;
    expect((await generateConstrained(input(s, "<|im_start|>user\nHi<|im_end|>\n<|im_start|>assistant\n", { seed: 4, utf8 }))).utf8Valid).toBe(false);
  });

  it("copies llama.cpp's grammar state only to heal a boundary, never per step (a copy costs in proportion to the grammar)", async () => {
    const s = await setup(simpleTools);
    const proto = LlamaGrammarEvaluationState.prototype as unknown as { clone(): unknown };
    const clone = proto.clone;
    let copies = 0;
    proto.clone = function (this: unknown) {
      copies++;
      return clone.call(this);
    };
    let sampled = 0;
    let forced = 0;
    try {
      for (const seed of [1, 2, 3, 4, 5, 6]) {
        const res = await generateConstrained(input(s, "<|im_start|>user\nRead a note.<|im_end|>\n<|im_start|>assistant\n", { seed }));
        expect(s.recognizer.accepts(res.text)).toBe(true);
        sampled += res.sampled;
        forced += res.forced;
      }
    } finally {
      proto.clone = clone;
    }
    console.log(`grammar state copies: ${copies} for ${sampled} sampled and ${forced} forced tokens`);
    expect(forced).toBeGreaterThan(0);
    // A heal replaces a sampled token that runs into forced text (a status or a tool name): a few per envelope.
    expect(copies).toBeLessThanOrEqual(6 * 4);
  });

  it("reuses the evaluated prompt prefix of the sequence on the next turn", async () => {
    const s = await setup(simpleTools);
    const prompt = "<|im_start|>system\nYou keep notes for the user, in a vault of markdown files.<|im_end|>\n<|im_start|>user\nHi<|im_end|>\n<|im_start|>assistant\n";
    const first = await generateConstrained(input(s, prompt, { seed: 1 }));
    const second = await generateConstrained(input(s, prompt, { seed: 2 }));
    expect(first.promptEvaluated).toBeGreaterThan(model.tokenize(prompt, true).length / 2);
    expect(second.promptEvaluated).toBe(1);
    expect(s.recognizer.accepts(second.text)).toBe(true);
  });
});

describe("choice masks", () => {
  it("admit exactly the tokens llama.cpp's grammar accepts at each small choice of an envelope", async () => {
    const s = await setup(simpleTools);
    const texts = TokenTexts.of(model);
    const prefixes = [
      '{"thought',
      '{"thought":"hi","status":"',
      '{"thought":"hi","status":"Idle","message_to_user":',
      '{"thought":"hi","status":"Idle","message_to_user":null,"tool_calls":',
      '{"thought":"hi","status":"Idle","message_to_user":null,"tool_calls":[{"name":"',
      '{"thought":"hi","status":"Idle","message_to_user":null,"tool_calls":[{"name":"task:add","args":{"text":"x","done":',
    ];
    for (const prefix of prefixes) {
      const pos = s.walker.advance(s.walker.start(), prefix)!;
      const admitted = new Set(s.masks.admitted(pos));
      expect(admitted.size).toBeGreaterThan(0);
      // What llama.cpp's grammar says of every token of the vocabulary that has text, after the prefix.
      const state = new LlamaGrammarEvaluationState({ model, grammar: s.grammar });
      const prefixTokens = model.tokenize(prefix, false, "trimLeadingSpace");
      expect(model.detokenize(prefixTokens)).toBe(prefix);
      for (const t of prefixTokens) llamaGrammar(state).acceptGrammarEvaluationStateToken(grammarState(state), t);
      const expected = new Set<number>();
      texts.texts.forEach((text, id) => {
        if (text !== null && llamaGrammar(state).canBeNextTokenForGrammarEvaluationState(grammarState(state), id as Token)) expected.add(id);
      });
      expect([...admitted].sort((a, b) => a - b)).toEqual([...expected].sort((a, b) => a - b));
    }
  });

  it("inside a string allow exactly the tokens the grammar admits there: no ban of a token it can hold, a ban of every quote or backslash token it refuses, plain tokens capped at the room left, and near the cap a lift of every token that fits", async () => {
    const s = await setup(simpleTools);
    const texts = TokenTexts.of(model);
    const entries = (b: TokenBias) => {
      // Entries add up in llama.cpp's logit-bias sampler (a ban and a lift of one token stay a ban).
      const sum = new Map<number, number>();
      for (const [t, v] of (b as unknown as { _biases: Iterable<[number, number]> })._biases) sum.set(t, (sum.get(t) ?? 0) + v);
      return sum;
    };
    const forms = new Set<string>();
    for (const left of [48, 4, 1]) {
      const prefix = '{"thought":"' + "x".repeat(48 - left);
      const pos = s.walker.advance(s.walker.start(), prefix)!;
      const bias = entries(s.masks.at(pos)!);
      const lift = [...bias.values()].some((v) => v > 0);
      forms.add(lift ? "lift" : "ban");
      let excluded = 0;
      texts.texts.forEach((text, id) => {
        if (text === null) return;
        const ok = s.recognizer.acceptsPrefix(prefix + text);
        const allowed = lift ? (bias.get(id) ?? 0) > 0 : bias.get(id) !== -Infinity;
        if (!allowed) excluded++;
        // Both ways: a token the grammar refuses here would be rejected by llama.cpp, which then walks the whole vocabulary.
        expect(allowed, `${JSON.stringify(text)} ${ok ? "excluded" : "allowed"} with ${left} characters left`).toBe(ok);
      });
      expect(excluded).toBeGreaterThan(0);
    }
    // With one character left most plain tokens are too long: the lift is the shorter list there.
    expect([...forms].sort()).toEqual(["ban", "lift"]);
  });

  it("inside a pattern's run of one class lift exactly the tokens the grammar admits, at every room left", async () => {
    const tags: GrammarTool = {
      name: "tag:add",
      schema: { type: "object", properties: { tags: { type: "array", maxItems: 3, items: { type: "string", pattern: "^#?[A-Za-z0-9_/-]{1,24}$" } } }, required: ["tags"], additionalProperties: false },
    };
    const s = await setup([tags]);
    const texts = TokenTexts.of(model);
    const head = '{"thought":"hi","status":"Task","message_to_user":null,"tool_calls":[{"name":"tag:add","args":{"tags":["';
    let lifted = 0;
    for (const tag of ["#", "#a", "x".repeat(12), "#" + "y".repeat(23), "b", "Z".repeat(23)]) {
      const prefix = head + tag;
      const pos = s.walker.advance(s.walker.start(), prefix)!;
      const bias = s.masks.at(pos)!;
      const sum = new Map<number, number>();
      for (const [t, v] of (bias as unknown as { _biases: Iterable<[number, number]> })._biases) sum.set(t, (sum.get(t) ?? 0) + v);
      const lift = [...sum.values()].some((v) => v > 0);
      if (lift) lifted++;
      texts.texts.forEach((text, id) => {
        if (text === null) return;
        const allowed = lift ? (sum.get(id) ?? 0) > 0 : sum.get(id) !== -Infinity;
        expect(allowed, `${JSON.stringify(text)} after ${JSON.stringify(tag)}`).toBe(s.recognizer.acceptsPrefix(prefix + text));
      });
    }
    // Every position above but the one after "#" alone is inside the run (there the class must still come).
    expect(lifted).toBeGreaterThanOrEqual(5);
  });

  it("share the string lists of one model between grammars (each holds about one entry per vocabulary token)", async () => {
    const one = await setup(simpleTools);
    const two = await setup([simpleTools[0]]);
    const inThought = (x: Awaited<ReturnType<typeof setup>>) => x.masks.at(x.walker.advance(x.walker.start(), '{"thought":"ab')!)!;
    const a = sealedBiasArrays(inThought(one))!;
    const b = sealedBiasArrays(inThought(two))!;
    expect(a.keys.length).toBeGreaterThan(0);
    expect(b.keys.buffer).toBe(a.keys.buffer);
  });

  it("compute a bounded repetition's masks once per position of the grammar, not once per count", async () => {
    const walker = new GbnfWalker("root ::= [a-z ]{1500,1999}");
    const masks = new ChoiceMasks(model, walker, splitBan);
    let pos = walker.start();
    for (let k = 0; k < 1999; k++) {
      masks.at(pos);
      pos = walker.step(pos, 0x61);
    }
    // One mask for the long middle, then one per count within a token's length of either bound
    // (the horizon: the longest token text, at least 33 characters on this vocabulary).
    const horizon = Math.max(TokenTexts.of(model).longest, 33);
    expect(masks.size).toBeLessThanOrEqual(2 * (horizon + 2) + 1);
    // Each mask walks at most one token per admitted token plus the tokens that die on the way.
    expect(masks.walkSteps).toBeLessThan(masks.size * 4000);
  });

  it("give no mask where a choice admits a large share of the vocabulary, and a mask to a small choice", async () => {
    const walker = new GbnfWalker('root ::= [a-z ]{1,9} | "Task" | "Idle"');
    const masks = new ChoiceMasks(model, walker, splitBan);
    expect(masks.at(walker.advance(walker.start(), "a")!)).toBeUndefined();
    const status = new GbnfWalker('root ::= "Task" | "Idle" | "Reflect"');
    const small = new ChoiceMasks(model, status, splitBan);
    expect(small.at(status.start())).toBeDefined();
  });
});

describe("sealed biases", () => {
  it("reach llama.cpp unchanged and are read once: a sealed ban samples what node-llama-cpp's own path samples with the same seed, never a banned token", async () => {
    const texts = TokenTexts.of(model);
    const banned = new Set<number>();
    texts.texts.forEach((text, id) => {
      if (text !== null && /[eo]/.test(text)) banned.add(id);
    });
    const plain = new TokenBias(model.tokenizer);
    for (const t of banned) plain.set(t as Token, "never");
    // The sealed copy counts how often its entries are read.
    const entries = [...(plain as unknown as { _biases: Map<Token, number> })._biases];
    let reads = 0;
    const sealed = new TokenBias(model.tokenizer);
    (sealed as unknown as { _biases: Iterable<[Token, number]> })._biases = {
      [Symbol.iterator]() {
        reads++;
        return entries[Symbol.iterator]();
      },
    };
    sealBias(sealed);
    const prompt = model.tokenize("Write a short note:", true);
    const other = await model.createContext({ contextSize: 512, threads: 1 });
    try {
      const sample = async (seq: LlamaContextSequence, bias: TokenBias) => {
        await seq.clearHistory();
        const out: Token[] = [];
        for await (const t of seq.evaluate(prompt, { temperature: 1, topP: 0.95, seed: 7, tokenBias: () => bias, yieldEogToken: true })) {
          if (model.isEogToken(t) || out.push(t) >= 48) break;
        }
        return out;
      };
      const theirs = await sample(other.getSequence(), plain);
      expect(useSealedBiases(sequence)).toBe(true);
      const ours = await sample(sequence, sealed);
      expect(ours).toEqual(theirs);
      expect(ours.length).toBe(48);
      expect(ours.filter((t) => banned.has(t))).toEqual([]);
      expect(reads).toBe(1);
    } finally {
      await other.dispose();
    }
  });
});
