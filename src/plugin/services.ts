/**
 * Everything the plugin does with the machine (files outside the vault, child processes, the network), behind one
 * interface: the desktop implementation uses Node; the browser test harness supplies its own with a scripted engine.
 */
import * as path from "path";
import { EngineClient } from "../engine/client";
import { ENGINE_HOST_HASH, ENGINE_HOST_SOURCE, RUNTIME_DEPENDENCIES } from "./engine/build-constants";
import { ensureHostScript } from "./engine/host-script";
import type { InnerEngine } from "./engine/managed-engine";
import { obsidianHostLauncher } from "./engine/obsidian-launcher";
import { installCommand, installRuntime, runtimeState, type RuntimeState } from "./engine/runtime";
import { downloadModel, type DownloadProgress } from "./download/model-download";
import { parseModelSource } from "./download/model-source";
import { listModels, type ModelEntry } from "./models/model-library";
import type { ServerEngineConfig, ServerProbe } from "../engine/server/server-config";
import { serverConfig, type VaultAgentSettings } from "./settings/settings";
import type { McpConnectionOptions } from "../engine/mcp/mcp-connection";
import { nodeFetch } from "./mcp/node-fetch";

export interface RuntimeReport extends RuntimeState {
  /** The command that installs the runtime by hand. */
  command: string;
  /** Where the runtime goes. */
  folder: string;
}

export interface PluginServices {
  /** A vault path as an absolute path on disk, or null when the vault is not on a local disk. */
  absolutePath(vaultPath: string): string | null;
  /** The plugin's own models folder (absolute). */
  modelsFolder(): string;
  /** GGUF files in the plugin's models folder and the user's folder, with header facts. */
  listModels(settings: VaultAgentSettings): Promise<ModelEntry[]>;
  /** Downloads a model (hf: URI or URL) into the plugin's models folder; resolves with its path. */
  download(source: string, onProgress: (progress: DownloadProgress) => void, signal: AbortSignal): Promise<string>;
  runtime(): Promise<RuntimeReport>;
  installRuntime(onLine: (line: string) => void, signal?: AbortSignal): Promise<void>;
  /** The engine for these settings (the host process starts lazily on the first request). */
  createEngine(settings: VaultAgentSettings): Promise<InnerEngine>;
  /** "Test connection": tries the server for real from an engine host (which needs no runtime) and reports what it found. */
  testServer(config: ServerEngineConfig): Promise<ServerProbe>;
  /** How MCP servers are reached on this machine (default: stdio child processes and the global fetch). */
  mcpConnection?(): Pick<McpConnectionOptions, "transport" | "fetch">;
}

/** Thrown when the engine cannot start yet; the message names the fix. */
export class EngineSetupError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "EngineSetupError";
  }
}

/** The desktop implementation over Node, rooted in the plugin's folder on disk. */
export class DesktopServices implements PluginServices {
  constructor(
    private readonly pluginDir: string,
    /** The engine host script to write into the plugin folder; default the one this build embeds. */
    private readonly host: { source: string; hash: string } = { source: ENGINE_HOST_SOURCE, hash: ENGINE_HOST_HASH },
    /** The vault's folder on disk. */
    private readonly vaultBase: string = "",
  ) {}

  absolutePath(vaultPath: string): string | null {
    return this.vaultBase ? path.join(this.vaultBase, vaultPath) : null;
  }

  modelsFolder(): string {
    return path.join(this.pluginDir, "models");
  }

  listModels(settings: VaultAgentSettings): Promise<ModelEntry[]> {
    return listModels([
      { path: this.modelsFolder(), source: "plugin" },
      { path: settings.userModelsFolder, source: "user" },
    ]);
  }

  download(source: string, onProgress: (progress: DownloadProgress) => void, signal: AbortSignal): Promise<string> {
    const { url, fileName } = parseModelSource(source);
    return downloadModel({ url, destination: path.join(this.modelsFolder(), fileName), onProgress, signal });
  }

  async runtime(): Promise<RuntimeReport> {
    const state = await runtimeState(this.pluginDir, RUNTIME_DEPENDENCIES);
    return { ...state, command: installCommand(this.pluginDir, RUNTIME_DEPENDENCIES), folder: this.pluginDir };
  }

  async testServer(config: ServerEngineConfig): Promise<ServerProbe> {
    const host = await ensureHostScript(this.pluginDir, this.host.source, this.host.hash);
    const client = new EngineClient(obsidianHostLauncher(this.pluginDir, host.path));
    try {
      return await client.probeServer(config);
    } finally {
      await client.shutdown();
    }
  }

  installRuntime(onLine: (line: string) => void, signal?: AbortSignal): Promise<void> {
    return installRuntime(this.pluginDir, RUNTIME_DEPENDENCIES, onLine, signal);
  }

  mcpConnection(): Pick<McpConnectionOptions, "transport" | "fetch"> {
    // Node's HTTP client: the renderer's fetch would hold local MCP servers to the browser's CORS rules.
    return { fetch: nodeFetch };
  }

  async createEngine(settings: VaultAgentSettings): Promise<InnerEngine> {
    const server = serverConfig(settings);
    if (server) {
      if (!server.url) throw new EngineSetupError("No server address set; enter the server's URL in the settings.");
      // A server engine needs only the host script: the HTTP client runs there without node-llama-cpp.
      const host = await ensureHostScript(this.pluginDir, this.host.source, this.host.hash);
      return new EngineClient(obsidianHostLauncher(this.pluginDir, host.path), { server, logFile: path.join(this.pluginDir, "engine.log") });
    }
    if (!settings.modelPath) throw new EngineSetupError("No model selected; choose one in the settings.");
    const runtime = await runtimeState(this.pluginDir, RUNTIME_DEPENDENCIES);
    if (!runtime.installed) throw new EngineSetupError("The engine runtime is not installed; install it from the settings.");
    const host = await ensureHostScript(this.pluginDir, this.host.source, this.host.hash);
    return new EngineClient(obsidianHostLauncher(this.pluginDir, host.path), {
      model: {
        path: settings.modelPath,
        contextSize: settings.contextSize > 0 ? settings.contextSize : undefined,
        threads: settings.threads > 0 ? settings.threads : undefined,
        gpuLayers: settings.gpuLayers >= 0 ? settings.gpuLayers : undefined,
      },
      embeddingModel: settings.embeddingModelPath ? { path: settings.embeddingModelPath } : undefined,
      logFile: path.join(this.pluginDir, "engine.log"),
    });
  }
}
