/** Vault Agent: constructs the plugin's parts and registers them with Obsidian. Nothing else happens here. */
import { Notice, Platform, Plugin, normalizePath, requestUrl } from "obsidian";
import { AgentFactory } from "./src/plugin/agent/agent-factory";
import { ChatSession } from "./src/plugin/chat/chat-session";
import { engineCard } from "./src/plugin/chat/engine-card";
import { CHAT_VIEW_TYPE, ChatView } from "./src/plugin/chat/chat-view";
import { ConversationStore } from "./src/plugin/chat/conversation-store";
import { openChat } from "./src/plugin/chat/open-chat";
import { registerCommands } from "./src/plugin/commands";
import { ManagedEngine } from "./src/plugin/engine/managed-engine";
import { McpService } from "./src/plugin/mcp/mcp-service";
import { ChargingGate, platformBattery } from "./src/plugin/memory/charging-gate";
import { MemoryService } from "./src/plugin/memory/memory-service";
import { semanticSetup, textHostSetup } from "./src/plugin/memory/semantic-setup";
import { startSearchWorker } from "./src/plugin/memory/search-worker-start";
import { openHotkeys, openPluginSettings } from "./src/plugin/obsidian-internals";
import { explainFailure, readinessProblem } from "./src/plugin/readiness";
import { InstallController } from "./src/plugin/runtime/install-controller";
import { MobileServices } from "./src/plugin/mobile/mobile-services";
import type { PluginServices } from "./src/plugin/services-types";
import { runSelfCheck } from "./src/plugin/models/self-check";
import { loadSettings, modelLabel, needsEngineRestart, serverConfig, type VaultAgentSettings } from "./src/plugin/settings/settings";
import { VaultAgentSettingTab } from "./src/plugin/settings/settings-tab";
import { appSecretStorage, loadPluginSettings, withServerKey } from "./src/plugin/settings/server-key";
import { StatusBar } from "./src/plugin/status-bar";
import { AdapterJournalStore, pluginJournalFolder } from "./src/plugin/vault/adapter-journal-store";
import { ObsidianVault } from "./src/plugin/vault/obsidian-vault";
import { ObsidianWorkspace } from "./src/plugin/vault/obsidian-workspace";
import { ChangeJournal } from "./src/core/journal";
import { AgentUndo } from "./src/plugin/undo/agent-undo";
import { StagedReview } from "./src/plugin/chat/memory-review";
import { mountMemoryReview } from "./src/plugin/chat/memory-review-view";
import { confirmUndoAnyway } from "./src/plugin/undo/undo-conflict-modal";
import { registerEditInPlace } from "./src/plugin/editor/edit-command";
import { linksCanvasAction } from "./src/plugin/links-canvas-command";
import { obsidianPdfText } from "./src/plugin/pdf/obsidian-pdf-text";
import { askAboutPdf } from "./src/plugin/pdf/active-pdf";

export default class VaultAgentPlugin extends Plugin {
  /** Current settings (saved in the plugin's data.json). */
  declare settings: VaultAgentSettings;

  override async onload(): Promise<void> {
    // The server key moves to Obsidian's secret storage where the app has it (1.11.4), once, out of data.json.
    const secrets = appSecretStorage(this.app);
    this.settings = await loadPluginSettings(this, secrets, loadSettings);
    const engineSettings = () => withServerKey(this.settings, secrets);
    const services = await this.createServices();
    const openSettings = () => openPluginSettings(this.app, this.manifest.id);
    const vault = new ObsidianVault(this.app);
    const workspace = new ObsidianWorkspace(this.app.workspace);
    const statusBar = new StatusBar(this.addStatusBarItem());
    const engine = new ManagedEngine({ create: () => services.createEngine(engineSettings()), idleMinutes: () => this.settings.idleUnloadMinutes });
    this.register(engine.onStatus((status) => statusBar.setEngine(status)));
    // One install state for the settings and the chat pane's first-run card; a new runtime restarts the engine.
    const engineInstall = new InstallController(() => services.runtimeService(), () => engine.reset());
    const charging = new ChargingGate(platformBattery());
    // PDFs are read with Obsidian's own pdf.js (its worker parses them), for pdf:read and the memory index alike.
    const pdf = obsidianPdfText();
    const memory: MemoryService = new MemoryService({
      vault,
      pdf,
      adapter: this.app.vault.adapter,
      settings: () => this.settings,
      defaultIndexFolder: `${this.pluginFolder()}/index`,
      textHost: () => textHostSetup(this.settings, services, engine, memory.indexFolder()),
      semantic: () => semanticSetup(this.settings, services, engine, memory.indexFolder()),
      progress: (job, done, total) => statusBar.progress(job, done, total),
      notice: (message) => new Notice(message),
      charging,
      searchWorker: () => startSearchWorker(this.app.vault.adapter, (message) => new Notice(message)),
    });
    // The indexes live partly in the engine host: save them there before the host is stopped.
    this.register(() => void memory.close().finally(() => engine.dispose()));
    const mcp = new McpService({ settings: () => this.settings, connection: services.mcpConnection?.(), version: this.manifest.version, notice: (m) => new Notice(m), stdioUnavailable: services.desktopOnly });
    this.register(() => void mcp.close());
    const journal = new AdapterJournalStore(this.app.vault.adapter, pluginJournalFolder(this.pluginFolder()));
    const agents = new AgentFactory({ engine, vault, workspace, pdf, settings: () => this.settings, memory: () => memory.search(),
      mcp: { hub: mcp.hub, startAll: () => mcp.startAll() },
      journal,
      notice: (message) => new Notice(message),
      readConfigFile: async (name) => {
        const file = normalizePath(`${this.app.vault.configDir}/${name}`);
        return (await this.app.vault.adapter.exists(file)) ? this.app.vault.adapter.read(file) : null;
      },
    });
    this.register(agents.dispose);
    const changes = new ChangeJournal(journal);
    const undo = new AgentUndo({ journal: changes, vault, notice: (message) => new Notice(message), confirmConflict: (conflicts) => confirmUndoAnyway(this.app, conflicts) });
    this.app.workspace.onLayoutReady(() => void undo.refresh().catch((error: unknown) => console.error("Vault agent: the change journal could not be read", error)));
    const store = new ConversationStore(this.app.vault.adapter, () =>
      this.settings.conversationStorage === "vault" ? this.settings.conversationFolder : `${this.pluginFolder()}/conversations`,
    );
    // Staged memories: reviewed in the pane, kept through the change journal, then indexed.
    const staged = new StagedReview({ vault, journal: changes, settings: () => this.settings, current: () => session.conversation, save: (c) => store.save(c), index: (paths) => memory.updateNotes(paths), undo, notice: (message) => new Notice(message) });
    const session: ChatSession = new ChatSession({
      agentFor: (conversation, user) => agents.agentFor(conversation, user),
      store,
      staged,
      vault,
      readiness: () => readinessProblem(this.settings, services, openSettings),
      explain: (message) => explainFailure(message, openSettings),
      notice: (message) => new Notice(message),
      undo,
    });
    this.register(() => session.stop());

    this.registerView(CHAT_VIEW_TYPE, (leaf) => new ChatView(leaf, { session, engineStatus: engine, modelLabel: () => modelLabel(this.settings), engineCard: (el) => engineCard(el, engineInstall, openSettings, () => this.settings.engineKind === "builtin" && !services.desktopOnly), onServer: () => serverConfig(this.settings) !== null, memoryReview: (el) => mountMemoryReview(el, staged, session) }));
    // A phone has no room for a sidebar beside the note: the pane opens as a main tab there.
    const placement = Platform.isPhone ? "tab" : "sidebar";
    this.addRibbonIcon("bot", "Open Vault Agent chat", () => void openChat(this.app.workspace, placement));
    const editInPlace = registerEditInPlace(this, { engine, vault, journal: new ChangeJournal(journal), readiness: () => readinessProblem(this.settings, services, openSettings), journaled: () => void undo.refresh() });
    registerCommands(this, { session, openChat: async () => void (await openChat(this.app.workspace, placement)), index: (rebuild) => void memory.index(rebuild), editInPlace,
      canvasOfLinks: linksCanvasAction({ app: this.app, direct: () => agents.directCalls(session.conversation, session), journaled: () => void undo.refresh(), notice: (message) => new Notice(message) }),
      pdf: askAboutPdf(this.app.workspace, vault, pdf) });
    this.addSettingTab(
      new VaultAgentSettingTab(this.app, this, {
        settings: () => this.settings,
        engineSettings,
        save: async (patch) => {
          this.settings = { ...this.settings, ...patch };
          await this.saveData(this.settings);
          if (needsEngineRestart(patch)) await engine.reset();
          if (patch.mcpConfig) mcp.reload();
        },
        services,
        engineStatus: () => engine.current,
        hostStatus: () => engine.hostStatus(),
        memoryStatus: () => memory.describe(),
        rebuildIndex: () => void memory.index(true),
        batteryReported: charging.reported,
        openHotkeys: () => openHotkeys(this.app, this.manifest.name),
        engineInstall,
        selfCheck: () => runSelfCheck(engine),
        mcp,
      }),
    );
  }

  /**
   * The machine-facing services: over Node on desktop (loaded only there, so main.js loads without Node), or the
   * renderer-only ones on mobile. The browser test harness overrides this with a scripted engine.
   */
  protected async createServices(): Promise<PluginServices> {
    if (!Platform.isDesktopApp) return new MobileServices(requestUrl, this.app.vault.adapter);
    const { createDesktopServices } = await import("./src/plugin/desktop/desktop-entry");
    return createDesktopServices(this.app, this.pluginFolder(), this.manifest.version, () => this.settings);
  }

  /** The plugin's folder, vault-relative. */
  private pluginFolder(): string {
    return this.manifest.dir ?? `${this.app.vault.configDir}/plugins/${this.manifest.id}`;
  }
}
