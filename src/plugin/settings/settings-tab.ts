/**
 * The settings tab: engine, model, agent, memory, conversations, built-in engine runtime, MCP servers, undo and
 * outside data. One list of rows (getSettingDefinitions) feeds both ways Obsidian shows a tab: 1.13 and later draw it
 * themselves and index it for the settings search; older apps call display(), which draws the same rows.
 */
import { Notice, PluginSettingTab, requireApiVersion, type App, type Plugin, type SettingDefinitionItem } from "obsidian";
import type { EngineStatus } from "../engine/managed-engine";
import type { HostStatus } from "../../engine/client/host-protocol";
import type { SelfCheckResult } from "../models/self-check";
import type { PluginServices } from "../services";
import type { InstallController } from "../runtime/install-controller";
import { agentSection } from "./agent-section";
import { drawSettingRows, type DrawnRows } from "./draw-setting-rows";
import { EngineRuntimeSection } from "./engine-runtime-section";
import { EngineSection } from "./engine-section";
import { mcpSection, type McpSectionDeps } from "./mcp-section";
import { conversationsSection, memorySection } from "./memory-section";
import { ModelSection } from "./model-section";
import { SettingBindings } from "./setting-bindings";
import { isSection, type SettingItem, type SettingRow, type SettingSection } from "./setting-rows";
import type { VaultAgentSettings } from "./settings";
import { trustSection } from "./trust-section";

/** The first app version that draws a tab from getSettingDefinitions() (and indexes it for its settings search). */
export const DECLARATIVE_SETTINGS_VERSION = "1.13.0";

/** What the tab needs from the plugin. */
export interface SettingsTabDeps {
  settings: () => VaultAgentSettings;
  /** The settings with the server key from secret storage, for Test connection (never saved). */
  engineSettings: () => VaultAgentSettings;
  /** Saves and applies (a changed model restarts the engine on next use). */
  save: (patch: Partial<VaultAgentSettings>) => Promise<void>;
  services: PluginServices;
  engineStatus: () => EngineStatus;
  /** Backend and threads of the running host; null when none runs. */
  hostStatus: () => Promise<HostStatus | null>;
  /** One line on the index: notes, passages, semantic or not. */
  memoryStatus: () => string;
  /** Rebuilds the semantic and text indexes. */
  rebuildIndex: () => void;
  /** Whether the device reports its battery (the charging option says so when it does not). Default true. */
  batteryReported?: boolean;
  /** Opens Obsidian's hotkey settings filtered to this plugin's commands. */
  openHotkeys: () => void;
  /** The engine install shared with the chat pane's first-run card. */
  engineInstall: InstallController;
  /** Loads the model in use and generates one token under a grammar (the model list's self-check). */
  selfCheck?: () => Promise<SelfCheckResult>;
  /** The MCP servers (their section is drawn when present). */
  mcp?: McpSectionDeps["mcp"];
}

/** Keys whose change alters other rows' text or choices: the tab is drawn again. */
const REDRAW_KEYS = new Set(["engineKind", "dataLocation"]);
/** Keys whose change forgets the last "Test connection" result. */
const PROBE_KEYS = new Set(["engineKind", "serverUrl", "serverModel"]);

export class VaultAgentSettingTab extends PluginSettingTab {
  private readonly deps: SettingsTabDeps;
  private readonly bindings: SettingBindings;
  private readonly engineSection: EngineSection;
  /** Kept across redraws: it holds the running download. */
  private readonly modelSection: ModelSection;
  private readonly runtimeSection: EngineRuntimeSection | null;
  /** What display() drew (apps before 1.13): whether its visible rows changed, and its rows' live updates. */
  private drawn: DrawnRows | null = null;
  /** Stops the live updates of each drawn row (MCP states, install progress, model lists) that has not stopped yet. */
  private readonly live = new Set<() => void>();

  constructor(app: App, plugin: Plugin, deps: SettingsTabDeps) {
    super(app, plugin);
    this.deps = deps;
    this.containerEl.addClass("vault-agent-settings");
    const services = deps.services;
    this.bindings = new SettingBindings({ settings: deps.settings, save: deps.save, moveData: services.desktopOnly ? undefined : (to) => services.moveData(to) });
    this.engineSection = new EngineSection({ ...deps, app, testServer: (c) => services.testServer(c), serversOnly: !!services.desktopOnly });
    this.modelSection = new ModelSection(deps);
    this.runtimeSection = services.desktopOnly ? null : new EngineRuntimeSection({ controller: deps.engineInstall, userFolderLabel: services.userDataFolder() });
    this.bindings.onWrite((key) => this.afterWrite(key));
  }

  /** The tab's rows: Obsidian 1.13+ draws them and indexes them for its settings search. Cheap: no I/O here. */
  override getSettingDefinitions(): SettingDefinitionItem[] {
    return this.items();
  }

  /** A control's value, read from the plugin's settings (some keys convert: see setting-bindings.ts). */
  override getControlValue(key: string): unknown {
    return this.bindings.read(key);
  }

  /** Saves a control's value through the plugin's save path (engine restarts and MCP reloads included). */
  override async setControlValue(key: string, value: unknown): Promise<void> {
    try {
      await this.bindings.write(key, value);
    } catch (error) {
      new Notice(error instanceof Error ? error.message : String(error));
      // The control shows the saved value again.
      this.redraw();
    }
  }

  /** Apps before 1.13: draws the same rows as getSettingDefinitions(). */
  override display(): void {
    this.drawRows();
  }

  private drawRows(): void {
    this.stopRows();
    this.containerEl.empty();
    this.drawn = drawSettingRows(this.containerEl, this.items(), { read: (key) => this.getControlValue(key), write: (key, value) => this.setControlValue(key, value) });
  }

  override hide(): void {
    this.stopRows();
    // Whatever app drew the rows, their live updates end when the tab hides.
    for (const stop of [...this.live]) stop();
    this.runtimeSection?.detach();
    super.hide();
    // From 1.13 the app owns what it drew in the tab.
    if (!this.appDrawsRows()) this.containerEl.empty();
  }

  /** Whether this app draws the tab from getSettingDefinitions(). */
  private appDrawsRows(): boolean {
    return requireApiVersion(DECLARATIVE_SETTINGS_VERSION);
  }

  /** Draws the tab again from fresh rows. */
  private redraw(): void {
    // The version is written out: the lint rule that checks API versions reads the literal.
    if (requireApiVersion("1.13.0")) this.update();
    else this.drawRows();
  }

  private afterWrite(key: string): void {
    if (PROBE_KEYS.has(key)) this.engineSection.resetProbe();
    if (key === "userModelsFolder") this.modelSection.refreshModels();
    if (REDRAW_KEYS.has(key)) this.redraw();
    // Rows shown or hidden by another setting (the conversations folder) follow it.
    else if (requireApiVersion("1.13.0")) this.refreshDomState();
    else if (this.drawn?.stale()) this.drawRows();
  }

  private stopRows(): void {
    this.drawn?.stop();
    this.drawn = null;
  }

  private items(): SettingItem[] {
    const deps = this.deps;
    const desktopOnly = deps.services.desktopOnly;
    const sections: SettingItem[] = [];
    // One line for everything hidden below: the built-in engine, model files, the runtime, stdio MCP servers.
    if (desktopOnly) sections.push(hiddenOnThisDevice(desktopOnly));
    sections.push(this.engineSection.section(), this.modelSection.section(), agentSection(), memorySection(deps), conversationsSection(deps));
    if (this.runtimeSection) sections.push(this.builtinEngineSection(this.runtimeSection));
    if (deps.mcp) sections.push(mcpSection({ settings: deps.settings, save: deps.save, mcp: deps.mcp, stdioHidden: desktopOnly }));
    sections.push(trustSection(deps.settings()));
    return sections.map((item) => (isSection(item) ? { ...item, items: item.items.map((row) => this.tracked(row)) } : this.tracked(item)));
  }

  /** The row, its live updates recorded so that hide() stops them even where the app does not call the row's cleanup. */
  private tracked(row: SettingRow): SettingRow {
    const render = row.render;
    if (!render) return row;
    return {
      ...row,
      render: (setting) => {
        const stop = render(setting);
        if (!stop) return;
        const once = () => {
          if (this.live.delete(once)) stop();
        };
        this.live.add(once);
        return once;
      },
    };
  }

  private builtinEngineSection(runtime: EngineRuntimeSection): SettingSection {
    const processRow: SettingRow = {
      // Live: whether the engine process runs, its backend and model.
      name: "Engine process",
      desc: "Whether the engine runs, on which backend, with which model.",
      aliases: ["status", "backend", "threads"],
      render: (setting) => {
        // A block, not `=> setting.setDesc(text)`: a Setting has then(), so resolving with it would never settle.
        void this.describeProcess().then((text) => {
          setting.setDesc(text);
        });
      },
    };
    return { type: "group", heading: "Built-in engine", items: [processRow, ...runtime.rows()] };
  }

  private async describeProcess(): Promise<string> {
    const status = this.deps.engineStatus();
    const host = await this.deps.hostStatus().catch(() => null);
    const parts = [host ? "Running" : status.state === "error" ? `Error: ${status.error ?? "unknown"}` : "Not running (starts when you send a message)"];
    if (host) parts.push(`backend ${host.gpu === false ? "CPU" : host.gpu.toUpperCase()}`, host.loaded ? "model loaded" : "model unloaded");
    if (host?.threads) parts.push(`${host.threads} threads`);
    if (status.modelName) parts.push(status.modelName);
    return parts.join(" · ");
  }
}

/** The line that says what this device hides and why. */
function hiddenOnThisDevice(why: string): SettingRow {
  return {
    name: "Hidden on this device",
    desc: `The built-in engine, model files and local MCP servers are hidden. ${why}`,
    aliases: ["mobile", "desktop only"],
    render: (setting) => {
      setting.setClass("vault-agent-desktop-only");
    },
  };
}
