/** `make-test-model --out F [--vocab N] [--seed S]`: writes the deterministic tiny random-weight GGUF and prints its path. */
import { resolve } from "node:path";
import { parseArgs, UsageError } from "../cli-types";
import { DEFAULT_TEST_SEED, DEFAULT_TEST_VOCAB, writeTestModel } from "../test-model/test-model";
import { MAX_VOCAB_SIZE, MIN_VOCAB_SIZE } from "../test-model/vocabulary";

export const usage = `make-test-model --out F [--vocab N] [--seed S]   writes the tiny test GGUF (vocab ${MIN_VOCAB_SIZE}-${MAX_VOCAB_SIZE}, default ${DEFAULT_TEST_VOCAB}; seed default ${DEFAULT_TEST_SEED})`;

function integerOption(value: string | boolean | undefined, name: string, fallback: number): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (typeof value !== "string" || !/^\d+$/.test(value) || !Number.isSafeInteger(n)) {
    throw new UsageError(`--${name} must be a whole number, got "${String(value)}".`);
  }
  return n;
}

export async function run(argv: string[]): Promise<number> {
  const { options, positionals } = parseArgs(argv, { strings: ["out", "vocab", "seed"] });
  if (positionals.length > 0) throw new UsageError(`Unexpected argument "${positionals[0]}".`);
  if (typeof options.out !== "string" || options.out === "") throw new UsageError("Give the output file with --out F.");
  const vocab = integerOption(options.vocab, "vocab", DEFAULT_TEST_VOCAB);
  const seed = integerOption(options.seed, "seed", DEFAULT_TEST_SEED);
  if (vocab < MIN_VOCAB_SIZE || vocab > MAX_VOCAB_SIZE) {
    throw new UsageError(`--vocab must be from ${MIN_VOCAB_SIZE} to ${MAX_VOCAB_SIZE}, got ${vocab}.`);
  }
  if (seed > 0xffffffff) throw new UsageError(`--seed must be below 2^32, got ${seed}.`);
  const path = writeTestModel(resolve(options.out), { vocab, seed });
  process.stdout.write(path + "\n");
  return 0;
}
