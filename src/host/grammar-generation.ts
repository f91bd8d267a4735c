/**
 * Generation under a grammar, token by token on the context sequence. node-llama-cpp's LlamaChat is
 * not used here because its chat-wrapper stop triggers match text: an envelope whose string contains
 * the model's own end-of-turn text (`<|im_end|>`, `<|eot_id|>`, `<end_of_turn>`) was cut there and
 * reported as an ordinary end. Under a grammar a reply ends only when the grammar is complete (the
 * end-of-generation token is then the only choice), at maxTokens, on abort, or at a caller's stop
 * string. Every sampled token passes the UTF-8 guard, which needs to see each token as it is sampled
 * (LlamaChat reports tokens late, holding back partial characters and possible stop texts).
 */
import type { LlamaContextSequence, LlamaGrammar, LlamaModel, Token } from "node-llama-cpp";
import { freshGrammarState } from "./grammar-states";
import { preparePrompt } from "./sequence-checkpoints";
import { useSealedBiases } from "./sealed-bias";
import type { GenerateResult } from "../core/ports/engine";
import type { Utf8TokenGuard } from "./utf8-token-guard";

/** One grammar-constrained generation. */
export interface GrammarGenerationInput {
  model: LlamaModel;
  sequence: LlamaContextSequence;
  /** The whole prompt (the sequence keeps whatever prefix of it it already holds). */
  promptTokens: Token[];
  /** Token counts of the prompt where a later prompt may leave it: checkpointed on models that need it (sequence-checkpoints.ts). */
  checkpointAt?: number[];
  /** Absent: free sampling on the same path (benchmarks compare against it). */
  grammar?: LlamaGrammar;
  guard: Utf8TokenGuard;
  maxTokens: number;
  temperature: number;
  topP: number;
  seed?: number;
  /** Generation ends before any of these texts. */
  stop?: string[];
  signal?: AbortSignal;
  onText?: (text: string) => void;
  /** Called with each sampled token, before the next one is sampled. */
  onToken?: (token: Token) => void;
}

/** What came out, and what it cost. */
export interface GrammarGenerationOutput {
  text: string;
  /** The sampled tokens (the end-of-generation token excluded). */
  tokens: Token[];
  tokensOut: number;
  stopReason: GenerateResult["stopReason"];
  /** Prompt tokens the sequence kept (not passed to evaluate; on a recurrent model an erase may have re-read some: the caller's meter says). */
  reusedTokens: number;
  /** performance.now() when the first token was sampled; undefined when none was. */
  firstTokenAt?: number;
  /** Whether the sampled bytes were valid UTF-8 throughout (a character cut off at the end is dropped, not counted). */
  utf8Valid: boolean;
}

export async function generateUnderGrammar(input: GrammarGenerationInput): Promise<GrammarGenerationOutput> {
  const { model, sequence, guard } = input;
  const toEvaluate = await preparePrompt(sequence, input.promptTokens, input.checkpointAt);
  const reusedTokens = input.promptTokens.length - toEvaluate.length;
  const tracker = guard.tracker();
  const grammarEvaluationState = input.grammar ? freshGrammarState(model, input.grammar) : undefined;
  const generated: Token[] = [];
  let emitted = 0;
  let text = "";
  let stopReason: GenerateResult["stopReason"] = "maxTokens";
  let firstTokenAt: number | undefined;
  const stops = (input.stop ?? []).filter((s) => s.length > 0);

  /** Appends the tokens since the last emission (called at character boundaries); true when a stop text was reached. */
  const flush = (): boolean => {
    if (emitted === generated.length) return false;
    const chunk = model.detokenize(generated.slice(emitted), false, generated.slice(Math.max(0, emitted - 4), emitted));
    emitted = generated.length;
    const before = text.length;
    text += chunk;
    for (const stop of stops) {
      const at = text.indexOf(stop, Math.max(0, before - stop.length + 1));
      if (at >= 0) {
        if (at > before) input.onText?.(text.slice(before, at));
        text = text.slice(0, at);
        return true;
      }
    }
    if (chunk) input.onText?.(chunk);
    return false;
  };

  if (input.signal?.aborted) return { text: "", tokens: [], tokensOut: 0, stopReason: "abort", reusedTokens, utf8Valid: true };
  useSealedBiases(sequence);
  const iterator = sequence.evaluate(toEvaluate, {
    temperature: input.temperature,
    topP: input.topP,
    seed: input.seed,
    grammarEvaluationState,
    tokenBias: tracker.bias,
    yieldEogToken: true,
  });
  for await (const token of iterator) {
    firstTokenAt ??= performance.now();
    if (model.isEogToken(token)) {
      stopReason = "eos";
      break;
    }
    generated.push(token);
    tracker.push(token);
    input.onToken?.(token);
    if (tracker.atBoundary && flush()) {
      stopReason = "stop";
      break;
    }
    if (input.signal?.aborted) {
      stopReason = "abort";
      break;
    }
    if (generated.length >= input.maxTokens) break;
  }
  if (stopReason !== "stop") {
    // A reply cut inside a character (maxTokens, abort) keeps its whole characters only.
    if (tracker.atBoundary) flush();
    else text += model.detokenize(generated.slice(emitted), false, generated.slice(Math.max(0, emitted - 4), emitted)).replace(/\uFFFD+$/u, "");
  }
  return { text, tokens: generated, tokensOut: generated.length, stopReason, reusedTokens, firstTokenAt, utf8Valid: !tracker.broken };
}
