/**
 * Generated test models, cached: the made-up-vocabulary model under `<repo>/.cache/test-models/`, the
 * family models (large real vocabularies, shared by every checkout) under
 * `<cache>/test-models/`. The file name carries a hash of the generator's own source (and, for
 * families, llama.cpp's source commit), so a changed generator never serves a stale model; writing
 * goes through a temp file and a rename, so parallel processes are safe.
 */
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { FamilyId } from "./families";
import type { ModelSize } from "./sizes";
import { DEFAULT_FAMILY_SEED, writeFamilyModel } from "./family-model";
import { llamaSourceCommit, llamaSourceDir, vaultAgentCacheDir } from "./llama-source";
import { DEFAULT_TEST_SEED, DEFAULT_TEST_VOCAB, writeTestModel } from "./test-model";

const generatorDir = dirname(fileURLToPath(import.meta.url));
const repoRoot = join(generatorDir, "..", "..", "..");

/** Where cached test models live. */
export const testModelCacheDir = join(repoRoot, ".cache", "test-models");

function generatorHash(): string {
  const hash = createHash("sha256");
  for (const f of readdirSync(generatorDir).filter((n) => n.endsWith(".ts")).sort()) {
    hash.update(f).update(readFileSync(join(generatorDir, f)));
  }
  hash.update(readFileSync(join(repoRoot, "src", "engine", "gguf", "format.ts")));
  return hash.digest("hex").slice(0, 10);
}

/** Where the cached test model for these options lives (whether or not it exists yet). */
export function testModelFile(opts: { vocab?: number; seed?: number } = {}): string {
  return join(testModelCacheDir, `test-model-v${opts.vocab ?? DEFAULT_TEST_VOCAB}-s${opts.seed ?? DEFAULT_TEST_SEED}-${generatorHash()}.gguf`);
}

/** Path of the cached test model for these options, generating it on first use. */
export function cachedTestModel(opts: { vocab?: number; seed?: number } = {}): string {
  const path = testModelFile(opts);
  if (!existsSync(path)) writeTestModel(path, { vocab: opts.vocab ?? DEFAULT_TEST_VOCAB, seed: opts.seed ?? DEFAULT_TEST_SEED });
  return path;
}

/** Where the family test models live: outside the repository, shared by all checkouts on the machine. */
export function familyModelCacheDir(): string {
  return join(vaultAgentCacheDir(), "test-models");
}

/** Where the cached family test model lives (whether or not it exists yet). */
export function familyModelFile(family: FamilyId, seed = DEFAULT_FAMILY_SEED, size: ModelSize = "tiny"): string {
  const sized = size === "tiny" ? "" : `-${size}`;
  return join(familyModelCacheDir(), `${family}${sized}-s${seed}-${generatorHash()}-${llamaSourceCommit().slice(0, 10)}.gguf`);
}

/** Path of the cached family test model, generating it (from llama.cpp's source, cloned if needed) on first use. */
export function cachedFamilyModel(family: FamilyId, seed = DEFAULT_FAMILY_SEED, size: ModelSize = "tiny"): string {
  const path = familyModelFile(family, seed, size);
  if (!existsSync(path)) {
    llamaSourceDir();
    writeFamilyModel(path, family, seed, size);
  }
  return path;
}
