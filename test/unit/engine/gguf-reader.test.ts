import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { EngineError } from "../../../src/core/ports/engine";
import { readGgufInfo } from "../../../src/engine/gguf";
import { buildTestModel, TEST_MODEL_SHAPE } from "../../../src/node/test-model/test-model";

let dir: string;
let model: Buffer;
let modelPath: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "gguf-reader-"));
  model = buildTestModel({ vocab: 4096, seed: 5 });
  modelPath = join(dir, "model.gguf");
  writeFileSync(modelPath, model);
});

async function errorOf(path: string): Promise<EngineError> {
  const err = await readGgufInfo(path).then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(EngineError);
  return err as EngineError;
}

describe("readGgufInfo", () => {
  it("reads name, architecture, parameters, quantization, size, context, embedding length and chat template", async () => {
    const info = await readGgufInfo(modelPath);
    const s = TEST_MODEL_SHAPE;
    const perBlock = 2 * s.embeddingLength + 4 * s.embeddingLength * s.embeddingLength + 3 * s.embeddingLength * s.feedForwardLength;
    expect(info).toEqual({
      path: modelPath,
      name: "Vault Agent test model (vocab 4096, seed 5)",
      architecture: "llama",
      parameterCount: 2 * 4096 * s.embeddingLength + s.embeddingLength + s.blockCount * perBlock,
      quantization: "F16",
      fileSizeBytes: model.length,
      trainedContextLength: s.contextLength,
      embeddingLength: s.embeddingLength,
      hasChatTemplate: true,
      chatTemplateKind: "ChatML",
      thinkingModel: false,
    });
  });

  it("names the file and says what to do when it is missing", async () => {
    const err = await errorOf(join(dir, "absent.gguf"));
    expect(err.code).toBe("model_missing");
    expect(err.message).toContain("absent.gguf");
  });

  it("rejects a file that is not a GGUF", async () => {
    const p = join(dir, "notes.gguf");
    writeFileSync(p, "# Just a markdown note\n");
    const err = await errorOf(p);
    expect(err.code).toBe("not_gguf");
    expect(err.message).toMatch(/notes\.gguf.*choose a \.gguf/);
  });

  it("rejects a file cut off inside the header as truncated", async () => {
    const p = join(dir, "cut-header.gguf");
    writeFileSync(p, model.subarray(0, 5000));
    const err = await errorOf(p);
    expect(err.code).toBe("truncated");
    expect(err.message).toMatch(/cut-header\.gguf.*download it again/);
  });

  it("rejects a file cut off inside the tensor data as truncated", async () => {
    const p = join(dir, "cut-data.gguf");
    writeFileSync(p, model.subarray(0, model.length - 1000));
    const err = await errorOf(p);
    expect(err.code).toBe("truncated");
    expect(err.message).toContain(`${model.length - 1000} of ${model.length} bytes`);
  });
});
