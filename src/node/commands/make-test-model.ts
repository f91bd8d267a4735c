/**
 * `make-test-model --out F [--vocab N] [--seed S]`: writes the deterministic tiny random-weight GGUF and prints its path.
 * `make-test-model --family F --out F [--seed S]`: the same tiny model with a real family's tokenizer and chat template.
 * `make-test-model --family F --size 0.5b|1.5b|2b|3b|4b --out F`: that family at a released model's dimensions (for speed).
 */
import { resolve } from "node:path";
import { parseArgs, UsageError } from "../cli-types";
import { FAMILY_IDS, familySpec } from "../test-model/families";
import { DEFAULT_FAMILY_SEED, writeFamilyModel } from "../test-model/family-model";
import { MODEL_SIZES, releasedShape, type ModelSize } from "../test-model/sizes";
import { DEFAULT_TEST_SEED, DEFAULT_TEST_VOCAB, writeTestModel } from "../test-model/test-model";
import { MAX_VOCAB_SIZE, MIN_VOCAB_SIZE } from "../test-model/vocabulary";

export const usage =
  `make-test-model --out F [--vocab N] [--seed S]   writes the tiny test GGUF (vocab ${MIN_VOCAB_SIZE}-${MAX_VOCAB_SIZE}, default ${DEFAULT_TEST_VOCAB}; seed default ${DEFAULT_TEST_SEED})\n` +
  `make-test-model --family ${FAMILY_IDS.join("|")} --out F [--seed S]   the same tiny model with that family's real tokenizer and chat template\n` +
  `make-test-model --family F --size ${MODEL_SIZES.join("|")} --out F   that family at the released model's dimensions (random weights, for benchmarks)`;

function integerOption(value: string | boolean | undefined, name: string, fallback: number): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (typeof value !== "string" || !/^\d+$/.test(value) || !Number.isSafeInteger(n)) {
    throw new UsageError(`--${name} must be a whole number, got "${String(value)}".`);
  }
  return n;
}

export async function run(argv: string[]): Promise<number> {
  const { options, positionals } = parseArgs(argv, { strings: ["out", "vocab", "seed", "family", "size"] });
  if (positionals.length > 0) throw new UsageError(`Unexpected argument "${positionals[0]}".`);
  if (typeof options.out !== "string" || options.out === "") throw new UsageError("Give the output file with --out F.");
  if (options.family !== undefined) {
    const spec = typeof options.family === "string" ? familySpec(options.family) : undefined;
    if (!spec) throw new UsageError(`--family must be one of ${FAMILY_IDS.join(", ")}, got "${String(options.family)}".`);
    if (options.vocab !== undefined) throw new UsageError("--vocab does not apply to --family: a family model has its real vocabulary.");
    const seed = integerOption(options.seed, "seed", DEFAULT_FAMILY_SEED);
    if (seed > 0xffffffff) throw new UsageError(`--seed must be below 2^32, got ${seed}.`);
    const size = (options.size ?? "tiny") as ModelSize;
    if (!MODEL_SIZES.includes(size)) throw new UsageError(`--size must be one of ${MODEL_SIZES.join(", ")}, got "${String(options.size)}".`);
    if (size !== "tiny") {
      const shape = releasedShape(spec.id, size);
      if (typeof shape === "string") throw new UsageError(shape);
    }
    process.stdout.write(writeFamilyModel(resolve(options.out), spec.id, seed, size) + "\n");
    return 0;
  }
  if (options.size !== undefined) throw new UsageError("--size needs --family: realistic sizes exist per family.");
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
