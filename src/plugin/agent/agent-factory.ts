/**
 * Builds the agent the chat pane runs: the tool catalog (families the user enabled), the hybrid router, the grammar
 * subset cache and the tool context over ObsidianVault. Rebuilt only when a setting it depends on changed.
 */
import { Agent } from "../../core/agent/agent";
import type { Conversation } from "../../core/agent/conversation";
import { SubsetCache } from "../../core/grammar";
import { prefetchMemories } from "../../core/memory/prefetch";
import type { Engine } from "../../core/ports/engine";
import type { UserPort } from "../../core/ports/user";
import type { VaultPort, WorkspacePort } from "../../core/ports/vault";
import { DEFAULT_TOOL_SETTINGS, type MemorySearch, type ToolContext, type ToolSettings } from "../../core/protocol/tool";
import { ToolRouter } from "../../core/router";
import { CatalogRouter } from "../../core/router/catalog-router";
import { McpCatalog } from "../../tools/mcp/mcp-catalog";
import type { McpToolHost } from "../../core/ports/mcp";
import { createToolCatalog } from "../../tools";
import { ToolRegistry } from "../../tools/registry";
import { THINK_FIRST_TOKENS, type VaultAgentSettings } from "../settings/settings";
import { dailySettingsFromObsidian } from "../../tools/daily";
import { networkFetch } from "./network-fetch";

export interface AgentFactoryDeps {
  engine: Engine;
  vault: VaultPort;
  workspace: WorkspacePort;
  settings: () => VaultAgentSettings;
  /**
   * Search over the vault's memory once indexed; undefined before (tools then say so). When it has semantic search
   * (an embedding model and a built vector index), vault:semantic_search joins the catalog and the router offers it.
   */
  memory?: () => MemorySearch | undefined;
  /** Text of a file in the vault's config folder (e.g. `daily-notes.json`), or null when absent. */
  readConfigFile?: (name: string) => Promise<string | null>;
  /** MCP servers whose tools join the catalog; `startAll` runs before each turn (servers start when first needed). */
  mcp?: { hub: McpToolHost; startAll(): Promise<void> };
  /** Tells the user something outside the pane (a tool left out, a server that failed). */
  notice?: (message: string) => void;
}

export class AgentFactory {
  private cached: { key: string; agent: Agent; toolContext: ToolContext; router: CatalogRouter; close: () => void } | null = null;
  /** Note names the router knows are out of date (set on any vault change). */
  private notesStale = true;
  /** Stops listening to vault changes. */
  readonly dispose: () => void;

  constructor(private readonly deps: AgentFactoryDeps) {
    // The router reads a note's name in a message as "about a note"; keep its list in step with the vault.
    const stopListening = deps.vault.onChange(() => {
      this.notesStale = true;
    });
    this.dispose = () => {
      stopListening();
      this.cached?.close();
    };
  }

  /** The agent for this conversation, with the current settings. */
  agentFor(conversation: Conversation, user: UserPort): Agent {
    const settings = this.deps.settings();
    const memory = this.deps.memory?.();
    // Without embeddings the semantic tools stay out of the catalog, so the router never offers them (issue 5).
    const semantic = Boolean(memory?.semanticSearch);
    const key = JSON.stringify([
      semantic,
      settings.routerTopK,
      settings.routerThreshold,
      settings.maxToolRounds,
      settings.disabledToolFamilies,
      settings.writePolicy,
      settings.networkTools,
      settings.temperature,
      settings.excludedFolders,
      settings.memoryFolder,
    ]);
    if (!this.cached || this.cached.key !== key) {
      this.cached?.close();
      this.cached = { key, ...this.build(settings, user, semantic) };
    }
    this.cached.agent.conversation = conversation;
    if (this.notesStale) {
      this.notesStale = false;
      const router = this.cached.router;
      void this.deps.vault.list().then(
        (files) => router.setNotes(files.map((f) => f.path)),
        () => {
          this.notesStale = true;
        },
      );
    }
    // Memory appears once the user indexed the vault; the tools see it from the next turn on.
    this.cached.toolContext.memory = memory;
    return this.cached.agent;
  }

  private build(settings: VaultAgentSettings, user: UserPort, semantic: boolean): { agent: Agent; toolContext: ToolContext; router: CatalogRouter; close: () => void } {
    this.notesStale = true;
    const disabled = new Set(settings.disabledToolFamilies);
    const catalog = createToolCatalog({ semantic, network: settings.networkTools }).filter((t) => !disabled.has(t.family));
    const tools = new ToolRegistry(catalog);
    // MCP tools arrive and leave at run time; the router and the grammar cache follow the registry.
    const router = new CatalogRouter(tools, (defs) => new ToolRouter(defs, { topK: settings.routerTopK, threshold: settings.routerThreshold }));
    const grammars = new SubsetCache(tools.grammarTools());
    tools.onChange(() => grammars.setCatalog(tools.grammarTools()));
    const mcp = this.deps.mcp;
    const mcpTools = mcp ? new McpCatalog(mcp.hub, tools, { notify: (m) => this.deps.notice?.(m) }) : undefined;
    const toolSettings: ToolSettings = {
      ...DEFAULT_TOOL_SETTINGS,
      memoryFolder: settings.memoryFolder,
      excludedFolders: settings.excludedFolders,
      networkTools: settings.networkTools,
    };
    const toolContext: ToolContext = {
      vault: this.deps.vault,
      user,
      workspace: this.deps.workspace,
      settings: toolSettings,
      now: () => new Date(),
      fetch: settings.networkTools ? networkFetch : undefined,
    };
    // Daily notes follow Obsidian's daily-notes settings when the vault has them.
    void this.deps.readConfigFile?.("daily-notes.json").then(
      (json) => json !== null && Object.assign(toolSettings, dailySettingsFromObsidian(json)),
      () => undefined,
    );
    const agent = new Agent({
      engine: this.deps.engine,
      tools,
      router,
      grammars,
      user,
      toolContext,
      prepare: mcp ? () => mcp.startAll() : undefined,
      memory: {
        prefetch: async (message, { maxTokens }) => {
          const search = this.deps.memory?.();
          return search ? (await prefetchMemories(search, message, { tokenBudget: maxTokens })).text : "";
        },
      },
      options: {
        maxRounds: settings.maxToolRounds,
        writes: settings.writePolicy,
        writesOffHint: "turn on write confirmations in the Vault Agent settings to let the agent edit notes.",
        temperature: settings.temperature,
        thinkFirstTokens: settings.thinkFirst ? THINK_FIRST_TOKENS : 0,
      },
    });
    const close = (): void => {
      mcpTools?.dispose();
      router.dispose();
    };
    return { agent, toolContext, router, close };
  }
}

/** Tool families, for the settings tab's toggles. */
export function toolFamilies(): { family: string; tools: string[] }[] {
  const byFamily = new Map<string, string[]>();
  for (const tool of createToolCatalog()) byFamily.set(tool.family, [...(byFamily.get(tool.family) ?? []), tool.name]);
  return [...byFamily].map(([family, tools]) => ({ family, tools }));
}
