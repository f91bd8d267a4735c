/**
 * The settings section that chooses where the model runs: this computer (the built-in engine), a llama.cpp server
 * or an OpenAI-compatible server, with the server's URL, API key and model name, and "Test connection".
 */
import { requireApiVersion, SecretComponent, type App, type ButtonComponent, type Setting } from "obsidian";
import { CONSTRAINT_LABELS, type Constraint } from "../../core/ports/engine";
import type { ServerEngineConfig, ServerProbe } from "../../engine/server/server-config";
import { normalizeServerUrl } from "../../engine/server/server-config";
import type { EngineStatus } from "../engine/managed-engine";
import { LocalLlamaSection, type LlamaServerReport } from "./local-llama-section";
import type { SettingSection } from "./setting-rows";
import { serverConfig, type EngineKind, type VaultAgentSettings } from "./settings";

/** What the section needs from the plugin. */
export interface EngineSectionDeps {
  app: App;
  settings: () => VaultAgentSettings;
  /** The settings with the API key from secret storage, for Test connection (never saved). */
  engineSettings: () => VaultAgentSettings;
  save: (patch: Partial<VaultAgentSettings>) => Promise<void>;
  /** Tries a server for real (from an engine host). */
  testServer: (config: ServerEngineConfig) => Promise<ServerProbe>;
  engineStatus: () => EngineStatus;
  /** True where no built-in engine can run (mobile): only the server choices are offered. */
  serversOnly?: boolean;
  /** Finds or checks the user's llama-server (desktop); without it "llama.cpp on this computer" shows no check. */
  checkLlamaServer?: (path: string) => Promise<LlamaServerReport>;
  /** The plugin's services, where the settings tab passes them: their llama-server check when no `checkLlamaServer` is given. */
  services?: { checkLlamaServer?(path: string): Promise<LlamaServerReport> };
}

const ENGINE_OPTIONS: Record<EngineKind, string> = {
  builtin: "This computer",
  "llama-cpp": "llama.cpp on this computer",
  "llama-server": "llama.cpp server",
  openai: "OpenAI-compatible server",
};

/** How each engine constrains a turn, before any turn ran. */
const EXPECTED_CONSTRAINT: Record<EngineKind, string> = {
  builtin: `${CONSTRAINT_LABELS.gbnf}, compiled from the tools' schemas.`,
  "llama-cpp": `${CONSTRAINT_LABELS.gbnf}, sent to your llama-server with each turn.`,
  "llama-server": `${CONSTRAINT_LABELS.gbnf}, sent to the server with each turn.`,
  openai: `${CONSTRAINT_LABELS.json_schema} (response_format), or ${CONSTRAINT_LABELS.none} when the server accepts no schema.`,
};

/** Shown under the API key on apps older than 1.11.4, which have no secret storage for plugins. */
export const API_KEY_NOTE =
  "Stored in plain text in this plugin's data.json inside your vault's configuration folder (this version of Obsidian has no secret storage; 1.11.4 and later keep it in the keychain), so it travels with the vault if you sync it. It is sent only to this server.";

/** Shown under the API key where Obsidian has secret storage. */
export const API_KEY_SECRET_NOTE = "Choose or add a secret in Obsidian's keychain: the key stays out of data.json and is sent only to this server.";

export class EngineSection {
  /** The last "Test connection" result, kept while the tab is open. */
  private probe: { key: string; result?: ServerProbe; error?: string; running?: boolean } | null = null;

  private readonly local: LocalLlamaSection | null;

  constructor(private readonly deps: EngineSectionDeps) {
    const services = deps.services;
    const check = deps.checkLlamaServer ?? (services?.checkLlamaServer ? (path: string) => services.checkLlamaServer!(path) : undefined);
    this.local = check ? new LocalLlamaSection({ settings: deps.settings, save: deps.save, checkLlamaServer: check }) : null;
  }

  /** Forgets the last "Test connection" result (the server, its key or model changed). */
  resetProbe(): void {
    this.probe = null;
  }

  /** The section's rows; the ones of one engine show only while it is chosen (a new choice redraws the tab). */
  section(): SettingSection {
    const s = this.deps.settings();
    const kind = () => this.deps.settings().engineKind;
    const onServer = () => kind() === "llama-server" || kind() === "openai";
    const onLocalLlama = () => kind() === "llama-cpp" && !this.deps.serversOnly;
    const local = this.local;
    return {
      type: "group",
      heading: "Engine",
      items: [
        {
          name: "Engine",
          desc: "Where the model runs. A server can be another computer on your network, for models too large for this one.",
          aliases: ["backend", "server", "llama.cpp", "OpenAI", "Ollama", "LM Studio"],
          control: { type: "dropdown", key: "engineKind", options: this.engineOptions(s.engineKind) },
        },
        {
          // Live: what constrained the last reply.
          name: "Constraint",
          desc: "How the engine constrains each turn: a GBNF grammar or a JSON schema.",
          aliases: ["grammar", "GBNF", "JSON schema", "structured output"],
          render: (setting) => {
            const last = this.deps.engineStatus();
            setting
              .setDesc(
                `Turns are constrained by ${EXPECTED_CONSTRAINT[this.deps.settings().engineKind]}` +
                  (last.constraint ? ` The last reply ran under ${CONSTRAINT_LABELS[last.constraint]}.` : "") +
                  (last.notice ? ` ${last.notice}` : ""),
              )
              .setClass("vault-agent-engine-constraint");
          },
        },
        ...(local ? local.rows(onLocalLlama) : []),
        {
          name: "Server URL",
          desc: s.engineKind === "llama-server" ? "The address llama-server listens on, e.g. http://192.168.1.20:8080." : "The server's address, e.g. http://localhost:11434 or http://localhost:1234/v1.",
          aliases: ["address", "endpoint", "host", "base URL"],
          visible: onServer,
          control: { type: "text", key: "serverUrl", placeholder: "For example http://127.0.0.1:8080", validate: checkServerUrl },
        },
        {
          // Obsidian's keychain picker where the app has one (1.11.4); there is no secret control among the declarative ones.
          name: "API key",
          desc: "Optional. Sent only to this server.",
          aliases: ["token", "bearer", "secret", "keychain", "password"],
          visible: onServer,
          render: (setting) => this.renderApiKey(setting),
        },
        {
          name: "Model name",
          desc: s.engineKind === "llama-server" ? "Optional: llama-server runs one model; a name here is checked against it." : "The model to ask for, as the server lists it; empty uses the first it lists.",
          aliases: ["server model"],
          visible: onServer,
          control: { type: "text", key: "serverModel", placeholder: "Server's default" },
        },
        {
          // Live: the test's progress and result, in the row's description.
          name: "Test connection",
          desc: "Asks the server for its model and context size, and tries a constrained reply.",
          aliases: ["check server", "probe"],
          visible: onServer,
          render: (setting) => {
            const resultEl = setting.descEl.createDiv({ cls: "vault-agent-engine-test" });
            setting.addButton((b) => this.testButton(b, resultEl));
            this.renderProbe(resultEl);
          },
        },
      ],
    };
  }

  /** The API key: Obsidian's secret picker where the app has secret storage, else a password field saved in data.json. */
  private renderApiKey(setting: Setting): void {
    const s = this.deps.settings();
    // The version is written out: the lint rule that checks API versions reads the literal.
    if (requireApiVersion("1.11.4")) {
      setting.setDesc(`Optional. ${API_KEY_SECRET_NOTE}`);
      new SecretComponent(this.deps.app, setting.controlEl).setValue(s.serverApiKeySecret).onChange(async (name) => {
        this.probe = null;
        await this.deps.save({ serverApiKeySecret: name.trim() });
      });
      return;
    }
    setting.setDesc(`Optional. ${API_KEY_NOTE}`).addText((t) => {
      t.inputEl.type = "password";
      t.inputEl.autocomplete = "off";
      t.setPlaceholder("None").setValue(s.serverApiKey);
      t.inputEl.addEventListener("change", () => {
        this.probe = null;
        void this.deps.save({ serverApiKey: t.inputEl.value.trim() });
      });
    });
  }

  /** The dropdown's choices; where only servers work, an engine on this computer stays only as the prompt to choose a server. */
  private engineOptions(current: EngineKind): Record<string, string> {
    if (!this.deps.serversOnly) return ENGINE_OPTIONS;
    const { builtin: _builtin, "llama-cpp": _local, ...servers } = ENGINE_OPTIONS;
    return isOnThisComputer(current) ? { [current]: "Choose a server", ...servers } : servers;
  }

  private testButton(b: ButtonComponent, resultEl: HTMLElement): void {
    b.setButtonText(this.probe?.running ? "Testing…" : "Test connection")
      .setDisabled(!!this.probe?.running)
      .onClick(async () => {
        const config = serverConfig(this.deps.engineSettings());
        if (!config?.url) {
          this.probe = { key: "", error: "Enter the server's URL first." };
          this.renderProbe(resultEl);
          return;
        }
        const key = JSON.stringify([config.kind, config.url, config.model ?? ""]);
        this.probe = { key, running: true };
        b.setButtonText("Testing…").setDisabled(true);
        this.renderProbe(resultEl);
        try {
          this.probe = { key, result: await this.deps.testServer(config) };
        } catch (error) {
          this.probe = { key, error: error instanceof Error ? error.message : String(error) };
        }
        b.setButtonText("Test connection").setDisabled(false);
        this.renderProbe(resultEl);
      });
  }

  private renderProbe(el: HTMLElement): void {
    el.empty();
    const p = this.probe;
    if (!p) return;
    if (p.running) {
      el.createDiv({ cls: "vault-agent-muted", text: "Testing the connection…" });
      return;
    }
    if (p.error) {
      el.createDiv({ cls: "vault-agent-error-text", text: p.error });
      return;
    }
    if (p.result) for (const line of describeProbe(p.result)) el.createDiv({ cls: "vault-agent-engine-test-line", text: line });
  }
}

/** Rejects a server address that is neither empty nor http(s). */
function checkServerUrl(value: string): string | undefined {
  if (!value.trim()) return undefined;
  try {
    normalizeServerUrl(value);
    return undefined;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

/** The engines that run on this computer (the built-in one, or llama-server started by the plugin): desktop only. */
export function isOnThisComputer(kind: EngineKind): boolean {
  return kind === "builtin" || kind === "llama-cpp";
}

/** The lines "Test connection" shows. */
export function describeProbe(p: ServerProbe): string[] {
  const constraint: Constraint = p.constraint;
  return [
    `Connected to ${p.url}: model ${p.model}${p.contextSize ? `, context ${p.contextSize} tokens` : ", context size not reported"}.`,
    p.grammar ? "Accepts a GBNF grammar: turns are constrained by GBNF grammar." : `No GBNF grammar on this engine: turns are constrained by ${CONSTRAINT_LABELS[constraint]}.`,
    p.embeddings ? "Embeddings: available (semantic search works)." : "Embeddings: not available.",
    ...(p.note ? [p.note] : []),
    // How replies travel (mobile: fetch where the server allows this app's origin, else requestUrl, unstreamed).
    ...(p.transportNote ? [p.transportNote] : []),
  ];
}
