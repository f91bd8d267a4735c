/** What the plugin does with the machine, as an interface: DesktopServices (services.ts, over Node) and MobileServices (no Node) implement it. */
import type { LlamaServerReport } from "./settings/local-llama-section";
import type { DownloadProgress } from "../desktop/download/model-download";
import type { InnerEngine } from "./engine/managed-engine";
import type { ModelEntry } from "./models/model-entry";
import type { RuntimeService } from "./runtime/runtime-service";
import type { ServerEngineConfig, ServerProbe } from "../engine/server/server-config";
import type { VaultAgentSettings } from "./settings/settings";
import type { McpConnectionOptions } from "../engine/mcp/mcp-connection";
import type { FlatPrecision } from "../engine/vector/flat-codec";

export interface RuntimeReport {
  /** The engine can start (the needed runtime, or a developer install, is present). */
  installed: boolean;
  /** An older runtime is installed and the needed one waits for a click. */
  updateNeeded: boolean;
  /** The runtime version in use, when installed. */
  version?: string;
  /** The runtime's folder, when installed. */
  folder?: string;
}

export interface PluginServices {
  /** Set where this device cannot run the built-in engine, model files or child processes: why, in one line (the settings tab hides those parts and shows it). */
  readonly desktopOnly?: string;
  /** A vault path as an absolute path on disk, or null when the vault is not on a local disk. */
  absolutePath(vaultPath: string): string | null;
  /** The plugin's own models folder (absolute). */
  modelsFolder(): string;
  /** GGUF files in the plugin's models folder and the user's folder, with header facts. */
  listModels(settings: VaultAgentSettings): Promise<ModelEntry[]>;
  /** Downloads a model (hf: URI or URL) into the plugin's models folder; resolves with its path. */
  download(source: string, onProgress: (progress: DownloadProgress) => void, signal: AbortSignal): Promise<string>;
  runtime(): Promise<RuntimeReport>;
  /** The engine runtime: status, install (after the user's click), install from file, remove. */
  runtimeService(): RuntimeService;
  /** Moves models and runtime to the other data location; resolves with the old and new models folders. */
  moveData(to: VaultAgentSettings["dataLocation"]): Promise<{ from: string; to: string }>;
  /** The per-user data folder (shown in the location choice). */
  userDataFolder(): string;
  /** The engine for these settings (the host process starts lazily on the first request). */
  createEngine(settings: VaultAgentSettings): Promise<InnerEngine>;
  /** "Test connection": tries the server for real from an engine host (which needs no runtime) and reports what it found. */
  testServer(config: ServerEngineConfig): Promise<ServerProbe>;
  /** Finds ("" = PATH and the usual places) or checks a llama-server program for "llama.cpp on this computer". */
  checkLlamaServer?(path: string): Promise<LlamaServerReport>;
  /** How MCP servers are reached on this machine (default: stdio child processes and the global fetch). */
  mcpConnection?(): Pick<McpConnectionOptions, "transport" | "fetch">;
  /**
   * Where there is no engine host (mobile): the flat vector index, served by the search worker, written at this
   * precision; absent on desktop, where vectra runs in the host.
   */
  flatVectorPrecision?: FlatPrecision;
}

/** Thrown when the engine cannot start yet; the message names the fix. */
export class EngineSetupError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "EngineSetupError";
  }
}

