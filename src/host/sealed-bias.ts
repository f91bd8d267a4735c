/**
 * Token biases that are handed to llama.cpp without being rebuilt at every step.
 *
 * node-llama-cpp (pinned at 3.21.1) turns a TokenBias into two typed arrays before sampling each
 * token: it walks the bias entry by entry into plain arrays and copies those into a Uint32Array and a
 * Float32Array. The native sampler then compares them with the logit-bias sampler it already holds
 * and keeps it when they match. The host's biases never change once built (the UTF-8 guard's per
 * state, the string-content bans, the choice masks), so that walk is pure waste: measured on the
 * Qwen2.5 vocabulary it was about 0.2 ms of a 2.4 ms step for the 4,400-entry string ban, the
 * largest part of what a constrained step cost beyond a free one.
 *
 * A sealed bias promises not to change; its arrays are built once, on first use, and a sequence
 * that uses sealed biases gets them as they are. Unsealed biases take node-llama-cpp's own path.
 */
import type { LlamaContextSequence, Token, TokenBias } from "node-llama-cpp";

export interface BiasArrays {
  keys: Uint32Array;
  values: Float32Array;
}

/** Sealed biases and, once used, their arrays. */
const sealed = new WeakMap<TokenBias, BiasArrays | null>();

/** Marks a bias as final (no more `set` calls), optionally with its arrays already built; returns it. */
export function sealBias<T extends TokenBias>(bias: T, arrays?: BiasArrays): T {
  if (arrays) sealed.set(bias, arrays);
  else if (!sealed.has(bias)) sealed.set(bias, null);
  return bias;
}

/** Whether a bias is sealed (tests). */
export function isSealed(bias: TokenBias): boolean {
  return sealed.has(bias);
}

/** The arrays node-llama-cpp would build for a sealed bias, built once; undefined for an unsealed one. */
export function sealedBiasArrays(bias: TokenBias): BiasArrays | undefined {
  const cached = sealed.get(bias);
  if (cached !== null) return cached;
  // `_biases` is a Map of token → logit, or an iterable of the same pairs (choice-masks.ts's shared lists).
  const entries = (bias as unknown as { _biases?: Iterable<[Token, number]> })._biases ?? [];
  const keys: number[] = [];
  const values: number[] = [];
  for (const [token, logit] of entries) {
    keys.push(token);
    values.push(logit);
  }
  const arrays = { keys: Uint32Array.from(keys), values: Float32Array.from(values) };
  sealed.set(bias, arrays);
  return arrays;
}

type ResolveSamplerConfig = (options: Record<string, unknown>) => Record<string, unknown>;
const INSTALLED = Symbol("vault-agent.sealedBias");

/**
 * Lets this sequence hand sealed biases to the sampler as built arrays. node-llama-cpp resolves a
 * step's sampler options in the sequence's `_resolveSamplerConfig` (an internal of 3.21.1); the
 * sealed path resolves everything else through it unchanged and only supplies the bias arrays. If
 * that internal is missing (another version), nothing is installed and every bias takes the normal path.
 */
export function useSealedBiases(sequence: LlamaContextSequence): boolean {
  const seq = sequence as unknown as { _resolveSamplerConfig?: ResolveSamplerConfig; model?: { tokenizer?: unknown }; [INSTALLED]?: true };
  if (seq[INSTALLED]) return true;
  const original = seq._resolveSamplerConfig;
  if (typeof original !== "function") return false;
  seq._resolveSamplerConfig = function (this: unknown, options: Record<string, unknown>) {
    const given = options.tokenBias as TokenBias | (() => TokenBias) | undefined;
    const bias = typeof given === "function" ? given() : given;
    // Only a sealed bias of this sequence's tokenizer skips the walk (node-llama-cpp checks the tokenizer itself otherwise).
    const arrays = bias && (bias as unknown as { _tokenizer?: unknown })._tokenizer === seq.model?.tokenizer ? sealedBiasArrays(bias) : undefined;
    if (!arrays) return original.call(this, { ...options, tokenBias: bias });
    const config = original.call(this, { ...options, tokenBias: undefined });
    if (arrays.keys.length > 0) {
      config.tokenBiasKeys = arrays.keys;
      config.tokenBiasValues = arrays.values;
    }
    return config;
  };
  seq[INSTALLED] = true;
  return true;
}
