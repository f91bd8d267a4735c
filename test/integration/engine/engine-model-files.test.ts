/** Model files: each kind of bad one gets one clear sentence naming the file, and the host lives on; test models of every vocabulary size load. */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EngineError } from "../../../src/core/ports/engine";
import type { EngineClient } from "../../../src/engine/client/engine-client";
import { createNodeEngine } from "../../../src/engine/client/node-launcher";
import { testModelPath, writeHugeSparseModel, writeUnknownArchitectureModel } from "../../helpers/test-model";

let engine: EngineClient;
let dir: string;
let goodModel: string;
let hostPid: number | undefined;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "engine-bad-files-"));
  goodModel = await testModelPath();
  engine = createNodeEngine();
  // Starts the host; every case below must leave this same process alive.
  await engine.request("status", {});
  hostPid = engine.hostPid;
  expect(hostPid).toBeGreaterThan(0);
});

afterAll(async () => {
  await engine?.shutdown();
  rmSync(dir, { recursive: true, force: true });
});

async function loadError(path: string): Promise<EngineError> {
  const err = await engine.loadModel({ model: { path, contextSize: 1024 } }).catch((e: unknown) => e);
  expect(err).toBeInstanceOf(EngineError);
  expect((err as EngineError).message).toContain(path);
  // One sentence: no line breaks, ends with a full stop.
  expect((err as EngineError).message).not.toContain("\n");
  expect((err as EngineError).message).toMatch(/\.$/);
  expect(engine.hostPid).toBe(hostPid);
  return err as EngineError;
}

describe("bad model files", () => {
  it("a missing file says the file does not exist", async () => {
    const err = await loadError(join(dir, "missing.gguf"));
    expect(err.code).toBe("model_missing");
    expect(err.message).toMatch(/does not exist/);
  });

  it("a file that is not a GGUF says so and asks for a .gguf file", async () => {
    const path = join(dir, "readme.gguf");
    writeFileSync(path, "This is a text file, not a model.\n");
    const err = await loadError(path);
    expect(err.code).toBe("not_gguf");
    expect(err.message).toMatch(/not a usable GGUF model/);
  });

  it("a truncated GGUF asks to download it again", async () => {
    const path = join(dir, "truncated.gguf");
    const bytes = readFileSync(goodModel);
    writeFileSync(path, bytes.subarray(0, Math.floor(bytes.length * 0.6)));
    const err = await loadError(path);
    expect(err.code).toBe("truncated");
    expect(err.message).toMatch(/download it again/);
  });

  it("a model too large for free memory is refused before loading, using node-llama-cpp's estimate", async () => {
    const path = writeHugeSparseModel(join(dir, "huge.gguf"));
    const err = await loadError(path);
    expect(err.code).toBe("too_large");
    expect(err.message).toMatch(/GB of memory but only .* GB is free/);
  });

  it("an unsupported architecture names it", async () => {
    const path = writeUnknownArchitectureModel(join(dir, "imaginary.gguf"));
    const err = await loadError(path);
    expect(err.code).toBe("unsupported_architecture");
    expect(err.message).toContain('"vaultagent-imaginary"');
  });

  it("after all of them the same host loads a good model and generates", async () => {
    await engine.loadModel({ model: { path: goodModel, contextSize: 1024 } });
    const result = await engine.generate({ messages: [{ role: "user", content: "hi" }], maxTokens: 4 });
    expect(result.tokensOut).toBeGreaterThan(0);
    expect(engine.hostPid).toBe(hostPid);
  });

  it("a test model with a 32,000-token vocabulary loads, tokenizes JSON in multi-character pieces, and generates", async () => {
    const big = await testModelPath({ vocab: 32000, seed: 2 });
    const info = await engine.loadModel({ model: { path: big, contextSize: 1024 } });
    expect(info.name).toContain("vocab 32000");
    const json = '{"name": "note", "tags": ["daily"], "status": "Task"}';
    // Multi-character pieces ({", ": ", ", ", words) make JSON far fewer tokens than characters.
    expect(await engine.countTokens(json)).toBeLessThan(json.length / 3);
    expect(await engine.countTokens('{"')).toBe(1);
    const result = await engine.generate({ messages: [{ role: "user", content: "hi" }], maxTokens: 40, grammar: 'root ::= "{\\"ok\\": " ("true" | "false") "}"' });
    expect(JSON.parse(result.text)).toHaveProperty("ok");
  });

  it("a request that needs a model, with none configured, says to choose one", async () => {
    const bare = createNodeEngine();
    const err = await bare.countTokens("x").catch((e: unknown) => e);
    expect((err as EngineError).code).toBe("no_model");
    expect(bare.state).toBe("stopped");
  });
});
