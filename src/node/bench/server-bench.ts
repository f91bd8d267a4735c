/**
 * The server engine beside the built-in engine, on the same model, in one run: tokens per second, time to first
 * token, and the per-turn cost of the HTTP path. Both engines run through an engine host and are timed the same
 * way, here in the caller (request sent → first text chunk → reply), in interleaved rounds so background load on
 * a shared machine hits both alike. Goal: the server's tokens per second within 10% of the built-in engine's.
 */
import { existsSync } from "node:fs";
import type { GenerateRequest } from "../../core/ports/engine";
import type { EngineClient } from "../../engine/client/engine-client";
import { createNodeEngine } from "../../engine/client/node-launcher";
import type { ServerEngineConfig } from "../../engine/server/server-config";
import { UsageError } from "../cli-types";

export interface ServerBenchOptions {
  server: ServerEngineConfig;
  /** The GGUF the server runs; default the server's own model path when that file is on this machine. */
  model?: string;
  /** Tokens per speed run. */
  tokens: number;
  /** Threads for the built-in engine: give the server's -t for a fair comparison; default the host's choice. */
  threads?: number;
  progress: (line: string) => void;
}

/** A grammar with no early end, so every run generates exactly the requested tokens. */
const NO_EARLY_END = "root ::= [a-z ]{1500,1999}";
const ROUNDS = 5;
const SHORT_TURNS = 15;

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const round = (x: number, digits = 2): number => Number(x.toFixed(digits));

/** One timed generation: ms to the first chunk, tokens per second after it, and the whole wall time. */
async function timed(engine: EngineClient, request: GenerateRequest): Promise<{ ttftMs: number; tokensPerSecond: number; wallMs: number; tokensOut: number }> {
  const started = performance.now();
  let first: number | undefined;
  const r = await engine.generate({ ...request, onText: () => void (first ??= performance.now()) });
  const ended = performance.now();
  const firstAt = first ?? ended;
  // Tokens after the first, over the time after the first: the steady generation rate.
  return { ttftMs: firstAt - started, tokensPerSecond: ended > firstAt ? ((r.tokensOut - 1) * 1000) / (ended - firstAt) : 0, wallMs: ended - started, tokensOut: r.tokensOut };
}

export async function runServerBench(o: ServerBenchOptions): Promise<Record<string, unknown>> {
  const server = createNodeEngine({ server: o.server });
  let builtin: EngineClient | null = null;
  try {
    const info = await server.modelInfo();
    const path = o.model ?? info.path;
    if (!path || !existsSync(path)) {
      throw new UsageError(`The server's model file (${path || "not reported"}) is not on this machine; give the same GGUF with --model F to compare with the built-in engine.`);
    }
    o.progress(`${info.server}: model ${info.name}; built-in engine on ${path}${o.threads ? ` with ${o.threads} threads` : ""}; ${o.tokens} tokens per run`);
    builtin = createNodeEngine({ model: { path, contextSize: Math.min(info.contextSize ?? 4096, 4096), threads: o.threads } });
    await builtin.loadModel();
    const engines = { builtin, server };
    const speed: Record<"builtin" | "server", { ttftMs: number[]; tokensPerSecond: number[]; freeTokensPerSecond: number[] }> = {
      builtin: { ttftMs: [], tokensPerSecond: [], freeTokensPerSecond: [] },
      server: { ttftMs: [], tokensPerSecond: [], freeTokensPerSecond: [] },
    };
    const messages = [{ role: "user" as const, content: "Write a long note about the garden." }];
    // Warm-up: both load, compile the grammar and fill their prompt caches.
    for (const e of Object.values(engines)) await e.generate({ messages, grammar: NO_EARLY_END, maxTokens: 16, seed: 1 });
    for (let run = 0; run < ROUNDS; run++) {
      for (const name of ["builtin", "server"] as const) {
        const t = await timed(engines[name], { messages, grammar: NO_EARLY_END, maxTokens: o.tokens, seed: run + 2 });
        if (t.tokensOut < o.tokens) throw new Error(`The ${name} engine stopped after ${t.tokensOut} of ${o.tokens} tokens; the benchmark needs full runs.`);
        speed[name].ttftMs.push(t.ttftMs);
        speed[name].tokensPerSecond.push(t.tokensPerSecond);
        // Without a grammar: the two samplers' grammar handling differs (llama-server checks the sampled token first,
        // node-llama-cpp masks every candidate), so this is the rate that shows what the HTTP path itself costs.
        const free = await timed(engines[name], { messages, maxTokens: o.tokens, seed: run + 2 });
        speed[name].freeTokensPerSecond.push(free.tokensPerSecond);
      }
    }
    // Short turns (a prompt and a two-token reply): what one request costs beyond generation, on each path.
    const short: Record<"builtin" | "server", number[]> = { builtin: [], server: [] };
    for (let i = 0; i < SHORT_TURNS; i++) {
      for (const name of ["builtin", "server"] as const) {
        const t = await timed(engines[name], { messages: [{ role: "user", content: `Say ok (${i}).` }], grammar: 'root ::= "ok"', maxTokens: 2, seed: i, conversationId: "bench-short" });
        short[name].push(t.wallMs);
      }
    }
    const builtinTps = round(median(speed.builtin.tokensPerSecond), 1);
    const serverTps = round(median(speed.server.tokensPerSecond), 1);
    const ratio = round(serverTps / builtinTps, 3);
    const builtinFree = round(median(speed.builtin.freeTokensPerSecond), 1);
    const serverFree = round(median(speed.server.freeTokensPerSecond), 1);
    const freeRatio = round(serverFree / builtinFree, 3);
    const result = {
      engine: o.server.kind,
      url: info.server,
      model: path,
      tokens: o.tokens,
      rounds: ROUNDS,
      builtinThreads: o.threads ?? "auto",
      builtinTokensPerSecond: builtinTps,
      serverTokensPerSecond: serverTps,
      serverToBuiltinTokensPerSecond: ratio,
      builtinFreeTokensPerSecond: builtinFree,
      serverFreeTokensPerSecond: serverFree,
      serverToBuiltinFreeTokensPerSecond: freeRatio,
      within10Percent: ratio >= 0.9 && freeRatio >= 0.9,
      builtinTimeToFirstTokenMs: round(median(speed.builtin.ttftMs)),
      serverTimeToFirstTokenMs: round(median(speed.server.ttftMs)),
      builtinShortTurnMs: round(median(short.builtin)),
      serverShortTurnMs: round(median(short.server)),
      perTurnHttpOverheadMs: round(median(short.server) - median(short.builtin)),
    };
    o.progress(`tokens/s under a grammar: built-in ${builtinTps}, server ${serverTps} (ratio ${ratio}); free: ${builtinFree} vs ${serverFree} (ratio ${freeRatio}); first token ${result.builtinTimeToFirstTokenMs} vs ${result.serverTimeToFirstTokenMs} ms; short turn ${result.builtinShortTurnMs} vs ${result.serverShortTurnMs} ms`);
    return result;
  } finally {
    await Promise.all([server.shutdown(), builtin?.shutdown()]);
  }
}
