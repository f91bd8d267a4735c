/**
 * The browser side of the end-to-end test: the fake `obsidian` module, Node shims, a vault of example notes in
 * memory, and a scripted engine. The page loads this bundle, then the built main.js (CommonJS), then the test calls
 * `harness.boot()`, which subclasses the plugin's default export only to swap in these machine services.
 */
import * as codemirrorState from "@codemirror/state";
import * as codemirrorView from "@codemirror/view";
import * as obsidian from "../../fakes/obsidian";
import { App, MemoryBackend } from "../../fakes/obsidian";
import type { Engine, GenerateRequest, GenerateResult, ModelInfo } from "../../../src/core/ports/engine";
import { ScriptedEngine } from "../../../src/engine/scripted";
import type { ModelEntry } from "../../../src/plugin/models/model-library";
import type { PluginServices, RuntimeReport } from "../../../src/plugin/services";
import { HarnessRuntime } from "./runtime-harness";
import { makeTextPdf } from "../../../src/node/pdf/make-pdf";
import { HARNESS_MCP_CONFIG, harnessFiles, harnessMcpTransport } from "./mcp-harness";
import { MOBILE_PLATFORM, mobileObsidian } from "./mobile-harness";

/** Posix `path`, enough for main.js's top-level use. */
const pathShim = {
  sep: "/",
  delimiter: ":",
  join: (...parts: string[]) => parts.filter(Boolean).join("/").replace(/\/+/g, "/"),
  basename: (p: string, ext?: string) => {
    const base = p.split("/").pop() ?? p;
    return ext && base.endsWith(ext) ? base.slice(0, -ext.length) : base;
  },
  dirname: (p: string) => p.split("/").slice(0, -1).join("/") || "/",
  extname: (p: string) => /\.[^./]*$/.exec(p)?.[0] ?? "",
};

const w = window as unknown as Record<string, unknown>;
/** "mobile" when the page set `__harnessMode` before this bundle: a phone without Node (mobile-harness.ts). */
const mobile = w.__harnessMode === "mobile";
/** "phone": the desktop harness's scripted engine with a phone's Platform and classes (the memory scenes' phone screens). */
const phone = w.__harnessMode === "phone";
if (!mobile) {
  w.process = { env: {}, platform: "linux", pid: 1, execPath: "/usr/bin/obsidian" };
  // Obsidian's renderer has Node's `global` too (the MCP SDK's stdio dependencies read it when loaded).
  w.global = window;
}
const moduleObject = { exports: {} as Record<string, unknown> };
w.module = moduleObject;
w.exports = moduleObject.exports;
w.require = (name: string) => {
  // Obsidian provides the CodeMirror 6 it embeds, on mobile as on desktop; main.js keeps them external (the editor
  // extension uses them).
  if (name === "@codemirror/state") return codemirrorState;
  if (name === "@codemirror/view") return codemirrorView;
  if (mobile) {
    if (name === "obsidian") return mobileObsidian;
    throw new Error(`Cannot find module '${name}' (no Node on mobile).`);
  }
  if (name === "obsidian") return phone ? { ...obsidian, Platform: MOBILE_PLATFORM } : obsidian;
  const bare = name.replace(/^node:/, "");
  if (bare === "path") return pathShim;
  // Other Node modules are only used by the desktop services, which the harness replaces.
  return {};
};

/** The chat model the harness pretends to have. */
const MODEL_INFO: ModelInfo = {
  path: "/plugin/models/qwen2.5-0.5b-instruct-q4_k_m.gguf",
  name: "Qwen2.5 0.5B Instruct",
  architecture: "qwen2",
  parameterCount: 494_032_768,
  quantization: "Q4_K_M",
  fileSizeBytes: 397_808_192,
  trainedContextLength: 32768,
  contextSize: 8192,
  hasChatTemplate: true,
};

const MODELS: ModelEntry[] = [
  { path: MODEL_INFO.path, fileName: "qwen2.5-0.5b-instruct-q4_k_m.gguf", source: "plugin", info: MODEL_INFO },
  {
    path: "/plugin/models/Llama-3.2-3B-Instruct-Q4_K_M.gguf",
    fileName: "Llama-3.2-3B-Instruct-Q4_K_M.gguf",
    source: "plugin",
    info: {
      path: "/plugin/models/Llama-3.2-3B-Instruct-Q4_K_M.gguf",
      name: "Llama 3.2 3B Instruct",
      architecture: "llama",
      parameterCount: 3_212_749_888,
      quantization: "Q4_K_M",
      fileSizeBytes: 2_019_377_376,
      trainedContextLength: 131072,
      hasChatTemplate: true,
    },
  },
  {
    path: "/home/me/models/nomic-embed-text-v1.5.Q8_0.gguf",
    fileName: "nomic-embed-text-v1.5.Q8_0.gguf",
    source: "user",
    info: {
      path: "/home/me/models/nomic-embed-text-v1.5.Q8_0.gguf",
      name: "nomic-embed-text-v1.5",
      architecture: "nomic-bert",
      parameterCount: 136_731_648,
      quantization: "Q8_0",
      fileSizeBytes: 146_146_432,
      trainedContextLength: 2048,
      hasChatTemplate: false,
    },
  },
  { path: "/home/me/models/half-copied.gguf", fileName: "half-copied.gguf", source: "user", problem: "half-copied.gguf is truncated: the header ends early. Download it again." },
];

/** A scripted engine that can be re-scripted between scenarios, reporting a real-looking model. */
class HarnessEngine implements Engine {
  inner = new ScriptedEngine([]);
  async generate(request: GenerateRequest): Promise<GenerateResult> {
    const result = await this.inner.generate(request);
    // Report a plausible speed for the status line (the scripted engine's chunks are timed by the test).
    // and, like the built-in engine, that a grammar constrained the reply.
    return { ...result, generateMs: Math.max(result.generateMs, 1), constraint: request.grammar !== undefined ? "gbnf" : "none" };
  }
  embed(texts: string[]) {
    return this.inner.embed(texts);
  }
  countTokens(text: string) {
    return this.inner.countTokens(text);
  }
  async modelInfo(): Promise<ModelInfo> {
    return MODEL_INFO;
  }
}

const engine = new HarnessEngine();
const runtime = new HarnessRuntime();

const services: PluginServices = {
  // The harness vault lives in memory: no vector index on disk, so memory is full-text only.
  absolutePath: () => null,
  modelsFolder: () => "/plugin/models",
  // No engine host runs in the browser: a server test says so, as a real unreachable server would.
  testServer: async (config) => {
    throw new Error(`The ${config.kind === "openai" ? "OpenAI-compatible" : "llama.cpp"} server at ${config.url} cannot be reached from the test harness.`);
  },
  // No PATH in the browser: the harness machine has llama.cpp installed by Homebrew, as a user's Mac would.
  checkLlamaServer: async (path) => ({ path: path || "/opt/homebrew/bin/llama-server", version: "b6500" }),
  listModels: async () => MODELS,
  // The downloader itself is tested in vitest against a local server; here a slow stand-in drives the settings UI.
  download: (_source, onProgress, signal) =>
    new Promise<string>((resolve, reject) => {
      const total = 400_000_000;
      let received = 0;
      const timer = setInterval(() => {
        received += 7_000_000;
        onProgress({ received, total, resumedFrom: 0 });
      }, 50);
      signal.addEventListener("abort", () => {
        clearInterval(timer);
        reject(new Error("The download was cancelled; start it again to resume where it stopped."));
      });
      void resolve;
    }),
  runtime: async (): Promise<RuntimeReport> => {
    const status = await runtime.status();
    return { installed: status.ready, updateNeeded: status.updateNeeded, version: status.current?.version, folder: status.current?.folder };
  },
  runtimeService: () => runtime,
  moveData: async () => ({ from: "/plugin/models", to: "/home/me/.local/share/vault-agent/models" }),
  userDataFolder: () => "/home/me/.local/share/vault-agent",
  createEngine: async () => engine,
  mcpConnection: () => ({ transport: harnessMcpTransport }),
};

let app: App;
/** The in-memory vault's files. */
let vaultBackend: MemoryBackend;

interface BootOptions {
  theme: "light" | "dark";
  notes: Record<string, string>;
  /** Mobile mode: the llama-server the plugin's own MobileServices reach through requestUrl. */
  serverUrl?: string;
}

/** data.json: desktop has the scripted model and the harness MCP servers; the phone a llama.cpp server and a stdio server it must hide. */
function harnessSettings(options: BootOptions): Record<string, unknown> {
  if (!mobile) return { modelPath: MODEL_INFO.path, idleUnloadMinutes: 0, mcpConfig: HARNESS_MCP_CONFIG };
  return {
    engineKind: "llama-server",
    serverUrl: options.serverUrl ?? "",
    idleUnloadMinutes: 0,
    mcpConfig: { mcpServers: { "local files": { command: "npx", args: ["-y", "some-mcp-server"], disabled: true } } },
  };
}

async function boot(options: BootOptions): Promise<void> {
  document.body.addClass(`theme-${options.theme}`);
  if (mobile || phone) document.body.addClass("is-mobile", "is-phone");
  vaultBackend = new MemoryBackend({
    ...options.notes,
    ".obsidian/plugins/vault-agent/data.json": JSON.stringify(harnessSettings(options)),
  });
  app = new App(vaultBackend);
  const root = document.body.createDiv({ cls: "app-container" });
  const workspace = root.createDiv({ cls: "workspace" });
  app.ribbonEl = workspace.createDiv({ cls: "workspace-ribbon side-dock-ribbon mod-left" });
  app.workspace.mainEl = workspace.createDiv({ cls: "workspace-split mod-root" });
  app.workspace.rightEl = workspace.createDiv({ cls: "workspace-split mod-right-split" });
  app.statusBarEl = root.createDiv({ cls: "status-bar" });

  const exported = moduleObject.exports as { default?: new (app: App, manifest: unknown) => obsidian.Plugin };
  const PluginClass = exported.default;
  if (!PluginClass) throw new Error("main.js did not export a plugin class as its default export.");
  // The phone runs the plugin's own MobileServices; the desktop harness swaps in the scripted engine.
  const Harnessed = mobile
    ? PluginClass
    : class extends PluginClass {
        createServices(): PluginServices {
          return services;
        }
      };
  const manifest = { id: "vault-agent", name: "Vault Agent", version: "0.1.0", minAppVersion: "1.8.7", description: "", author: "", isDesktopOnly: true };
  const plugin = new Harnessed(app, manifest);
  plugin.load();
  // onload is async: wait until the view type is registered.
  for (let i = 0; i < 100 && !app.viewRegistry.has("vault-agent-chat"); i++) await new Promise((r) => setTimeout(r, 10));
  await app.workspace.openNote("Home.md");
}

const harness = {
  boot,
  /** The engine install stand-in (runtime-harness.ts). */
  runtime,
  /** Replaces the engine's script. */
  script(replies: string[], options: { chunkDelayMs?: number; chunkChars?: number } = {}): void {
    engine.inner = new ScriptedEngine(replies, { chunkDelayMs: options.chunkDelayMs ?? 15, chunkChars: options.chunkChars ?? 6 });
  },
  /** Requests the engine got (messages only). */
  requests(): string[][] {
    return engine.inner.requests.map((r) => r.messages.map((m) => m.content));
  },
  read(path: string): string | null {
    return app.vault.peek(path);
  },
  /** Creates a note as the user would (a memory kept earlier, for the memory scenes). */
  async createNote(path: string, text: string): Promise<void> {
    const folder = path.split("/").slice(0, -1).join("/");
    if (folder && !app.vault.getAbstractFileByPath(folder)) await app.vault.createFolder(folder);
    await app.vault.create(path, text);
  },
  /** Creates a PDF of text pages (each page its lines) as the user would drop one into the vault (the PDF scene). */
  async createPdf(path: string, pages: string[][]): Promise<void> {
    const folder = path.split("/").slice(0, -1).join("/");
    if (folder && !app.vault.getAbstractFileByPath(folder)) await app.vault.createFolder(folder);
    await app.vault.createBinary(path, makeTextPdf(pages).slice().buffer);
  },
  /** Paths and sizes of the vault's files under `prefix` (binary ones too: the flat vector index). */
  files(prefix = ""): { path: string; size: number; mtime: number }[] {
    return vaultBackend.scan().files.filter((f) => f.path.startsWith(prefix)).map((f) => ({ path: f.path, size: f.size, mtime: f.mtime }));
  },
  /** Where the chat pane's leaf lives: "main" (a tab) or "right" (the sidebar). */
  chatSide(): string | null {
    return (app.workspace.getLeavesOfType("vault-agent-chat")[0] as unknown as { side?: string } | undefined)?.side ?? null;
  },
  commandAvailable(id: string): boolean {
    return app.commands.isAvailable(`vault-agent:${id}`);
  },
  runCommand(id: string): boolean {
    return app.commands.executeCommandById(`vault-agent:${id}`);
  },
  async openNote(path: string, select?: { from: number; to: number }): Promise<void> {
    await app.workspace.openNote(path, select);
  },
  /** Path of the note open in the main editor. */
  activePath(): string | null {
    return app.workspace.activeEditor?.file?.path ?? null;
  },
  /** The text in the main editor (what insert-at-cursor changes). */
  editorText(): string | null {
    return app.workspace.activeEditor?.editor.getValue() ?? null;
  },
  /** Closes the settings window and the chat pane (the engine scenes reopen the pane for its first-run card). */
  closeChat(): void {
    app.setting.close();
    for (const leaf of app.workspace.getLeavesOfType("vault-agent-chat")) leaf.detach();
  },
  closeNotes(): void {
    for (const leaf of app.workspace.getLeavesOfType("markdown")) leaf.detach();
  },
  async setSetting(patch: Record<string, unknown>): Promise<void> {
    const path = ".obsidian/plugins/vault-agent/data.json";
    const current = JSON.parse((await app.vault.adapter.read(path)) || "{}") as Record<string, unknown>;
    await app.vault.adapter.write(path, JSON.stringify({ ...current, ...patch }));
    const plugin = (window as unknown as { __plugin?: { settings: Record<string, unknown> } }).__plugin;
    if (plugin) Object.assign(plugin.settings, patch);
  },
  /** Unloads the plugin as Obsidian does when it is disabled. */
  unload(): { commands: number; views: number; ribbon: number; statusBar: number } {
    (window as unknown as { __plugin?: obsidian.Plugin }).__plugin?.unload();
    return {
      commands: Object.keys(app.commands.commands).filter((id) => id.startsWith("vault-agent:")).length,
      views: app.viewRegistry.has("vault-agent-chat") ? 1 : 0,
      ribbon: document.querySelectorAll(".side-dock-ribbon-action").length,
      statusBar: document.querySelectorAll(".vault-agent-status-bar").length,
    };
  },
  /** Opens the plugin's settings tab. */
  openSettings(): void {
    app.setting.open();
    app.setting.openTabById("vault-agent");
  },
  closeSettings(): void {
    app.setting.close();
  },
  /** The app version requireApiVersion answers for (1.8.7, the plugin's minimum, unless a scene tries newer APIs). */
  setApiVersion(version: string): void {
    obsidian.setFakeApiVersion(version);
  },
  /** Files the harness MCP "files" server still holds. */
  mcpFiles(): string[] {
    return [...harnessFiles];
  },
  settingsTabOpen(): boolean {
    return app.setting.activeTab !== null;
  },
  notices(): string[] {
    return obsidian.Notice.shown;
  },
};

// The plugin instance is reachable for settings changes; kept on window only in the harness.
const originalLoad = obsidian.Plugin.prototype.load;
obsidian.Plugin.prototype.load = function (this: obsidian.Plugin) {
  (window as unknown as { __plugin?: unknown }).__plugin = this;
  originalLoad.call(this);
};

w.harness = harness;
