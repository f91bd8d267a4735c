/** The settings' model section: the chat and embedding models, the model list, downloads, and how the model runs. */
import { ButtonComponent, DropdownComponent, type Setting } from "obsidian";
import { describeModel, type ModelEntry } from "../models/model-entry";
import { renderModelChecks } from "../models/model-checks";
import type { SelfCheckResult } from "../models/self-check";
import type { PluginServices } from "../services";
import { DownloadsSection, errorText } from "./downloads-section";
import { numberRow, sliderRow, type SettingRow, type SettingSection } from "./setting-rows";
import type { VaultAgentSettings } from "./settings";
import { thinkingRow } from "./thinking-setting";

/** What the section needs from the plugin. */
export interface ModelSectionDeps {
  settings: () => VaultAgentSettings;
  save: (patch: Partial<VaultAgentSettings>) => Promise<void>;
  services: PluginServices;
  /** Loads the model in use and generates one token under a grammar (the model list's self-check). */
  selfCheck?: () => Promise<SelfCheckResult>;
}

export class ModelSection {
  /** Kept across redraws: it holds the running download. */
  private readonly downloads: DownloadsSection;
  /** The model files found, shared by the rows drawn from them; null = list again on the next draw. */
  private listing: Promise<ModelEntry[]> | null = null;
  /** Redraws the rows shown now that list the model files. */
  private readonly shown = new Set<() => void>();

  constructor(private readonly deps: ModelSectionDeps) {
    this.downloads = new DownloadsSection(deps);
  }

  /** Lists the model files again and redraws the rows that show them (a download ended, the folder changed). */
  refreshModels(): void {
    this.listing = null;
    for (const redraw of this.shown) redraw();
  }

  section(): SettingSection {
    // Model files need the desktop app; the server names its model in the engine section.
    const desktop = !this.deps.services.desktopOnly;
    return { type: "group", heading: "Model", items: [...(desktop ? this.fileRows() : []), ...runRows(desktop)] };
  }

  private fileRows(): SettingRow[] {
    return [
      {
        // Live: the dropdown lists the model files on disk.
        name: "Chat model",
        desc: "The model that answers. Files are read from the plugin's models folder and your folder.",
        aliases: ["model", "gguf", "choose model"],
        render: (setting) => this.live((current) => this.drawChatModel(setting, current)),
      },
      {
        name: "Embedding model",
        desc: "Used for semantic search of your notes.",
        aliases: ["embeddings", "semantic search", "gguf"],
        render: (setting) => this.live((current) => this.drawEmbeddingModel(setting, current)),
      },
      {
        // Live: read from the folders when drawn.
        name: "Model files",
        desc: "The .gguf files found. Use makes one the chat model; Self-check loads it and generates under a grammar.",
        aliases: ["model list", "gguf", "use model", "self-check"],
        render: (setting) => this.live((current) => this.drawModelFiles(setting, current)),
      },
      {
        name: "Your models folder",
        desc: "A folder on this computer with .gguf files to list besides the plugin's own models folder.",
        aliases: ["models folder", "gguf", "shared models"],
        control: { type: "text", key: "userModelsFolder", placeholder: "/home/me/models" },
      },
      {
        // Live: a running download's progress and Cancel.
        name: "Download a model",
        desc: "Small instruct models that run well on a laptop. Downloads resume if interrupted.",
        aliases: ["download", "recommended models", "hugging face", "gguf"],
        render: (setting) => this.downloads.render(setting.infoEl.createDiv({ cls: "vault-agent-downloads" }), async () => this.refreshModels()),
      },
    ];
  }

  /** Draws a row from the model files now and again on each refresh until the row goes away. */
  private live(draw: (current: () => boolean) => Promise<void>): () => void {
    let generation = 0;
    const redraw = () => {
      const mine = ++generation;
      void draw(() => mine === generation);
    };
    this.shown.add(redraw);
    redraw();
    return () => this.shown.delete(redraw);
  }

  /** The model files, or the sentence saying why they could not be listed. */
  private async models(): Promise<ModelEntry[] | string> {
    this.listing ??= this.deps.services.listModels(this.deps.settings());
    try {
      return await this.listing;
    } catch (error) {
      return `The models could not be listed: ${errorText(error)}`;
    }
  }

  /** The chat model's dropdown and the button that lists the files again. */
  private async drawChatModel(setting: Setting, current: () => boolean): Promise<void> {
    const models = await this.models();
    if (!current()) return;
    setting.controlEl.empty();
    if (typeof models !== "string") {
      const dropdown = new DropdownComponent(setting.controlEl).addOption("", models.length ? "Choose a model" : "No models found");
      for (const m of models) if (m.info) dropdown.addOption(m.path, m.info.name || m.fileName);
      dropdown.setValue(this.deps.settings().modelPath).onChange(async (v) => {
        await this.deps.save({ modelPath: v });
        this.refreshModels();
      });
    }
    setting.addExtraButton((b) =>
      b
        .setIcon("refresh-cw")
        .setTooltip("Refresh the list")
        .onClick(() => this.refreshModels()),
    );
  }

  /** The model files below the row's description: each with its facts, checks and "Use"; or why none are listed. */
  private async drawModelFiles(setting: Setting, current: () => boolean): Promise<void> {
    let picker = setting.infoEl.querySelector<HTMLElement>(".vault-agent-model-picker");
    if (!picker) picker = setting.infoEl.createDiv({ cls: "vault-agent-model-picker" });
    picker.empty();
    picker.createDiv({ cls: "vault-agent-muted", text: "Looking for models…" });
    const models = await this.models();
    if (!current()) return;
    picker.empty();
    if (typeof models === "string") picker.createDiv({ cls: "vault-agent-error-text", text: models });
    else this.drawModelList(picker.createDiv({ cls: "vault-agent-model-list" }), models);
  }

  private async drawEmbeddingModel(setting: Setting, current: () => boolean): Promise<void> {
    const models = await this.models();
    if (!current()) return;
    setting.controlEl.empty();
    if (typeof models === "string") return;
    const dropdown = new DropdownComponent(setting.controlEl).addOption("", "Use the chat model");
    for (const m of models) if (m.info) dropdown.addOption(m.path, m.info.name || m.fileName);
    dropdown.setValue(this.deps.settings().embeddingModelPath).onChange(async (v) => this.deps.save({ embeddingModelPath: v }));
  }

  /** A row per model file: name, facts, file, checks, and "Use". */
  private drawModelList(list: HTMLElement, models: ModelEntry[]): void {
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
          this.refreshModels();
        });
      }
    }
  }
}

/** Context size, GPU layers and threads (where the model runs here), temperature, thinking and idle unload. */
function runRows(local: boolean): SettingRow[] {
  return [
    // A server engine caps its context at this size too.
    numberRow("contextSize", "Context size", "Tokens the model sees at once; set it to 0 to choose from the model and free memory.", [0, 131072], ["context window", "tokens", "n_ctx"]),
    ...(local ? localRunRows() : []),
    sliderRow("temperature", "Temperature", "Higher is more varied, lower is more focused.", [0, 1.5, 0.05], ["sampling", "creativity"]),
    thinkingRow(),
    numberRow("idleUnloadMinutes", "Unload after idle minutes", "Frees the model's memory when the chat is unused for this long; set it to 0 to keep it loaded.", [0, 1440], [
      "idle",
      "unload",
      "memory",
    ]),
  ];
}

/** How the built-in engine loads a model file: GPU layers, threads, saved states. */
function localRunRows(): SettingRow[] {
  return [
    {
      name: "GPU layers",
      desc: "Layers offloaded to the graphics card. Automatic uses the GPU when one is found; 0 runs on the CPU only.",
      aliases: ["GPU", "offload", "graphics card", "CUDA", "Metal", "Vulkan"],
      control: { type: "dropdown", key: "gpuLayers", options: { "-1": "Automatic", "0": "CPU only", "16": "16", "32": "32", "99": "All" } },
    },
    numberRow("threads", "Threads", "CPU threads for generation; set it to 0 to choose from your cores and the model's size.", [0, 256], ["CPU", "cores"]),
    numberRow(
      "stateCacheMb",
      "Saved conversation states (MB)",
      "Disk kept for conversations the model has already read (by this computer's engine or llama.cpp), so reopening one does not read it again; the least recently used go first. Set it to 0 to save none.",
      [0, 100000],
      ["state cache", "KV cache", "disk"],
    ),
    numberRow(
      "checkpointMb",
      "Checkpoints of hybrid models (MB)",
      "Memory kept for checkpoints of models with recurrent layers (Qwen3.5, LFM2, Granite 4-H), so a conversation whose text changes after a point, or a stopped reply, is read again only from there; the oldest go first. Other models need none.",
      [1, 100000],
      ["checkpoint", "recurrent", "hybrid", "memory", "RAM"],
    ),
  ];
}
