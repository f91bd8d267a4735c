/**
 * Real sampling: the random-weight test model at temperature 1, constrained only by our envelope
 * grammars, must produce envelopes that all parse and validate — across many tool subsets.
 */
import { getLlama, LlamaCompletion, TokenBias, type LlamaContext, type LlamaModel, type Token } from "node-llama-cpp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GbnfRecognizer, compileEnvelopeGrammar, type GrammarTool } from "../../../src/core/grammar";
import { ENVELOPE_STATUS_VALUES } from "../../../src/core/grammar/envelope";
import { sentencePieceBytes, splitCharacterTokens } from "../../../src/core/grammar/utf8-guard";
import { testModelPath } from "../../helpers/test-model";
import { validatorFor } from "../../unit/grammar/helpers/ajv";
import { syntheticGrammarTools } from "../../unit/grammar/helpers/catalog";
import { seededRandom } from "../../unit/grammar/helpers/rng";
import { scaled } from "../../helpers/scale";

const ENVELOPES = scaled(500, 200);
const PER_SUBSET = 10;
const OPTIONS = { maxThoughtChars: 48, maxMessageChars: 48, maxToolCalls: 2, maxStringChars: 48, maxItems: 3, maxKeys: 3, anyValueDepth: 3, anyValueMembers: 3 };

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

let model: LlamaModel;
let context: LlamaContext;
beforeAll(async () => {
  const llama = await getLlama({ gpu: false, build: "never" });
  model = await llama.loadModel({ modelPath: await testModelPath() });
  // One thread: the default count is hundreds of times slower on small shared machines.
  context = await model.createContext({ contextSize: 2048, threads: 1 });
});
afterAll(async () => {
  await context?.dispose();
  await model?.dispose();
});

describe("sampling under the envelope grammar", () => {
  it(`yields ${ENVELOPES} envelopes across tool subsets that all parse and validate`, async () => {
    const llama = model.llama;
    // The synthetic catalog (patterns, formats, nested objects) and, under a "real/" prefix, the product's tools.
    const { grammarCatalog } = await import("../../../src/node/commands/grammar");
    const real = (await grammarCatalog()).tools.map((t) => ({ name: `real/${t.name}`, schema: t.schema }));
    const catalog: GrammarTool[] = [...syntheticGrammarTools(), ...real].map((t) => ({ name: t.name, schema: tighten(t.schema) as Record<string, unknown> }));
    const validators = new Map(catalog.map((t) => [t.name, validatorFor(t.schema)]));
    const completion = new LlamaCompletion({ contextSequence: context.getSequence() });
    // llama.cpp's code-point grammar mishandles characters split across byte-fallback tokens (see utf8-guard.ts): ban those tokens.
    const meta = model.fileInfo.metadata as unknown as { tokenizer: { ggml: { tokens: string[]; token_type: number[] } } };
    const split = splitCharacterTokens(meta.tokenizer.ggml.tokens.map((p, i) => sentencePieceBytes(p, meta.tokenizer.ggml.token_type[i] === 3)));
    const tokenBias = new TokenBias(model.tokenizer);
    for (const t of split) tokenBias.set(t as Token, "never");
    const random = seededRandom(7);
    const failures: string[] = [];
    let envelopes = 0;
    let calls = 0;
    let tokens = 0;
    const started = performance.now();
    for (let subset = 0; envelopes < ENVELOPES; subset++) {
      const size = Math.floor(random() * 5);
      const offered = [...catalog].sort(() => random() - 0.5).slice(0, size);
      const mode = subset % 10 === 9 ? "static" : "dynamic";
      const compiled = compileEnvelopeGrammar(offered, { ...OPTIONS, mode });
      const grammar = await llama.createGrammar({ grammar: compiled.gbnf });
      const recognizer = new GbnfRecognizer(compiled.gbnf);
      for (let k = 0; k < PER_SUBSET && envelopes < ENVELOPES; k++) {
        const prompt = `<|im_start|>user\nTurn ${subset}.${k}: use ${offered.map((t) => t.name).join(", ") || "no tools"}.<|im_end|>\n<|im_start|>assistant\n`;
        const res = await completion.generateCompletionWithMeta(prompt, {
          grammar,
          tokenBias,
          temperature: 1,
          seed: subset * 100 + k,
          // A token is at least one byte, so this bound can never truncate an envelope.
          maxTokens: compiled.maxBytes,
          onToken: (t) => (tokens += t.length),
        });
        envelopes++;
        const text = res.response;
        const fail = (why: string) => failures.push(`${why}: ${text.slice(0, 300)}`);
        if (res.metadata.stopReason !== "eogToken") fail(`stopped by ${res.metadata.stopReason}`);
        if (Buffer.byteLength(text) > compiled.maxBytes) fail("longer than maxBytes");
        if (text.includes("\uFFFD")) fail("ill-formed UTF-8");
        if (!recognizer.accepts(text)) fail("not in the grammar's language");
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
    const seconds = (performance.now() - started) / 1000;
    console.log(`sampling: ${envelopes} envelopes, ${calls} tool calls, ${tokens} tokens in ${seconds.toFixed(1)} s, ${failures.length} failures`);
    expect(failures).toEqual([]);
    expect(envelopes).toBe(ENVELOPES);
    // Random weights still call tools: the check covers args, not only empty envelopes.
    expect(calls).toBeGreaterThan(ENVELOPES / 4);
    // About 50 s on 2 cores alone; a loaded machine takes more than twice that.
  }, 360_000);
});
