/** Fakes of Obsidian's App, Plugin, command registry and settings window. */
import { SecretStorage } from "./api-version";
import { Component } from "./events";
import { showSettingTab } from "./setting-definitions";
import { setIcon, type PluginSettingTab } from "./ui";
import { FileManager, MemoryBackend, MetadataCache, Vault, type VaultBackend } from "./vault";
import { MarkdownView, Workspace, type View, type WorkspaceLeaf } from "./workspace";

export interface PluginManifest {
  id: string;
  name: string;
  version: string;
  minAppVersion: string;
  description: string;
  author: string;
  isDesktopOnly?: boolean;
  /** Vault-relative plugin folder. */
  dir?: string;
}

export interface Command {
  id: string;
  name: string;
  icon?: string;
  callback?: () => unknown;
  checkCallback?: (checking: boolean) => boolean | void;
  editorCallback?: (editor: unknown, ctx: unknown) => unknown;
  editorCheckCallback?: (checking: boolean, editor: unknown, ctx: unknown) => boolean | void;
  hotkeys?: unknown[];
}

/** The command palette's registry. */
export class Commands {
  commands: Record<string, Command> = {};
  constructor(private app: App) {}

  /** Whether the palette would list the command now (what check callbacks decide). */
  isAvailable(id: string): boolean {
    return this.run(id, true);
  }
  executeCommandById(id: string): boolean {
    return this.run(id, false);
  }
  private run(id: string, checking: boolean): boolean {
    const cmd = this.commands[id];
    if (!cmd) return false;
    const active = this.app.workspace.activeEditor;
    const view = this.app.workspace.getMostRecentLeaf()?.view;
    const ctx = view instanceof MarkdownView ? view : null;
    if (cmd.editorCheckCallback || cmd.editorCallback) {
      if (!active || !ctx) return false;
      if (cmd.editorCheckCallback) return cmd.editorCheckCallback(checking, active.editor, ctx) !== false;
      if (!checking) void cmd.editorCallback!(active.editor, ctx);
      return true;
    }
    if (cmd.checkCallback) return cmd.checkCallback(checking) !== false;
    if (!checking) void cmd.callback?.();
    return true;
  }
}

/** The settings window: a list of tabs, one shown at a time. */
export class AppSetting {
  tabs: PluginSettingTab[] = [];
  activeTab: PluginSettingTab | null = null;
  /** Set when the hotkeys tab was opened, with its search text. */
  hotkeySearch: string | null = null;
  containerEl: HTMLElement | null = null;
  open(): void {
    if (typeof document === "undefined") return;
    if (!this.containerEl) {
      this.containerEl = document.body.createDiv({ cls: "modal-container mod-settings" });
      this.containerEl.createDiv({ cls: "modal-bg" });
      const modal = this.containerEl.createDiv({ cls: "modal mod-settings" });
      modal.createDiv({ cls: "vertical-tab-content-container" });
    }
  }
  openTabById(id: string): { searchComponent?: { inputEl: { value: string }; setValue(v: string): void } } | undefined {
    if (id === "hotkeys") {
      const tab = {
        searchComponent: {
          inputEl: { value: "" },
          setValue: (v: string): void => {
            tab.searchComponent.inputEl.value = v;
          },
        },
      };
      this.hotkeySearch = "";
      const originalSetValue = tab.searchComponent.setValue;
      tab.searchComponent.setValue = (v: string) => {
        originalSetValue(v);
        this.hotkeySearch = v;
      };
      return tab;
    }
    const tab = this.tabs.find((t) => t.plugin.manifest.id === id);
    if (!tab) return undefined;
    this.activeTab?.hide();
    this.activeTab = tab;
    const host = this.containerEl?.querySelector(".vertical-tab-content-container");
    if (host) {
      host.empty();
      host.appendChild(tab.containerEl);
    }
    // From 1.13 a tab with declarative settings is drawn from them, else by display().
    showSettingTab(tab);
    return {};
  }
  close(): void {
    this.activeTab?.hide();
    this.activeTab = null;
    this.containerEl?.detach();
    this.containerEl = null;
  }
}

export class App {
  vault: Vault;
  metadataCache: MetadataCache;
  fileManager: FileManager;
  workspace: Workspace;
  commands: Commands;
  setting = new AppSetting();
  /** Present as in 1.11.4+; code reaches it only behind requireApiVersion, which answers for the fake's version. */
  secretStorage = new SecretStorage();
  /** View creators by type, filled by Plugin.registerView. */
  viewRegistry = new Map<string, (leaf: WorkspaceLeaf) => View>();
  /** Hosts for ribbon icons and status bar items (the harness places them). */
  ribbonEl: HTMLElement | null = null;
  statusBarEl: HTMLElement | null = null;

  /** App.loadLocalStorage / saveLocalStorage: per-vault values kept in memory. */
  private localValues = new Map<string, unknown>();
  loadLocalStorage(key: string): unknown {
    return this.localValues.get(key) ?? null;
  }
  saveLocalStorage(key: string, data: unknown): void {
    if (data === null) this.localValues.delete(key);
    else this.localValues.set(key, data);
  }

  constructor(backend: VaultBackend = new MemoryBackend(), configDir = ".obsidian") {
    this.vault = new Vault(backend, configDir);
    this.metadataCache = new MetadataCache(this.vault);
    this.fileManager = new FileManager(this.vault, this.metadataCache);
    this.workspace = new Workspace(this);
    this.commands = new Commands(this);
  }
}

export abstract class Plugin extends Component {
  app: App;
  manifest: PluginManifest;
  constructor(app: App, manifest: PluginManifest) {
    super();
    this.app = app;
    this.manifest = { dir: `${app.vault.configDir}/plugins/${manifest.id}`, ...manifest };
  }
  addCommand(command: Command): Command {
    this.app.commands.commands[`${this.manifest.id}:${command.id}`] = command;
    this.register(() => delete this.app.commands.commands[`${this.manifest.id}:${command.id}`]);
    return command;
  }
  removeCommand(id: string): void {
    delete this.app.commands.commands[`${this.manifest.id}:${id}`];
  }
  addRibbonIcon(icon: string, title: string, callback: (evt: MouseEvent) => unknown): HTMLElement {
    const host = this.app.ribbonEl ?? document.body;
    const el = host.createDiv({ cls: "side-dock-ribbon-action clickable-icon", attr: { "aria-label": title, "data-icon": icon } });
    setIcon(el, icon);
    el.addEventListener("click", (evt) => void callback(evt));
    this.register(() => el.detach());
    return el;
  }
  addStatusBarItem(): HTMLElement {
    const host = this.app.statusBarEl ?? document.body;
    const el = host.createDiv({ cls: "status-bar-item" });
    this.register(() => el.detach());
    return el;
  }
  addSettingTab(tab: PluginSettingTab): void {
    this.app.setting.tabs.push(tab);
    this.register(() => (this.app.setting.tabs = this.app.setting.tabs.filter((t) => t !== tab)));
  }
  registerView(type: string, creator: (leaf: WorkspaceLeaf) => View): void {
    this.app.viewRegistry.set(type, creator);
    this.register(() => this.app.viewRegistry.delete(type));
  }
  registerExtensions(): void {}
  /** Editor extensions registered (CodeMirror 6), kept for the browser harness, dropped on unload. */
  editorExtensions: unknown[] = [];
  registerEditorExtension(extension: unknown): void {
    this.editorExtensions.push(extension);
    this.register(() => (this.editorExtensions = this.editorExtensions.filter((e) => e !== extension)));
  }
  private dataPath(): string {
    return `${this.manifest.dir}/data.json`;
  }
  async loadData(): Promise<unknown> {
    const adapter = this.app.vault.adapter;
    if (!(await adapter.exists(this.dataPath()))) return null;
    return JSON.parse(await adapter.read(this.dataPath())) as unknown;
  }
  async saveData(data: unknown): Promise<void> {
    await this.app.vault.adapter.write(this.dataPath(), JSON.stringify(data, null, 2));
  }
}
