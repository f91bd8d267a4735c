/**
 * The body of `bench sampling`: token cost of free sampling, of sampling under our envelope grammar,
 * and under node-llama-cpp's own JSON-schema grammar for the same envelope shape, on one model in one
 * run — all three on the host's own grammar-turn loop with its UTF-8 guard, so the numbers are the
 * host's. Lives in src/engine because it is the code that loads node-llama-cpp.
 */
import { GeneralChatWrapper, getLlama, resolveChatWrapper, type LlamaGrammar, type LlamaModel, type Token } from "node-llama-cpp";
import { generateUnderGrammar } from "../host/grammar-generation";
import { Utf8TokenGuard } from "../host/utf8-token-guard";

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
    const guard = Utf8TokenGuard.for(model);

    const totals = { free: { tokens: 0, ms: 0 }, envelope: { tokens: 0, ms: 0 }, nlc: { tokens: 0, ms: 0 } };
    const once = async (variant: keyof typeof totals, grammar: LlamaGrammar | undefined, seed: number, maxTokensNow = maxTokens) => {
      const start = performance.now();
      const out = await generateUnderGrammar({ model, sequence, guard, promptTokens: PROMPT, grammar, temperature: 1, topP: 1, seed, maxTokens: maxTokensNow });
      totals[variant].ms += performance.now() - start;
      totals[variant].tokens += out.tokensOut;
    };

    // Warm up once so the first variant does not pay for allocation (then reset the totals).
    await once("free", undefined, 0, 16);
    totals.free = { tokens: 0, ms: 0 };
    // Variants are interleaved seed by seed, so load from other processes on the machine hits all three alike.
    for (let seed = 1; seed <= runs; seed++) {
      await once("free", undefined, seed);
      await once("envelope", ours, seed);
      await once("nlc", theirs, seed);
    }
    const perToken = (v: keyof typeof totals) => totals[v].ms / Math.max(1, totals[v].tokens);
    for (const v of ["free", "envelope", "nlc"] as const) log(`${v}: ${totals[v].tokens} tokens in ${totals[v].ms.toFixed(0)} ms`);
    const free = { tokens: totals.free.tokens, perToken: perToken("free") };
    const envelope = { tokens: totals.envelope.tokens, perToken: perToken("envelope") };
    const nlc = { tokens: totals.nlc.tokens, perToken: perToken("nlc") };
    const round = (x: number) => Math.round(x * 1000) / 1000;
    return {
      vocab: vocabSize(model),
      chat_wrapper: prompt.wrapper,
      free_ms_per_token: round(free.perToken),
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

function vocabSize(model: { fileInfo: { metadata: unknown } }): number {
  const meta = model.fileInfo.metadata as { tokenizer?: { ggml?: { tokens?: unknown[] } } };
  return meta.tokenizer?.ggml?.tokens?.length ?? 0;
}
