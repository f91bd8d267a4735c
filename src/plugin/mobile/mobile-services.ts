/**
 * The machine services where there is no Node (Obsidian mobile): no engine host, no model files, no runtime —
 * the server engines run here in the renderer over fetch or Obsidian's requestUrl (AutoTransport picks), MCP
 * reaches streamable HTTP servers through requestUrl, and the vector index is the flat store in the vault.
 */
import type { DataAdapter } from "obsidian";
import { createServerEngine } from "../../engine/server/create-server-engine";
import { AutoTransport, fetchTransport, requestUrlTransport, type HttpTransport, type RequestUrlFunction } from "../../engine/server/http-transport";
import type { ServerEngineConfig, ServerProbe } from "../../engine/server/server-config";
import type { McpConnectionOptions } from "../../engine/mcp/mcp-connection";
import type { InnerEngine } from "../engine/managed-engine";
import type { ModelEntry } from "../models/model-entry";
import type { RuntimeService, RuntimeStatus } from "../runtime/runtime-service";
import { EngineSetupError, type PluginServices, type RuntimeReport } from "../services-types";
import { serverConfig, type VaultAgentSettings } from "../settings/settings";
import { requestUrlFetch } from "./request-url-fetch";

/** Why a desktop-only part is missing here, in one line (the settings tab and errors use it). */
export const DESKTOP_ONLY = "Needs the desktop app: this device cannot run a local model or child processes; use a llama.cpp or OpenAI-compatible server.";

export class MobileServices implements PluginServices {
  readonly desktopOnly = DESKTOP_ONLY;
  /** One transport per server address: what fetch could do there is remembered for the session. */
  private readonly transports = new Map<string, HttpTransport>();

  constructor(
    private readonly requestUrl: RequestUrlFunction,
    private readonly adapter: DataAdapter,
  ) {}

  absolutePath(): string | null {
    return null;
  }

  modelsFolder(): string {
    return "";
  }

  listModels(): Promise<ModelEntry[]> {
    return Promise.resolve([]);
  }

  download(): Promise<string> {
    return Promise.reject(new EngineSetupError(`Model downloads: ${DESKTOP_ONLY}`));
  }

  runtime(): Promise<RuntimeReport> {
    return Promise.resolve({ installed: false, updateNeeded: false });
  }

  runtimeService(): RuntimeService {
    const status: RuntimeStatus = { platform: null, needed: "", current: null, developer: false, ready: false, updateNeeded: false, offer: null, gpuOffers: [], dataFolder: "" };
    const refuse = () => Promise.reject(new EngineSetupError(`The built-in engine: ${DESKTOP_ONLY}`));
    return { status: () => Promise.resolve(status), install: refuse, installFromFile: refuse, remove: () => Promise.resolve(0) };
  }

  moveData(): Promise<{ from: string; to: string }> {
    return Promise.reject(new EngineSetupError(`Moving model files: ${DESKTOP_ONLY}`));
  }

  userDataFolder(): string {
    return "";
  }

  createEngine(settings: VaultAgentSettings): Promise<InnerEngine> {
    const server = serverConfig(settings);
    if (!server) return Promise.reject(new EngineSetupError(`The built-in engine: ${DESKTOP_ONLY}`));
    if (!server.url) return Promise.reject(new EngineSetupError("No server address set; enter the server's URL in the settings."));
    return Promise.resolve(createServerEngine(server, { transport: this.transportFor(server) }));
  }

  testServer(config: ServerEngineConfig): Promise<ServerProbe> {
    // A fresh choice each test: the user may just have allowed this app's origin on the server.
    this.transports.delete(config.url);
    return createServerEngine(config, { transport: this.transportFor(config) }).probe();
  }

  mcpConnection(): Pick<McpConnectionOptions, "transport" | "fetch"> {
    return { fetch: requestUrlFetch(this.requestUrl) };
  }

  /** The flat vector index (in the search worker) as int8: a quarter of float32's bytes on a phone. */
  readonly flatVectorPrecision = "int8" as const;

  private transportFor(config: ServerEngineConfig): HttpTransport {
    let transport = this.transports.get(config.url);
    if (!transport) {
      transport = new AutoTransport(fetchTransport, requestUrlTransport(this.requestUrl));
      this.transports.set(config.url, transport);
    }
    return transport;
  }
}
