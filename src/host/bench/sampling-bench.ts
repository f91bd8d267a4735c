/**
 * The body of `bench sampling`: token cost of free sampling, of sampling under our envelope grammar
 * (with forced-text jumps and choice masks, and without them: llama.cpp's grammar alone), and under
 * node-llama-cpp's own JSON-schema grammar for the same envelope shape, on one model in one run.
 * Lives in src/engine because it is the code that loads node-llama-cpp.
 */
import { GeneralChatWrapper, getLlama, resolveChatWrapper, type LlamaGrammar, type LlamaModel, type Token, type TokenBias } from "node-llama-cpp";
import { GbnfWalker } from "../../core/grammar/gbnf-walker";
import { GbnfRecognizer } from "../../core/grammar/recognizer";
import { ChoiceMasks } from "../choice-masks";
import { generateConstrained } from "../forced-text-generator";
import { loadLlamaRuntime } from "../llama-runtime";
import { generateUnderGrammar } from "../grammar-generation";
import { TokenTexts } from "../token-texts";
import { sealedBiasArrays } from "../sealed-bias";
import { UTF8_BOUNDARY } from "../utf8-state";
import { Utf8TokenGuard } from "../utf8-token-guard";

/** What to measure. */
export interface SamplingBenchInput {
  /** GGUF to load. */
  modelPath: string;
  /** Our envelope grammar (GBNF). */
  gbnf: string;
  /** The same envelope as a JSON schema in node-llama-cpp's subset. */
  nlcSchema: Record<string, unknown>;
  /** Generations per variant (default 12). */
  runs?: number;
  /** Token cap per generation (default 512). */
  maxTokens?: number;
  /** Progress lines. */
  log?: (line: string) => void;
}

/** Milliseconds per generated token for each variant. */
export interface SamplingBenchResult {
  vocab: number;
  /** The chat wrapper node-llama-cpp resolved for the model (its prompt format is what the bench feeds). */
  chat_wrapper: string;
  free_ms_per_token: number;
  /** Ours with forced-text jumps and choice masks: wall time over produced tokens (forced included). */
  ms_per_produced_token: number;
  /** ms_per_produced_token / free_ms_per_token (goal ≤ 1). */
  ratio_produced_vs_free: number;
  /** Ours with jumps and masks, per whole envelope. */
  ms_per_envelope: number;
  /** Ours through llama.cpp's grammar alone (the host's plain grammar-turn loop), per envelope. */
  ms_per_envelope_no_jump: number;
  /** ms_per_envelope / nlc_ms_per_envelope (goal ≤ 0.5 at 152k and 262k). */
  ratio_envelope_vs_nlc: number;
  sampled_tokens_per_envelope: number;
  produced_tokens_per_envelope: number;
  /** Share of produced tokens appended without sampling. */
  forced_share: number;
  /** Envelopes of the jump variant that are whole JSON and that our recognizer accepts, out of runs. */
  valid_envelopes: string;
  /** Jump envelopes cut by the bench's token cap (random weights write long strings); the rest must all be valid. */
  cut_at_max_tokens: number;
  /** One-time cost per model: every token's text and the string-content token lists. */
  jump_warmup_ms: number;
  /** The untimed first jump envelope, which also computes the grammar's first masks. */
  jump_first_envelope: { ms: number; tokens: number; masks: number };
  /**
   * Where a sampled step's CPU time goes, by the bias it was sampled under (entries node-llama-cpp
   * copies into the sampler at that step) and for steps that also evaluated forced tokens: CPU ms per
   * step and steps, beside a free step's cost (`free_cpu_ms_per_token`).
   */
  jump_steps_cpu_ms: Record<string, { steps: number; cpu_ms_per_step: number }>;
  /** The same per-token and per-envelope comparisons in CPU time of this process. */
  cpu_ms_per_produced_token: number;
  free_cpu_ms_per_token: number;
  cpu_ratio_produced_vs_free: number;
  cpu_ratio_envelope_vs_nlc: number;
  chars_per_envelope: { jump: number; no_jump: number; nlc: number };
  envelope_ms_per_token: number;
  overhead_ms_per_token: number;
  nlc_ms_per_token: number;
  ratio_vs_nlc: number;
  tokens: { free: number; envelope: number; nlc: number };
  /** Wall time per whole envelope (ours, node-llama-cpp's): the two grammars spend different token counts on the same shape. */
  envelope_ms_per_envelope: number;
  nlc_ms_per_envelope: number;
}

/** The measured turn, rendered in the model's own chat format (as the host's chat path does). */
function promptTokens(model: LlamaModel): { tokens: Token[]; wrapper: string } {
  const wrapper = resolveChatWrapper({ bosString: model.tokens.bosString, filename: model.filename, fileInfo: model.fileInfo, tokenizer: model.tokenizer }) ?? new GeneralChatWrapper();
  const { contextText } = wrapper.generateContextState({
    chatHistory: [
      { type: "system", text: "Answer with one JSON envelope." },
      { type: "user", text: "What is in my project notes?" },
      { type: "model", response: [] },
    ],
  });
  return { tokens: contextText.tokenize(model.tokenizer), wrapper: wrapper.wrapperName };
}

export async function runSamplingBench(input: SamplingBenchInput): Promise<SamplingBenchResult> {
  const runs = input.runs ?? 12;
  const maxTokens = input.maxTokens ?? 512;
  const log = input.log ?? (() => {});
  // The host's generator reaches node-llama-cpp through the lazily loaded runtime.
  await loadLlamaRuntime();
  const llama = await getLlama({ gpu: false, build: "never" });
  const model = await llama.loadModel({ modelPath: input.modelPath });
  // One thread: on small shared machines the default thread count is hundreds of times slower.
  const context = await model.createContext({ contextSize: 2048, threads: 1 });
  try {
    const prompt = promptTokens(model);
    const PROMPT = prompt.tokens;
    const sequence = context.getSequence();
    const ours = await llama.createGrammar({ grammar: input.gbnf });
    const theirs = await llama.createGrammarForJsonSchema(input.nlcSchema as never);

    // The host's UTF-8 guard applies in every variant alike (see host/utf8-token-guard.ts).
    const guard = Utf8TokenGuard.for(model);
    const tokenBias = guard.bias(UTF8_BOUNDARY);

    const walker = new GbnfWalker(input.gbnf);
    const recognizer = new GbnfRecognizer(input.gbnf);
    const warmStart = performance.now();
    const masks = new ChoiceMasks(model, walker, tokenBias ?? null);
    void TokenTexts.of(model).stringTokens;
    const jumpWarmupMs = performance.now() - warmStart;
    const steps = new Map<string, { steps: number; cpu: number }>();
    let recording = false;
    const onStep = (step: { bias: TokenBias; evaluated: number; cpuMs: number }) => {
      if (!recording) return;
      const label = step.evaluated > 1 ? "with forced tokens" : stepKind(biasSize(step.bias));
      const entry = steps.get(label) ?? { steps: 0, cpu: 0 };
      entry.steps++;
      entry.cpu += step.cpuMs;
      steps.set(label, entry);
    };
    const jumpOnce = (seed: number) =>
      generateConstrained({ sequence, grammar: ours, walker, masks, prompt: PROMPT, maxTokens, temperature: 1, topP: 0.95, seed, baseBias: tokenBias, utf8: guard.tracker(), onStep });
    const firstStart = performance.now();
    const first = await jumpOnce(0);
    const jumpFirstEnvelopeMs = performance.now() - firstStart;
    const jumpTotals = { ms: 0, cpu: 0, produced: 0, sampled: 0, valid: 0, cut: 0, chars: 0 };

    const totals = { free: { tokens: 0, ms: 0, cpu: 0, chars: 0 }, envelope: { tokens: 0, ms: 0, cpu: 0, chars: 0 }, nlc: { tokens: 0, ms: 0, cpu: 0, chars: 0 } };
    // The host's plain grammar-turn loop (no jumps, no masks): llama.cpp's grammar and the UTF-8 guard alone.
    const plain = (grammar: LlamaGrammar | undefined, seed: number, limit = maxTokens) =>
      generateUnderGrammar({ model, sequence, guard, promptTokens: PROMPT, grammar, temperature: 1, topP: 0.95, seed, maxTokens: limit });
    const once = async (variant: keyof typeof totals, grammar: LlamaGrammar | undefined, seed: number) => {
      const start = performance.now();
      const cpu = process.cpuUsage();
      const out = await plain(grammar, seed);
      totals[variant].cpu += cpuMs(cpu);
      totals[variant].ms += performance.now() - start;
      totals[variant].tokens += out.tokensOut;
      totals[variant].chars += out.text.length;
    };

    // Warm up once so the first variant does not pay for allocation.
    await plain(undefined, 0, 16);
    // Variants are interleaved seed by seed, so load from other processes on the machine hits all three alike.
    for (let seed = 1; seed <= runs; seed++) {
      await once("free", undefined, seed);
      await once("envelope", ours, seed);
      await once("nlc", theirs, seed);
      const start = performance.now();
      const cpu = process.cpuUsage();
      recording = true;
      const out = await jumpOnce(seed);
      recording = false;
      jumpTotals.cpu += cpuMs(cpu);
      jumpTotals.ms += performance.now() - start;
      jumpTotals.chars += out.text.length;
      jumpTotals.produced += out.tokens.length;
      jumpTotals.sampled += out.sampled;
      if (isJson(out.text) && recognizer.accepts(out.text)) jumpTotals.valid++;
      if (out.stopReason === "maxTokens") jumpTotals.cut++;
    }
    log(`jump: ${jumpTotals.produced} tokens (${jumpTotals.sampled} sampled) in ${jumpTotals.ms.toFixed(0)} ms`);
    const perToken = (v: keyof typeof totals) => totals[v].ms / Math.max(1, totals[v].tokens);
    for (const v of ["free", "envelope", "nlc"] as const) log(`${v}: ${totals[v].tokens} tokens in ${totals[v].ms.toFixed(0)} ms`);
    const free = { tokens: totals.free.tokens, perToken: perToken("free") };
    const envelope = { tokens: totals.envelope.tokens, perToken: perToken("envelope") };
    const nlc = { tokens: totals.nlc.tokens, perToken: perToken("nlc") };
    const round = (x: number) => Math.round(x * 1000) / 1000;
    const perProduced = jumpTotals.ms / Math.max(1, jumpTotals.produced);
    return {
      vocab: vocabSize(model),
      chat_wrapper: prompt.wrapper,
      free_ms_per_token: round(free.perToken),
      ms_per_produced_token: round(perProduced),
      ratio_produced_vs_free: round(perProduced / free.perToken),
      ms_per_envelope: round(jumpTotals.ms / runs),
      ms_per_envelope_no_jump: round(totals.envelope.ms / runs),
      ratio_envelope_vs_nlc: round(jumpTotals.ms / totals.nlc.ms),
      sampled_tokens_per_envelope: round(jumpTotals.sampled / runs),
      produced_tokens_per_envelope: round(jumpTotals.produced / runs),
      forced_share: round(1 - jumpTotals.sampled / Math.max(1, jumpTotals.produced)),
      valid_envelopes: `${jumpTotals.valid}/${runs}`,
      cut_at_max_tokens: jumpTotals.cut,
      jump_warmup_ms: round(jumpWarmupMs),
      jump_first_envelope: { ms: round(jumpFirstEnvelopeMs), tokens: first.tokens.length, masks: masks.size },
      // CPU time of this process (model threads included): steadier than wall time on a shared machine.
      jump_steps_cpu_ms: Object.fromEntries([...steps].sort().map(([k, v]) => [k, { steps: v.steps, cpu_ms_per_step: round(v.cpu / v.steps) }])),
      cpu_ms_per_produced_token: round(jumpTotals.cpu / Math.max(1, jumpTotals.produced)),
      free_cpu_ms_per_token: round(totals.free.cpu / Math.max(1, totals.free.tokens)),
      cpu_ratio_produced_vs_free: round(jumpTotals.cpu / Math.max(1, jumpTotals.produced) / (totals.free.cpu / Math.max(1, totals.free.tokens))),
      cpu_ratio_envelope_vs_nlc: round(jumpTotals.cpu / Math.max(1, totals.nlc.cpu)),
      // Random weights write envelopes of different lengths on different paths: characters per envelope, to compare like with like.
      chars_per_envelope: { jump: round(jumpTotals.chars / runs), no_jump: round(totals.envelope.chars / runs), nlc: round(totals.nlc.chars / runs) },
      envelope_ms_per_token: round(envelope.perToken),
      overhead_ms_per_token: round(envelope.perToken - free.perToken),
      nlc_ms_per_token: round(nlc.perToken),
      ratio_vs_nlc: round(envelope.perToken / nlc.perToken),
      tokens: { free: free.tokens, envelope: envelope.tokens, nlc: nlc.tokens },
      envelope_ms_per_envelope: round(totals.envelope.ms / runs),
      nlc_ms_per_envelope: round(totals.nlc.ms / runs),
    };
  } finally {
    await context.dispose();
    await model.dispose();
  }
}

const biasSizes = new WeakMap<TokenBias, number>();

/** Entries of a bias: a sealed bias's array length, else `_biases` counted once per bias (the labels must cost nothing inside the timed runs). */
function biasSize(bias: TokenBias): number {
  let n = biasSizes.get(bias) ?? sealedBiasArrays(bias)?.keys.length;
  if (n === undefined) {
    const entries = (bias as unknown as { _biases?: Iterable<unknown> })._biases;
    n = 0;
    if (entries instanceof Map) n = entries.size;
    else if (entries) for (const entry of entries) n += entry === undefined ? 0 : 1;
  }
  biasSizes.set(bias, n);
  return n;
}

function stepKind(entries: number): string {
  if (entries < 1000) return "bias under 1k entries";
  if (entries < 10_000) return "bias 1k-10k entries";
  if (entries < 40_000) return "bias 10k-40k entries";
  return "bias 40k+ entries";
}

function cpuMs(since: NodeJS.CpuUsage): number {
  const d = process.cpuUsage(since);
  return (d.user + d.system) / 1000;
}

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

function vocabSize(model: { fileInfo: { metadata: unknown } }): number {
  const meta = model.fileInfo.metadata as { tokenizer?: { ggml?: { tokens?: unknown[] } } };
  return meta.tokenizer?.ggml?.tokens?.length ?? 0;
}
