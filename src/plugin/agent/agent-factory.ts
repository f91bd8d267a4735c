/**
 * The chat pane's agent: the plugin's settings mapped onto the one assembly (src/app), rebuilt only when a setting
 * it depends on changed.
 */
import { parseYaml, stringifyYaml } from "obsidian";
import type { Agent } from "../../core/agent/agent";
import type { Conversation } from "../../core/agent/conversation";
import type { Engine } from "../../core/ports/engine";
import type { IndexStore } from "../../core/ports/index-store";
import type { JournalStore } from "../../core/ports/journal-store";
import type { McpToolHost } from "../../core/ports/mcp";
import type { UserPort } from "../../core/ports/user";
import type { VaultPort, WorkspacePort } from "../../core/ports/vault";
import type { MemorySearch } from "../../core/protocol/tool";
import type { PdfTextPort } from "../../core/ports/pdf";
import { assembleAgent, type AgentChoices, type AssembledAgent } from "../../app/assemble-agent";
import { THINK_FIRST_TOKENS, type VaultAgentSettings } from "../settings/settings";
import { networkFetch } from "./network-fetch";
import type { DirectCallDeps } from "../../app/links-canvas";


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
  /** Where the router keeps its tool-card vectors (the plugin's index folder). */
  routerStore?: IndexStore;
  /** Where the change journal keeps its records (the plugin's data folder); absent = no undo. */
  journal?: JournalStore;
  /** Tells the user something outside the pane (a tool left out, a server that failed). */
  notice?: (message: string) => void;
  /** Reads PDFs' text (Obsidian's pdf.js) for pdf:read; absent: it says PDFs cannot be read here. */
  pdf?: PdfTextPort;
}

/** The agent choices the plugin's settings make; `semantic` says whether the vault has a vector index now. */
export function pluginAgentChoices(settings: VaultAgentSettings, semantic: boolean): AgentChoices {
  const embeddingModel = settings.embeddingModelPath.split(/[\\/]/).pop() ?? "";
  return {
    // Without embeddings the semantic tools stay out of the catalog, so the router never offers them.
    // memory:save stages facts in the conversation; the pane's review keeps them as notes.
    catalog: { semantic, network: settings.networkTools, stagedMemory: true, disabledFamilies: settings.disabledToolFamilies },
    tools: { memoryFolder: settings.memoryFolder, excludedFolders: settings.excludedFolders, trustedMcpServers: settings.trustedMcpServers },
    router: { topK: settings.routerTopK, threshold: settings.routerThreshold },
    embedding: embeddingModel ? { id: embeddingModel } : undefined,
    agent: {
      maxRounds: settings.maxToolRounds,
      conversationMaxBytes: settings.conversationMaxMb * 1_000_000,
      writes: settings.writePolicy,
      writesOffHint: "turn on write confirmations in the Vault Agent settings to let the agent edit notes.",
      temperature: settings.temperature,
      thinkFirstTokens: settings.thinkFirst ? THINK_FIRST_TOKENS : 0,
    },
    journal: journalBound(settings),
  };
}

/** The change journal's bound from the settings (megabytes and days). */
export function journalBound(settings: VaultAgentSettings): { maxBytes: number; maxAgeMs: number } {
  return { maxBytes: settings.journalMaxMb * 1024 * 1024, maxAgeMs: settings.journalMaxDays * 24 * 60 * 60 * 1000 };
}

export class AgentFactory {
  private cached: { key: string; assembled: AssembledAgent } | null = null;

  constructor(private readonly deps: AgentFactoryDeps) {}

  /** Stops the cached agent's listeners. */
  readonly dispose = (): void => {
    this.cached?.assembled.close();
    this.cached = null;
  };

  /** The agent for this conversation, with the current settings. */
  agentFor(conversation: Conversation, user: UserPort): Agent {
    const settings = this.deps.settings();
    const semantic = Boolean(this.deps.memory?.()?.semanticSearch);
    const choices = pluginAgentChoices(settings, semantic);
    const key = JSON.stringify(choices);
    if (!this.cached || this.cached.key !== key) {
      this.cached?.assembled.close();
      const { engine, vault, workspace, memory, mcp, readConfigFile, routerStore, journal, notice, pdf } = this.deps;
      this.cached = { key, assembled: assembleAgent({ engine, vault, user, workspace, memory, mcp, readConfigFile, routerStore, journal, notice, pdf, fetch: networkFetch, yaml: { parse: parseYaml, stringify: stringifyYaml } }, choices) };
    }
    const { agent, toolContext } = this.cached.assembled;
    agent.conversation = conversation;
    toolContext.memory = this.deps.memory?.();
    return agent;
  }

  /** The current catalog, tool context and journal, for a command's own tool call; the arguments as for agentFor. */
  directCalls(conversation: Conversation, user: UserPort): DirectCallDeps {
    this.agentFor(conversation, user);
    const { registry, toolContext, journal } = this.cached!.assembled;
    return { tools: registry, toolContext, journal };
  }
}
