/**
 * Test models. `await testModelPath({vocab?, seed?})` returns the deterministic tiny test model,
 * generated once into `<repo>/.cache/test-models/` (temp file + rename, so parallel test processes are
 * safe; the name carries a hash of the generator's source, so it is never stale).
 */
import { closeSync, ftruncateSync, openSync, writeFileSync, writeSync } from "node:fs";
import type { FamilyId } from "../../src/node/test-model/families";
import { cachedFamilyModel, cachedTestModel, testModelCacheDir } from "../../src/node/test-model/model-cache";
import { buildTestModel, buildTestModelHeader } from "../../src/node/test-model/test-model";

/** Where cached test models live. */
export const testModelDir = testModelCacheDir;

/** Path of the generated test model for these options, creating it on first use. */
export async function testModelPath(opts: { vocab?: number; seed?: number } = {}): Promise<string> {
  return cachedTestModel(opts);
}

/**
 * Path of the family test model (real tokenizer and template, random weights), built once per machine
 * into `<cache>/test-models/` and shared by every checkout.
 */
export function familyModelPath(family: FamilyId, seed?: number): string {
  return cachedFamilyModel(family, seed);
}

/**
 * Writes a GGUF whose header describes a ~340 GB llama model, as a sparse file (the header plus a hole),
 * so "too large for free memory" can be tested for real without using the disk space.
 */
export function writeHugeSparseModel(path: string): string {
  const { header, totalBytes } = buildTestModelHeader({
    vocab: 32000,
    shape: { embeddingLength: 8192, blockCount: 200, headCount: 64, headCountKv: 8, feedForwardLength: 28672 },
  });
  const fd = openSync(path, "w");
  try {
    writeSync(fd, header, 0, header.length, 0);
    ftruncateSync(fd, totalBytes);
  } finally {
    closeSync(fd);
  }
  return path;
}

/** Writes a small model that claims an architecture llama.cpp does not know. */
export function writeUnknownArchitectureModel(path: string): string {
  writeFileSync(path, buildTestModel({ vocab: 2048, architecture: "vaultagent-imaginary" }));
  return path;
}
