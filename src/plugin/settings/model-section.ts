/** The settings' model section: the chat and embedding models, the model list, downloads, and how the model runs. */
import { ButtonComponent, Setting } from "obsidian";
import { describeModel, type ModelEntry } from "../models/model-entry";
import { renderModelChecks } from "../models/model-checks";
import type { SelfCheckResult } from "../models/self-check";
import type { PluginServices } from "../services";
import { DownloadsSection, errorText } from "./downloads-section";
import { numberSetting, sliderSetting, type SectionDeps } from "./setting-inputs";
import type { VaultAgentSettings } from "./settings";
import { renderThinkingSetting } from "./thinking-setting";

/** What the section needs from the plugin. */
export interface ModelSectionDeps extends SectionDeps {
  services: PluginServices;
  /** Loads the model in use and generates one token under a grammar (the model list's self-check). */
  selfCheck?: () => Promise<SelfCheckResult>;
}

export class ModelSection {
  private readonly downloads: DownloadsSection;

  constructor(private readonly deps: ModelSectionDeps) {
    this.downloads = new DownloadsSection(deps);
  }

  render(containerEl: HTMLElement): void {
    const s = this.deps.settings();
    new Setting(containerEl).setName("Model").setHeading();
    // Model files need the desktop app; the server names its model in the engine section.
    if (this.deps.services.desktopOnly) return renderRunSettings(containerEl, s, this.deps.save, false);
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
    this.downloads.render(containerEl.createDiv({ cls: "vault-agent-downloads" }), () => this.renderModels(picker));
    renderRunSettings(containerEl, s, this.deps.save);
  }

  private async renderModels(el: HTMLElement): Promise<void> {
    el.empty();
    el.createDiv({ cls: "vault-agent-muted", text: "Looking for models…" });
    let models: ModelEntry[];
    try {
      models = await this.deps.services.listModels(this.deps.settings());
    } catch (error) {
      el.empty();
      el.createDiv({ cls: "vault-agent-error-text", text: `The models could not be listed: ${errorText(error)}` });
      return;
    }
    el.empty();
    this.renderModelChoice(el, models);
    this.renderModelList(el.createDiv({ cls: "vault-agent-model-list" }), models, el);
  }

  /** The chat and embedding model dropdowns. */
  private renderModelChoice(el: HTMLElement, models: ModelEntry[]): void {
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
  }

  /** A row per model file: name, facts, file, checks, and "Use" (`picker` redraws after a choice). */
  private renderModelList(list: HTMLElement, models: ModelEntry[], picker: HTMLElement): void {
    const s = this.deps.settings();
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
          await this.renderModels(picker);
        });
      }
    }
  }
}

/** Context size, GPU layers and threads (where the model runs here), temperature, thinking and idle unload. */
function renderRunSettings(containerEl: HTMLElement, s: VaultAgentSettings, save: (patch: Partial<VaultAgentSettings>) => Promise<void>, local = true): void {
  // A server engine caps its context at this size too.
  numberSetting(containerEl, "Context size", "Tokens the model sees at once; set it to 0 to choose from the model and free memory.", s.contextSize, [0, 131072], (v) => save({ contextSize: v }));
  if (local) renderLocalRunSettings(containerEl, s, save);
  sliderSetting(containerEl, "Temperature", "Higher is more varied, lower is more focused.", s.temperature, [0, 1.5, 0.05], (v) => save({ temperature: v }));
  renderThinkingSetting(containerEl, s, save);
  numberSetting(
    containerEl,
    "Unload after idle minutes",
    "Frees the model's memory when the chat is unused for this long; set it to 0 to keep it loaded.",
    s.idleUnloadMinutes,
    [0, 1440],
    (v) => save({ idleUnloadMinutes: v }),
  );
}

/** How the built-in engine loads a model file: GPU layers, threads. */
function renderLocalRunSettings(containerEl: HTMLElement, s: VaultAgentSettings, save: (patch: Partial<VaultAgentSettings>) => Promise<void>): void {
  new Setting(containerEl)
    .setName("GPU layers")
    .setDesc("Layers offloaded to the graphics card. Automatic uses the GPU when one is found; 0 runs on the CPU only.")
    .addDropdown((d) =>
      d
        .addOptions({ "-1": "Automatic", "0": "CPU only", "16": "16", "32": "32", "99": "All" })
        .setValue(String(s.gpuLayers))
        .onChange(async (v) => save({ gpuLayers: Number(v) })),
    );
  numberSetting(containerEl, "Threads", "CPU threads for generation; set it to 0 to choose from your cores and the model's size.", s.threads, [0, 256], (v) => save({ threads: v }));
  numberSetting(
    containerEl,
    "Saved conversation states (MB)",
    "Disk kept for conversations the model has already read (by this computer's engine or llama.cpp), so reopening one does not read it again; the least recently used go first. Set it to 0 to save none.",
    s.stateCacheMb,
    [0, 100000],
    (v) => save({ stateCacheMb: v }),
  );
}
