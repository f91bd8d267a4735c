/**
 * llama-server on a hybrid model (the Qwen3.5 family model: Gated DeltaNet layers between attention layers, real
 * tokenizer and template, random weights), by the server's own count of evaluated prompt tokens (`timings.prompt_n`).
 * A recurrent state cannot be cut back, so a prompt that leaves the slot's tokens before their end is read again from
 * the server's last checkpoint before that point (or from the start). Grammar turns render with thinking off, past
 * replies keep the empty think span their generation prompt had, and each prompt is sent as the parts that gave the
 * slot its tokens (a reply by the ids it was sampled as; a reply's text tokenized again often differs under a grammar):
 * each round then evaluates only its new tokens, on the plain and the forced-text path, and after a restart the saved
 * slot is restored with those parts and goes on. Before: 27–41 tokens a round for 14–17 new (the previous reply and
 * its lead read again); after a restart, the whole prompt (309 of 309). A trim (earlier turns summarized at the end of
 * the system message, the turns after them dropped) reads only what follows the system text, from the checkpoint the
 * requests' system-end `message_delimiters` make the server take there; before, the whole prompt (341 of 341). After
 * a restart (a restored slot has no checkpoints) the system prompt's saved state is restored first: 96 of 291 read
 * (before, 291).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { compileSchemaGrammar } from "../../../src/core/grammar";
import type { ChatMessage } from "../../../src/core/ports/engine";
import { createNodeEngine } from "../../../src/engine/client/node-launcher";
import { LlamaServerEngine } from "../../../src/engine/server/llama-server-engine";
import { ManagedLlamaEngine } from "../../../src/engine/server/managed-llama-engine";
import { ManagedLlamaServer } from "../../../src/engine/server/managed-llama-server";
import { ServerHttp } from "../../../src/engine/server/server-http";
import { ServerPrompts } from "../../../src/engine/server/server-prompts";
import { serverSplitCharacterTokens } from "../../../src/host/server-token-ban";
import { requireLlamaServer, startLlamaServer, type RunningServer } from "../../helpers/llama-server";
import { familyModelPath } from "../../helpers/test-model";

const bin = requireLlamaServer("the llama-server hybrid-model tests");
const { gbnf } = compileSchemaGrammar({ type: "object", properties: { thought: { type: "string", maxLength: 60 } }, required: ["thought"], additionalProperties: false });
const system: ChatMessage = { role: "system", content: "You keep the user's notes in order and answer in one short JSON object. ".repeat(12) };
const LEAD = "<think>\n\n</think>\n\n";

interface Round {
  text: string;
  tokensIn: number;
  tokensOut: number;
  tokensEvaluated?: number;
}

/** Rounds of one conversation; per round after the first, the prompt tokens evaluated past those no earlier prompt or reply held. */
async function rounds(engine: { generate(r: object): Promise<unknown> }, n: number): Promise<{ evaluated: number; fresh: number; reply: number }[]> {
  let messages: ChatMessage[] = [system, { role: "user", content: "List the notes about the garden." }];
  let before: Round | undefined;
  const out: { evaluated: number; fresh: number; reply: number }[] = [];
  for (let i = 1; i <= n; i++) {
    const r = (await engine.generate({ messages, grammar: gbnf, maxTokens: 120, temperature: 1, seed: i, conversationId: "c" })) as Round;
    if (before) out.push({ evaluated: r.tokensEvaluated ?? -1, fresh: r.tokensIn - before.tokensIn - before.tokensOut, reply: before.tokensOut });
    before = r;
    messages = [...messages, { role: "assistant", content: r.text }, { role: "user", content: `And question ${i + 1}?` }];
  }
  return out;
}

describe.skipIf(!bin)("llama-server on a hybrid model (qwen3.5, real llama-server)", () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startLlamaServer(bin!, familyModelPath("qwen3.5"), ["-c", "4096"]);
  }, 120_000);
  afterAll(async () => server?.stop());

  it("renders grammar turns with thinking off, past replies led by the empty think span", async () => {
    const prompts = new ServerPrompts(new ServerHttp({ kind: "llama-server", url: server.url }));
    const props = (await (await fetch(`${server.url}/props`)).json()) as { chat_template: string };
    prompts.configure(props.chat_template);
    expect(prompts.thinkingModel).toBe(true);
    const first: ChatMessage[] = [system, { role: "user", content: "a" }];
    const open = await prompts.render(first, true);
    expect(open.endsWith(`<|im_start|>assistant\n${LEAD}`)).toBe(true);
    const next = await prompts.render([...first, { role: "assistant", content: '{"thought":"x"}' }, { role: "user", content: "b" }], true);
    expect(next.startsWith(`${open}{"thought":"x"}<|im_end|>`)).toBe(true);
    // Free turns keep the template's own rendering (thinking on).
    expect((await prompts.render(first, false)).endsWith("<|im_start|>assistant\n<think>\n")).toBe(true);
  });

  it("evaluates only each round's new tokens, on the plain path", async () => {
    const engine = new LlamaServerEngine({ kind: "llama-server", url: server.url }, { splitCharacterTokens: serverSplitCharacterTokens });
    for (const r of await rounds(engine, 4)) expect(r.evaluated, JSON.stringify(r)).toBeLessThanOrEqual(r.fresh + 2);
  }, 180_000);

  it("evaluates only each round's new tokens, on the forced-text path (forced text as text, sampled text by its ids)", async () => {
    const engine = new LlamaServerEngine({ kind: "llama-server", url: server.url, forcedText: true }, { splitCharacterTokens: serverSplitCharacterTokens });
    // The forced path's figure sums its requests: the forced text each one adds is evaluated too (a few tokens).
    for (const r of await rounds(engine, 4)) expect(r.evaluated, JSON.stringify(r)).toBeLessThanOrEqual(r.fresh + 4);
  }, 180_000);

  it("after a trim reads only what follows the system text (the checkpoint the system-end delimiter makes), on both paths", async () => {
    const post = async <T>(path: string, body: object): Promise<T> =>
      (await (await fetch(`${server.url}${path}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) })).json()) as T;
    const tokens = async (messages: ChatMessage[]) => {
      const { prompt } = await post<{ prompt: string }>("/apply-template", { messages, chat_template_kwargs: { enable_thinking: false } });
      return (await post<{ tokens: number[] }>("/tokenize", { content: prompt, add_special: true, parse_special: true })).tokens;
    };
    for (const forcedText of [false, true]) {
      const engine = new LlamaServerEngine({ kind: "llama-server", url: server.url, forcedText }, { splitCharacterTokens: serverSplitCharacterTokens });
      const ask = (messages: ChatMessage[], seed: number) =>
        engine.generate({ messages, grammar: gbnf, maxTokens: 120, temperature: 1, seed, conversationId: `trim-${forcedText}` }) as Promise<Round>;
      let messages: ChatMessage[] = [system];
      for (let i = 1; i <= 4; i++) {
        messages = [...messages, { role: "user", content: `Question ${i}: which notes are about topic ${i}, and their tags?` }];
        messages = [...messages, { role: "assistant", content: (await ask(messages, i)).text }];
      }
      // The trim: the first two turns leave, summarized at the end of the system message (context-budget.ts).
      const summaries = "\nEarlier in this conversation:\n- Asked which notes are about topic 1.\n- Asked which notes are about topic 2.";
      const trimmed: ChatMessage[] = [{ role: "system", content: system.content + summaries }, ...messages.slice(5), { role: "user", content: "And the rest?" }];
      const r = await ask(trimmed, 9);
      // The tokens the trimmed prompt shares with what the slot held: the system text.
      const [held, next] = await Promise.all([tokens([system, { role: "user", content: "a" }]), tokens([trimmed[0], { role: "user", content: "a" }])]);
      let shared = 0;
      while (held[shared] === next[shared]) shared++;
      const figures = JSON.stringify({ forcedText, evaluated: r.tokensEvaluated, prompt: r.tokensIn, shared });
      expect(shared, figures).toBeGreaterThan(150);
      // Before: the whole prompt (llama-server keeps checkpoints only near the end of the prompts it read).
      expect(r.tokensEvaluated, figures).toBeLessThanOrEqual(r.tokensIn - shared + (forcedText ? 4 : 1));
    }
  }, 240_000);
});

describe.skipIf(!bin)("a restored slot on a hybrid model (managed llama-server)", () => {
  const dir = mkdtempSync(join(tmpdir(), "va-hybrid-slots-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  // A choice: the reply is sampled (a random-weight model often spells "good" in two tokens).
  const CHOICE = 'root ::= "fine" | "good"';

  it("is reused after a restart: the next prompt extends the restored tokens (the prompt parts saved with the slot)", async () => {
    const managed = () => {
      const server = new ManagedLlamaServer({ binary: join(bin!, "llama-server"), model: familyModelPath("qwen3.5"), contextSize: 2048, threads: 1, slotSavePath: dir, backoffMs: [0] });
      return new ManagedLlamaEngine(server, (config) => createNodeEngine({ server: config }));
    };
    const before = managed();
    const messages: ChatMessage[] = [system, { role: "user", content: "List my notes." }];
    const first = (await before.generate({ messages, grammar: CHOICE, maxTokens: 4, conversationId: "c" })) as Round;
    await before.shutdown();
    const after = managed();
    try {
      const second = (await after.generate({ messages: [...messages, { role: "assistant", content: first.text }, { role: "user", content: "And the tags?" }], grammar: CHOICE, maxTokens: 4, conversationId: "c" })) as Round;
      expect(second.tokensIn).toBeGreaterThan(first.tokensIn + 5);
      expect(second.tokensEvaluated).toBeLessThanOrEqual(second.tokensIn - first.tokensIn - first.tokensOut + 2);
    } finally {
      await after.shutdown();
    }
  }, 240_000);

  it("after a restart, a trim reads only what follows the system text (the system prompt's saved state restored first)", async () => {
    const slots = join(dir, "trim");
    const servers: ManagedLlamaServer[] = [];
    const managed = () => {
      const server = new ManagedLlamaServer({ binary: join(bin!, "llama-server"), model: familyModelPath("qwen3.5"), contextSize: 2048, threads: 1, slotSavePath: slots, backoffMs: [0] });
      servers.push(server);
      return new ManagedLlamaEngine(server, (config) => createNodeEngine({ server: config }));
    };
    const ask = (engine: ManagedLlamaEngine, messages: ChatMessage[]) => engine.generate({ messages, grammar: CHOICE, maxTokens: 4, conversationId: "t" }) as Promise<Round>;
    const before = managed();
    let messages: ChatMessage[] = [system];
    let first: Round | undefined;
    for (let i = 1; i <= 3; i++) {
      messages = [...messages, { role: "user", content: `Question ${i}: which notes are about topic ${i}, and their tags?` }];
      const r = await ask(before, messages);
      first ??= r;
      messages = [...messages, { role: "assistant", content: r.text }];
    }
    // The first request read the system text alone first (saved as the system prompt's state), then the rest: all of it.
    expect(first!.tokensEvaluated).toBe(first!.tokensIn);
    await before.shutdown();
    const after = managed();
    try {
      // The trim: the first turn leaves, summarized at the end of the system message (context-budget.ts).
      const summaries = "\nEarlier in this conversation:\n- Asked which notes are about topic 1.";
      const trimmed: ChatMessage[] = [{ role: "system", content: system.content + summaries }, ...messages.slice(3), { role: "user", content: "And the rest?" }];
      const r = await ask(after, trimmed);
      // The tokens the trimmed prompt shares with the system prompt's saved state: the system text.
      const { url, apiKey } = await servers[1].ready();
      const post = async <T>(path: string, body: object): Promise<T> => {
        const headers = { "content-type": "application/json", ...(apiKey ? { authorization: `Bearer ${apiKey}` } : {}) };
        return (await (await fetch(`${url}${path}`, { method: "POST", headers, body: JSON.stringify(body) })).json()) as T;
      };
      const tokens = async (messages: ChatMessage[]) => {
        const { prompt } = await post<{ prompt: string }>("/apply-template", { messages, chat_template_kwargs: { enable_thinking: false } });
        return (await post<{ tokens: number[] }>("/tokenize", { content: prompt, add_special: true, parse_special: true })).tokens;
      };
      const [held, next] = await Promise.all([tokens([system, { role: "user", content: "a" }]), tokens([trimmed[0], { role: "user", content: "a" }])]);
      let shared = 0;
      while (held[shared] === next[shared]) shared++;
      const figures = JSON.stringify({ evaluated: r.tokensEvaluated, prompt: r.tokensIn, shared });
      expect(shared, figures).toBeGreaterThan(150);
      // Before: the whole prompt (a restored slot has no checkpoints).
      expect(r.tokensEvaluated, figures).toBeLessThanOrEqual(r.tokensIn - shared + 1);
    } finally {
      await after.shutdown();
    }
  }, 240_000);
});
