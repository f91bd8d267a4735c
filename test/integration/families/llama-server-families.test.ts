/**
 * The llama-server engine on each family test model (real tokenizer and chat template, random weights), against a
 * real llama-server, as the engine host makes it (the split-character ban read from the model file). llama-server
 * reads every finished reply with its chat parser and fails the request (a 500, "does not match the expected …
 * format") when the reply is not UTF-8, which byte-level BPE vocabularies (Qwen2.5, Llama 3.2) produced on the free
 * replies tried before the ban covered them. Free replies, and envelopes on the plain and the forced-text path, must all
 * come back. Families as test/helpers/families.ts says.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseEnvelope } from "../../../src/core/agent/envelope-parse";
import { compileEnvelopeGrammar, GbnfRecognizer } from "../../../src/core/grammar";
import { LlamaServerEngine } from "../../../src/engine/server/llama-server-engine";
import { serverSplitCharacterTokens } from "../../../src/host/server-token-ban";
import { testedFamilies } from "../../helpers/families";
import { requireLlamaServer, startLlamaServer, type RunningServer } from "../../helpers/llama-server";
import { familyModelPath } from "../../helpers/test-model";
import { syntheticGrammarTools } from "../../unit/grammar/helpers/catalog";

const bin = requireLlamaServer("the llama-server family tests");
const tools = syntheticGrammarTools().filter((t) => ["vault:read", "vault:list", "task:add"].includes(t.name));
const envelope = compileEnvelopeGrammar(tools, { maxThoughtChars: 24, maxMessageChars: 24, maxToolCalls: 1, maxStringChars: 16, maxItems: 2, maxKeys: 2 });

describe.skipIf(!bin).each(testedFamilies())("llama-server engine on the %s family model", (family) => {
  let server: RunningServer;
  let plain: LlamaServerEngine;
  let forced: LlamaServerEngine;

  beforeAll(async () => {
    server = await startLlamaServer(bin!, familyModelPath(family), ["-c", "4096", "-np", "2"]);
    plain = new LlamaServerEngine({ kind: "llama-server", url: server.url }, { splitCharacterTokens: serverSplitCharacterTokens });
    forced = new LlamaServerEngine({ kind: "llama-server", url: server.url, forcedText: true }, { splitCharacterTokens: serverSplitCharacterTokens });
    await Promise.all([plain.connect(), forced.connect()]);
  }, 180_000);
  afterAll(async () => server?.stop());

  it("free replies come back whole: no server error, no broken character", async () => {
    for (const seed of [1, 2, 3, 4]) {
      const r = await plain.generate({ messages: [{ role: "user", content: "Write a long note about the garden." }], maxTokens: 64, temperature: 1, seed });
      expect(r.stopReason).toBe("maxTokens");
      expect(r.tokensOut).toBe(64);
      expect(r.text).not.toContain("\uFFFD");
    }
  }, 180_000);

  it("envelopes at temperature 1 are valid, on the plain and the forced-text path", async () => {
    const recognizer = new GbnfRecognizer(envelope.gbnf);
    for (const [name, engine] of [["plain", plain], ["forced", forced]] as const) {
      for (const seed of [1, 2, 3]) {
        const r = await engine.generate({ messages: [{ role: "user", content: "Read my inbox note." }], grammar: envelope.gbnf, maxTokens: envelope.maxBytes, temperature: 1, seed, conversationId: `${name}-${seed % 2}` });
        expect(r.stopReason, `${name} seed ${seed}`).toBe("eos");
        expect(recognizer.accepts(r.text), `${name} seed ${seed}: ${r.text}`).toBe(true);
        expect(parseEnvelope(r.text).ok).toBe(true);
      }
    }
  }, 300_000);
});
