/**
 * The settings of "llama.cpp on this computer": which llama-server program runs (found on PATH and in the usual
 * install places, or a file the user picks), its version, and whether it is new enough, in one sentence when not.
 * The model, context size, GPU layers and threads are the shared settings below the engine choice.
 */
import type { Setting } from "obsidian";
import type { SettingRow } from "./setting-rows";
import type { VaultAgentSettings } from "./settings";

/** What checking a llama-server program found. */
export type LlamaServerReport = { path: string; version: string } | { error: string };

export interface LocalLlamaSectionDeps {
  settings: () => VaultAgentSettings;
  save: (patch: Partial<VaultAgentSettings>) => Promise<void>;
  /** Finds (for "") or checks the program; never starts a server. */
  checkLlamaServer: (path: string) => Promise<LlamaServerReport>;
}

export class LocalLlamaSection {
  /** The last check, for the path it was made on, kept while the tab is open. */
  private report: { path: string; result?: LlamaServerReport; running?: boolean } | null = null;

  constructor(private readonly deps: LocalLlamaSectionDeps) {}

  /** The program row (its field, Check, and the check's line in its description) and how it runs; shown while `visible`. */
  rows(visible: () => boolean): SettingRow[] {
    return [
      {
        // Drawn by code: the path is checked against the program on disk as soon as it changes, and the row shows it.
        name: "llama.cpp program",
        desc: "The llama-server program of the llama.cpp you installed (Homebrew, winget, your distribution or a release archive). Empty finds it on your PATH and in the usual install places. Nothing is downloaded.",
        aliases: ["llama-server", "llama.cpp path", "binary"],
        visible,
        render: (setting) => this.renderProgram(setting),
      },
      {
        name: "How it runs",
        desc: "The plugin starts llama-server when a conversation first needs it, on this computer only (127.0.0.1) with a new private key each start, and stops it when the plugin unloads, the model changes or the chat is idle. Its messages go to the plugin's engine log.",
        aliases: ["llama-server"],
        visible,
      },
    ];
  }

  private renderProgram(program: Setting): void {
    const s = this.deps.settings();
    program
      .addText((t) => {
        t.setPlaceholder("Found automatically").setValue(s.llamaServerPath);
        t.inputEl.addEventListener("change", () => {
          void this.deps.save({ llamaServerPath: t.inputEl.value.trim() }).then(() => this.check(resultEl));
        });
      })
      .addButton((b) => b.setButtonText("Check").onClick(() => void this.check(resultEl)));
    // The check's line is part of the program's description, so it reads (and is styled) like every other one.
    const resultEl = program.descEl.createDiv({ cls: "vault-agent-local-llama-check" });
    // Checked when the row first shows (not while another engine is chosen).
    if (this.report?.path === s.llamaServerPath) this.renderReport(resultEl);
    else if (s.engineKind === "llama-cpp") void this.check(resultEl);
  }

  private async check(el: HTMLElement): Promise<void> {
    const path = this.deps.settings().llamaServerPath;
    this.report = { path, running: true };
    this.renderReport(el);
    const result = await this.deps.checkLlamaServer(path).catch((e: unknown) => ({ error: e instanceof Error ? e.message : String(e) }));
    if (this.report.path !== path) return;
    this.report = { path, result };
    this.renderReport(el);
  }

  private renderReport(el: HTMLElement): void {
    el.empty();
    const r = this.report;
    const result = r?.result;
    if (r?.running) el.createDiv({ text: "Checking llama-server…" });
    else if (result && "error" in result) el.createDiv({ cls: "vault-agent-error-text", text: result.error });
    else if (result) el.createDiv({ cls: "vault-agent-engine-test-line", text: `Found llama-server ${result.version} at ${result.path}: new enough for this plugin.` });
  }
}
