import { describe, expect, it } from "vitest";
import { DEFAULT_SETTINGS, loadSettings, modelLabel, needsEngineRestart } from "../../../src/plugin/settings/settings";

describe("settings loading", () => {
  it("gives the defaults for a first run", () => {
    expect(loadSettings(null)).toEqual(DEFAULT_SETTINGS);
  });

  it("keeps stored values of the right type and drops broken ones", () => {
    const s = loadSettings({ modelPath: "/m.gguf", temperature: "hot", threads: 4, excludedFolders: ["Private", 3], writePolicy: "yolo", unknown: 1 });
    expect(s.modelPath).toBe("/m.gguf");
    expect(s.temperature).toBe(DEFAULT_SETTINGS.temperature);
    expect(s.threads).toBe(4);
    expect(s.excludedFolders).toEqual(["Private"]);
    expect(s.writePolicy).toBe("confirm");
    expect(s).not.toHaveProperty("unknown");
  });

  it("never shares array defaults between loads", () => {
    const a = loadSettings({});
    a.excludedFolders.push("X");
    expect(loadSettings({}).excludedFolders).toEqual([]);
    expect(DEFAULT_SETTINGS.excludedFolders).toEqual([]);
  });

  it("network tools are off by default", () => {
    expect(loadSettings(undefined).networkTools).toBe(false);
  });

  it("restarts the engine only for model and runtime options", () => {
    expect(needsEngineRestart({ modelPath: "/a.gguf" })).toBe(true);
    expect(needsEngineRestart({ threads: 2 })).toBe(true);
    expect(needsEngineRestart({ temperature: 0.1, routerTopK: 4 })).toBe(false);
  });

  it("labels the model by its file name until the engine reports its name", () => {
    expect(modelLabel({ ...DEFAULT_SETTINGS, modelPath: "C:\\models\\Qwen.Q4.gguf" })).toBe("Qwen.Q4");
    expect(modelLabel({ ...DEFAULT_SETTINGS, modelPath: "/m/tiny.GGUF" })).toBe("tiny");
    expect(modelLabel(DEFAULT_SETTINGS)).toBe("No model selected");
  });
});
