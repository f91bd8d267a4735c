/**
 * Keeps grammar-constrained output valid UTF-8, byte for byte, for every vocabulary kind.
 *
 * Why: llama.cpp matches grammars on code points and decodes partial characters leniently. Measured on
 * random-weight models with the real Qwen, Llama 3 and Gemma 4 vocabularies: 1–2 of 200 envelopes at
 * temperature 1 held byte sequences that are not UTF-8 (FE 91 90 9A, F9 B8 8C 92, the encoded
 * surrogate ED A8 A1), accepted by the grammar as one character; with only single-byte tokens
 * allowed, 25–56 of 100 outputs were broken. Banning every token that is not whole UTF-8 on its own
 * would forbid characters (CJK, emoji) that some vocabularies only spell with byte tokens.
 *
 * So the guard tracks where the output stands in a UTF-8 automaton (utf8-state.ts) and, per step,
 * allows only the tokens whose bytes keep the whole output a valid UTF-8 prefix. Each token's
 * transition from each of the 8 states is computed once per model, and the bias for each state is
 * built once, so a step costs one lookup. At a character boundary (almost every step) the few tokens
 * that would break UTF-8 are banned; inside a character only a few hundred tokens can continue it,
 * so those get a large logit boost instead of banning the rest (node-llama-cpp copies the whole bias
 * into the sampler each step: banning ~150,000 tokens measured 35–65 ms per step, the boost list
 * well under 0.1 ms). Control tokens that are not end-of-generation are banned: their text is a turn
 * marker, never part of an answer, and the detokenized reply would drop it.
 */
import type { LlamaModel, Token, TokenBias } from "node-llama-cpp";
import { llamaRuntime } from "./llama-runtime";
import { sealBias } from "./sealed-bias";
import { vocabularyBytes } from "./token-bytes";
import { UTF8_BOUNDARY, UTF8_INVALID, UTF8_STATES, utf8Run } from "./utf8-state";

interface GgmlTokenizerMetadata {
  model?: string;
  tokens?: string[];
  token_type?: number[];
}

/** Options of a restricted guard. */
export interface GuardOptions {
  /** Tokens whose bytes this rejects are banned in every state. */
  keep?: (bytes: Uint8Array) => boolean;
  /** Whether UTF-8 is kept whole (default true). */
  track?: boolean;
}

/** Added to the logits of the tokens that may continue a started character: the rest never win. */
const CONTINUE_BOOST = 10_000;

export class Utf8TokenGuard {
  /** next[token * 8 + state]: the state after the token, or UTF8_INVALID. */
  private readonly next: Int8Array;
  private readonly biases: TokenBias[];
  private readonly bannedCounts: number[];
  /** Tokens banned in every state (for reports and tests). */
  readonly alwaysBanned: number;

  private constructor(model: LlamaModel, options: GuardOptions = {}) {
    const keep = options.keep ?? (() => true);
    const track = options.track ?? true;
    const ggml = (model.fileInfo.metadata as unknown as { tokenizer?: { ggml?: GgmlTokenizerMetadata } }).tokenizer?.ggml ?? {};
    const pieces = ggml.tokens ?? [];
    const bytes = vocabularyBytes(ggml.model ?? "llama", pieces, ggml.token_type ?? []);
    const n = pieces.length;
    this.next = new Int8Array(n * UTF8_STATES);
    const banned: number[][] = Array.from({ length: UTF8_STATES }, () => []);
    const allowed: number[][] = Array.from({ length: UTF8_STATES }, () => []);
    let always = 0;
    for (let t = 0; t < n; t++) {
      const b = bytes[t];
      // llama.cpp marks some pieces control at load time (e.g. "</s>" in byte-level vocabularies): ask the model.
      const control = b === null || model.getTokenAttributes(t as Token).control;
      if (control) {
        for (let s = 0; s < UTF8_STATES; s++) this.next[t * UTF8_STATES + s] = s;
        if (!model.isEogToken(t as Token)) {
          for (let s = 0; s < UTF8_STATES; s++) banned[s].push(t);
          always++;
        }
        continue;
      }
      const kept = keep(b);
      for (let s = 0; s < UTF8_STATES; s++) {
        const to = utf8Run(s, b);
        this.next[t * UTF8_STATES + s] = to;
        if (!kept || (track && to === UTF8_INVALID)) banned[s].push(t);
        else allowed[s].push(t);
      }
    }
    this.alwaysBanned = always;
    this.bannedCounts = banned.map((ids) => ids.length);
    const { TokenBias: Bias } = llamaRuntime();
    this.biases = banned.map((ids, state) => {
      const bias = new Bias(model.tokenizer);
      if (state === UTF8_BOUNDARY || !track) for (const t of ids) bias.set(t as Token, "never");
      else for (const t of allowed[state]) bias.set(t as Token, { logit: CONTINUE_BOOST });
      return sealBias(bias);
    });
  }

  private static readonly cache = new WeakMap<LlamaModel, Utf8TokenGuard>();

  /**
   * A guard that also bans every token whose bytes `keep` rejects (stress tests: only single-byte
   * tokens); with `track: false` it bans those alone and does not keep UTF-8 whole (their control arm).
   */
  static restricted(model: LlamaModel, options: GuardOptions): Utf8TokenGuard {
    return new Utf8TokenGuard(model, options);
  }

  /** The guard for this model, built on first use. */
  static for(model: LlamaModel): Utf8TokenGuard {
    let guard = Utf8TokenGuard.cache.get(model);
    if (!guard) {
      guard = new Utf8TokenGuard(model);
      Utf8TokenGuard.cache.set(model, guard);
    }
    return guard;
  }

  /** The state after `token` from `state` (tokens outside the vocabulary leave it unchanged). */
  step(state: number, token: Token): number {
    const i = token * UTF8_STATES + state;
    return i < this.next.length ? this.next[i] : state;
  }

  /** The bias to sample with in `state`: every token that would break UTF-8 (or is a non-final control token) is banned. */
  bias(state: number): TokenBias {
    return this.biases[state === UTF8_INVALID ? UTF8_BOUNDARY : state];
  }

  /** Tokens that cannot follow in `state` (banned at a boundary, left unboosted inside a character). */
  bannedCount(state: number): number {
    return this.bannedCounts[state];
  }

  /** A tracker for one generation: feed it each sampled token; `bias()` is what the next step may use. */
  tracker(): Utf8Tracker {
    return new Utf8Tracker(this);
  }
}

/** The UTF-8 state of one generation's output. */
export class Utf8Tracker {
  /** Current automaton state; UTF8_BOUNDARY when all output so far is whole characters. */
  state = UTF8_BOUNDARY;
  /** Whether some byte so far broke UTF-8 (then tracking resumes at the next character boundary). */
  broken = false;
  constructor(private readonly guard: Utf8TokenGuard) {}
  push(token: Token): void {
    const next = this.guard.step(this.state, token);
    if (next === UTF8_INVALID) this.broken = true;
    this.state = next === UTF8_INVALID ? UTF8_BOUNDARY : next;
  }
  /** For `tokenBias: () => …`, which node-llama-cpp calls before sampling each token. */
  readonly bias = (): TokenBias => this.guard.bias(this.state);
  /** Whether the output ends on a character boundary. */
  get atBoundary(): boolean {
    return this.state === UTF8_BOUNDARY;
  }
}
