/**
 * What each control key of the settings tab reads from the settings and what a new value saves: most keys are a
 * settings field as it is; the rest convert (a list shown as lines, GPU layers as a dropdown's text, a folder
 * normalized) or stand for one entry of a list (a tool family, a trusted MCP server). Every write goes through the
 * plugin's one save path, so a change that needs the engine restarted or the MCP servers reloaded still does.
 */
import { Notice, normalizePath } from "obsidian";
import { DEFAULT_SETTINGS, type DataLocation, type VaultAgentSettings } from "./settings";

/** Key of the toggle that turns one tool family on (the rest of the key is the family). */
export const TOOL_FAMILY_KEY = "toolFamily:";
/** Key of the toggle that trusts one MCP server with vault text (the rest of the key is the server's name). */
export const TRUSTED_SERVER_KEY = "trustedMcpServer:";

const ENGINE_KINDS = ["builtin", "llama-cpp", "llama-server", "openai"] as const;

export interface SettingBindingsDeps {
  settings: () => VaultAgentSettings;
  save: (patch: Partial<VaultAgentSettings>) => Promise<void>;
  /** Moves models and runtime to the other location; resolves with the old and new models folders. */
  moveData?: (to: DataLocation) => Promise<{ from: string; to: string }>;
}

/** How one key reads and saves. */
interface Binding {
  read(s: VaultAgentSettings): unknown;
  /** The patch to save for `value`, or null to save nothing. */
  patch(value: unknown, s: VaultAgentSettings): Partial<VaultAgentSettings> | null | Promise<Partial<VaultAgentSettings> | null>;
}

const text = (value: unknown): string => (typeof value === "string" ? value : typeof value === "number" ? String(value) : "");
const oneOf = <T extends string>(value: unknown, allowed: readonly T[], fallback: T): T => (allowed.includes(value as T) ? (value as T) : fallback);
/** A field whose text is saved trimmed. */
const trimmed = (key: "serverUrl" | "serverModel" | "userModelsFolder" | "runtimeMirror"): Binding => ({
  read: (s) => s[key],
  patch: (v) => ({ [key]: text(v).trim() }),
});
/** A vault folder, normalized; empty falls back to `empty`. */
const folder = (key: "indexFolder" | "memoryFolder" | "conversationFolder", empty: string): Binding => ({
  read: (s) => s[key],
  patch: (v) => {
    const value = text(v).trim();
    return { [key]: value ? normalizePath(value) : empty };
  },
});

export class SettingBindings {
  private readonly listeners: ((key: string) => void)[] = [];
  private readonly bindings: Record<string, Binding>;

  constructor(private readonly deps: SettingBindingsDeps) {
    this.bindings = {
      engineKind: { read: (s) => s.engineKind, patch: (v) => ({ engineKind: oneOf(v, ENGINE_KINDS, "builtin") }) },
      serverUrl: trimmed("serverUrl"),
      serverModel: trimmed("serverModel"),
      userModelsFolder: trimmed("userModelsFolder"),
      runtimeMirror: trimmed("runtimeMirror"),
      gpuLayers: { read: (s) => String(s.gpuLayers), patch: (v) => ({ gpuLayers: Number(v) }) },
      writePolicy: { read: (s) => s.writePolicy, patch: (v) => ({ writePolicy: v === "refuse" ? "refuse" : "confirm" }) },
      conversationStorage: { read: (s) => s.conversationStorage, patch: (v) => ({ conversationStorage: v === "vault" ? "vault" : "plugin" }) },
      indexFolder: folder("indexFolder", ""),
      memoryFolder: folder("memoryFolder", DEFAULT_SETTINGS.memoryFolder),
      conversationFolder: folder("conversationFolder", DEFAULT_SETTINGS.conversationFolder),
      excludedFolders: {
        read: (s) => s.excludedFolders.join("\n"),
        patch: (v) => ({
          excludedFolders: text(v)
            .split("\n")
            .map((l) => l.trim())
            .filter(Boolean)
            .map(normalizePath),
        }),
      },
      dataLocation: { read: (s) => s.dataLocation, patch: (v, s) => this.moveData(v === "user" ? "user" : "plugin", s) },
    };
  }

  /** Called after each saved write with its key (the tab redraws what depends on it). */
  onWrite(listener: (key: string) => void): void {
    this.listeners.push(listener);
  }

  /** The value the control under `key` shows. */
  read(key: string): unknown {
    return this.binding(key).read(this.deps.settings());
  }

  /** Saves `value` for the control under `key` through the plugin's save path. */
  async write(key: string, value: unknown): Promise<void> {
    const patch = await this.binding(key).patch(value, this.deps.settings());
    if (!patch) return;
    await this.deps.save(patch);
    for (const listener of this.listeners) listener(key);
  }

  private binding(key: string): Binding {
    if (key.startsWith(TOOL_FAMILY_KEY)) return listEntry("disabledToolFamilies", key.slice(TOOL_FAMILY_KEY.length), true);
    if (key.startsWith(TRUSTED_SERVER_KEY)) return listEntry("trustedMcpServers", key.slice(TRUSTED_SERVER_KEY.length), false);
    const binding = this.bindings[key];
    if (binding) return binding;
    if (!(key in DEFAULT_SETTINGS) || key === "mcpConfig" || Array.isArray(DEFAULT_SETTINGS[key as keyof VaultAgentSettings])) {
      throw new Error(`No setting of this plugin has the key "${key}".`);
    }
    const field = key as keyof VaultAgentSettings;
    return { read: (s) => s[field], patch: (v) => ({ [field]: v }) };
  }

  /** Moves the data and points the chosen models at their new place; the saved location changes only when the move worked. */
  private async moveData(to: DataLocation, s: VaultAgentSettings): Promise<Partial<VaultAgentSettings> | null> {
    if (to === s.dataLocation) return null;
    if (!this.deps.moveData) throw new Error("Models and engine cannot move on this device.");
    const models = await this.deps.moveData(to);
    // Chosen models that lived in the moved folder keep working from their new place.
    const moved = (p: string) => (p.startsWith(models.from) ? models.to + p.slice(models.from.length) : p);
    new Notice(`Models and engine are now in ${models.to.slice(0, -"models".length - 1)}.`);
    return { dataLocation: to, modelPath: moved(s.modelPath), embeddingModelPath: moved(s.embeddingModelPath) };
  }
}

/**
 * One entry of a list of names as a toggle: `offList` lists what is off (tool families; on = absent), otherwise the
 * list holds what is on (trusted servers, kept sorted).
 */
function listEntry(field: "disabledToolFamilies" | "trustedMcpServers", name: string, offList: boolean): Binding {
  return {
    read: (s) => s[field].includes(name) !== offList,
    patch: (v, s) => {
      const names = new Set(s[field]);
      if ((v === true) !== offList) names.add(name);
      else names.delete(name);
      return { [field]: offList ? [...names] : [...names].sort() };
    },
  };
}
