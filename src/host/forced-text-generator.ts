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
 *
 * A grounded grammar (the vault's paths, note texts and tags) goes to llama.cpp as its loose twin, with free string
 * content where the vault's rules stand (vault-loose.ts): llama.cpp copies its whole grammar on every state clone,
 * and a 10,000-note trie made each copy cost milliseconds. The grounded rules are then held here: inside them every
 * step samples under the exact mask of the admitted tokens, and every sampled token is checked against the grounded
 * grammar before it is evaluated. A token it refuses (or the end of generation before the grammar is complete) is
 * put back: the longest admitted start of its text, or else the shortest admitted token, is evaluated in its place.
 * Where the walker cannot follow, llama.cpp takes the grounded grammar itself, with the tokens so far replayed.
 */
import type { LlamaContextSequence, LlamaGrammar, Token, TokenBias } from "node-llama-cpp";
import { EngineError } from "../core/ports/engine";
import { llamaRuntime } from "./llama-runtime";
import type { GbnfWalker, WalkPosition } from "../core/grammar/gbnf-walker";
import type { ChoiceMasks } from "./choice-masks";
import { planJump, tokenizeExactly, type JumpPlan } from "./forced-jump";
import { preparePrompt } from "./sequence-checkpoints";
import { GrammarStates } from "./grammar-states";
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
  /**
   * The loose twin of a grounded grammar (grammar-walkers.ts), compiled: llama.cpp holds it instead of `grammar`, and
   * the walker holds the grounded rules (needs `masks`). Null or absent: llama.cpp holds `grammar`.
   */
  looseGrammar?: () => Promise<LlamaGrammar | null>;
  /** Prompt tokens (the rendered chat up to the reply). */
  prompt: Token[];
  /** Token counts of the prompt where a later prompt may leave it: checkpointed on models that need it (sequence-checkpoints.ts). */
  checkpointAt?: number[];
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
  /** Prompt tokens passed to evaluate (the rest was kept in the sequence; an erase on a recurrent model may re-read more: the sequence's meter says). */
  promptEvaluated: number;
  /** "eos": the grammar's sentence is complete (or the model ended); "maxTokens": cut at the cap or the context's end. */
  stopReason: "eos" | "maxTokens" | "abort";
  /** False when the UTF-8 guard saw bytes that are not UTF-8 (true without a guard). */
  utf8Valid: boolean;
}

/** Distinct next characters up to which a position is checked for admitting only characters spelled in pieces (a vault tree's root may hold thousands). */
const MAX_PIECE_CHECK_CHARS = 4096;

/** Tokens a character may be split over before its bytes are treated as text anyway. */
const MAX_PENDING_TOKENS = 4;

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
  const { sequence, signal } = input;
  if (signal?.aborted) return { text: "", tokens: [], sampled: 0, forced: 0, promptEvaluated: 0, stopReason: "abort", utf8Valid: true };
  const loose = input.looseGrammar && input.masks ? await input.looseGrammar() : null;
  const run = new ConstrainedRun(input, loose);
  let evalTokens = await preparePrompt(sequence, input.prompt, input.checkpointAt);
  run.result.promptEvaluated = evalTokens.length;
  // Forced text at the very start ({"thought":") joins the prompt batch.
  evalTokens = [...evalTokens, ...run.open()];
  useSealedBiases(sequence);
  const iterator = sequence.evaluate(evalTokens, {
    temperature: input.temperature,
    topP: input.topP,
    seed: input.seed,
    grammarEvaluationState: () => run.grammar.state,
    tokenBias: () => run.bias,
    yieldEogToken: true,
  });
  let promptDone = false;
  try {
    let next: Token[] | undefined;
    for (;;) {
      if (signal?.aborted) return run.finish("abort");
      if (run.result.tokens.length >= input.maxTokens || sequence.contextSize - sequence.nextTokenIndex <= (next?.length ?? 0)) return run.finish("maxTokens");
      run.chooseBias();
      const cpu = input.onStep ? process.cpuUsage() : undefined;
      const step = await iterator.next(next);
      if (cpu) {
        const used = process.cpuUsage(cpu);
        input.onStep!({ bias: run.bias, evaluated: next?.length ?? evalTokens.length, cpuMs: (used.user + used.system) / 1000 });
      }
      if (!promptDone) {
        promptDone = true;
        input.onPromptEvaluated?.();
      }
      if (step.done) return run.finish();
      if (sequence.model.isEogToken(step.value)) {
        if (!run.refusesEnd()) return run.finish();
        next = run.putBack(step.value, "");
        if (run.complete) return run.finish();
        continue;
      }
      const taken = run.take(step.value);
      if (taken.complete) return run.finish();
      next = taken.next;
    }
  } finally {
    await iterator.return();
  }
}

/** One generation's state between steps: the result so far, the walker position, undecoded tokens, the bias. */
class ConstrainedRun {
  readonly result: ConstrainedGenerationResult = { text: "", tokens: [], sampled: 0, forced: 0, promptEvaluated: 0, stopReason: "eos", utf8Valid: true };
  readonly grammar: GrammarStates;
  /** The bias of the coming step. */
  bias: TokenBias;
  private readonly utf8: Utf8Tracking | undefined;
  private readonly jump: boolean;
  private readonly noBias: TokenBias;
  private readonly texts: TokenTexts;
  private pos: WalkPosition | null;
  /** Whether llama.cpp holds the loose twin of the grammar (the walker then holds the grounded rules). */
  private loose: boolean;
  /** Whether the character being written is one the grammar admits only in byte pieces (chooseBias). */
  private inPieces = false;
  /** Tokens of a character still incomplete (not yet text). */
  private pending: Token[] = [];
  /** Tokens just before the undecoded ones, so a piece decodes as a continuation. */
  private context: Token[];

  constructor(
    private readonly input: ConstrainedGenerationInput,
    looseGrammar: LlamaGrammar | null = null,
  ) {
    const model = input.sequence.model;
    this.texts = TokenTexts.of(model);
    this.jump = input.jumpForward !== false;
    this.utf8 = input.utf8 && "tracker" in input.utf8 ? input.utf8.tracker() : input.utf8;
    this.loose = looseGrammar !== null;
    this.grammar = new GrammarStates(model, looseGrammar ?? input.grammar, this.jump);
    this.pos = input.walker.start();
    this.context = input.prompt.slice(-4);
    this.noBias = sealBias(new (llamaRuntime().TokenBias)(model.tokenizer));
    this.bias = input.baseBias ?? this.noBias;
  }

  /** The forced text at the start, taken: the tokens to evaluate with the prompt. */
  open(): Token[] {
    const opening = guarded(() => this.plan(this.input.walker.start(), "", undefined, this.input.maxTokens, false));
    if (!opening || opening.tokens.length === 0) return [];
    this.grammar.accept(opening.tokens);
    this.grammar.follow(opening.tokens);
    this.pos = opening.pos;
    this.result.forced += opening.tokens.length;
    this.remember(opening.tokens);
    this.emit(opening.added);
    return opening.tokens;
  }

  /**
   * Inside an open character only the UTF-8 guard's continuations may follow; elsewhere a mask if one applies. Where
   * the grammar admits only characters that no whole token begins (a CJK name on a vocabulary that spells it in byte
   * pieces), no mask or base bias may apply: a base bias that bans split-character tokens would ban every token the
   * grammar admits, and llama.cpp's sampler, left with no candidate, picks a token the grammar refuses (its accept
   * then throws "Unexpected empty grammar stack", or on the test model the sample never returns). There llama.cpp's
   * grammar, which follows a character's bytes, holds the grounded grammar, and only the UTF-8 guard's bias (which
   * admits a character's first byte) applies until the character is whole.
   */
  chooseBias(): void {
    const { utf8, input, noBias } = this;
    const open = this.pending.length > 0 || (utf8 !== undefined && !utf8.atBoundary);
    const pos = this.pos;
    if (!open) this.inPieces = pos !== null && guarded(() => this.onlyPiecesAdmitted(pos)) === true;
    if (this.inPieces) {
      if (this.loose) this.toGroundedGrammar();
      this.bias = utf8?.bias() ?? noBias;
      return;
    }
    let exact: TokenBias | null = null;
    if (!open && pos && this.loose && input.walker.marked(pos)) {
      exact = guarded(() => input.masks!.exact(pos));
      // No whole token is admitted here (a character the vocabulary spells only in pieces): llama.cpp takes the
      // grounded grammar, which follows a character's bytes, for the rest of the reply.
      if (!exact) this.toGroundedGrammar();
    }
    const mask: TokenBias | null = !open && pos ? (exact ?? guarded(() => input.masks?.at(pos) ?? null)) : null;
    this.bias = open ? (utf8?.bias() ?? input.baseBias ?? noBias) : (mask ?? input.baseBias ?? noBias);
  }

  /** A sampled token, taken: the tokens to evaluate next, and whether the grammar's sentence is complete. */
  take(token: Token): { next: Token[]; complete: boolean } {
    const { model } = this.input.sequence;
    const walker = this.input.walker;
    this.result.sampled++;
    this.pending.push(token);
    const piece = (this.pending.length === 1 ? this.texts.texts[token] : null) ?? model.detokenize(this.pending, false, this.context);
    if (piece.endsWith("\uFFFD") && this.pending.length < MAX_PENDING_TOKENS) {
      if (this.loose && this.pending.length === 1 && !this.opensCharacter(piece)) {
        this.pending = [];
        return { next: this.putBack(token, piece.replace(/\uFFFD+$/u, "")), complete: !!this.pos && walker.complete(this.pos) };
      }
      this.produce([token]);
      this.grammar.follow([token]);
      return { next: [token], complete: false };
    }
    const decodedTokens = this.pending;
    this.pending = [];
    const pos = this.pos;
    const from: WalkPosition | null = pos ? guarded(() => walker.advance(pos, piece)) : null;
    if (!from && this.loose) {
      // Refused where the grounded grammar's text is already whole: the reply ends here, without the token.
      if (pos?.accepted && decodedTokens.length === 1) {
        this.result.sampled--;
        return { next: [], complete: true };
      }
      if (decodedTokens.length === 1) return { next: this.putBack(token, piece), complete: !!this.pos && walker.complete(this.pos) };
      // A character split over tokens that the walker refuses once whole: its first tokens are evaluated already, so
      // llama.cpp takes the grounded grammar, which decides on the whole text as before.
      this.produce([token]);
      this.context = [...this.context, ...decodedTokens].slice(-4);
      this.emit(piece);
      this.toGroundedGrammar();
      this.pos = null;
      return { next: [token], complete: false };
    }
    if (!from) this.pos = null;
    const plan = from && decodedTokens.length === 1 && this.grammar.jumping ? guarded(() => this.plan(from, piece, token, this.input.maxTokens - this.result.tokens.length, true)) : null;
    const taken = plan ? this.jumpWith(plan, piece, token, decodedTokens, from!) : this.keep(piece, token, decodedTokens, from);
    this.pos = taken.pos;
    if (!this.pos) {
      this.grammar.stopJumping();
      if (this.loose) this.toGroundedGrammar();
    }
    return { next: taken.next, complete: !!this.pos && walker.complete(this.pos) };
  }

  /** Whether the grammar admits here only characters that no token of the vocabulary begins as a whole character. */
  private onlyPiecesAdmitted(pos: WalkPosition): boolean {
    const next = this.input.walker.nextChars(pos, MAX_PIECE_CHECK_CHARS);
    return next !== null && next.length > 0 && next.every((cp) => this.texts.startingWith(cp).length === 0);
  }

  /** Whether the grammar's sentence is complete and nothing more may follow. */
  get complete(): boolean {
    return !!this.pos && this.input.walker.complete(this.pos);
  }

  /** Whether the end of generation, just sampled, must be put back: llama.cpp's loose grammar is complete and the grounded one is not. */
  refusesEnd(): boolean {
    return this.loose && !!this.pos && !this.pos.accepted;
  }

  /**
   * A sampled token the grounded grammar refuses, put back before it is evaluated (llama.cpp holds the loose
   * grammar): in its place the longest start of its text the grammar admits, as tokens, or else the shortest admitted
   * token. llama.cpp's state is started again with the tokens so far and the replacement. Returns the tokens to evaluate.
   */
  putBack(token: Token, piece: string): Token[] {
    const { walker, masks, sequence } = this.input;
    // The end of generation was not counted as sampled; its replacement is.
    if (piece === "" && sequence.model.isEogToken(token)) this.result.sampled++;
    const pos = this.pos!;
    let text = "";
    let at = pos;
    for (const ch of piece) {
      const q = walker.step(at, ch.codePointAt(0)!);
      if (walker.dead(q)) break;
      text += ch;
      at = q;
    }
    const room = this.input.maxTokens - this.result.tokens.length;
    let tokens = text ? tokenizeExactly(sequence.model, text, this.context) : null;
    // Never past the cap: one token always fits (the loop stops before sampling at the cap).
    if (tokens && tokens.length > room) tokens = null;
    let grounded = false;
    if (!tokens) {
      const other = masks!.someAdmitted(pos);
      const otherText = other === null ? null : this.texts.texts[other];
      const after = otherText ? walker.advance(pos, otherText) : null;
      if (other !== null && otherText && after) {
        tokens = [other];
        text = otherText;
        at = after;
      } else {
        // Only characters the vocabulary spells in pieces are admitted: one of them, as its pieces, and llama.cpp
        // takes the grounded grammar (which follows a character's bytes) for the rest of the reply.
        for (const cp of walker.nextChars(pos, 64) ?? []) {
          const spelled = tokenizeExactly(sequence.model, String.fromCodePoint(cp), this.context);
          if (!spelled || spelled.length > room) continue;
          tokens = spelled;
          text = String.fromCodePoint(cp);
          at = walker.step(pos, cp);
          grounded = true;
          break;
        }
      }
      if (!tokens) throw new EngineError("The reply could not continue under the grammar (no token the grammar admits was found); nothing was kept of it.", "internal");
    }
    this.result.forced += tokens.length - 1;
    this.remember(tokens);
    this.emit(text);
    this.pos = at;
    if (grounded) this.toGroundedGrammar();
    else this.grammar.restart(this.result.tokens);
    return tokens;
  }

  /**
   * Whether a token that opens a character (its text ends in U+FFFD) may be taken in the loose grammar: its whole
   * text up to the open character is admitted, and there some stack admits every character beyond ASCII (plain
   * string content), so whatever character the continuation completes is admitted too. Inside the vault's rules it
   * never is (their masks lift whole tokens only).
   */
  private opensCharacter(piece: string): boolean {
    const { walker } = this.input;
    const at = this.pos ? walker.advance(this.pos, piece.replace(/\uFFFD+$/u, "")) : null;
    if (!at || walker.marked(at)) return false;
    return at.threads.some((f) => {
      const el = f.seq.elems[f.i] as unknown as { negated: boolean; ranges: Array<[number, number]> };
      return el.negated && el.ranges.every(([, b]) => b < 0x80);
    });
  }

  /** llama.cpp takes the grounded grammar itself, with every token so far replayed (the walker can no longer hold it). */
  private toGroundedGrammar(): void {
    this.loose = false;
    try {
      this.grammar.restart(this.result.tokens, this.input.grammar);
    } catch {
      throw new EngineError("The reply left the grammar (the grammar walker and llama.cpp disagreed on it); nothing was kept of it.", "internal");
    }
  }

  finish(stopReason: ConstrainedGenerationResult["stopReason"] = "eos"): ConstrainedGenerationResult {
    return { ...this.result, stopReason, utf8Valid: !this.utf8?.broken };
  }

  private plan(from: WalkPosition, lead: string, leadToken: Token | undefined, limit: number, heal: boolean): JumpPlan | null {
    if (!this.jump) return null;
    const { walker, masks, sequence } = this.input;
    return planJump({ model: sequence.model, walker, masks, context: this.context }, from, lead, leadToken, limit, heal);
  }

  /** The sampled token with the forced text after it (healed: the plan replaces the sampled token). */
  private jumpWith(plan: JumpPlan, piece: string, token: Token, decodedTokens: Token[], from: WalkPosition): { next: Token[]; pos: WalkPosition | null } {
    const grammar = this.grammar;
    try {
      // Healed: the plan replaces the sampled token, from the shadow (the state before it). Otherwise
      // it follows the sampled token. The shadow takes the tokens first: if llama.cpp refuses one,
      // the state is untouched.
      const healed = plan.tokens[0] !== token;
      if (!grammar.follow(healed ? plan.tokens : [token, ...plan.tokens.slice(1)])) throw new Error("refused");
      if (healed) grammar.promote();
      else {
        try {
          grammar.accept(plan.tokens.slice(1));
        } catch {
          // The shadow took the same tokens from the same state, so this cannot refuse; if it did, the shadow is the state.
          grammar.promote();
        }
      }
      this.produce(plan.tokens);
      this.context = [...this.context, ...plan.tokens].slice(-4);
      this.result.forced += plan.tokens.length - 1;
      this.emit(piece + plan.added);
      return { next: plan.tokens, pos: plan.pos };
    } catch {
      // llama.cpp refused text our walker forced: keep the sampled token and stop jumping.
      this.produce([token]);
      this.context = [...this.context.slice(decodedTokens.length - 1), token].slice(-4);
      this.emit(piece);
      if (this.loose) {
        // The walker admitted the sampled token: it goes on holding the grammar, without jumps.
        this.grammar.stopJumping();
        return { next: [token], pos: from };
      }
      return { next: [token], pos: null };
    }
  }

  /** The sampled token alone (no jump from here). */
  private keep(piece: string, token: Token, decodedTokens: Token[], pos: WalkPosition | null): { next: Token[]; pos: WalkPosition | null } {
    this.grammar.follow([token]);
    if (decodedTokens.length === 1) this.remember([token]);
    else {
      this.produce([token]);
      this.context = [...this.context, ...decodedTokens].slice(-4);
    }
    this.emit(piece);
    return { next: [token], pos };
  }

  private emit(text: string): void {
    if (!text) return;
    this.result.text += text;
    this.input.onText?.(text);
  }

  private remember(tokens: Token[]): void {
    this.produce(tokens);
    this.context = [...this.context, ...tokens].slice(-4);
  }

  /** Produced tokens, in order, go through the UTF-8 guard. */
  private produce(tokens: Token[]): void {
    this.result.tokens.push(...tokens);
    for (const t of tokens) this.utf8?.push(t);
  }
}
