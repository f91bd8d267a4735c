/**
 * `bench engine [--model F] [--tokens N]`: generation speed on the test model (or F) for the automatic
 * thread choice, 1 thread and availableParallelism() threads; free, plain-grammar and forced-text
 * generation side by side; first- and second-turn prompt evaluation; abort latency (abort sent →
 * request settled). Progress on stderr, the object returned.
 *
 * `bench engine --engine llama-server|openai --url URL [--model F] [--threads T]`: the server engine beside the
 * built-in engine on the same model in one run (see server-bench.ts).
 *
 * `bench engine --engine llama-cpp [--llama-server PATH] --model F`: the same, on our own llama-server child process,
 * plus whole envelopes side by side (see local-llama-bench.ts).
 */
import { availableParallelism } from "node:os";
import type { ChatMessage } from "../../core/protocol/messages";
import type { EngineClient } from "../../engine/client/engine-client";
import { createNodeEngine } from "../../engine/client/node-launcher";
import type { HostStatus, OpParams } from "../../engine/client/host-protocol";
import { parseArgs, UsageError } from "../cli-types";
import { cachedTestModel } from "../test-model/model-cache";
import { localLlamaFromFlags, SERVER_FLAGS, SERVER_USAGE, serverFromFlags } from "../server-flags";
import { runLocalLlamaBench } from "./local-llama-bench";
import { runServerBench } from "./server-bench";

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const round = (x: number, digits = 2): number => Number(x.toFixed(digits));
const progress = (line: string): void => {
  process.stderr.write(`[bench engine] ${line}\n`);
};

/** A grammar with no early end, so every run generates exactly the requested tokens. */
const NO_EARLY_END = "root ::= [a-z ]{1500,1999}";

async function withEngine<T>(path: string, threads: number | undefined, body: (engine: EngineClient) => Promise<T>): Promise<T> {
  const engine = createNodeEngine({ model: { path, contextSize: 4096, threads } });
  try {
    await engine.loadModel();
    return await body(engine);
  } finally {
    await engine.shutdown();
  }
}

/**
 * Tokens per second for several thread choices, measured in interleaved rounds (A, B, C, A, B, C, …) with all
 * engines loaded, so background load on a shared machine hits every choice alike instead of whichever ran last.
 */
async function tokensPerSecond(
  path: string,
  choices: (number | undefined)[],
  tokens: number,
  rounds = 5,
): Promise<{ threads: number; tokensPerSecond: number }[]> {
  const engines = choices.map((threads) => createNodeEngine({ model: { path, contextSize: 4096, threads } }));
  try {
    const messages: ChatMessage[] = [{ role: "user", content: "Write a long note about the garden." }];
    const threads: number[] = [];
    for (const engine of engines) {
      await engine.loadModel();
      threads.push(((await engine.request("status", {})) as HostStatus).threads ?? 0);
      await engine.generate({ messages, maxTokens: 16, grammar: NO_EARLY_END, seed: 1 });
    }
    const rates: number[][] = engines.map(() => []);
    for (let run = 0; run < rounds; run++) {
      for (const [i, engine] of engines.entries()) {
        const r = await engine.generate({ messages, maxTokens: tokens, grammar: NO_EARLY_END, seed: run + 2 });
        rates[i].push(r.tokensOut / (r.generateMs / 1000));
      }
    }
    return engines.map((_, i) => ({ threads: threads[i], tokensPerSecond: round(median(rates[i]), 1) }));
  } finally {
    await Promise.all(engines.map((e) => e.shutdown()));
  }
}

/**
 * The three generation paths on one engine, interleaved round by round: free sampling, the grammar
 * through llama.cpp alone (`jumpForward: false`) and the host's default forced-text generator. The
 * grammar has nothing to force and one large choice at every step, so the generator must cost no
 * more than the plain loop there. A fresh grammar's first reply is timed too: the generator's
 * per-grammar work (masks keyed by grammar position) must not grow with the repetition's bounds.
 */
async function grammarPaths(path: string, tokens: number, rounds = 8): Promise<Record<string, number>> {
  return withEngine(path, undefined, async (engine) => {
    const messages: ChatMessage[] = [{ role: "user", content: "Write a long note about the garden." }];
    const timed = async (request: Omit<OpParams["generate"], "messages" | "maxTokens">) => {
      const started = performance.now();
      // The host takes jumpForward beside the Engine port's fields; the client passes it through.
      const r = await engine.generate({ messages, maxTokens: tokens, ...request });
      return { ms: performance.now() - started, rate: r.tokensOut / (r.generateMs / 1000) };
    };
    await timed({ seed: 1 });
    await timed({ grammar: NO_EARLY_END, seed: 1, jumpForward: false });
    await timed({ grammar: NO_EARLY_END, seed: 1 });
    // A grammar this engine has not seen: its first reply pays for the walker and its masks.
    const cold = await timed({ grammar: "root ::= [a-z ]{1400,1998}", seed: 1 });
    const runs = { free: [] as number[], plain: [] as number[], jump: [] as number[], plainMs: [] as number[], jumpMs: [] as number[] };
    for (let run = 0; run < rounds; run++) {
      // Alternating order (plain first, then jump first), so a slow spell on a shared machine hits both alike.
      const free = await timed({ seed: run + 2 });
      const first = await timed({ grammar: NO_EARLY_END, seed: run + 2, jumpForward: run % 2 === 1 });
      const second = await timed({ grammar: NO_EARLY_END, seed: run + 2, jumpForward: run % 2 === 0 });
      const [plain, jump] = run % 2 === 0 ? [first, second] : [second, first];
      runs.free.push(free.rate);
      runs.plain.push(plain.rate);
      runs.jump.push(jump.rate);
      runs.plainMs.push(plain.ms);
      runs.jumpMs.push(jump.ms);
    }
    const jumpRate = median(runs.jump);
    const plainRate = median(runs.plain);
    return {
      tokensPerSecondFree: round(median(runs.free), 1),
      tokensPerSecondGrammarPlain: round(plainRate, 1),
      tokensPerSecondGrammarJump: round(jumpRate, 1),
      jumpVsPlainSpeed: round(jumpRate / plainRate, 3),
      grammarPlainMsMedian: round(median(runs.plainMs)),
      grammarJumpMsMedian: round(median(runs.jumpMs)),
      grammarJumpFirstReplyMs: round(cold.ms),
    };
  });
}

async function promptReuse(path: string): Promise<Record<string, number>> {
  return withEngine(path, undefined, async (engine) => {
    const system: ChatMessage = { role: "system", content: "You are a careful assistant for an Obsidian vault of notes. ".repeat(120) };
    const first = await engine.generate({ messages: [system, { role: "user", content: "List my notes." }], maxTokens: 16, seed: 1, conversationId: "bench" });
    const second = await engine.generate({
      messages: [system, { role: "user", content: "List my notes." }, { role: "assistant", content: first.text }, { role: "user", content: "And the tags?" }],
      maxTokens: 16,
      seed: 2,
      conversationId: "bench",
    });
    return {
      firstTurnPromptEvalMs: round(first.promptEvalMs),
      firstTurnTokensIn: first.tokensIn,
      firstTurnTokensEvaluated: first.tokensEvaluated,
      secondTurnPromptEvalMs: round(second.promptEvalMs),
      secondTurnTokensIn: second.tokensIn,
      secondTurnTokensEvaluated: second.tokensEvaluated,
    };
  });
}

async function abortLatency(path: string): Promise<Record<string, number>> {
  return withEngine(path, undefined, async (engine) => {
    const latencies: number[] = [];
    for (let run = 0; run < 7; run++) {
      const controller = new AbortController();
      let chunks = 0;
      let abortedAt = 0;
      const reply = await engine.generate({
        messages: [{ role: "user", content: "Go on." }],
        grammar: NO_EARLY_END,
        maxTokens: 1900,
        seed: run,
        signal: controller.signal,
        onText: () => {
          if (++chunks === 10) {
            abortedAt = performance.now();
            controller.abort();
          }
        },
      });
      latencies.push(performance.now() - abortedAt);
      if (reply.stopReason !== "abort") throw new Error(`Abort run ${run} ended with ${reply.stopReason}, not abort.`);
    }
    return { abortLatencyMsMedian: round(median(latencies)), abortLatencyMsMax: round(Math.max(...latencies)) };
  });
}

/** This benchmark's line in `bench --help`. */
export const usage =
  `engine [--model F] [--tokens N] ${SERVER_USAGE} [--threads T] [--envelopes N] [--json]   generation speed per thread count (free, grammar, forced text), prompt reuse and abort latency on the test model or F; with --engine, the server beside the built-in engine on the same model (--threads as the server's -t; with llama-cpp, N whole envelopes per engine, default 8)`;

export async function run(argv: string[]): Promise<Record<string, unknown>> {
  const { options, positionals } = parseArgs(argv, { strings: ["model", "tokens", "threads", "envelopes", ...SERVER_FLAGS] });
  if (positionals.length > 0) throw new UsageError(`Unexpected argument "${positionals[0]}".`);
  const tokens = options.tokens === undefined ? 256 : Number(options.tokens);
  if (!Number.isInteger(tokens) || tokens < 8 || tokens > 1500) throw new UsageError("--tokens must be a whole number from 8 to 1500.");
  const server = serverFromFlags(options);
  const local = localLlamaFromFlags(options);
  if (local) {
    const threads = options.threads === undefined ? undefined : Number(options.threads);
    if (threads !== undefined && (!Number.isInteger(threads) || threads < 1)) throw new UsageError("--threads must be a positive whole number.");
    const envelopes = options.envelopes === undefined ? 8 : Number(options.envelopes);
    if (!Number.isInteger(envelopes) || envelopes < 1) throw new UsageError("--envelopes must be a positive whole number.");
    return runLocalLlamaBench({ local, tokens, threads, progress, envelopes });
  }
  if (server) {
    const threads = options.threads === undefined ? undefined : Number(options.threads);
    if (threads !== undefined && (!Number.isInteger(threads) || threads < 1)) throw new UsageError("--threads must be a positive whole number.");
    return runServerBench({ server, model: typeof options.model === "string" ? options.model : undefined, tokens, threads, progress });
  }
  const path = typeof options.model === "string" ? options.model : cachedTestModel();
  const cores = availableParallelism();

  progress(`model ${path}, ${tokens} tokens per run, ${cores} cores`);
  const [auto, one, all] = await tokensPerSecond(path, [undefined, 1, cores], tokens);
  progress(`auto (${auto.threads} threads): ${auto.tokensPerSecond} tokens/s`);
  progress(`1 thread: ${one.tokensPerSecond} tokens/s`);
  progress(`${cores} threads: ${all.tokensPerSecond} tokens/s`);
  const best = Math.max(auto.tokensPerSecond, one.tokensPerSecond, all.tokensPerSecond);
  const paths = await grammarPaths(path, tokens);
  progress(`free ${paths.tokensPerSecondFree} tokens/s, grammar plain ${paths.tokensPerSecondGrammarPlain}, grammar jump ${paths.tokensPerSecondGrammarJump} (first reply of a fresh grammar ${paths.grammarJumpFirstReplyMs} ms)`);
  const reuse = await promptReuse(path);
  progress(`prompt eval: first turn ${reuse.firstTurnPromptEvalMs} ms, second ${reuse.secondTurnPromptEvalMs} ms`);
  const abort = await abortLatency(path);
  progress(`abort latency: median ${abort.abortLatencyMsMedian} ms`);
  return {
    model: path,
    availableParallelism: cores,
    autoThreads: auto.threads,
    tokensPerSecondAuto: auto.tokensPerSecond,
    tokensPerSecond1Thread: one.tokensPerSecond,
    tokensPerSecondAllThreads: all.tokensPerSecond,
    autoWithin10PercentOfBest: auto.tokensPerSecond >= 0.9 * best,
    ...paths,
    ...reuse,
    ...abort,
  };
}
