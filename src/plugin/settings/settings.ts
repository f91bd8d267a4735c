/** The plugin's settings: a typed interface, its defaults, and a loader that keeps unknown or broken values out. */
import type { ServerEngineConfig } from "../../engine/server/server-config";

export type ConversationStorage = "plugin" | "vault";
/**
 * Where the model runs: this computer (node-llama-cpp in the engine host), the user's own llama.cpp run by the plugin
 * as a child process ("llama-cpp"), a llama.cpp server, or an OpenAI-compatible server.
 */
export type EngineKind = "builtin" | "llama-cpp" | "llama-server" | "openai";
export type WritePolicy = "confirm" | "refuse";
export type DataLocation = "plugin" | "user";

export interface VaultAgentSettings {
  /** Which engine answers. */
  engineKind: EngineKind;
  /** The server's address for a server engine, e.g. http://192.168.1.20:8080. */
  serverUrl: string;
  /** Sent only to that server (Authorization: Bearer); in data.json only on apps without secret storage (see server-key.ts). */
  serverApiKey: string;
  /** The name of the secret in Obsidian's secret storage that holds the key (1.11.4 and later); "" = none. */
  serverApiKeySecret: string;
  /** The model to ask the server for; "" = the server's own. */
  serverModel: string;
  /** The llama-server program for "llama.cpp on this computer"; "" = the first found on PATH or in the usual places. */
  llamaServerPath: string;

  /** Absolute path of the chat model (.gguf); "" = none chosen. */
  modelPath: string;
  /** Absolute path of the embedding model; "" = use the chat model. */
  embeddingModelPath: string;
  /** An extra folder (absolute) searched for .gguf files besides the plugin's models folder; "" = none. */
  userModelsFolder: string;
  /** Context size in tokens; 0 = automatic. */
  contextSize: number;
  /** Layers offloaded to a GPU; -1 = automatic, 0 = CPU only. */
  gpuLayers: number;
  /** CPU threads; 0 = automatic. */
  threads: number;
  /** Sampling temperature. */
  temperature: number;
  /** Thinking models (Qwen3, Gemma 4, SmolLM3) may think briefly before each structured reply; off = thinking off. */
  thinkFirst: boolean;
  /** Minutes without a request before the model is unloaded; 0 = never. */
  idleUnloadMinutes: number;
  /** Disk for saved conversation states of the built-in engine, in MB (least recently used go first); 0 = none saved. */
  stateCacheMb: number;
  /** Memory for checkpoints of models with recurrent layers (Qwen3.5, LFM2, Granite 4-H), in MB, all conversations together; the oldest go first. */
  checkpointMb: number;

  /** Tools the router offers per message. */
  routerTopK: number;
  /** Router score (0..1) under which a tool is not offered. */
  routerThreshold: number;
  /** Model rounds per turn. */
  maxToolRounds: number;
  /** Cap on one saved conversation's file, in MB: the oldest turns leave it beyond this. */
  conversationMaxMb: number;
  /** Tool families the agent may use (by family name); absent families are enabled. */
  disabledToolFamilies: string[];
  /** Write and destructive calls: ask first, or refuse them. */
  writePolicy: WritePolicy;
  /** Network tools (web fetch); off by default. */
  networkTools: boolean;
  /** MCP servers (by name) the user trusts with vault text: their calls do not ask as outbound data. */
  trustedMcpServers: string[];

  /** The change journal (for undo) keeps at most this many megabytes... */
  journalMaxMb: number;
  /** ...and turns no older than this many days; the oldest turns leave first. */
  journalMaxDays: number;

  /** Vault folder for the semantic index (vectra) and the text index; "" = the plugin's folder (where the CLI looks too). */
  indexFolder: string;
  /** Folders the agent neither reads nor indexes. */
  excludedFolders: string[];
  /** Folder for memory notes. */
  memoryFolder: string;
  /** Index vault waits until the device is charging (where it reports its battery). Default off. */
  indexOnlyWhileCharging: boolean;

  /** Where conversations persist: the plugin's data, or a vault folder. */
  conversationStorage: ConversationStorage;
  /** Vault folder for conversations when stored in the vault. */
  conversationFolder: string;

  /** Where models and the engine runtime live: the plugin's folder, or one per-user folder outside the vault. */
  dataLocation: DataLocation;
  /** A folder URL that replaces the project's release as the source of engine packs; "" = the release. */
  runtimeMirror: string;
  /** MCP servers in the Claude-Desktop form `{"mcpServers": {...}}` (what import reads and what the MCP section edits). */
  mcpConfig: { mcpServers: Record<string, unknown> };
}

export const DEFAULT_SETTINGS: VaultAgentSettings = {
  engineKind: "builtin",
  serverUrl: "",
  serverApiKey: "",
  serverApiKeySecret: "",
  serverModel: "",
  llamaServerPath: "",
  modelPath: "",
  embeddingModelPath: "",
  userModelsFolder: "",
  contextSize: 0,
  gpuLayers: -1,
  threads: 0,
  temperature: 0.7,
  thinkFirst: false,
  idleUnloadMinutes: 10,
  stateCacheMb: 300,
  checkpointMb: 512,
  routerTopK: 3,
  routerThreshold: 0.3,
  maxToolRounds: 5,
  conversationMaxMb: 2,
  disabledToolFamilies: [],
  writePolicy: "confirm",
  networkTools: false,
  trustedMcpServers: [],
  journalMaxMb: 50,
  journalMaxDays: 30,
  indexFolder: "",
  excludedFolders: [],
  memoryFolder: "Memory",
  indexOnlyWhileCharging: false,
  conversationStorage: "plugin",
  conversationFolder: "Vault agent/Conversations",
  dataLocation: "plugin",
  runtimeMirror: "",
  mcpConfig: { mcpServers: {} },
};

/** Merges stored data over the defaults, keeping only keys of the right type (old or hand-edited data.json stays safe). */
export function loadSettings(stored: unknown): VaultAgentSettings {
  const settings: VaultAgentSettings = { ...DEFAULT_SETTINGS, disabledToolFamilies: [], excludedFolders: [], trustedMcpServers: [] };
  if (!stored || typeof stored !== "object") return settings;
  const data = stored as Record<string, unknown>;
  const target = settings as unknown as Record<string, unknown>;
  for (const [key, fallback] of Object.entries(DEFAULT_SETTINGS)) {
    const value = data[key];
    if (Array.isArray(fallback)) {
      if (Array.isArray(value)) target[key] = value.filter((v): v is string => typeof v === "string");
    } else if (typeof value === typeof fallback && (typeof value !== "number" || Number.isFinite(value))) {
      target[key] = value;
    }
  }
  if (!["confirm", "refuse"].includes(settings.writePolicy)) settings.writePolicy = DEFAULT_SETTINGS.writePolicy;
  if (!["plugin", "vault"].includes(settings.conversationStorage)) settings.conversationStorage = DEFAULT_SETTINGS.conversationStorage;
  if (!["plugin", "user"].includes(settings.dataLocation)) settings.dataLocation = DEFAULT_SETTINGS.dataLocation;
  if (!["builtin", "llama-cpp", "llama-server", "openai"].includes(settings.engineKind)) settings.engineKind = DEFAULT_SETTINGS.engineKind;
  const mcp = settings.mcpConfig as unknown;
  const servers = mcp && typeof mcp === "object" ? (mcp as { mcpServers?: unknown }).mcpServers : undefined;
  settings.mcpConfig = servers && typeof servers === "object" && !Array.isArray(servers) ? { mcpServers: servers as Record<string, unknown> } : { mcpServers: {} };
  return settings;
}

/** Settings whose change means the engine must restart with the new model or options. */
const ENGINE_KEYS: (keyof VaultAgentSettings)[] = [
  "modelPath",
  "embeddingModelPath",
  "contextSize",
  "gpuLayers",
  "threads",
  "engineKind",
  "serverUrl",
  "serverApiKey",
  "serverApiKeySecret",
  "serverModel",
  "llamaServerPath",
  "dataLocation",
  "stateCacheMb",
  "checkpointMb",
];

export function needsEngineRestart(patch: Partial<VaultAgentSettings>): boolean {
  return ENGINE_KEYS.some((key) => key in patch);
}

/** Tokens a thinking model may think before each reply when "Let thinking models think first" is on. */
export const THINK_FIRST_TOKENS = 512;
/** The server engine these settings choose, or null for an engine on this computer (built-in, or llama.cpp run by the plugin). */
export function serverConfig(settings: VaultAgentSettings): ServerEngineConfig | null {
  if (settings.engineKind === "builtin" || settings.engineKind === "llama-cpp") return null;
  return {
    kind: settings.engineKind,
    url: settings.serverUrl.trim(),
    ...(settings.serverApiKey ? { apiKey: settings.serverApiKey } : {}),
    ...(settings.serverModel.trim() ? { model: settings.serverModel.trim() } : {}),
    ...(settings.contextSize > 0 ? { contextSize: settings.contextSize } : {}),
  };
}

/** The chosen model's file name for the status line before the engine has reported its real name. */
export function modelLabel(settings: VaultAgentSettings): string {
  if (settings.engineKind !== "builtin" && settings.engineKind !== "llama-cpp") return settings.serverModel || (settings.serverUrl ? `Server ${settings.serverUrl}` : "No server set");
  if (!settings.modelPath) return "No model selected";
  return (settings.modelPath.split(/[\\/]/).pop() ?? settings.modelPath).replace(/\.gguf$/i, "");
}
