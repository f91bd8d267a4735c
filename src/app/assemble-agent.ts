/**
 * The one assembly of the agent. The plugin (src/plugin/agent) and the headless CLI (src/node/compose.ts) make their
 * ports and hand them here; neither constructs any part of the agent itself, so what the CLI, the benches and the
 * evals prove is what users run: registry -> subset cache -> router (text + embedding scores) -> MCP catalog ->
 * memory prefetch (counted in the engine's tokens) -> Agent.
 */
import { Agent } from "../core/agent/agent";
import type { Conversation } from "../core/agent/conversation";
import type { AgentOptions } from "../core/agent/options";
import { SubsetCache, type GrammarOptions } from "../core/grammar";
import { VaultTagSet } from "../core/grammar/vault-tags";
import { prefetchWithStaged } from "../core/memory/staging-prefetch";
import type { MemoryPrefetch, TranscriptSink } from "../core/ports/agent";
import type { Engine } from "../core/ports/engine";
import type { IndexStore } from "../core/ports/index-store";
import type { JournalStore } from "../core/ports/journal-store";
import type { YamlPort } from "../core/ports/yaml";
import { ChangeJournal, type ChangeJournalOptions } from "../core/journal";
import type { McpToolHost } from "../core/ports/mcp";
import type { StagedMemory } from "../core/protocol/staged-memory";
import type { UserPort } from "../core/ports/user";
import type { VaultPort, WorkspacePort } from "../core/ports/vault";
import { DEFAULT_TOOL_SETTINGS, type MemorySearch, type ToolContext, type ToolDefinition, type ToolSettings } from "../core/protocol/tool";
import { CatalogRouter } from "../core/router/catalog-router";
import { EmbeddingScorer } from "../core/router/embedding-scorer";
import { toolCard } from "../core/router/tool-card";
import { ToolRouter, type RouterOptions } from "../core/router/tool-router";
import { dailySettingsFromObsidian } from "../tools/daily";
import { createToolCatalog } from "../tools/index";
import { McpCatalog } from "../tools/mcp/mcp-catalog";
import { ToolRegistry } from "../tools/registry";
import { clampTools, type ClampOptions } from "./clamp-schema";
import { vaultPathsFor } from "./vault-paths";

/** What a host makes and lends the agent: the world, as ports. */
export interface AgentPorts {
  engine: Engine;
  vault: VaultPort;
  /** Confirmations and notices; for the plugin, the chat session of the conversation. */
  user: UserPort;
  /** The open notes (the plugin); absent headless. */
  workspace?: WorkspacePort;
  /** Memory search as it is now: undefined before the vault is indexed (tools then say so). */
  memory?: () => MemorySearch | undefined;
  /** MCP servers whose tools join the catalog; `startAll` runs before each turn (servers start when first needed). */
  mcp?: { hub: McpToolHost; startAll(): Promise<void> };
  /** The network transport of the web tools; absent = no network. */
  fetch?: ToolContext["fetch"];
  /** Reads PDFs' text (Obsidian's pdf.js in the app, pdfjs-dist headless); absent: pdf:read says it cannot. */
  pdf?: ToolContext["pdf"];
  /** Text of a file in the vault's config folder (`daily-notes.json`), or null when absent. */
  readConfigFile?: (name: string) => Promise<string | null>;
  /** Where the router keeps its tool-card vectors between runs; absent = embedded again per start. */
  routerStore?: IndexStore;
  /** Each agent event as one JSON line. */
  transcript?: TranscriptSink;
  /** Where the change journal keeps its records (plugin data folder, or the vault's config folder headless); absent = no undo. */
  journal?: JournalStore;
  /** Tells the user something outside the conversation (a tool left out, a server that failed). */
  notice?: (message: string) => void;
  /** The clock tools read; default the system clock. */
  now?: () => Date;
  /** The host's YAML parser, for `.base` files. */
  yaml?: YamlPort;
}

/** The choices that shape the agent; each host maps its own settings or flags onto these. */
export interface AgentChoices {
  /** Which tool families exist: semantic search needs vectors, network tools the user's opt-in. */
  catalog: {
    semantic: boolean;
    network: boolean;
    /** memory:save stages facts in the conversation for review (the plugin) instead of writing a note after a confirmation. */
    stagedMemory?: boolean;
    disabledFamilies?: readonly string[];
    /** A catalog of the host's own instead of the vault tools (the BFCL eval's functions per request). */
    tools?: ToolDefinition[];
  };
  /** Tool settings beyond the defaults (memory folder, excluded folders, daily notes...). */
  tools?: Partial<ToolSettings>;
  router?: Partial<RouterOptions>;
  /** Set when an embedding model embeds tool cards: the router then fuses meaning with words. `id` keys the cached vectors. */
  embedding?: { id: string };
  /** Grammar caps; default the compiler's. */
  grammar?: GrammarOptions;
  /** Ground path args in the vault's paths, and headings and edit text in the notes in context (default true). */
  grounding?: boolean;
  /** Narrows arg sizes in the grammar only (ajv still checks the real schema): the random-weight test model. */
  clamp?: ClampOptions;
  agent?: Partial<AgentOptions>;
  /** The change journal's bound; default 50 MB or 30 days, oldest turns dropped first. */
  journal?: Pick<ChangeJournalOptions, "maxBytes" | "maxAgeMs">;
  /** History to continue; default a new conversation. */
  conversation?: Conversation;
}

export interface AssembledAgent {
  agent: Agent;
  registry: ToolRegistry;
  /** The router over the catalog as it is now (rebuilt when MCP tools arrive or leave). */
  router: CatalogRouter;
  grammars: SubsetCache;
  /** The MCP servers' tools in the registry and how each schema compiled; absent without MCP. */
  mcpCatalog?: McpCatalog;
  /** What tool handlers get; `memory` follows `ports.memory` at every turn. */
  toolContext: ToolContext;
  /** Every vault change the agent's tools make, for undo; absent when the host gave no journal store. */
  journal?: ChangeJournal;
  /** Lists the vault's notes for the router now (it also does so before a turn after any vault change). */
  refreshNotes(): Promise<void>;
  /** Another agent over the same parts (catalog, router, grammars, tool context) with other options: eval configurations. */
  withOptions(options: Partial<AgentOptions>): Agent;
  /** Stops listening to the vault and the registry. Does not stop the engine or the MCP servers: their host owns them. */
  close(): void;
}

/** Builds the agent over the host's ports with the host's choices. */
export function assembleAgent(ports: AgentPorts, choices: AgentChoices): AssembledAgent {
  const disabled = new Set(choices.catalog.disabledFamilies ?? []);
  const catalog = (choices.catalog.tools ?? createToolCatalog({ semantic: choices.catalog.semantic, network: choices.catalog.network, stagedMemory: choices.catalog.stagedMemory })).filter((t) => !disabled.has(t.family));
  const registry = new ToolRegistry(catalog);
  const grammarOptions = choices.grammar ?? {};
  const grammarToolsNow = () => (choices.clamp ? clampTools(registry.grammarTools(), choices.clamp) : registry.grammarTools());
  const grammars = new SubsetCache(grammarToolsNow(), grammarOptions);
  // Tools arrive and leave at run time (MCP): the subset cache and the router follow the registry.
  const stopGrammars = registry.onChange(() => grammars.setCatalog(grammarToolsNow(), grammarOptions));
  const router = new CatalogRouter(registry, (tools) =>
    new ToolRouter(tools, choices.router, choices.embedding ? new EmbeddingScorer(tools.map(toolCard), ports.engine, choices.embedding.id, ports.routerStore) : undefined),
  );
  const mcp = ports.mcp;
  const mcpCatalog = mcp ? new McpCatalog(mcp.hub, registry, { grammarOptions, notify: (m) => ports.notice?.(m) }) : undefined;
  const toolContext: ToolContext = {
    vault: ports.vault,
    user: ports.user,
    yaml: ports.yaml,
    workspace: ports.workspace,
    settings: { ...DEFAULT_TOOL_SETTINGS, networkTools: choices.catalog.network, ...choices.tools },
    now: ports.now ?? (() => new Date()),
    fetch: choices.catalog.network ? ports.fetch : undefined,
    memory: ports.memory?.(),
    pdf: ports.pdf,
  };
  const grounding = choices.grounding === false ? undefined : vaultPathsFor(ports.vault, toolContext);
  grammars.setVaultPaths(grounding?.paths);
  // The vault's tags, read with the notes' property keys: tag args then name a tag that exists.
  const tags = grounding ? new VaultTagSet() : undefined;
  grammars.setVaultTags(tags);
  const notes = noteNames(ports.vault, router, tags);
  const daily = dailySettings(ports.readConfigFile, toolContext.settings, choices.tools);
  const journal = ports.journal ? new ChangeJournal(ports.journal, choices.journal) : undefined;
  const agentWith = (options: Partial<AgentOptions> | undefined): Agent => {
    const made: Agent = new Agent({
      engine: ports.engine,
      tools: registry,
      toolContext,
      router,
      user: ports.user,
      grammars,
      vaultPaths: grounding?.paths,
      // The prefetch reads the staged memories of whichever conversation the agent holds at the turn's start.
      memory: memoryPrefetch(ports, () => made.conversation.staged.list()),
      prepare: async () => {
        // Memory appears once the user indexed the vault; the tools see it from the next turn on.
        toolContext.memory = ports.memory?.();
        await Promise.all([daily, notes.refreshIfStale(), mcp?.startAll(), grounding?.ensure()]);
      },
      transcript: ports.transcript,
      journal,
      conversation: choices.conversation,
      options,
    });
    return made;
  };
  const agent = agentWith(choices.agent);
  const close = (): void => {
    notes.stop();
    grounding?.stop();
    stopGrammars();
    mcpCatalog?.dispose();
    router.dispose();
  };
  return { agent, registry, router, grammars, mcpCatalog, toolContext, journal, refreshNotes: () => notes.refresh(), withOptions: (o) => agentWith({ ...choices.agent, ...o }), close };
}

/** Memories for the prompt, budgeted in the engine's own tokens: the conversation's staged facts first, then the vault's. */
function memoryPrefetch(ports: AgentPorts, staged: () => readonly StagedMemory[]): MemoryPrefetch {
  const engine = ports.engine;
  return {
    prefetch: async (message, { maxTokens }) => {
      const search = ports.memory?.();
      const facts = staged();
      if (!search && facts.length === 0) return "";
      return (await prefetchWithStaged(search, facts, message, { tokenBudget: maxTokens, countTokens: (t) => engine.countTokens(t) })).text;
    },
  };
}

/** Notes whose property keys are read per refresh at most: a first turn over a large folder vault stays quick. */
const PROPERTY_READS_PER_REFRESH = 2000;

/**
 * Keeps the router's list of note names (a name in a message reads as "about a note") and the property keys the notes
 * use (a question naming one looks in the notes) in step with the vault, and the vault's tags for grounded tag args. Keys are read from each note's metadata once
 * and again only when its modification time changes, a bounded number per refresh.
 */
function noteNames(vault: VaultPort, router: CatalogRouter, tags?: VaultTagSet): { refresh: () => Promise<void>; refreshIfStale: () => Promise<void>; stop: () => void } {
  let stale = true;
  const keysOf = new Map<string, { mtime: number; keys: string[]; tags: string[] }>();
  const refresh = async (): Promise<void> => {
    stale = false;
    try {
      const files = await vault.list();
      const present = new Set(files.map((f) => f.path));
      for (const path of keysOf.keys()) if (!present.has(path)) keysOf.delete(path);
      let reads = 0;
      for (const f of files) {
        if (!f.path.endsWith(".md") || keysOf.get(f.path)?.mtime === f.mtime) continue;
        if (reads++ >= PROPERTY_READS_PER_REFRESH) {
          stale = true; // The rest next time.
          break;
        }
        const meta = await vault.metadata(f.path).catch(() => null);
        keysOf.set(f.path, { mtime: f.mtime, keys: Object.keys(meta?.frontmatter ?? {}), tags: meta?.tags ?? [] });
      }
      router.setNotes(files.map((f) => f.path), new Set([...keysOf.values()].flatMap((e) => e.keys)));
      tags?.set([...keysOf.values()].flatMap((e) => e.tags));
    } catch {
      stale = true; // Listed again before the next turn.
    }
  };
  const stop = vault.onChange(() => {
    stale = true;
  });
  return { refresh, refreshIfStale: () => (stale ? refresh() : Promise.resolve()), stop };
}

/** Daily notes follow Obsidian's daily-notes settings when the vault has them; read once, before the first turn. */
async function dailySettings(read: AgentPorts["readConfigFile"], settings: ToolSettings, chosen: Partial<ToolSettings> = {}): Promise<void> {
  if (!read) return;
  try {
    const json = await read("daily-notes.json");
    // What the host chose explicitly still wins over the vault's file.
    if (json !== null) Object.assign(settings, dailySettingsFromObsidian(json), chosen);
  } catch {
    // Unreadable settings leave the defaults in place.
  }
}

/** Tool families, for the settings tab's toggles. */
export function toolFamilies(): { family: string; tools: string[] }[] {
  const byFamily = new Map<string, string[]>();
  for (const tool of createToolCatalog()) byFamily.set(tool.family, [...(byFamily.get(tool.family) ?? []), tool.name]);
  return [...byFamily].map(([family, tools]) => ({ family, tools }));
}
