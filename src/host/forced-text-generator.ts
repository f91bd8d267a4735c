/**
 * Grammar-constrained generation that skips sampling where the grammar leaves one way forward.
 *
 * After each sampled token our grammar walker (the same GBNF, walked in JS) computes the text the
 * grammar forces next (`","status":"`, the rest of a tool name once its prefix is unique, required
 * keys, closing punctuation). That text is tokenized the way the model would write it — together
 * with the token just sampled, which is not evaluated yet, so the boundary is healed — and the
 * tokens are evaluated as one batch with the next step (prompt speed, not generation speed). The
 * last forced token is left for the model to sample (a choice mask makes that step cheap), so a
 * token that would run on past the forced text stays possible. llama.cpp's grammar state accepts
 * the same tokens, so its guarantees hold unchanged; where our walker and llama.cpp disagree, or a
 * character is split across tokens, the step falls back to plain constrained sampling.
 */
import type { LlamaContextSequence, LlamaGrammar, LlamaGrammarEvaluationState, LlamaModel, Token, TokenBias } from "node-llama-cpp";
import { llamaRuntime } from "./llama-runtime";
import type { GbnfWalker, WalkPosition } from "../core/grammar/gbnf-walker";
import type { ChoiceMasks } from "./choice-masks";
import { TokenTexts } from "./token-texts";
import { sealBias, useSealedBiases } from "./sealed-bias";

export interface ConstrainedGenerationInput {
  /** The sequence to generate on; its evaluated prefix matching the prompt is reused. */
  sequence: LlamaContextSequence;
  /** llama.cpp's compiled grammar. */
  grammar: LlamaGrammar;
  /** Our walker over the same GBNF text. */
  walker: GbnfWalker;
  /** Masks for small choices; absent: every sampled step pays llama.cpp's grammar as usual. */
  masks?: ChoiceMasks;
  /** Prompt tokens (the rendered chat up to the reply). */
  prompt: Token[];
  /** Cap on produced tokens, forced ones included. */
  maxTokens: number;
  temperature: number;
  topP: number;
  seed?: number;
  /** Bias applied at every step where no choice mask applies (split-character bans); the masks include it. */
  baseBias?: TokenBias;
  /**
   * The host's UTF-8 guard (or one generation's tracker of it), when it has one: it sees every
   * produced token, and while a character is open its bias (the tokens that can continue it)
   * replaces every mask.
   */
  utf8?: Utf8Tracking | { tracker(): Utf8Tracking };
  /** Evaluate forced text as batches instead of sampling it (default true). */
  jumpForward?: boolean;
  signal?: AbortSignal;
  /** Decoded text as it is produced (forced text included). */
  onText?: (text: string) => void;
  /** Called once the prompt is evaluated (before the first produced token). */
  onPromptEvaluated?: () => void;
  /** Benchmarks: called after each sampling step with the bias it sampled under, the tokens it evaluated, and its CPU time. */
  onStep?: (step: { bias: TokenBias; evaluated: number; cpuMs: number }) => void;
}

/** What the generator needs of a UTF-8 tracker (the host's guard keeps output bytes valid UTF-8). */
export interface Utf8Tracking {
  readonly atBoundary: boolean;
  readonly broken: boolean;
  bias(): TokenBias;
  push(token: Token): void;
}

export interface ConstrainedGenerationResult {
  text: string;
  /** Tokens produced, sampled and forced. */
  tokens: Token[];
  /** Tokens the model sampled. */
  sampled: number;
  /** Tokens appended without sampling. */
  forced: number;
  /** Prompt tokens evaluated (not reused from the sequence). */
  promptEvaluated: number;
  /** "eos": the grammar's sentence is complete (or the model ended); "maxTokens": cut at the cap or the context's end. */
  stopReason: "eos" | "maxTokens" | "abort";
  /** False when the UTF-8 guard saw bytes that are not UTF-8 (true without a guard). */
  utf8Valid: boolean;
}

/** Forced tokens to evaluate next, the text they add after the sampled token's, and the walker position after them. */
interface JumpPlan {
  tokens: Token[];
  added: string;
  pos: WalkPosition;
}

/** Forced text taken in one jump (longer runs continue on the next step). */
const MAX_FORCED_CHARS = 256;
/** Tokens a character may be split over before its bytes are treated as text anyway. */
const MAX_PENDING_TOKENS = 4;

/** Accepts a token into llama.cpp's grammar state (the binding node-llama-cpp 3.21.1 uses itself for token predictors). */
function acceptIntoGrammar(state: LlamaGrammarEvaluationState, token: Token): void {
  const s = state as unknown as { _llama: { _bindings: { AddonSampler: { acceptGrammarEvaluationStateToken(state: unknown, token: Token): void } } }; _state: unknown };
  s._llama._bindings.AddonSampler.acceptGrammarEvaluationStateToken(s._state, token);
}

/** Tokens whose text is exactly `text` when they follow `context`, or null when the tokenizer cannot say so. */
function tokenizeExactly(model: LlamaModel, text: string, context: Token[]): Token[] | null {
  const tokens = model.tokenize(text, false, "trimLeadingSpace");
  if (tokens.length === 0 || model.detokenize(tokens, false, context) !== text) return null;
  return tokens;
}

/**
 * Runs a step of our own grammar work; a failure there (a grammar our walker cannot follow) returns
 * null, and the caller goes on with llama.cpp's grammar alone.
 */
function guarded<T>(work: () => T | null): T | null {
  try {
    return work();
  } catch {
    return null;
  }
}

export async function generateConstrained(input: ConstrainedGenerationInput): Promise<ConstrainedGenerationResult> {
  const { sequence, walker, masks, signal } = input;
  const model = sequence.model;
  const texts = TokenTexts.of(model);
  const jump = input.jumpForward !== false;
  const result: ConstrainedGenerationResult = { text: "", tokens: [], sampled: 0, forced: 0, promptEvaluated: 0, stopReason: "eos", utf8Valid: true };
  const utf8 = input.utf8 && "tracker" in input.utf8 ? input.utf8.tracker() : input.utf8;
  if (signal?.aborted) return { ...result, stopReason: "abort" };

  // Reuse the evaluated prefix; at least the last prompt token is evaluated again, for its logits.
  const prompt = input.prompt;
  let keep = Math.min(sequence.compareContextTokens(prompt).firstDifferentIndex, prompt.length - 1);
  keep = Math.max(0, keep);
  if (keep < sequence.nextTokenIndex) await sequence.eraseContextTokenRanges([{ start: keep, end: sequence.nextTokenIndex }]);
  keep = sequence.nextTokenIndex;
  let evalTokens: Token[] = prompt.slice(keep);
  result.promptEvaluated = evalTokens.length;

  const newState = () => new (llamaRuntime().LlamaGrammarEvaluationState)({ model, grammar: input.grammar });
  let state = newState();
  /**
   * A second grammar state, equal to `state` before each sample: the sampler advances `state` by the
   * token it samples, and the shadow follows once no healed boundary replaces that token. So healing
   * restarts from the shadow, and a refused jump leaves `state` untouched, without copying a state at
   * every step: accepting a token costs about 5 µs, a copy about 1.2 ms for an envelope of five tools
   * (llama.cpp copies the whole grammar with it). Null once jumps stop.
   */
  // A copy of a fresh state costs about a tenth of building one (which parses the grammar again).
  let shadow: LlamaGrammarEvaluationState | null = jump ? state.clone() : null;
  /** Accepts tokens into the shadow; on a refusal the shadow is dropped (and with it, further jumps). */
  const follow = (tokens: Token[]): boolean => {
    if (!shadow) return false;
    try {
      for (const t of tokens) acceptIntoGrammar(shadow, t);
      return true;
    } catch {
      shadow = null;
      return false;
    }
  };
  let pos: WalkPosition | null = walker.start();
  /** Tokens of a character still incomplete (not yet text). */
  let pending: Token[] = [];
  /** Tokens just before the undecoded ones, so a piece decodes as a continuation. */
  let context: Token[] = prompt.slice(-4);
  const noBias = sealBias(new (llamaRuntime().TokenBias)(model.tokenizer));
  let bias: TokenBias = input.baseBias ?? noBias;

  const emit = (text: string) => {
    if (!text) return;
    result.text += text;
    input.onText?.(text);
  };
  const remember = (tokens: Token[]) => {
    produce(tokens);
    context = [...context, ...tokens].slice(-4);
  };
  /** Produced tokens, in order, go through the UTF-8 guard. */
  const produce = (tokens: Token[]) => {
    result.tokens.push(...tokens);
    for (const t of tokens) utf8?.push(t);
  };

  /**
   * Forced text from `pos`, as tokens that follow `lead` (the sampled token's text, or "" at the
   * start): the tokens to evaluate, the text they add after `lead`, and the walker position after it.
   */
  const planJump = (from: WalkPosition, lead: string, leadToken: Token | undefined, limit: number, heal: boolean): JumpPlan | null => {
    if (!jump) return null;
    const forced = walker.forcedText(from, MAX_FORCED_CHARS);
    if (!forced.text) return null;
    let tokens = heal || leadToken === undefined ? tokenizeExactly(model, lead + forced.text, context) : null;
    if (tokens && leadToken !== undefined && lead && tokens[0] !== leadToken && !model.detokenize([tokens[0]], false, context).startsWith(lead)) {
      // The healed first token must cover the sampled text, or the sampled token is kept as is.
      tokens = null;
    }
    if (!tokens && leadToken !== undefined) {
      const rest = tokenizeExactly(model, forced.text, [...context, leadToken]);
      tokens = rest ? [leadToken, ...rest] : null;
    }
    if (!tokens) return null;
    // Leave the last forced token to the model where a longer token could run on from it (and the
    // grammar does not end there): the model then picks the boundary. Never go past the token cap.
    let take = tokens.length;
    if (!walker.complete(forced.pos) && tokens.length > 1) {
      const kept = model.detokenize(tokens.slice(0, -1), false, context);
      const back = kept.startsWith(lead) ? walker.advance(from, kept.slice(lead.length)) : null;
      const last = lead.length + forced.text.length - kept.length;
      if (back && (masks?.longestAdmitted(back) ?? Infinity) > last) take--;
    }
    take = Math.min(take, limit);
    let text = lead + forced.text;
    let after = forced.pos;
    if (take < tokens.length) {
      if (take === 0) return null;
      const kept = model.detokenize(tokens.slice(0, take), false, context);
      const back = kept.length >= lead.length && kept.startsWith(lead) ? walker.advance(from, kept.slice(lead.length)) : null;
      if (!back) return null;
      text = kept;
      after = back;
    }
    return { tokens: tokens.slice(0, take), added: text.slice(lead.length), pos: after };
  };

  // Forced text at the very start ({"thought":") joins the prompt batch.
  const opening = guarded(() => planJump(walker.start(), "", undefined, input.maxTokens, false));
  if (opening && opening.tokens.length > 0) {
    for (const t of opening.tokens) acceptIntoGrammar(state, t);
    follow(opening.tokens);
    evalTokens = [...evalTokens, ...opening.tokens];
    pos = opening.pos;
    result.forced += opening.tokens.length;
    remember(opening.tokens);
    emit(opening.added);
  }

  const contextLeft = () => sequence.contextSize - sequence.nextTokenIndex;
  const finish = (stopReason: ConstrainedGenerationResult["stopReason"] = "eos"): ConstrainedGenerationResult => ({
    ...result,
    stopReason,
    utf8Valid: !utf8?.broken,
  });
  useSealedBiases(sequence);
  const iterator = sequence.evaluate(evalTokens, {
    temperature: input.temperature,
    topP: input.topP,
    seed: input.seed,
    grammarEvaluationState: () => state,
    tokenBias: () => bias,
    yieldEogToken: true,
  });
  let promptDone = false;
  try {
    let next: Token[] | undefined;
    for (;;) {
      if (signal?.aborted) return finish("abort");
      if (result.tokens.length >= input.maxTokens || contextLeft() <= (next?.length ?? 0)) return finish("maxTokens");
      // Inside an open character only the UTF-8 guard's continuations may follow; elsewhere a mask if one applies.
      const open = pending.length > 0 || (utf8 !== undefined && !utf8.atBoundary);
      const mask: TokenBias | null = !open && pos ? guarded(() => masks?.at(pos!) ?? null) : null;
      bias = open ? (utf8?.bias() ?? input.baseBias ?? noBias) : (mask ?? input.baseBias ?? noBias);
      const cpu = input.onStep ? process.cpuUsage() : undefined;
      const step = await iterator.next(next);
      if (cpu) {
        const used = process.cpuUsage(cpu);
        input.onStep!({ bias, evaluated: next?.length ?? evalTokens.length, cpuMs: (used.user + used.system) / 1000 });
      }
      if (!promptDone) {
        promptDone = true;
        input.onPromptEvaluated?.();
      }
      if (step.done) return finish();
      const token = step.value;
      if (model.isEogToken(token)) return finish();
      result.sampled++;

      pending.push(token);
      const piece = (pending.length === 1 ? texts.texts[token] : null) ?? model.detokenize(pending, false, context);
      if (piece.endsWith("\uFFFD") && pending.length < MAX_PENDING_TOKENS) {
        next = [token];
        produce([token]);
        follow([token]);
        continue;
      }
      const decodedTokens = pending;
      pending = [];
      let advanced: WalkPosition | null = pos ? guarded(() => walker.advance(pos!, piece)) : null;
      if (!advanced) pos = null;
      const single = decodedTokens.length === 1;
      const from: WalkPosition | null = advanced;
      const plan: JumpPlan | null = from && single && shadow ? guarded(() => planJump(from, piece, token, input.maxTokens - result.tokens.length, true)) : null;
      if (plan) {
        try {
          // Healed: the plan replaces the sampled token, from the shadow (the state before it). Otherwise
          // it follows the sampled token. The shadow takes the tokens first: if llama.cpp refuses one,
          // `state` is untouched.
          const healed = plan.tokens[0] !== token;
          if (!follow(healed ? plan.tokens : [token, ...plan.tokens.slice(1)])) throw new Error("refused");
          if (healed) {
            state = shadow!;
            shadow = state.clone();
          } else {
            try {
              for (const t of plan.tokens.slice(1)) acceptIntoGrammar(state, t);
            } catch {
              // The shadow took the same tokens from the same state, so this cannot refuse; if it did, the shadow is the state.
              state = shadow!;
              shadow = state.clone();
            }
          }
          produce(plan.tokens);
          context = [...context, ...plan.tokens].slice(-4);
          result.forced += plan.tokens.length - 1;
          next = plan.tokens;
          advanced = plan.pos;
          emit(piece + plan.added);
        } catch {
          // llama.cpp refused text our walker forced: keep the sampled token and stop jumping.
          produce([token]);
          context = [...context.slice(decodedTokens.length - 1), token].slice(-4);
          next = [token];
          advanced = null;
          emit(piece);
        }
      } else {
        follow([token]);
        if (decodedTokens.length === 1) remember([token]);
        else {
          produce([token]);
          context = [...context, ...decodedTokens].slice(-4);
        }
        next = [token];
        emit(piece);
      }
      pos = advanced;
      if (!pos) shadow = null;
      if (pos && walker.complete(pos)) return finish();
    }
  } finally {
    await iterator.return();
  }
}
