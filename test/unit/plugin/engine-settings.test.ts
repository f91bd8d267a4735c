import { describe, expect, it } from "vitest";
import { describeProbe } from "../../../src/plugin/settings/engine-section";
import { DEFAULT_SETTINGS, loadSettings, modelLabel, needsEngineRestart, serverConfig } from "../../../src/plugin/settings/settings";
import { readinessProblem } from "../../../src/plugin/readiness";
import type { PluginServices } from "../../../src/plugin/services";

describe("engine choice settings", () => {
  it("defaults to this computer and drops an unknown engine kind", () => {
    expect(loadSettings(null).engineKind).toBe("builtin");
    expect(loadSettings({ engineKind: "cloud" }).engineKind).toBe("builtin");
    expect(loadSettings({ engineKind: "openai", serverUrl: "http://h:1/v1" })).toMatchObject({ engineKind: "openai", serverUrl: "http://h:1/v1" });
  });

  it("builds the server engine's configuration, without empty key or model", () => {
    expect(serverConfig(DEFAULT_SETTINGS)).toBeNull();
    expect(serverConfig({ ...DEFAULT_SETTINGS, engineKind: "llama-server", serverUrl: " http://10.0.0.2:8080 " })).toEqual({ kind: "llama-server", url: "http://10.0.0.2:8080" });
    expect(serverConfig({ ...DEFAULT_SETTINGS, engineKind: "openai", serverUrl: "http://h:1234", serverApiKey: "k", serverModel: " qwen ", contextSize: 8192 })).toEqual({
      kind: "openai",
      url: "http://h:1234",
      apiKey: "k",
      model: "qwen",
      contextSize: 8192,
    });
  });

  it("a changed engine, URL, key or model restarts the engine; the label names the server's model", () => {
    for (const key of ["engineKind", "serverUrl", "serverApiKey", "serverModel"] as const) expect(needsEngineRestart({ [key]: "x" })).toBe(true);
    expect(modelLabel({ ...DEFAULT_SETTINGS, engineKind: "openai", serverUrl: "http://h:1", serverModel: "qwen2.5:7b" })).toBe("qwen2.5:7b");
    expect(modelLabel({ ...DEFAULT_SETTINGS, engineKind: "llama-server", serverUrl: "http://h:1" })).toBe("Server http://h:1");
  });

  it("a server engine needs its URL, not a model file or the built-in runtime", async () => {
    const services = { runtime: async () => ({ installed: false, missing: ["node-llama-cpp"], command: "", folder: "" }) } as unknown as PluginServices;
    const open = () => undefined;
    expect(await readinessProblem({ ...DEFAULT_SETTINGS, engineKind: "llama-server" }, services, open)).toMatchObject({ message: "No server address set." });
    expect(await readinessProblem({ ...DEFAULT_SETTINGS, engineKind: "llama-server", serverUrl: "http://h:8080" }, services, open)).toBeNull();
    expect(await readinessProblem(DEFAULT_SETTINGS, services, open)).toMatchObject({ message: "No model selected." });
  });

  it("where only a server can run (mobile), the built-in choice asks for a server instead of a model file", async () => {
    const services = { desktopOnly: "Needs the desktop app.", runtime: async () => ({ installed: false, updateNeeded: false }) } as unknown as PluginServices;
    expect(await readinessProblem(DEFAULT_SETTINGS, services, () => undefined)).toMatchObject({ message: "This device needs a server engine." });
    expect(await readinessProblem({ ...DEFAULT_SETTINGS, engineKind: "llama-cpp", modelPath: "/m.gguf" }, services, () => undefined)).toMatchObject({ message: "This device needs a server engine." });
  });

  it("Test connection adds how replies travel when the transport is not plain fetch", () => {
    const lines = describeProbe({ kind: "llama-server", url: "http://h:8080", model: "m", grammar: true, constraint: "gbnf", embeddings: true, transport: "requestUrl", transportNote: "Replies arrive whole." });
    expect(lines.at(-1)).toBe("Replies arrive whole.");
  });

  it("Test connection's lines say the model, the context, the constraint and embeddings", () => {
    expect(
      describeProbe({ kind: "llama-server", url: "http://h:8080", model: "qwen.gguf", contextSize: 8192, grammar: true, constraint: "gbnf", embeddings: false, note: "Embeddings are off." }),
    ).toEqual([
      "Connected to http://h:8080: model qwen.gguf, context 8192 tokens.",
      "Accepts a GBNF grammar: turns are constrained by GBNF grammar.",
      "Embeddings: not available.",
      "Embeddings are off.",
    ]);
    expect(describeProbe({ kind: "openai", url: "http://h:1", model: "m", grammar: false, constraint: "json_schema", embeddings: true })[1]).toBe(
      "No GBNF grammar on this engine: turns are constrained by JSON Schema.",
    );
  });
});

describe("llama.cpp on this computer in the settings", () => {
  it("keeps the engine choice and the program path, needs no server address, and restarts the engine when the program changes", () => {
    const s = loadSettings({ engineKind: "llama-cpp", llamaServerPath: "/opt/homebrew/bin/llama-server", modelPath: "/m/a.gguf" });
    expect(s.engineKind).toBe("llama-cpp");
    expect(s.llamaServerPath).toBe("/opt/homebrew/bin/llama-server");
    expect(serverConfig(s)).toBeNull();
    expect(needsEngineRestart({ llamaServerPath: "/usr/bin/llama-server" })).toBe(true);
    expect(loadSettings({ engineKind: "llama.cpp" }).engineKind).toBe("builtin");
  });
});
