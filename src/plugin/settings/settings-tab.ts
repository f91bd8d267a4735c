/** The settings tab: engine, model, agent, memory, conversations, built-in engine runtime, MCP servers, undo and outside data. */
import { PluginSettingTab, Setting, type App, type Plugin } from "obsidian";
import type { EngineStatus } from "../engine/managed-engine";
import type { HostStatus } from "../../engine/client/host-protocol";
import type { SelfCheckResult } from "../models/self-check";
import type { PluginServices } from "../services";
import type { InstallController } from "../runtime/install-controller";
import { renderAgentSection } from "./agent-section";
import { EngineRuntimeSection } from "./engine-runtime-section";
import { EngineSection } from "./engine-section";
import { renderMcpSection, type McpSectionDeps } from "./mcp-section";
import { renderConversationsSection, renderMemorySection } from "./memory-section";
import { ModelSection } from "./model-section";
import type { VaultAgentSettings } from "./settings";
import { renderTrustSection } from "./trust-section";

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

export class VaultAgentSettingTab extends PluginSettingTab {
  private readonly deps: SettingsTabDeps;
  private runtimeSection: EngineRuntimeSection | null = null;
  /** Stops the MCP section's live updates. */
  private stopMcp: (() => void) | null = null;

  private readonly engineSection: EngineSection;
  /** Kept across redraws: it holds the running download. */
  private readonly modelSection: ModelSection;

  constructor(app: App, plugin: Plugin, deps: SettingsTabDeps) {
    super(app, plugin);
    this.deps = deps;
    this.engineSection = new EngineSection({ ...deps, app, testServer: (c) => deps.services.testServer(c), serversOnly: !!deps.services.desktopOnly, redisplay: () => this.display() });
    this.modelSection = new ModelSection(deps);
  }

  display(): void {
    const { containerEl } = this;
    containerEl.empty();
    containerEl.addClass("vault-agent-settings");
    const desktopOnly = this.deps.services.desktopOnly;
    // One line for everything hidden below: the built-in engine, model files, the runtime, stdio MCP servers.
    if (desktopOnly) containerEl.createDiv({ cls: "vault-agent-muted vault-agent-desktop-only", text: `The built-in engine, model files and local MCP servers are hidden. ${desktopOnly}` });
    this.engineSection.render(containerEl);
    this.modelSection.render(containerEl);
    renderAgentSection(containerEl, this.deps);
    renderMemorySection(containerEl, this.deps);
    renderConversationsSection(containerEl, { ...this.deps, redisplay: () => this.display() });
    if (!desktopOnly) {
      new Setting(containerEl).setName("Built-in engine").setHeading();
      void this.renderRuntime(containerEl.createDiv({ cls: "vault-agent-runtime" }));
    }
    this.stopMcp?.();
    this.stopMcp = this.deps.mcp ? renderMcpSection(containerEl, { settings: this.deps.settings, save: this.deps.save, mcp: this.deps.mcp, stdioHidden: desktopOnly }) : null;
    renderTrustSection(containerEl, this.deps);
  }

  override hide(): void {
    this.runtimeSection?.detach();
    this.stopMcp?.();
    this.stopMcp = null;
    this.containerEl.empty();
  }

  private async renderRuntime(el: HTMLElement): Promise<void> {
    el.empty();
    const status = this.deps.engineStatus();
    const host = await this.deps.hostStatus().catch(() => null);
    const parts = [host ? "Running" : status.state === "error" ? `Error: ${status.error ?? "unknown"}` : "Not running (starts when you send a message)"];
    if (host) parts.push(`backend ${host.gpu === false ? "CPU" : host.gpu.toUpperCase()}`, host.loaded ? "model loaded" : "model unloaded");
    if (host?.threads) parts.push(`${host.threads} threads`);
    if (status.modelName) parts.push(status.modelName);
    new Setting(el).setName("Engine process").setDesc(parts.join(" · "));
    this.runtimeSection?.detach();
    this.runtimeSection = new EngineRuntimeSection({
      controller: this.deps.engineInstall,
      settings: this.deps.settings,
      save: this.deps.save,
      moveData: (to) => this.deps.services.moveData(to),
      userFolderLabel: this.deps.services.userDataFolder(),
    });
    this.runtimeSection.render(el.createDiv({ cls: "vault-agent-engine-runtime" }));
  }
}
