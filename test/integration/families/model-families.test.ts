/**
 * The per-family matrix: random-weight models with the real tokenizers and chat templates of Qwen2.5,
 * Qwen3, Llama 3.2, Phi-3.5, Gemma 2, Gemma 4 and SmolLM3, and of the hybrid recurrent/attention
 * Qwen3.5, LFM2 and Granite 4.0-H, through the real engine host. Few samples per
 * family by default; VAULT_AGENT_FAMILY_SAMPLES raises it. Three families unless VAULT_AGENT_FAMILIES says
 * otherwise (CI runs all): see test/helpers/families.ts.
 */
import { getLlama, type LlamaModel } from "node-llama-cpp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseEnvelope } from "../../../src/core/agent/envelope-parse";
import { compileEnvelopeGrammar } from "../../../src/core/grammar";
import type { EngineClient } from "../../../src/engine/client/engine-client";
import { createNodeEngine } from "../../../src/engine/client/node-launcher";
import { ChatFormats } from "../../../src/host/chat-formats";
import { loadLlamaRuntime } from "../../../src/host/llama-runtime";
import { FAMILIES, FAMILY_IDS, type FamilyId } from "../../../src/node/test-model/families";
import { testedFamilies } from "../../helpers/families";
import { familyModelPath } from "../../helpers/test-model";
import { validatorFor } from "../../unit/grammar/helpers/ajv";
import { syntheticGrammarTools } from "../../unit/grammar/helpers/catalog";

const SAMPLES = Number(process.env.VAULT_AGENT_FAMILY_SAMPLES) || 2;

/** What node-llama-cpp resolves for each family (logged by the host as the model's chatWrapper). */
const EXPECTED: Record<FamilyId, { wrapper: string; thinking: boolean }> = {
  "qwen2.5": { wrapper: "Qwen", thinking: false },
  qwen3: { wrapper: "Qwen", thinking: true },
  "llama3.2": { wrapper: "Llama 3.2 lightweight", thinking: false },
  "phi3.5": { wrapper: "JinjaTemplate", thinking: false },
  gemma2: { wrapper: "Gemma", thinking: false },
  gemma4: { wrapper: "Gemma 4", thinking: true },
  smollm3: { wrapper: "JinjaTemplate", thinking: true },
  "qwen3.5": { wrapper: "Qwen", thinking: true },
  lfm2: { wrapper: "ChatML", thinking: false },
  granite4h: { wrapper: "JinjaTemplate", thinking: false },
};

const TEXTS = [
  "The quick brown fox jumps over the lazy dog.",
  "Grüße aus München: Straße, Äpfel, Öl und Übermut.",
  "今天的会议记录在项目笔记里。",
  "日本語のテキスト、カタカナとひらがな。",
  "Emoji 🙂🎉👩‍💻 and flags 🇩🇪",
  '{"thought": "x", "tool_calls": [{"name": "vault:read", "args": {"path": "a/b.md"}}]}',
];

const tools = syntheticGrammarTools().filter((t) => ["vault:read", "vault:list", "task:add"].includes(t.name));
const validators = new Map(tools.map((t) => [t.name, validatorFor(t.schema)]));
const envelope = compileEnvelopeGrammar(tools, { maxThoughtChars: 24, maxMessageChars: 24, maxToolCalls: 1, maxStringChars: 16, maxItems: 2, maxKeys: 2 });
/** A short reply shape for the tests that are about the turn, not the envelope. */
const SHORT = 'root ::= "{\\"note\\": \\"" [a-z ]{1,12} "\\"}"';
const gbnfLiteral = (s: string) => JSON.stringify(s);

const tested = testedFamilies();

describe.each(FAMILY_IDS)("the %s family", (family) => {
  if (!tested.includes(family)) {
    it.skip(`runs with VAULT_AGENT_FAMILIES=all or =${family}`, () => {});
    return;
  }
  const spec = FAMILIES[family];
  let engine: EngineClient;
  let vocab: LlamaModel;
  let path: string;

  beforeAll(async () => {
    path = familyModelPath(family);
    engine = createNodeEngine({ model: { path, contextSize: 2048 } });
    // ChatFormats runs in this process too, on node-llama-cpp loaded as the host loads it.
    await loadLlamaRuntime();
    vocab = await (await getLlama({ gpu: false, build: "never" })).loadModel({ modelPath: path, vocabOnly: true });
  });
  afterAll(async () => {
    await engine?.shutdown();
    await vocab?.dispose();
  });

  it("loads, with the chat wrapper the real model gets", async () => {
    const info = await engine.loadModel();
    console.log(`${family}: chat wrapper ${info.chatWrapper}, thinking model ${info.thinkingModel}, architecture ${info.architecture}`);
    expect(info.architecture).toBe(spec.architecture);
    expect(info.chatWrapper).toBe(EXPECTED[family].wrapper);
    expect(info.thinkingModel).toBe(EXPECTED[family].thinking);
  });

  it("round-trips text exactly and counts tokens as the engine does", async () => {
    for (const text of TEXTS) {
      const tokens = vocab.tokenize(text);
      expect(vocab.detokenize(tokens), text).toBe(text);
      expect(await engine.countTokens(text)).toBe(tokens.length);
    }
  });

  it("puts the system prompt into what the model reads, with or without a system role in the template", () => {
    const formats = new ChatFormats(vocab);
    const history = [
      { type: "system" as const, text: "Answer from the vault notes only." },
      { type: "user" as const, text: "hello" },
      { type: "model" as const, response: [] },
    ];
    for (const wrapper of [formats.chat, formats.grammar]) {
      const prompt = vocab.detokenize(formats.promptTokens(history, wrapper), true);
      expect(prompt).toContain("Answer from the vault notes only.");
      expect(prompt.indexOf("Answer from the vault notes only.")).toBeLessThan(prompt.lastIndexOf("hello"));
    }
  });

  it.runIf(EXPECTED[family].thinking)("renders grammar turns with thinking off, as the template does for non-thinking mode", () => {
    const formats = new ChatFormats(vocab);
    const history = [
      { type: "system" as const, text: "Be brief." },
      { type: "user" as const, text: "hello" },
      { type: "model" as const, response: [] },
    ];
    const grammarPrompt = vocab.detokenize(formats.promptTokens(history, formats.grammar), true);
    const chatPrompt = vocab.detokenize(formats.promptTokens(history, formats.chat), true);
    if (family === "gemma4") {
      expect(chatPrompt).toContain("<|think|>");
      expect(grammarPrompt).not.toContain("<|think|>");
    } else {
      // Qwen3 and SmolLM3 close an empty think block right after the assistant header.
      expect(grammarPrompt).toMatch(/<think>\n\n<\/think>\n\n?$/);
      expect(chatPrompt).not.toMatch(/<\/think>\n\n?$/);
    }
    expect(formats.think?.close.trim()).toBe(family === "gemma4" ? "<channel|>" : "</think>");
  });

  it.runIf(EXPECTED[family].thinking)("thinks first when asked, within the bound, and keeps the thoughts out of the reply", async () => {
    const chunks: string[] = [];
    const r = await engine.generate({
      messages: [{ role: "user", content: "Plan, then answer with one note." }],
      grammar: SHORT,
      maxTokens: 64,
      temperature: 1,
      seed: 4,
      thinkFirst: { maxTokens: 12 },
      onText: (t) => chunks.push(t),
    });
    expect(r.thoughtTokens).toBeGreaterThan(0);
    expect(r.thoughtTokens).toBeLessThanOrEqual(12);
    expect(r.stopReason).toBe("eos");
    expect(Object.keys(JSON.parse(r.text) as object), r.text).toEqual(["note"]);
    expect(chunks.join("")).toBe(r.text);
    const withoutThinking = await engine.generate({ messages: [{ role: "user", content: "x" }], grammar: SHORT, maxTokens: 64, temperature: 1, seed: 4 });
    expect(withoutThinking.thoughtTokens ?? 0).toBe(0);
  });

  it(`samples ${SAMPLES} envelopes at temperature 1 that parse, validate and are valid UTF-8 bytes`, async () => {
    for (let seed = 1; seed <= SAMPLES; seed++) {
      const r = await engine.generate({
        messages: [{ role: "system", content: "Reply with one JSON envelope." }, { role: "user", content: `Task ${seed}: list my notes.` }],
        grammar: envelope.gbnf,
        maxTokens: envelope.maxBytes,
        temperature: 1,
        seed,
      });
      expect(r.stopReason, r.text).toBe("eos");
      expect(r.utf8Valid, r.text).toBe(true);
      const parsed = parseEnvelope(r.text);
      expect(parsed.ok, r.text).toBe(true);
      if (!parsed.ok) continue;
      expect(r.text.startsWith("{")).toBe(true);
      for (const call of parsed.envelope.tool_calls) expect(validators.get(call.name)?.(call.args), r.text).toBe(true);
    }
  });

  it('generates "你好🙂" where the grammar demands it', async () => {
    const r = await engine.generate({ messages: [{ role: "user", content: "Say hello." }], grammar: `root ::= ${gbnfLiteral('"你好🙂"')}`, maxTokens: 32, temperature: 1, seed: 3 });
    expect(r.text).toBe('"你好🙂"');
    expect(r.stopReason).toBe("eos");
    expect(r.utf8Valid).toBe(true);
  });

  it(`never ends a reply at its own end-of-turn text (${spec.endOfTurn}) inside a string`, async () => {
    const want = `{"thought": "notes about ${spec.endOfTurn} in prompts"}`;
    for (const seed of [1]) {
      const r = await engine.generate({ messages: [{ role: "user", content: "Write the note." }], grammar: `root ::= ${gbnfLiteral(want)}`, maxTokens: 64, temperature: 1, seed });
      expect(r.text).toBe(want);
      expect(r.stopReason).toBe("eos");
    }
  });

  it("reports a reply cut by maxTokens as cut, and an aborted one as aborted", async () => {
    const long = 'root ::= "{\\"thought\\": \\"" [a-z ]{200,400} "\\"}"';
    const cut = await engine.generate({ messages: [{ role: "user", content: "x" }], grammar: long, maxTokens: 8, temperature: 1, seed: 1 });
    expect(cut.stopReason).toBe("maxTokens");
    expect(cut.tokensOut).toBeGreaterThan(0);
    expect(cut.tokensOut).toBeLessThanOrEqual(8);
    const controller = new AbortController();
    let chunks = 0;
    const aborted = await engine.generate({
      messages: [{ role: "user", content: "x" }],
      grammar: long,
      maxTokens: 600,
      temperature: 1,
      seed: 2,
      signal: controller.signal,
      onText: () => {
        if (++chunks === 3) controller.abort();
      },
    });
    expect(aborted.stopReason).toBe("abort");
    expect(aborted.tokensOut).toBeLessThan(100);
  });

  it("reuses the conversation's evaluated prefix on the next turn", async () => {
    const messages = [
      { role: "system" as const, content: "You keep notes. ".repeat(20) },
      { role: "user" as const, content: "First question about the garden notes." },
    ];
    const first = await engine.generate({ messages, grammar: SHORT, maxTokens: 64, temperature: 1, seed: 5, conversationId: `reuse-${family}` });
    const second = await engine.generate({
      messages: [...messages, { role: "assistant", content: first.text }, { role: "user", content: "And the second one?" }],
      grammar: SHORT,
      maxTokens: 64,
      temperature: 1,
      seed: 6,
      conversationId: `reuse-${family}`,
    });
    expect(first.tokensEvaluated).toBeGreaterThan(0);
    // Only the new turn (and the re-rendered previous reply) is evaluated again, never the long system prompt.
    expect(second.tokensIn).toBeGreaterThan(first.tokensIn);
    expect(second.tokensEvaluated).toBeLessThanOrEqual(second.tokensIn - first.tokensIn + first.tokensOut + 8);
  });
});
