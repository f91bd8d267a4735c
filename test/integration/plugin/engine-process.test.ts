/**
 * The plugin's engine path end to end, minus Electron: the host script bundled by esbuild.config.mjs is written
 * into a plugin folder, spawned with process.execPath and ELECTRON_RUN_AS_NODE=1 only when first needed, runs the
 * generated test model, unloads it after the idle timeout, and is killed when the plugin unloads.
 */
import { createHash } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { EngineClient } from "../../../src/engine/client";
import { HOST_SCRIPT_NAME, ensureHostScript } from "../../../src/plugin/engine/host-script";
import { ManagedEngine, type EngineStatus } from "../../../src/plugin/engine/managed-engine";
import { existsSync, mkdirSync } from "node:fs";
import { MemoryService } from "../../../src/plugin/memory/memory-service";
import { semanticSetup } from "../../../src/plugin/memory/semantic-setup";
import { DesktopServices, EngineSetupError } from "../../../src/plugin/services";
import { ObsidianVault } from "../../../src/plugin/vault/obsidian-vault";
import { fakeApp } from "../../fakes/fake-app";
import { FolderBackend } from "../../fakes/folder-backend";
import { DEFAULT_SETTINGS } from "../../../src/plugin/settings/settings";
import { testModelPath } from "../../helpers/test-model";

const repo = resolve(__dirname, "../../..");
let pluginDir: string;
let host: { source: string; hash: string };
let model: string;

beforeAll(async () => {
  const configUrl = new URL("../../../esbuild.config.mjs", import.meta.url).href;
  const config = (await import(configUrl)) as { buildHost(): Promise<string> };
  const cwd = process.cwd();
  process.chdir(repo);
  try {
    const source = await config.buildHost();
    host = { source, hash: createHash("sha256").update(source).digest("hex").slice(0, 16) };
  } finally {
    process.chdir(cwd);
  }
  pluginDir = mkdtempSync(join(tmpdir(), "plugin-folder-"));
  // The runtime (node-llama-cpp, vectra) as a user's `npm install` in the plugin folder would provide it.
  symlinkSync(join(repo, "node_modules"), join(pluginDir, "node_modules"), "dir");
  model = await testModelPath();
  process.env.VAULT_AGENT_GPU = "false";
});

afterAll(() => rmSync(pluginDir, { recursive: true, force: true }));

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function until(pred: () => boolean, ms = 10_000): Promise<void> {
  const start = Date.now();
  while (!pred()) {
    if (Date.now() - start > ms) throw new Error("condition not met in time");
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe("engine host in the plugin folder", () => {
  it("writes the host script when missing or outdated and leaves a current one alone", async () => {
    const dir = mkdtempSync(join(tmpdir(), "host-script-"));
    try {
      expect(await ensureHostScript(dir, host.source, host.hash)).toMatchObject({ written: true });
      const text = readFileSync(join(dir, HOST_SCRIPT_NAME), "utf8");
      expect(text.endsWith(host.source)).toBe(true);
      expect(await ensureHostScript(dir, host.source, host.hash)).toMatchObject({ written: false });
      writeFileSync(join(dir, HOST_SCRIPT_NAME), "// vault-agent engine host 0000000000000000\nold");
      expect(await ensureHostScript(dir, host.source, host.hash)).toMatchObject({ written: true });
      expect(readFileSync(join(dir, HOST_SCRIPT_NAME), "utf8")).toBe(text);
      await expect(ensureHostScript(dir, "", "")).rejects.toThrow(/no engine host; reinstall/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("refuses to start without a model or without the runtime, naming the fix", async () => {
    const services = new DesktopServices(pluginDir, host);
    await expect(services.createEngine({ ...DEFAULT_SETTINGS, modelPath: "" })).rejects.toThrow(EngineSetupError);
    const bare = mkdtempSync(join(tmpdir(), "no-runtime-"));
    try {
      const noRuntime = new DesktopServices(bare, host);
      await expect(noRuntime.createEngine({ ...DEFAULT_SETTINGS, modelPath: model })).rejects.toThrow(/runtime is not installed; install it from the settings/);
      const report = await noRuntime.runtime();
      expect(report).toMatchObject({ installed: false, missing: ["node-llama-cpp", "vectra"] });
      expect(report.command).toContain(`cd "${bare}" && npm install --omit=dev`);
      expect(report.command).toContain("node-llama-cpp@3.21.1");
    } finally {
      rmSync(bare, { recursive: true, force: true });
    }
  });

  it("starts lazily, generates, unloads when idle, and is killed on unload", async () => {
    const services = new DesktopServices(pluginDir, host);
    expect(await services.runtime()).toMatchObject({ installed: true, version: "3.21.1" });
    let inner: EngineClient | null = null;
    const settings = { ...DEFAULT_SETTINGS, modelPath: model, threads: 1, contextSize: 512 };
    const engine = new ManagedEngine({
      create: async () => (inner = (await services.createEngine(settings)) as EngineClient),
      idleMinutes: () => 0.01, // 600 ms
      setTimer: (fn, ms) => setTimeout(fn, ms) as unknown as number,
      clearTimer: (id) => clearTimeout(id),
    });
    const states: EngineStatus["state"][] = [];
    engine.onStatus((s) => states.push(s.state));
    expect(inner).toBeNull();
    expect(engine.current.state).toBe("idle");
    expect(await engine.hostStatus()).toBeNull();

    const result = await engine.generate({ messages: [{ role: "user", content: "hello" }], maxTokens: 6, temperature: 0 });
    expect(result.tokensOut).toBeGreaterThan(0);
    expect(inner!.state).toBe("loaded");
    expect(engine.current).toMatchObject({ state: "ready" });
    expect(engine.current.tokensPerSecond).toBeGreaterThan(0);
    expect(states).toContain("generating");
    const started = inner!.log.lines().find((l) => /engine host started \(pid \d+\)/.test(l));
    const pid = Number(/pid (\d+)/.exec(started ?? "")?.[1]);
    expect(alive(pid)).toBe(true);
    expect(readFileSync(join(pluginDir, HOST_SCRIPT_NAME), "utf8").endsWith(host.source)).toBe(true);

    expect(await engine.hostStatus()).toMatchObject({ loaded: true, gpu: false, threads: 1 });
    await until(() => engine.current.state === "idle");
    expect(inner!.state).toBe("running");
    expect(await engine.hostStatus()).toMatchObject({ loaded: false });
    expect(alive(pid)).toBe(true);

    const again = await engine.countTokens("hello again");
    expect(again).toBeGreaterThan(0);
    expect(inner!.state).toBe("loaded");

    await engine.dispose();
    await until(() => !alive(pid));
    expect(inner!.state).toBe("stopped");
  });

  it("indexes the vault with embeddings from the host and a vectra index in the plugin folder", async () => {
    const vaultRoot = mkdtempSync(join(tmpdir(), "semantic-vault-"));
    try {
      mkdirSync(join(vaultRoot, "Garden"));
      writeFileSync(join(vaultRoot, "Garden/Tomatoes.md"), "# Tomatoes\nSow tomatoes indoors in March, plant out after the frost.\n");
      writeFileSync(join(vaultRoot, "Recipes.md"), "# Soup\nRed lentils, carrots and cumin.\n");
      const { app } = fakeApp(new FolderBackend(vaultRoot));
      const vault = new ObsidianVault(app);
      const services = new DesktopServices(pluginDir, host, vaultRoot);
      const settings = { ...DEFAULT_SETTINGS, modelPath: model, threads: 1, contextSize: 512 };
      const engine = new ManagedEngine({ create: () => services.createEngine(settings), idleMinutes: () => 0 });
      const notices: string[] = [];
      const memory: MemoryService = new MemoryService({
        vault,
        adapter: app.vault.adapter,
        settings: () => settings,
        defaultIndexFolder: ".obsidian/plugins/vault-agent/index",
        semantic: () => semanticSetup(settings, services, engine, memory.indexFolder()),
        progress: () => undefined,
        notice: (m) => notices.push(m),
      });
      expect(memory.describe()).toMatch(/Not indexed yet/);
      await memory.index(false);
      expect(notices.find((n) => n.startsWith("Indexed"))).toMatch(/^Indexed 2 notes \(\d+ passages, semantic and full-text\)/);
      expect(memory.semantic).toBe(true);
      expect(memory.describe()).toMatch(/^2 notes, \d+ passages, semantic and full-text search\.$/);
      const search = memory.search()!;
      expect((await search.textSearch("tomatoes", 3))[0]?.path).toBe("Garden/Tomatoes.md");
      const semantic = await search.semanticSearch!("when do I sow tomatoes", 2);
      expect(semantic.length).toBeGreaterThan(0);
      expect(["Garden/Tomatoes.md", "Recipes.md"]).toContain(semantic[0].path);
      await memory.close();
      expect(existsSync(join(vaultRoot, ".obsidian/plugins/vault-agent/index/vectors"))).toBe(true);
      expect(existsSync(join(vaultRoot, ".obsidian/plugins/vault-agent/index/text-index.json"))).toBe(true);
      await engine.dispose();
    } finally {
      rmSync(vaultRoot, { recursive: true, force: true });
    }
  });
});
