/**
 * The plugin's engine path end to end, minus Electron: the host script bundled by esbuild.config.mjs is written
 * into a plugin folder, spawned with process.execPath and ELECTRON_RUN_AS_NODE=1 only when first needed, runs the
 * generated test model, unloads it after the idle timeout, and is killed when the plugin unloads.
 */
import { alive } from "../../helpers/process";
import { createHash } from "node:crypto";
import { mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { EngineClient } from "../../../src/engine/client";
import { HOST_SCRIPT_NAME, ensureHostScript } from "../../../src/desktop/engine-host/host-script";
import { ManagedEngine, type EngineStatus } from "../../../src/plugin/engine/managed-engine";
import { existsSync, mkdirSync } from "node:fs";
import { MemoryService } from "../../../src/plugin/memory/memory-service";
import { semanticSetup, textHostSetup } from "../../../src/plugin/memory/semantic-setup";
import { Conversation } from "../../../src/core/agent/conversation";
import type { AgentEvent } from "../../../src/core/agent/events";
import type { UserPort } from "../../../src/core/ports/user";
import { RemoteTextStore } from "../../../src/engine/vector/remote-text-store";
import { ScriptedEngine } from "../../../src/engine/scripted";
import { AgentFactory } from "../../../src/plugin/agent/agent-factory";
import { ObsidianWorkspace } from "../../../src/plugin/vault/obsidian-workspace";
import { DesktopServices, EngineSetupError } from "../../../src/plugin/services";
import { ObsidianVault } from "../../../src/plugin/vault/obsidian-vault";
import { fakeApp } from "../../fakes/fake-app";
import { FolderBackend } from "../../fakes/folder-backend";
import { DEFAULT_SETTINGS } from "../../../src/plugin/settings/settings";
import { testModelPath } from "../../helpers/test-model";
import { buildHostBundle } from "../../helpers/host-bundle";
import { folderFiles, startNodeSearchWorker } from "../../../src/node/search-worker/node-search-worker";

const repo = resolve(__dirname, "../../..");
let pluginDir: string;
let host: { source: string; hash: string };
let model: string;

beforeAll(async () => {
  const source = await buildHostBundle();
  host = { source, hash: createHash("sha256").update(source).digest("hex").slice(0, 16) };
  pluginDir = mkdtempSync(join(tmpdir(), "plugin-folder-"));
  // The runtime (node-llama-cpp, vectra) as a user's `npm install` in the plugin folder would provide it.
  symlinkSync(join(repo, "node_modules"), join(pluginDir, "node_modules"), "dir");
  model = await testModelPath();
  process.env.VAULT_AGENT_GPU = "false";
});

afterAll(() => rmSync(pluginDir, { recursive: true, force: true }));

async function until(pred: () => boolean, ms = 10_000): Promise<void> {
  const start = Date.now();
  while (!pred()) {
    if (Date.now() - start > ms) throw new Error("condition not met in time");
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** A two-note vault (a garden note and a recipe) over the fake app, with services and an engine on the test model. */
function gardenVault(vaultRoot: string) {
  mkdirSync(join(vaultRoot, "Garden"));
  writeFileSync(join(vaultRoot, "Garden/Tomatoes.md"), "# Tomatoes\nSow tomatoes indoors in March, plant out after the frost.\n");
  writeFileSync(join(vaultRoot, "Recipes.md"), "# Soup\nRed lentils, carrots and cumin.\n");
  const { app } = fakeApp(new FolderBackend(vaultRoot));
  const services = new DesktopServices(pluginDir, host, vaultRoot);
  const settings = { ...DEFAULT_SETTINGS, modelPath: model, threads: 1, contextSize: 512 };
  const engine = new ManagedEngine({ create: () => services.createEngine(settings), idleMinutes: () => 0 });
  return { app, vault: new ObsidianVault(app), services, settings, engine };
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
      await expect(noRuntime.createEngine({ ...DEFAULT_SETTINGS, modelPath: model })).rejects.toThrow(/engine is not installed; install it from the settings/);
      const report = await noRuntime.runtime();
      expect(report).toMatchObject({ installed: false, updateNeeded: false });
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
    // The pane's status line shows what the engine read of the prompt, by its own count (a new conversation: all of it).
    expect(result.tokensEvaluated).toBe(result.tokensIn);
    expect(engine.current.lastPrompt).toEqual({ tokens: result.tokensIn, evaluated: result.tokensEvaluated });
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

  it("saves a conversation's state in the data folder's states/ and restores it after a restart; 0 MB saves none", async () => {
    const services = new DesktopServices(pluginDir, host);
    const settings = { ...DEFAULT_SETTINGS, modelPath: model, threads: 1, contextSize: 512 };
    const messages = [
      { role: "system" as const, content: "You answer briefly about the garden." },
      { role: "user" as const, content: "When do tomatoes go outside?" },
    ];
    const states = services.statesFolder();
    rmSync(states, { recursive: true, force: true });
    const turn = async (s: typeof settings) => {
      const client = (await services.createEngine(s)) as EngineClient;
      try {
        const result = await client.generate({ messages, maxTokens: 4, temperature: 0, conversationId: "garden" });
        return { evaluated: result.tokensEvaluated, prompt: result.tokensIn };
      } finally {
        await client.shutdown();
      }
    };
    const first = await turn(settings);
    expect(first.evaluated).toBeGreaterThan(0);
    // The shutdown wrote the conversation's state (and the system prompt's) under the data folder.
    expect(readdirSync(states).filter((n) => n.endsWith(".state")).length).toBeGreaterThanOrEqual(1);
    // The restarted host restores the conversation: of the same prompt it evaluates at most the last token again.
    const again = await turn(settings);
    expect(again.prompt).toBe(first.prompt);
    expect(again.evaluated).toBeLessThanOrEqual(1);
    rmSync(states, { recursive: true, force: true });
    await turn({ ...settings, stateCacheMb: 0 });
    expect(existsSync(states)).toBe(false);
  });

  it("indexes the vault with embeddings from the host and a vectra index in the plugin folder", async () => {
    const vaultRoot = mkdtempSync(join(tmpdir(), "semantic-vault-"));
    try {
      const { app, vault, services, settings, engine } = gardenVault(vaultRoot);
      const notices: string[] = [];
      const memory: MemoryService = new MemoryService({
        vault,
        adapter: app.vault.adapter,
        settings: () => settings,
        defaultIndexFolder: ".obsidian/plugins/vault-agent/index",
        textHost: () => textHostSetup(settings, services, engine, memory.indexFolder()),
        semantic: () => semanticSetup(settings, services, engine, memory.indexFolder()),
        progress: () => undefined,
        notice: (m) => notices.push(m),
      });
      expect(memory.describe()).toMatch(/Not indexed yet/);
      await memory.index(false);
      expect(memory.textInHost).toBe(true);
      expect(notices.find((n) => n.startsWith("Indexed"))).toMatch(/^Indexed 2 notes \(\d+ passages, semantic and full-text\)/);
      expect(memory.semantic).toBe(true);
      expect(memory.describe()).toMatch(/^2 notes, \d+ passages, semantic and full-text search\.$/);
      const search = memory.search()!;
      expect((await search.textSearch("tomatoes", 3))[0]?.path).toBe("Garden/Tomatoes.md");
      const semantic = await search.semanticSearch!("when do I sow tomatoes", 2);
      expect(semantic.length).toBeGreaterThan(0);
      expect(["Garden/Tomatoes.md", "Recipes.md"]).toContain(semantic[0].path);
      // A rebuild drops the host's copy before deleting the files, then indexes everything again there.
      await memory.index(true);
      expect(memory.textInHost).toBe(true);
      expect(notices.filter((n) => n.startsWith("Indexed 2 notes")).length).toBe(2);
      expect((await memory.search()!.textSearch("lentils", 3))[0]?.path).toBe("Recipes.md");
      await memory.close();
      expect(existsSync(join(vaultRoot, ".obsidian/plugins/vault-agent/index/vectors"))).toBe(true);
      expect(existsSync(join(vaultRoot, ".obsidian/plugins/vault-agent/index/text-index.json"))).toBe(true);
      await engine.dispose();
    } finally {
      rmSync(vaultRoot, { recursive: true, force: true });
    }
  });

  it("keeps the full-text index in the search worker when the runtime is missing, and search still works", async () => {
    const vaultRoot = mkdtempSync(join(tmpdir(), "text-only-vault-"));
    const bare = mkdtempSync(join(tmpdir(), "no-runtime-"));
    try {
      writeFileSync(join(vaultRoot, "Tomatoes.md"), "# Tomatoes\nSow tomatoes indoors in March.\n");
      const { app } = fakeApp(new FolderBackend(vaultRoot));
      const services = new DesktopServices(bare, host, vaultRoot);
      const settings = { ...DEFAULT_SETTINGS, modelPath: model, threads: 1, contextSize: 512 };
      let started = 0;
      const engine = new ManagedEngine({ create: () => (started++, services.createEngine(settings)), idleMinutes: () => 0 });
      const memory: MemoryService = new MemoryService({
        vault: new ObsidianVault(app),
        adapter: app.vault.adapter,
        settings: () => settings,
        defaultIndexFolder: ".obsidian/plugins/vault-agent/index",
        textHost: () => textHostSetup(settings, services, engine, memory.indexFolder()),
        semantic: () => semanticSetup(settings, services, engine, memory.indexFolder()),
        progress: () => undefined,
        notice: () => undefined,
        // The worker's script as main.js starts it, in a worker thread; its files under the vault, as the adapter's.
        searchWorker: async () => (await startNodeSearchWorker({ files: (folder) => folderFiles(join(vaultRoot, folder)) })).client,
      });
      await memory.index(false);
      expect(memory.textInHost).toBe(false);
      expect(memory.textInWorker).toBe(true);
      expect(memory.semantic).toBe(false);
      expect(started).toBe(0);
      expect((await memory.search()!.textSearch("tomatoes", 3))[0]?.path).toBe("Tomatoes.md");
      await memory.close();
      expect(existsSync(join(vaultRoot, ".obsidian/plugins/vault-agent/index/text-index.json"))).toBe(true);
    } finally {
      rmSync(vaultRoot, { recursive: true, force: true });
      rmSync(bare, { recursive: true, force: true });
    }
  });

  it("saves the host's text index on shutdown, so updates sent but never saved land on disk", async () => {
    const folder = mkdtempSync(join(tmpdir(), "host-text-index-"));
    try {
      const services = new DesktopServices(pluginDir, host);
      const settings = { ...DEFAULT_SETTINGS, modelPath: model, threads: 1, contextSize: 512 };
      const engine = new ManagedEngine({ create: () => services.createEngine(settings), idleMinutes: () => 0 });
      const text = new RemoteTextStore(engine, folder);
      expect(await text.load()).toBe(false);
      text.set("Garden/Tomatoes.md", "Sow tomatoes indoors in March.", "hash-tomatoes");
      await text.flush();
      expect(existsSync(join(folder, "text-index.json"))).toBe(false);
      await engine.dispose();
      expect(existsSync(join(folder, "text-index.json"))).toBe(true);

      // A new host loads what the old one saved at shutdown.
      const again = new ManagedEngine({ create: () => services.createEngine(settings), idleMinutes: () => 0 });
      const reopened = new RemoteTextStore(again, folder);
      expect(await reopened.load()).toBe(true);
      expect(reopened.hashOf("Garden/Tomatoes.md")).toBe("hash-tomatoes");
      expect((await reopened.search("tomatoes", 3))[0]?.path).toBe("Garden/Tomatoes.md");
      await again.dispose();
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });

  it("offers vault:semantic_search in the chat pane only once the memory has semantic search", async () => {
    const vaultRoot = mkdtempSync(join(tmpdir(), "semantic-tools-vault-"));
    try {
      const { app, vault, services, settings, engine } = gardenVault(vaultRoot);
      let withEmbeddings = false;
      const memory: MemoryService = new MemoryService({
        vault,
        adapter: app.vault.adapter,
        settings: () => settings,
        defaultIndexFolder: ".obsidian/plugins/vault-agent/index",
        textHost: () => textHostSetup(settings, services, engine, memory.indexFolder()),
        semantic: async () => (withEmbeddings ? semanticSetup(settings, services, engine, memory.indexFolder()) : null),
        progress: () => undefined,
        notice: () => undefined,
      });
      const call = JSON.stringify({
        thought: "searching by meaning",
        status: "Task",
        message_to_user: null,
        tool_calls: [{ name: "vault:semantic_search", args: { query: "when do I sow tomatoes", limit: 2 } }],
      });
      const done = JSON.stringify({ thought: "answering", status: "Idle", message_to_user: "See [[Garden/Tomatoes]].", tool_calls: [] });
      // The scripted model calls the semantic tool whenever the grammar lets it (once a turn), then answers.
      let callPending = true;
      const chat = new ScriptedEngine(
        [
          (request) => {
            if (!callPending || !request.grammar?.includes("vault-semantic-search-object")) return done;
            callPending = false;
            return call;
          },
        ],
        { loop: true },
      );
      const factory = new AgentFactory({ engine: chat, vault, workspace: new ObsidianWorkspace(app.workspace), settings: () => settings, memory: () => memory.search() });
      const user: UserPort = { confirm: async () => "deny", notify: () => undefined };
      const ask = async () => {
        callPending = true;
        const events: AgentEvent[] = [];
        const result = await factory.agentFor(new Conversation(), user).runTurn("Use vault:semantic_search: notes about the idea of sowing tomatoes", { onEvent: (e) => events.push(e) });
        const routed = events.find((e) => e.type === "routed");
        return { result, offered: routed?.type === "routed" ? routed.tools.map((t) => t.name) : [] };
      };

      // Text-only memory (no embedding model): the tool is not offered, and the grammar has no way to call it.
      await memory.index(false);
      expect(memory.semantic).toBe(false);
      const textOnly = await ask();
      expect(textOnly.offered).not.toContain("vault:semantic_search");
      expect(chat.requests[0].grammar).not.toContain("vault-semantic-search-object");
      expect(textOnly.result.toolResults.some((r) => r.name === "vault:semantic_search" && r.ok)).toBe(false);

      // Same factory after an index with embeddings: the catalog is rebuilt with the semantic tool, and it runs.
      withEmbeddings = true;
      await memory.index(false);
      expect(memory.semantic).toBe(true);
      const before = chat.requests.length;
      const semantic = await ask();
      expect(semantic.offered).toContain("vault:semantic_search");
      expect(chat.requests[before].grammar).toContain("vault-semantic-search-object");
      const result = semantic.result.toolResults.find((r) => r.name === "vault:semantic_search");
      expect(result?.ok).toBe(true);
      expect(result?.content).toMatch(/\[\[(Garden\/Tomatoes|Recipes)/);
      await memory.close();
      factory.dispose();
      await engine.dispose();
    } finally {
      rmSync(vaultRoot, { recursive: true, force: true });
    }
  });
});
