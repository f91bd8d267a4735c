/**
 * Everything the plugin does with the machine (files outside the vault, child processes, the network), behind one
 * interface: the desktop implementation uses Node; the browser test harness supplies its own with a scripted engine.
 */
import { EngineClient } from "../engine/client";
import { ENGINE_HOST_HASH, RUNTIME_PACKS } from "./engine/build-constants";
import { engineHostSource } from "./engine/host-source";
import { ensureHostScript } from "../desktop/engine-host/host-script";
import type { InnerEngine } from "./engine/managed-engine";
import { obsidianHostLauncher } from "../desktop/engine-host/obsidian-launcher";
import { downloadModel, type DownloadProgress } from "../desktop/download/model-download";
import { parseModelSource } from "./download/model-source";
import { listModels, type ModelEntry } from "./models/model-library";
import { moveDataFolders, userDataFolder } from "./runtime/data-location";
import type { PacksManifest } from "../desktop/runtime/pack-format";
import { DiskRuntimeService, type RuntimeService } from "./runtime/runtime-service";
import type { ServerEngineConfig, ServerProbe } from "../engine/server/server-config";
import { serverConfig, type VaultAgentSettings } from "./settings/settings";
import type { McpConnectionOptions } from "../engine/mcp/mcp-connection";
import { nodeFetch } from "./mcp/node-fetch";
import { localLlamaEngine, checkLocalLlama } from "./engine/local-llama";
import type { LlamaServerReport } from "./settings/local-llama-section";

// The interface and its error type need no Node: mobile-services.ts implements them too.
export { EngineSetupError, type PluginServices, type RuntimeReport } from "./services-types";
import { EngineSetupError, type PluginServices, type RuntimeReport } from "./services-types";
import { nodeModule } from "../engine/node-builtins";

const fs = nodeModule("fs");
const path = nodeModule("path");

/** The data folder's subfolder of saved sequence states. */
const STATES_FOLDER = "states";
/** The data folder's subfolder of llama-server's saved slots (the local llama.cpp engine). */
const SLOTS_FOLDER = "llama-server-slots";

/** Runtime settings the desktop services read on each use. */
export interface DesktopRuntimeOptions {
  /** The plugin's version (its release holds the packs). */
  pluginVersion: string;
  /** Current settings (data location, mirror). */
  settings: () => Pick<VaultAgentSettings, "dataLocation" | "runtimeMirror">;
  /** The runtime this build needs; default the embedded runtime-packs.json. */
  manifest?: PacksManifest;
  /** The per-user data folder; default the platform's. */
  userFolder?: string;
}

/** The desktop implementation over Node, rooted in the plugin's folder on disk. */
export class DesktopServices implements PluginServices {
  private readonly runtimes: DiskRuntimeService;

  constructor(
    private readonly pluginDir: string,
    /** The engine host script to write into the runtime folder; default the one this build embeds. */
    private readonly host: { source: string; hash: string } = { source: engineHostSource(), hash: ENGINE_HOST_HASH },
    /** The vault's folder on disk. */
    private readonly vaultBase: string = "",
    private readonly runtimeOptions: DesktopRuntimeOptions = { pluginVersion: "0.0.0", settings: () => ({ dataLocation: "plugin", runtimeMirror: "" }) },
  ) {
    this.runtimes = new DiskRuntimeService({
      pluginDir,
      dataFolder: () => this.dataFolder(),
      manifest: runtimeOptions.manifest ?? RUNTIME_PACKS,
      pluginVersion: runtimeOptions.pluginVersion,
      mirror: () => runtimeOptions.settings().runtimeMirror,
      host,
      launcher: (folder, script) => obsidianHostLauncher(folder, script),
    });
  }

  /** Where models and runtimes are kept now. */
  private dataFolder(location = this.runtimeOptions.settings().dataLocation): string {
    return location === "user" ? (this.runtimeOptions.userFolder ?? userDataFolder()) : this.pluginDir;
  }

  absolutePath(vaultPath: string): string | null {
    return this.vaultBase ? path.join(this.vaultBase, vaultPath) : null;
  }

  modelsFolder(): string {
    return path.join(this.dataFolder(), "models");
  }

  /** Where the built-in engine saves conversation states. */
  statesFolder(location?: VaultAgentSettings["dataLocation"]): string {
    return path.join(this.dataFolder(location), STATES_FOLDER);
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
    const status = await this.runtimes.status();
    const folder = await this.runtimes.hostFolder();
    let version = status.current?.version;
    if (folder === this.pluginDir) {
      // A developer install: report its node-llama-cpp version.
      const pkg = await fs.promises.readFile(path.join(folder, "node_modules", "node-llama-cpp", "package.json"), "utf8").catch(() => "{}");
      version = (JSON.parse(pkg) as { version?: string }).version;
    }
    return { installed: status.ready, updateNeeded: status.updateNeeded, version, folder: folder ?? undefined };
  }

  runtimeService(): RuntimeService {
    return this.runtimes;
  }

  async moveData(to: VaultAgentSettings["dataLocation"]): Promise<{ from: string; to: string }> {
    const from = this.dataFolder();
    const target = this.dataFolder(to);
    await moveDataFolders(from, target);
    // Saved states are a cache rebuilt from the conversations' text: dropped, not moved.
    for (const cache of [STATES_FOLDER, SLOTS_FOLDER]) await fs.promises.rm(path.join(from, cache), { recursive: true, force: true });
    return { from: path.join(from, "models"), to: path.join(target, "models") };
  }

  userDataFolder(): string {
    return this.runtimeOptions.userFolder ?? userDataFolder();
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


  mcpConnection(): Pick<McpConnectionOptions, "transport" | "fetch"> {
    // Node's HTTP client: the renderer's fetch would hold local MCP servers to the browser's CORS rules.
    return { fetch: nodeFetch };
  }

  checkLlamaServer(path: string): Promise<LlamaServerReport> {
    return checkLocalLlama(path);
  }

  async createEngine(settings: VaultAgentSettings): Promise<InnerEngine> {
    if (settings.engineKind === "llama-cpp") {
      if (!settings.modelPath) throw new EngineSetupError("No model selected; choose one in the settings.");
      // The llama-server engine runs in an engine host, as for a server you run yourself; it needs only the host script.
      const host = await ensureHostScript(this.pluginDir, this.host.source, this.host.hash);
      return localLlamaEngine(settings, {
        logFile: path.join(this.pluginDir, "engine.log"),
        // Beside the built-in engine's states, under the same bound: conversations continue after a restart unread.
        ...(settings.stateCacheMb > 0 ? { slotDir: path.join(this.dataFolder(), SLOTS_FOLDER), slotStateBytes: settings.stateCacheMb * 1024 * 1024 } : {}),
        connect: (server) => new EngineClient(obsidianHostLauncher(this.pluginDir, host.path), { server, logFile: path.join(this.pluginDir, "engine.log") }),
      });
    }
    const server = serverConfig(settings);
    if (server) {
      if (!server.url) throw new EngineSetupError("No server address set; enter the server's URL in the settings.");
      // A server engine needs only the host script: the HTTP client runs there without node-llama-cpp.
      const host = await ensureHostScript(this.pluginDir, this.host.source, this.host.hash);
      return new EngineClient(obsidianHostLauncher(this.pluginDir, host.path), { server, logFile: path.join(this.pluginDir, "engine.log") });
    }
    if (!settings.modelPath) throw new EngineSetupError("No model selected; choose one in the settings.");
    const status = await this.runtimes.status();
    const folder = await this.runtimes.hostFolder();
    if (!folder) {
      throw new EngineSetupError(
        status.updateNeeded
          ? `Engine update needed: this plugin version needs engine runtime ${status.needed}; install it from the settings.`
          : "The engine is not installed; install it from the settings.",
      );
    }
    // The host script sits next to the runtime's node_modules, so its imports resolve there.
    const host = await ensureHostScript(folder, this.host.source, this.host.hash);
    return new EngineClient(obsidianHostLauncher(folder, host.path), {
      model: {
        path: settings.modelPath,
        contextSize: settings.contextSize > 0 ? settings.contextSize : undefined,
        threads: settings.threads > 0 ? settings.threads : undefined,
        gpuLayers: settings.gpuLayers >= 0 ? settings.gpuLayers : undefined,
        // Saved states sit with the models (inside the vault or in the per-user folder), keyed by model file.
        states: settings.stateCacheMb > 0 ? { dir: this.statesFolder(), maxBytes: settings.stateCacheMb * 1024 * 1024 } : undefined,
        checkpointBytes: settings.checkpointMb * 1024 * 1024,
      },
      embeddingModel: settings.embeddingModelPath ? { path: settings.embeddingModelPath } : undefined,
      logFile: path.join(this.pluginDir, "engine.log"),
    });
  }
}
