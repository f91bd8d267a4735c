/**
 * The settings tab's "Engine" runtime section and the install panel it shares with the chat pane's first-run card:
 * the consent screen (what, from where, how big, where it goes, what it is), download progress with Cancel, the
 * ready state, errors, "Install from file…", "Remove engine", the data location and the mirror setting.
 */
import { ButtonComponent, Notice, Setting } from "obsidian";
import type { InstallController } from "../runtime/install-controller";
import type { GpuKind, PackEntry } from "../../desktop/runtime/pack-format";
import type { InstallProgress, PackOffer } from "../../desktop/runtime/runtime-installer";
import type { RuntimeStatus } from "../runtime/runtime-service";
import { destructive } from "./legacy-api";
import type { SettingRow } from "./setting-rows";

/** What the section needs besides the install controller (moving the data is the location control's, in setting-bindings.ts). */
export interface EngineRuntimeDeps {
  controller: InstallController;
  /** The per-user folder shown in the location choice. */
  userFolderLabel: string;
}

const mb = (bytes: number): string => `${(bytes / 1024 ** 2).toFixed(1)} MB`;

function backend(gpu: GpuKind | undefined, platform: string): string {
  if (gpu === "vulkan") return "Vulkan GPU";
  if (gpu === "cuda") return "CUDA GPU";
  return platform === "mac-arm64" ? "Metal GPU" : "CPU";
}

function packLabel(pack: PackEntry): string {
  return `${backend(pack.gpu, pack.platform)} engine for ${pack.platform}`;
}

const STAGES: Record<InstallProgress["stage"], string> = {
  download: "Downloading",
  verify: "Checking the file's sha256",
  extract: "Unpacking",
  check: "Starting the engine to check it",
};

/** A shown install progress, rewritten in place while the same install runs. */
interface ProgressPanel {
  cancel: () => void;
  box: HTMLElement;
  title: HTMLElement;
  detail: HTMLElement;
  bar: HTMLProgressElement;
  button: ButtonComponent | null;
}
const progressPanels = new WeakMap<HTMLElement, ProgressPanel>();

/**
 * Rewrites the progress `el` shows when it is the running install's (text, bar, Cancel while
 * downloading), so Cancel stays one button: rebuilt on every progress report, a click pressed on
 * one button and released on the next was lost. False when `el` shows something else.
 */
export function updateInstallPanel(el: HTMLElement, controller: InstallController): boolean {
  const view = controller.current;
  const panel = progressPanels.get(el);
  if (view.kind !== "installing" || !panel || panel.cancel !== view.cancel) return false;
  showProgress(panel, view);
  return true;
}

function showProgress(panel: ProgressPanel, view: Extract<InstallController["current"], { kind: "installing" }>): void {
  const { progress } = view;
  const d = progress.download;
  const downloading = progress.stage === "download";
  panel.title.setText(`${STAGES[progress.stage]}: ${progress.pack.file}`);
  panel.detail.setText(downloading && d ? ` — ${mb(d.received)}${d.total ? ` of ${mb(d.total)}` : ""}${d.resumedFrom > 0 ? " (resumed)" : ""}` : "");
  panel.bar.max = downloading ? (d?.total ?? progress.pack.bytes) || 1 : 1;
  if (downloading) panel.bar.value = d?.received ?? 0;
  else panel.bar.removeAttribute("value");
  if (downloading && !panel.button) panel.button = new ButtonComponent(panel.box).setButtonText("Cancel").onClick(() => view.cancel());
  else if (!downloading && panel.button) {
    panel.button.buttonEl.remove();
    panel.button = null;
  }
}

/** The consent screen, progress, result or error; nothing when idle. Returns whether it showed something. */
export function renderInstallPanel(el: HTMLElement, controller: InstallController): boolean {
  el.empty();
  progressPanels.delete(el);
  const view = controller.current;
  if (view.kind === "idle") return false;
  if (view.kind === "consent") {
    renderConsent(el.createDiv({ cls: "vault-agent-engine-consent" }), view.offer, controller);
    return true;
  }
  if (view.kind === "installing") {
    const box = el.createDiv({ cls: "vault-agent-engine-progress" });
    const line = box.createDiv({ cls: "vault-agent-download-line" });
    const panel: ProgressPanel = {
      cancel: view.cancel,
      box,
      title: line.createSpan(),
      detail: line.createSpan({ cls: "vault-agent-muted" }),
      bar: box.createEl("progress", { cls: "vault-agent-progress" }),
      button: null,
    };
    progressPanels.set(el, panel);
    showProgress(panel, view);
    return true;
  }
  if (view.kind === "done") {
    const box = el.createDiv({ cls: "vault-agent-engine-ready" });
    const { runtime, check } = view.outcome;
    box.createDiv({ cls: "vault-agent-engine-title", text: "Engine ready" });
    box.createDiv({
      text: `Runtime ${runtime.version} (${check.gpu === false ? "CPU" : `${String(check.gpu)} GPU`}) passed its start-up check and is in use. It is stored in ${runtime.folder}.`,
    });
    if (view.outcome.fellBack) box.createDiv({ cls: "vault-agent-warning-text", text: view.outcome.fellBack });
    new ButtonComponent(box).setButtonText("Done").onClick(() => controller.dismiss());
    return true;
  }
  const box = el.createDiv({ cls: "vault-agent-engine-error" });
  box.createDiv({ cls: "vault-agent-error-text", text: view.message });
  new ButtonComponent(box).setButtonText("Close").onClick(() => controller.dismiss());
  return true;
}

function renderConsent(box: HTMLElement, offer: PackOffer, controller: InstallController): void {
  box.createDiv({ cls: "vault-agent-engine-title", text: "Download the engine?" });
  const facts = box.createEl("dl", { cls: "vault-agent-engine-facts" });
  const fact = (term: string, value: string, code = false) => {
    facts.createEl("dt", { text: term });
    const dd = facts.createEl("dd");
    if (code) dd.createEl("code", { text: value });
    else dd.setText(value);
  };
  fact("What", `${packLabel(offer.pack)}, runtime ${offer.version}: ${offer.pack.file}, ${mb(offer.pack.bytes)} to download, ${mb(offer.pack.unpackedBytes)} on disk.`);
  fact("From", offer.url, true);
  fact("Written to", offer.folder, true);
  fact(
    "Contains",
    "Prebuilt llama.cpp code (MIT license) with node-llama-cpp and vectra, the same packages a developer install uses. Its sha256 is checked against this plugin version before anything is unpacked.",
  );
  if (offer.fallback) fact("If it fails", `If this engine cannot start on this computer, the CPU engine (${mb(offer.fallback.bytes)}) is downloaded instead.`);
  box.createDiv({ cls: "vault-agent-muted", text: "Nothing is downloaded until you click Download. You can remove the engine at any time." });
  const buttons = box.createDiv({ cls: "vault-agent-engine-buttons" });
  new ButtonComponent(buttons)
    .setButtonText(`Download ${mb(offer.pack.bytes)}`)
    .setCta()
    .onClick(() => void controller.confirm());
  new ButtonComponent(buttons).setButtonText("Not now").onClick(() => controller.dismiss());
}

/** The path of a file the user picked (Electron exposes it; the browser harness gives only the name). */
function pickedPath(file: File): string {
  const withPath = file as File & { path?: string };
  if (withPath.path) return withPath.path;
  try {
    const electron = (window as unknown as { require?: (m: string) => { webUtils?: { getPathForFile(f: File): string } } }).require?.("electron");
    const found = electron?.webUtils?.getPathForFile(file);
    if (found) return found;
  } catch {
    // Not Electron.
  }
  return file.name;
}

/** One line about the installed runtime. */
function describeStatus(status: RuntimeStatus): string {
  if (!status.platform) return "There is no engine pack for this computer's system; use a server engine.";
  if (status.current && status.current.version === status.needed) {
    return `Installed: runtime ${status.current.version}, ${backend(status.current.gpu, status.current.platform)}, in ${status.current.folder}.`;
  }
  if (status.developer) return "A developer install (node_modules in the plugin's folder) is in use.";
  if (status.updateNeeded && status.current) return `Installed: runtime ${status.current.version}; this plugin version needs runtime ${status.needed}.`;
  return "Not installed. The built-in engine needs a one-time download; nothing is downloaded until you choose to.";
}

export class EngineRuntimeSection {
  private unsubscribe: (() => void) | null = null;
  /** The install panel of the last draw (progress is rewritten there in place). */
  private panel: HTMLElement | null = null;

  constructor(private readonly deps: EngineRuntimeDeps) {}

  /** The section's rows: the runtime (live), where models and engine live, and the mirror. */
  rows(): SettingRow[] {
    return [
      {
        // Live: the installed runtime, the install's consent, progress and result.
        name: "Engine runtime",
        desc: "The built-in engine's one-time download: install, update, install from file or remove.",
        aliases: ["install engine", "runtime", "node-llama-cpp", "GPU engine", "remove engine"],
        render: (setting) => this.render(setting),
      },
      {
        name: "Models and engine location",
        desc: "The plugin's folder keeps them with this vault. A folder for all vaults lies outside the vault: shared by every vault on this computer and never synced with the vault.",
        aliases: ["data location", "shared folder", "models folder"],
        control: { type: "dropdown", key: "dataLocation", options: { plugin: "The plugin's folder", user: `For all vaults (${this.deps.userFolderLabel})` } },
      },
      {
        name: "Download mirror",
        desc: "A web folder that holds the engine packs of this version, used instead of the project's release. The packs' sha256 is checked either way.",
        aliases: ["mirror", "engine packs", "offline install"],
        control: { type: "text", key: "runtimeMirror", placeholder: "The project's release" },
      },
    ];
  }

  /** Draws into `setting`; redraws it when the install state changes, until the returned function is called. */
  render(setting: Setting): () => void {
    const el = setting.infoEl.createDiv({ cls: "vault-agent-engine-runtime" });
    this.unsubscribe?.();
    const unsubscribe = this.deps.controller.onChange(() => {
      if (this.panel && updateInstallPanel(this.panel, this.deps.controller)) return;
      void this.fill(setting, el);
    });
    this.unsubscribe = unsubscribe;
    void this.fill(setting, el);
    return () => {
      unsubscribe();
      if (this.unsubscribe === unsubscribe) this.unsubscribe = null;
    };
  }

  detach(): void {
    this.unsubscribe?.();
    this.unsubscribe = null;
  }

  private async fill(summary: Setting, el: HTMLElement): Promise<void> {
    const { controller } = this.deps;
    const status = await controller.status();
    el.empty();
    summary.controlEl.empty();
    const busy = controller.current.kind === "installing";
    summary.setDesc(describeStatus(status));
    const ready = status.current !== null && status.current.version === status.needed;
    if (status.offer && (!ready || status.updateNeeded)) {
      const offer = status.offer;
      summary.addButton((b) =>
        b
          .setButtonText(status.updateNeeded ? `Engine update needed (${mb(offer.pack.bytes)})` : `Install engine (${mb(offer.pack.bytes)})`)
          .setCta()
          .setDisabled(busy)
          .onClick(() => controller.ask(offer)),
      );
    }
    if (status.current) {
      summary.addButton((b) =>
        destructive(b.setButtonText("Remove engine"))
          .setDisabled(busy)
          .onClick(async () => {
            const freed = await controller.remove();
            new Notice(`The engine was removed; ${mb(freed)} freed.`);
          }),
      );
    }
    this.panel = el.createDiv({ cls: "vault-agent-engine-panel" });
    renderInstallPanel(this.panel, controller);

    for (const offer of status.gpuOffers) {
      new Setting(el)
        .setName(`${backend(offer.pack.gpu, offer.pack.platform)} engine`)
        .setDesc(`For graphics cards with ${offer.pack.gpu === "cuda" ? "NVIDIA CUDA" : "Vulkan"} drivers; falls back to the CPU engine if it cannot start.`)
        .addButton((b) => b.setButtonText(`Install (${mb(offer.pack.bytes)})`).setDisabled(busy).onClick(() => controller.ask(offer, offer.pack.gpu)));
    }

    const fromFile = new Setting(el)
      .setName("Install from file")
      .setDesc(status.offer ? `A pack you downloaded yourself (${status.offer.pack.file}); it gets the same checks.` : "A pack you downloaded yourself; it gets the same checks.");
    const input = fromFile.controlEl.createEl("input", { cls: "vault-agent-file-input", attr: { type: "file", accept: ".gz,.tgz" } });
    input.addEventListener("change", () => {
      const file = input.files?.[0];
      if (file) void controller.installFile(pickedPath(file));
      input.value = "";
    });
    fromFile.addButton((b) => b.setButtonText("Install from file…").setDisabled(busy).onClick(() => input.click()));
  }
}
