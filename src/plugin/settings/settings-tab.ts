/** The settings tab: engine, model, agent, memory, conversations, built-in engine runtime. */
import { ButtonComponent, Notice, PluginSettingTab, Setting, normalizePath, type App, type Plugin } from "obsidian";
import { toolFamilies } from "../../app/assemble-agent";
import type { DownloadProgress } from "../download/model-download";
import type { EngineStatus } from "../engine/managed-engine";
import type { HostStatus } from "../../engine/client/host-protocol";
import { describeModel, formatBytes, type ModelEntry } from "../models/model-entry";
import { renderModelChecks } from "../models/model-checks";
import { RECOMMENDED_MODELS } from "../models/recommended";
import type { SelfCheckResult } from "../models/self-check";
import type { PluginServices } from "../services";
import type { InstallController } from "../runtime/install-controller";
import { EngineRuntimeSection } from "./engine-runtime-section";
import { EngineSection } from "./engine-section";
import type { VaultAgentSettings } from "./settings";
import { renderThinkingSetting } from "./thinking-setting";
import { renderMcpSection, type McpSectionDeps } from "./mcp-section";

/** What the tab needs from the plugin. */
export interface SettingsTabDeps {
  settings: () => VaultAgentSettings;
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
  /** The running download, so closing and reopening the tab keeps its progress and Cancel. */
  private download: { label: string; controller: AbortController; progress?: DownloadProgress; error?: string } | null = null;
  private runtimeSection: EngineRuntimeSection | null = null;
  /** Stops the MCP section's live updates. */
  private stopMcp: (() => void) | null = null;

  private readonly engineSection: EngineSection;

  constructor(app: App, plugin: Plugin, deps: SettingsTabDeps) {
    super(app, plugin);
    this.deps = deps;
    this.engineSection = new EngineSection({ ...deps, testServer: (c) => deps.services.testServer(c), redisplay: () => this.display() });
  }

  display(): void {
    const { containerEl } = this;
    containerEl.empty();
    containerEl.addClass("vault-agent-settings");
    const s = this.deps.settings();
    this.engineSection.render(containerEl);

    new Setting(containerEl).setName("Model").setHeading();
    const picker = containerEl.createDiv({ cls: "vault-agent-model-picker" });
    void this.renderModels(picker);

    new Setting(containerEl)
      .setName("Your models folder")
      .setDesc("A folder on this computer with .gguf files to list besides the plugin's own models folder.")
      .addText((t) =>
        t
          .setPlaceholder("/home/me/models")
          .setValue(s.userModelsFolder)
          .onChange(async (v) => {
            await this.deps.save({ userModelsFolder: v.trim() });
          }),
      )
      .addExtraButton((b) =>
        b
          .setIcon("refresh-cw")
          .setTooltip("Refresh the list")
          .onClick(() => void this.renderModels(picker)),
      );

    this.renderDownloads(containerEl.createDiv({ cls: "vault-agent-downloads" }), picker);

    new Setting(containerEl)
      .setName("Context size")
      .setDesc("Tokens the model sees at once; set it to 0 to choose from the model and free memory.")
      .addText((t) => numberInput(t.inputEl, s.contextSize, 0, 131072, (v) => this.deps.save({ contextSize: v })));
    new Setting(containerEl)
      .setName("GPU layers")
      .setDesc("Layers offloaded to the graphics card. Automatic uses the GPU when one is found; 0 runs on the CPU only.")
      .addDropdown((d) =>
        d
          .addOptions({ "-1": "Automatic", "0": "CPU only", "16": "16", "32": "32", "99": "All" })
          .setValue(String(s.gpuLayers))
          .onChange(async (v) => this.deps.save({ gpuLayers: Number(v) })),
      );
    new Setting(containerEl)
      .setName("Threads")
      .setDesc("CPU threads for generation; set it to 0 to choose from your cores and the model's size.")
      .addText((t) => numberInput(t.inputEl, s.threads, 0, 256, (v) => this.deps.save({ threads: v })));
    new Setting(containerEl)
      .setName("Temperature")
      .setDesc("Higher is more varied, lower is more focused.")
      .addSlider((sl) =>
        sl
          .setLimits(0, 1.5, 0.05)
          .setValue(s.temperature)
          .setDynamicTooltip()
          .onChange(async (v) => this.deps.save({ temperature: v })),
      );
    renderThinkingSetting(containerEl, s, (patch) => this.deps.save(patch));
    new Setting(containerEl)
      .setName("Unload after idle minutes")
      .setDesc("Frees the model's memory when the chat is unused for this long; set it to 0 to keep it loaded.")
      .addText((t) => numberInput(t.inputEl, s.idleUnloadMinutes, 0, 1440, (v) => this.deps.save({ idleUnloadMinutes: v })));

    new Setting(containerEl).setName("Agent").setHeading();
    new Setting(containerEl)
      .setName("Tools offered per message")
      .setDesc("How many tools the router offers the model for one message.")
      .addSlider((sl) =>
        sl
          .setLimits(1, 10, 1)
          .setValue(s.routerTopK)
          .setDynamicTooltip()
          .onChange(async (v) => this.deps.save({ routerTopK: v })),
      );
    new Setting(containerEl)
      .setName("Router threshold")
      .setDesc("A tool is offered when its match score reaches this.")
      .addSlider((sl) =>
        sl
          .setLimits(0, 1, 0.05)
          .setValue(s.routerThreshold)
          .setDynamicTooltip()
          .onChange(async (v) => this.deps.save({ routerThreshold: v })),
      );
    new Setting(containerEl)
      .setName("Tool rounds per message")
      .setDesc("The most times the agent may call tools before it must answer.")
      .addText((t) => numberInput(t.inputEl, s.maxToolRounds, 1, 20, (v) => this.deps.save({ maxToolRounds: v })));
    new Setting(containerEl)
      .setName("Edits to notes")
      .setDesc("Ask shows each edit with a preview before it happens.")
      .addDropdown((d) =>
        d
          .addOptions({ confirm: "Ask before each edit", refuse: "Never edit notes" })
          .setValue(s.writePolicy)
          .onChange(async (v) => this.deps.save({ writePolicy: v === "refuse" ? "refuse" : "confirm" })),
      );
    new Setting(containerEl)
      .setName("Network tools")
      .setDesc("Lets the agent fetch web pages you ask about. Off keeps everything on this computer.")
      .addToggle((t) => t.setValue(s.networkTools).onChange(async (v) => this.deps.save({ networkTools: v })));
    const families = containerEl.createDiv({ cls: "vault-agent-families" });
    for (const { family, tools } of toolFamilies()) {
      new Setting(families)
        .setName(`Tools: ${family}`)
        .setDesc(tools.join(", "))
        .addToggle((t) =>
          t.setValue(!s.disabledToolFamilies.includes(family)).onChange(async (on) => {
            const current = new Set(this.deps.settings().disabledToolFamilies);
            if (on) current.delete(family);
            else current.add(family);
            await this.deps.save({ disabledToolFamilies: [...current] });
          }),
        );
    }

    new Setting(containerEl).setName("Memory").setHeading();
    new Setting(containerEl)
      .setName("Index folder")
      .setDesc("Vault folder where the search indexes are stored. Empty keeps them in the plugin's folder.")
      .addText((t) =>
        t
          .setPlaceholder("Plugin folder")
          .setValue(s.indexFolder)
          .onChange(async (v) => this.deps.save({ indexFolder: v.trim() ? normalizePath(v) : "" })),
      );
    new Setting(containerEl)
      .setName("Excluded folders")
      .setDesc("One folder per line. The agent neither reads nor indexes them.")
      .addTextArea((t) =>
        t.setValue(s.excludedFolders.join("\n")).onChange(async (v) =>
          this.deps.save({
            excludedFolders: v
              .split("\n")
              .map((l) => l.trim())
              .filter(Boolean)
              .map(normalizePath),
          }),
        ),
      );
    new Setting(containerEl)
      .setName("Memory notes folder")
      .setDesc("Where the agent saves facts you ask it to remember.")
      .addText((t) => t.setValue(s.memoryFolder).onChange(async (v) => this.deps.save({ memoryFolder: normalizePath(v || "Memory") })));
    new Setting(containerEl)
      .setName("Rebuild index")
      .setDesc(`${this.deps.memoryStatus()} Rebuilding re-reads every note; progress shows in the status bar.`)
      .addButton((b) => b.setButtonText("Rebuild").onClick(() => this.deps.rebuildIndex()));

    new Setting(containerEl).setName("Conversations").setHeading();
    new Setting(containerEl)
      .setName("Store conversations in")
      .setDesc("The plugin's folder keeps them out of your notes; a vault folder syncs them with the vault.")
      .addDropdown((d) =>
        d
          .addOptions({ plugin: "The plugin's folder", vault: "A vault folder" })
          .setValue(s.conversationStorage)
          .onChange(async (v) => {
            await this.deps.save({ conversationStorage: v === "vault" ? "vault" : "plugin" });
            this.display();
          }),
      );
    if (s.conversationStorage === "vault") {
      new Setting(containerEl)
        .setName("Conversations folder")
        .addText((t) => t.setValue(s.conversationFolder).onChange(async (v) => this.deps.save({ conversationFolder: normalizePath(v || "Vault agent/Conversations") })));
    }
    new Setting(containerEl)
      .setName("Hotkeys")
      .setDesc("Commands have no default hotkeys; assign your own.")
      .addButton((b) => b.setButtonText("Set hotkeys").onClick(() => this.deps.openHotkeys()));

    new Setting(containerEl).setName("Built-in engine").setHeading();
    void this.renderRuntime(containerEl.createDiv({ cls: "vault-agent-runtime" }));
    this.stopMcp?.();
    this.stopMcp = this.deps.mcp ? renderMcpSection(containerEl, { settings: this.deps.settings, save: this.deps.save, mcp: this.deps.mcp }) : null;
  }

  override hide(): void {
    this.runtimeSection?.detach();
    this.stopMcp?.();
    this.stopMcp = null;
    this.containerEl.empty();
  }

  private async renderModels(el: HTMLElement): Promise<void> {
    el.empty();
    el.createDiv({ cls: "vault-agent-muted", text: "Looking for models…" });
    let models: ModelEntry[];
    try {
      models = await this.deps.services.listModels(this.deps.settings());
    } catch (error) {
      el.empty();
      el.createDiv({ cls: "vault-agent-error-text", text: `The models could not be listed: ${message(error)}` });
      return;
    }
    el.empty();
    const s = this.deps.settings();
    const chat = new Setting(el).setName("Chat model").setDesc("The model that answers. Files are read from the plugin's models folder and your folder.");
    chat.addDropdown((d) => {
      d.addOption("", models.length ? "Choose a model" : "No models found");
      for (const m of models) if (m.info) d.addOption(m.path, m.info.name || m.fileName);
      d.setValue(s.modelPath);
      d.onChange(async (v) => {
        await this.deps.save({ modelPath: v });
        await this.renderModels(el);
      });
    });
    const embed = new Setting(el).setName("Embedding model").setDesc("Used for semantic search of your notes.");
    embed.addDropdown((d) => {
      d.addOption("", "Use the chat model");
      for (const m of models) if (m.info) d.addOption(m.path, m.info.name || m.fileName);
      d.setValue(s.embeddingModelPath);
      d.onChange(async (v) => this.deps.save({ embeddingModelPath: v }));
    });

    const list = el.createDiv({ cls: "vault-agent-model-list" });
    if (models.length === 0) {
      list.createDiv({
        cls: "vault-agent-muted",
        text: `No .gguf files yet. Download a recommended model below, or put one in ${this.deps.services.modelsFolder()}.`,
      });
    }
    for (const m of models) {
      const row = list.createDiv({ cls: "vault-agent-model-row" });
      row.toggleClass("is-selected", m.path === s.modelPath);
      row.toggleClass("is-broken", !m.info);
      const text = row.createDiv({ cls: "vault-agent-model-text" });
      text.createDiv({ cls: "vault-agent-model-name", text: m.info?.name || m.fileName });
      text.createDiv({ cls: "vault-agent-model-facts", text: describeModel(m) });
      text.createDiv({ cls: "vault-agent-model-file", text: `${m.source === "plugin" ? "Plugin folder" : "Your folder"} · ${m.fileName}` });
      const actions = row.createDiv({ cls: "vault-agent-model-actions" });
      renderModelChecks(text, actions, m, m.path === s.modelPath, this.deps.selfCheck);
      if (m.path === s.modelPath) actions.createSpan({ cls: "vault-agent-badge mod-ok", text: "In use" });
      else if (m.info) {
        new ButtonComponent(actions).setButtonText("Use").onClick(async () => {
          await this.deps.save({ modelPath: m.path });
          await this.renderModels(el);
        });
      }
    }
  }

  private renderDownloads(el: HTMLElement, picker: HTMLElement): void {
    el.empty();
    new Setting(el).setName("Download a model").setDesc("Small instruct models that run well on a laptop. Downloads resume if interrupted.");
    const progressEl = el.createDiv({ cls: "vault-agent-download-progress" });
    const progressText = (p: DownloadProgress | undefined) => (p ? ` — ${formatBytes(p.received)}${p.total ? ` of ${formatBytes(p.total)}` : ""}` : "");
    // Progress rewrites the text and the bar in place: rebuilding the row would replace the Cancel button under
    // the pointer several times a second, and a click pressed on one button and released on the next is lost.
    let shown: { download: object; status: HTMLElement; bar: HTMLProgressElement } | null = null;
    const renderProgress = () => {
      const d = this.download;
      const p = d?.progress;
      if (d && !d.error && shown?.download === d) {
        shown.status.setText(progressText(p));
        shown.bar.max = p?.total ?? 1;
        shown.bar.value = p?.total ? p.received : 0;
        return;
      }
      shown = null;
      progressEl.empty();
      if (!d) return;
      const line = progressEl.createDiv({ cls: "vault-agent-download-line" });
      line.createSpan({ text: d.label });
      const status = d.error ? line.createSpan({ cls: "vault-agent-error-text", text: ` — ${d.error}` }) : line.createSpan({ cls: "vault-agent-muted", text: progressText(p) });
      const bar = progressEl.createEl("progress", { cls: "vault-agent-progress" });
      bar.max = p?.total ?? 1;
      bar.value = p?.total ? p.received : 0;
      if (!d.error) {
        new ButtonComponent(progressEl).setButtonText("Cancel").onClick(() => d.controller.abort());
        shown = { download: d, status, bar };
      }
    };
    const start = (source: string, label: string) => {
      if (this.download && !this.download.error) {
        new Notice("A download is already running; wait for it or cancel it first.");
        return;
      }
      const controller = new AbortController();
      const download: NonNullable<typeof this.download> = { label, controller };
      this.download = download;
      renderProgress();
      this.deps.services
        .download(
          source,
          (p) => {
            download.progress = p;
            renderProgress();
          },
          controller.signal,
        )
        .then(
          async (file) => {
            this.download = null;
            renderProgress();
            new Notice(`Downloaded ${label}.`);
            if (!this.deps.settings().modelPath) await this.deps.save({ modelPath: file });
            await this.renderModels(picker);
          },
          (error: unknown) => {
            download.error = message(error);
            renderProgress();
          },
        );
    };
    for (const model of RECOMMENDED_MODELS) {
      new Setting(el)
        .setName(model.name)
        .setDesc(`${model.note} About ${formatBytes(model.approxBytes)}.`)
        .setClass("vault-agent-recommended")
        .addButton((b) => b.setButtonText("Download").onClick(() => start(model.source, model.name)));
    }
    let custom = "";
    new Setting(el)
      .setName("Other model")
      .setDesc("An hf:owner/repo/file.gguf address or an https link to a .gguf file.")
      .addText((t) => t.setPlaceholder("hf:owner/repo/model.gguf").onChange((v) => (custom = v)))
      .addButton((b) =>
        b.setButtonText("Download").onClick(() => {
          if (custom.trim()) start(custom.trim(), custom.trim().split("/").pop() ?? custom);
        }),
      );
    renderProgress();
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

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** A whole-number input that saves valid values and marks invalid ones. */
function numberInput(input: HTMLInputElement, value: number, min: number, max: number, save: (v: number) => Promise<void>): void {
  input.type = "number";
  input.min = String(min);
  input.max = String(max);
  input.value = String(value);
  input.addEventListener("change", () => {
    const v = Number(input.value);
    const ok = Number.isInteger(v) && v >= min && v <= max;
    input.toggleClass("is-invalid", !ok);
    if (ok) void save(v);
    else new Notice(`Enter a whole number from ${min} to ${max}.`);
  });
}
