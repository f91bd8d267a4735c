import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { describeModel, listModels } from "../../../src/plugin/models/model-library";
import { testModelPath } from "../../helpers/test-model";

let plugin: string;
let user: string;
beforeEach(() => {
  plugin = mkdtempSync(join(tmpdir(), "models-plugin-"));
  user = mkdtempSync(join(tmpdir(), "models-user-"));
});
afterEach(() => {
  rmSync(plugin, { recursive: true, force: true });
  rmSync(user, { recursive: true, force: true });
});

describe("model picker listing", () => {
  it("lists GGUF files from both folders with header facts, read without loading", async () => {
    const model = await testModelPath();
    copyFileSync(model, join(plugin, "b-model.gguf"));
    copyFileSync(model, join(user, "a-model.gguf"));
    writeFileSync(join(plugin, "notes.txt"), "not a model");
    writeFileSync(join(plugin, "c-model.gguf.part"), readFileSync(model).subarray(0, 1000));
    const entries = await listModels([
      { path: plugin, source: "plugin" },
      { path: user, source: "user" },
    ]);
    expect(entries.map((e) => [e.fileName, e.source])).toEqual([
      ["b-model.gguf", "plugin"],
      ["a-model.gguf", "user"],
    ]);
    expect(entries[0].info).toMatchObject({ architecture: "llama", hasChatTemplate: expect.any(Boolean) });
    expect(entries[0].info?.trainedContextLength).toBeGreaterThanOrEqual(8192);
    expect(describeModel(entries[0])).toMatch(/^llama · .* · [\d,]+ ctx/);
  });

  it("shows a truncated or fake GGUF with the reason instead of hiding it, and skips missing folders", async () => {
    const model = readFileSync(await testModelPath());
    writeFileSync(join(plugin, "cut.gguf"), model.subarray(0, 200));
    writeFileSync(join(plugin, "fake.gguf"), "hello");
    const entries = await listModels([
      { path: plugin, source: "plugin" },
      { path: join(user, "missing"), source: "user" },
      { path: "", source: "user" },
    ]);
    expect(entries.map((e) => e.fileName)).toEqual(["cut.gguf", "fake.gguf"]);
    for (const e of entries) {
      expect(e.info).toBeUndefined();
      expect(e.problem).toMatch(/\S{5,}/);
      expect(describeModel(e)).toBe(e.problem);
    }
  });
});
