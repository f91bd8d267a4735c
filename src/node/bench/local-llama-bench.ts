/**
 * `bench engine --engine llama-cpp --model F`: our own llama-server child process beside the built-in engine on the
 * same model file, in one run. First the token-rate comparison of server-bench.ts, then whole envelopes under the
 * real envelope grammar (all tools): wall time per envelope and per produced token, interleaved rounds. The built-in
 * engine jumps over forced text and masks choices itself; through llama-server a turn has llama.cpp's grammar alone,
 * or (the "forced" rows) the forced-text path: forced text sent as prompt, one `/completion` per stretch of sampling.
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
  let forced: EngineClient | null = null;
  try {
    // The managed server's own config asks for the forced-text path; the plain rows pin it off.
    const config = { ...(await server.ready()), forcedText: false };
    o.progress(`llama-server ${server.binary?.version} (pid ${server.pid}) on ${o.local.model}`);
    const tokenRates = await runServerBench({ server: config, model: o.local.model, tokens: o.tokens, threads: o.threads, progress: o.progress });
    remote = createNodeEngine({ server: config });
    const info = await remote.modelInfo();
    const testModel = await serverRunsTestModel(info);
    forced = createNodeEngine({ server: { ...config, forcedText: true } });
    await forced.modelInfo();
    builtin = createNodeEngine({ model: { path: o.local.model, contextSize: 4096, threads: o.threads } });
    await builtin.loadModel();
    const { tools } = await grammarCatalog();
    const compiled = compileEnvelopeGrammar(tools, testModel ? TEST_MODEL_GRAMMAR : {});
    const engines = { builtin, server: remote, forced };
    type Name = keyof typeof engines;
    const per: Record<Name, { ms: number[]; tokens: number[]; requests: number[]; valid: number }> = {
      builtin: { ms: [], tokens: [], requests: [], valid: 0 },
      server: { ms: [], tokens: [], requests: [], valid: 0 },
      forced: { ms: [], tokens: [], requests: [], valid: 0 },
    };
    const count = o.envelopes ?? 8;
    for (let i = 0; i < count; i++) {
      for (const name of ["builtin", "server", "forced"] as const) {
        const request: GenerateRequest = {
          messages: [{ role: "user", content: QUERIES[i % QUERIES.length] }],
          grammar: compiled.gbnf,
          maxTokens: Math.min(compiled.maxBytes, 3000),
          seed: i + 1,
          temperature: 0.7,
          conversationId: `bench-envelope-${name}-${i}`,
        };
        const started = performance.now();
        const reply = await engines[name].generate(request);
        per[name].ms.push(performance.now() - started);
        per[name].tokens.push(reply.tokensOut);
        // HTTP requests of the turn: the forced-text path reports its own; the plain path sends one.
        per[name].requests.push((reply as { requests?: number }).requests ?? 1);
        try {
          JSON.parse(reply.text);
          per[name].valid++;
        } catch {
          o.progress(`${name} envelope ${i} is not JSON (${reply.stopReason}): ${reply.text.slice(0, 80)}`);
        }
      }
    }
    const sum = (xs: number[]): number => xs.reduce((a, b) => a + b, 0);
    const envelope = (name: Name) => ({
      msPerEnvelope: round(median(per[name].ms)),
      msPerToken: round(sum(per[name].ms) / Math.max(1, sum(per[name].tokens)), 3),
      tokensPerEnvelope: round(median(per[name].tokens), 1),
      validEnvelopes: per[name].valid,
      requestsPerEnvelope: round(median(per[name].requests), 1),
    });
    const b = envelope("builtin");
    const s = envelope("server");
    const f = envelope("forced");
    o.progress(
      `per envelope: built-in ${b.msPerEnvelope} ms (${b.msPerToken} ms/token), llama-server ${s.msPerEnvelope} ms (${s.msPerToken} ms/token), ` +
        `llama-server with forced text as prompt ${f.msPerEnvelope} ms (${f.msPerToken} ms/token, ${f.requestsPerEnvelope} requests)`,
    );
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
      forcedMsPerEnvelope: f.msPerEnvelope,
      forcedToServerMsPerEnvelope: round(f.msPerEnvelope / s.msPerEnvelope, 3),
      forcedMsPerEnvelopeToken: f.msPerToken,
      forcedToServerMsPerEnvelopeToken: round(f.msPerToken / s.msPerToken, 3),
      forcedTokensPerEnvelope: f.tokensPerEnvelope,
      forcedRequestsPerEnvelope: f.requestsPerEnvelope,
      forcedValidEnvelopes: f.validEnvelopes,
    };
  } finally {
    await Promise.all([remote?.shutdown(), forced?.shutdown(), builtin?.shutdown()]);
    await server.stop();
  }
}
