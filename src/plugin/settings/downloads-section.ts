/** The settings' model downloads: the recommended models, any other address, and the running download's progress. */
import { ButtonComponent, Notice, Setting } from "obsidian";
import type { DownloadProgress } from "../../desktop/download/model-download";
import { formatBytes } from "../models/model-entry";
import { RECOMMENDED_MODELS } from "../models/recommended";
import type { PluginServices } from "../services";
import type { VaultAgentSettings } from "./settings";

/** What the section needs from the plugin. */
export interface DownloadsSectionDeps {
  settings: () => VaultAgentSettings;
  save: (patch: Partial<VaultAgentSettings>) => Promise<void>;
  services: PluginServices;
}

/** A download in flight (or failed, with its error), kept while the tab is closed and reopened. */
interface RunningDownload {
  label: string;
  controller: AbortController;
  progress?: DownloadProgress;
  error?: string;
}

export class DownloadsSection {
  /** The running download, so closing and reopening the tab keeps its progress and Cancel. */
  private download: RunningDownload | null = null;

  constructor(private readonly deps: DownloadsSectionDeps) {}

  /** Draws the recommended models, any other address and the progress into `el` (inside the "Download a model" row); `onDownloaded` runs after a download finished (the model list redraws). */
  render(el: HTMLElement, onDownloaded: () => Promise<void>): void {
    el.empty();
    const renderProgress = this.progressView(el.createDiv({ cls: "vault-agent-download-progress" }));
    const start = (source: string, label: string) => this.start(source, label, renderProgress, onDownloaded);
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

  /** The function that shows the running download in `progressEl`. */
  private progressView(progressEl: HTMLElement): () => void {
    const progressText = (p: DownloadProgress | undefined) => (p ? ` — ${formatBytes(p.received)}${p.total ? ` of ${formatBytes(p.total)}` : ""}` : "");
    // Progress rewrites the text and the bar in place: rebuilding the row would replace the Cancel button under
    // the pointer several times a second, and a click pressed on one button and released on the next is lost.
    let shown: { download: object; status: HTMLElement; bar: HTMLProgressElement } | null = null;
    return () => {
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
  }

  private start(source: string, label: string, renderProgress: () => void, onDownloaded: () => Promise<void>): void {
    if (this.download && !this.download.error) {
      new Notice("A download is already running; wait for it or cancel it first.");
      return;
    }
    const controller = new AbortController();
    const download: RunningDownload = { label, controller };
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
          await onDownloaded();
        },
        (error: unknown) => {
          download.error = errorText(error);
          renderProgress();
        },
      );
  }
}

export function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
