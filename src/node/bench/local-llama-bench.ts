/**
 * `bench engine --engine llama-cpp --model F`: our own llama-server child process beside the built-in engine on the
 * same model file, in one run. First the token-rate comparison of server-bench.ts, then whole envelopes under the
 * real envelope grammar (all tools): wall time per envelope and per produced token, interleaved rounds. The built-in
 * engine jumps over forced text and masks choices itself; through llama-server a turn has llama.cpp's grammar alone.
 */
import { compileEnvelopeGrammar } from "../../core/grammar";
import type { GenerateRequest } from "../../core/ports/engine";
import type { EngineClient } from "../../engine/client/engine-client";
import { createNodeEngine } from "../../engine/client/node-launcher";
import { ManagedLlamaServer } from "../../engine/server/managed-llama-server";
import { grammarCatalog } from "../commands/grammar";
import { TEST_MODEL_GRAMMAR } from "../compose";
import { serverRunsTestModel, type LocalLlamaFlags } from "../server-flags";
import { runServerBench } from "./server-bench";

export interface LocalLlamaBenchOptions {
  local: LocalLlamaFlags;
  tokens: number;
  /** Threads for both engines (`-t` for the server); default each engine's own choice. */
  threads?: number;
  progress: (line: string) => void;
  /** Envelopes per engine; default 8. */
  envelopes?: number;
}

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const round = (x: number, digits = 2): number => Number(x.toFixed(digits));

const QUERIES = ["Add milk to my shopping list.", "What did I write about the garden last week?", "Summarize my inbox note.", "Create a note called Ideas."];

export async function runLocalLlamaBench(o: LocalLlamaBenchOptions): Promise<Record<string, unknown>> {
  const server = new ManagedLlamaServer({ binary: o.local.binary, model: o.local.model, contextSize: 4096, ...(o.threads ? { threads: o.threads } : {}) });
  let remote: EngineClient | null = null;
  let builtin: EngineClient | null = null;
  try {
    const config = await server.ready();
    o.progress(`llama-server ${server.binary?.version} (pid ${server.pid}) on ${o.local.model}`);
    const tokenRates = await runServerBench({ server: config, model: o.local.model, tokens: o.tokens, threads: o.threads, progress: o.progress });
    remote = createNodeEngine({ server: config });
    const info = await remote.modelInfo();
    const testModel = await serverRunsTestModel(info);
    builtin = createNodeEngine({ model: { path: o.local.model, contextSize: 4096, threads: o.threads } });
    await builtin.loadModel();
    const { tools } = await grammarCatalog();
    const compiled = compileEnvelopeGrammar(tools, testModel ? TEST_MODEL_GRAMMAR : {});
    const engines = { builtin, server: remote };
    const per: Record<"builtin" | "server", { ms: number[]; tokens: number[]; valid: number }> = {
      builtin: { ms: [], tokens: [], valid: 0 },
      server: { ms: [], tokens: [], valid: 0 },
    };
    const count = o.envelopes ?? 8;
    for (let i = 0; i < count; i++) {
      for (const name of ["builtin", "server"] as const) {
        const request: GenerateRequest = {
          messages: [{ role: "user", content: QUERIES[i % QUERIES.length] }],
          grammar: compiled.gbnf,
          maxTokens: Math.min(compiled.maxBytes, 3000),
          seed: i + 1,
          temperature: 0.7,
          conversationId: `bench-envelope-${i}`,
        };
        const started = performance.now();
        const reply = await engines[name].generate(request);
        per[name].ms.push(performance.now() - started);
        per[name].tokens.push(reply.tokensOut);
        try {
          JSON.parse(reply.text);
          per[name].valid++;
        } catch {
          o.progress(`${name} envelope ${i} is not JSON (${reply.stopReason}): ${reply.text.slice(0, 80)}`);
        }
      }
    }
    const sum = (xs: number[]): number => xs.reduce((a, b) => a + b, 0);
    const envelope = (name: "builtin" | "server") => ({
      msPerEnvelope: round(median(per[name].ms)),
      msPerToken: round(sum(per[name].ms) / Math.max(1, sum(per[name].tokens)), 3),
      tokensPerEnvelope: round(median(per[name].tokens), 1),
      validEnvelopes: per[name].valid,
    });
    const b = envelope("builtin");
    const s = envelope("server");
    o.progress(`per envelope: built-in ${b.msPerEnvelope} ms (${b.msPerToken} ms/token), llama-server ${s.msPerEnvelope} ms (${s.msPerToken} ms/token)`);
    return {
      ...tokenRates,
      engine: "llama-cpp",
      llamaServerVersion: server.binary?.version,
      envelopes: count,
      envelopeGrammarTools: tools.length,
      builtinMsPerEnvelope: b.msPerEnvelope,
      serverMsPerEnvelope: s.msPerEnvelope,
      serverToBuiltinMsPerEnvelope: round(s.msPerEnvelope / b.msPerEnvelope, 3),
      builtinMsPerEnvelopeToken: b.msPerToken,
      serverMsPerEnvelopeToken: s.msPerToken,
      serverToBuiltinMsPerEnvelopeToken: round(s.msPerToken / b.msPerToken, 3),
      builtinTokensPerEnvelope: b.tokensPerEnvelope,
      serverTokensPerEnvelope: s.tokensPerEnvelope,
      builtinValidEnvelopes: b.validEnvelopes,
      serverValidEnvelopes: s.validEnvelopes,
    };
  } finally {
    await Promise.all([remote?.shutdown(), builtin?.shutdown()]);
    await server.stop();
  }
}
