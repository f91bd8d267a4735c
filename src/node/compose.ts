/**
 * Builds the headless agent in one place: FolderVault over a folder, the tool catalog and registry, the
 * router, the grammar subset cache, and an engine (the real host over a GGUF, or a given one such as the
 * scripted engine in tests). Everything else is passed down from here.
 */
import { appendFileSync, existsSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { Agent } from "../core/agent/agent";
import type { MemoryPrefetch } from "../core/ports/agent";
import { Indexer, createMemorySearch, prefetchMemories } from "../core/memory";
import type { IndexStore } from "../core/ports/index-store";
import type { AgentOptions } from "../core/agent/options";
import { SubsetCache, type GrammarOptions } from "../core/grammar";
import type { Engine } from "../core/ports/engine";
import type { ConfirmDecision, ConfirmRequest, UserPort } from "../core/ports/user";
import { DEFAULT_TOOL_SETTINGS, type ToolContext, type ToolSettings } from "../core/protocol/tool";
import { EmbeddingScorer } from "../core/router/embedding-scorer";
import { toolCard } from "../core/router/tool-card";
import { ToolRouter, type RouterOptions } from "../core/router/tool-router";
import { CatalogRouter } from "../core/router/catalog-router";
import type { McpServerConfig } from "../engine/mcp/mcp-config";
import type { McpConnectionOptions } from "../engine/mcp/mcp-connection";
import { McpHub } from "../engine/mcp/mcp-hub";
import { McpCatalog } from "../tools/mcp/mcp-catalog";
import { createNodeEngine } from "../engine/client/node-launcher";
import type { ServerEngineConfig } from "../engine/server/server-config";
import { serverRunsTestModel } from "./server-flags";
import { createToolCatalog, dailySettingsFromObsidian } from "../tools/index";
import { ToolRegistry } from "../tools/registry";
import { FolderVault } from "./folder-vault/folder-vault";
import { cachedTestModel } from "./test-model/model-cache";
import { clampTools, type ClampOptions } from "../app/clamp-schema";

/**
 * Grammar caps for the tiny random-weight test model: short strings keep every envelope's byte bound
 * inside the generation cap, so even noise always completes a valid envelope, and fast.
 */
export const TEST_MODEL_GRAMMAR: GrammarOptions = { maxThoughtChars: 48, maxMessageChars: 96, maxStringChars: 32, maxToolCalls: 2, maxItems: 3, maxKeys: 3, recursionDepth: 1, anyValueDepth: 1, anyValueMembers: 3 };
/** Arg sizes on the test model (schema bounds are clamped to these; see clampTools). */
export const TEST_MODEL_CLAMP = { maxString: 32, maxItems: 3 };

/** The generated test model (default vocabulary and seed), from the shared cache that tests use too. */
export function defaultTestModelPath(): string {
  return cachedTestModel();
}

/** The CLI's person: writes need --allow-writes (then they are approved); notices go to stderr. */
export function cliUser(allowWrites: boolean, log: (line: string) => void = (l) => process.stderr.write(l + "\n")): UserPort {
  return {
    async confirm(request: ConfirmRequest): Promise<ConfirmDecision> {
      log(allowWrites ? `(approved by --allow-writes) ${request.summary}` : `(declined: no --allow-writes) ${request.summary}`);
      return allowWrites ? "approve" : "deny";
    },
    notify(message, kind = "info") {
      log(`[${kind}] ${message}`);
    },
  };
}

export interface HeadlessOptions {
  /** The vault folder. */
  vault: string;
  /** A ready engine (tests pass the scripted engine); otherwise the host is started on `model`. */
  engine?: Engine;
  /** Chat model GGUF; default the generated test model. */
  model?: string;
  /** A server engine (llama-server or OpenAI-compatible) instead of a model file; the host talks HTTP to it. */
  server?: ServerEngineConfig;
  /** Embedding model GGUF for the router (and memory); default none. */
  embedModel?: string;
  /** Let the agent change notes (headless writes are refused otherwise). */
  allowWrites?: boolean;
  /** Default: the CLI person (approves only with allowWrites). */
  user?: UserPort;
  agentOptions?: Partial<AgentOptions>;
  routerOptions?: Partial<RouterOptions>;
  /** Grammar caps; default the compiler's (llama.cpp accepts them), or TEST_MODEL_GRAMMAR on the test model. */
  grammarOptions?: GrammarOptions;
  /** Append every agent event as a JSON line to this file. */
  transcriptFile?: string;
  /** Context size for the host; default 4096. */
  contextSize?: number;
  /** Threads for the host; default 1 on the test model, the host's choice otherwise. */
  threads?: number;
  /** Fixed clock for tests. */
  now?: () => Date;
  settings?: Partial<ToolSettings>;
  /** Clamp arg sizes in the grammar (default TEST_MODEL_CLAMP on the test model, none otherwise). */
  clamp?: ClampOptions;
  /** Text memory (minisearch over the vault, built in memory at start) for prefetch and search tools. Default true. */
  memory?: boolean;
  /** Tool catalog options; default: no semantic search (headless memory is text only), no network tools. */
  catalog?: { semantic?: boolean; network?: boolean };
  /** MCP servers whose tools join the catalog (started before the first turn, stopped by `close`). Default none. */
  mcpServers?: McpServerConfig[];
  /** Connection options for those servers (tests shorten the backoff or watch the transport). */
  mcpOptions?: Partial<McpConnectionOptions>;
}

/** The name and version this project reports to MCP servers. */
export const MCP_CLIENT_INFO = { name: "vault-agent", version: "0.1.0" };

export interface HeadlessAgent {
  agent: Agent;
  engine: Engine;
  vault: FolderVault;
  registry: ToolRegistry;
  /** The router over the catalog as it is now (rebuilt when MCP tools arrive or leave). */
  router: CatalogRouter;
  /** The MCP servers, when any were configured. */
  mcp?: McpHub;
  /** Their tools in the registry and how each schema compiled. */
  mcpCatalog?: McpCatalog;
  grammars: SubsetCache;
  /** True when running on the generated random-weight model. */
  testModel: boolean;
  /** The chat model path ("" for an injected engine). */
  modelPath: string;
  /** Stops the engine host (when this composition started it). */
  close(): Promise<void>;
}

function vaultSettings(root: string, configDir: string): Partial<ToolSettings> {
  const file = join(root, configDir, "daily-notes.json");
  return existsSync(file) ? dailySettingsFromObsidian(readFileSync(file, "utf8")) : {};
}

export async function composeHeadless(options: HeadlessOptions): Promise<HeadlessAgent> {
  const root = resolve(options.vault);
  if (!existsSync(root)) throw new Error(`The vault folder ${root} does not exist; pass an existing folder with --vault.`);
  const vault = new FolderVault(root, { watch: false });
  const settings: ToolSettings = { ...DEFAULT_TOOL_SETTINGS, ...vaultSettings(root, vault.configDir), ...options.settings };
  // Headless memory is text only, so semantic search is not offered unless a caller wires vectors and asks for it.
  const catalog = createToolCatalog({ semantic: false, network: false, ...options.catalog });
  const registry = new ToolRegistry(catalog);

  let engine = options.engine;
  let modelPath = "";
  let testModel = false;
  let stop: () => Promise<void> = async () => {};
  if (!engine && options.server) {
    const client = createNodeEngine({ server: options.server });
    engine = client;
    stop = () => client.shutdown();
    try {
      const info = await client.modelInfo();
      modelPath = info.path;
      testModel = await serverRunsTestModel(info);
    } catch (err) {
      await client.shutdown();
      throw err;
    }
  } else if (!engine) {
    testModel = !options.model;
    modelPath = options.model ? resolve(options.model) : defaultTestModelPath();
    if (!existsSync(modelPath)) throw new Error(`The model file ${modelPath} does not exist; pass a GGUF file with --model.`);
    const client = createNodeEngine({
      model: { path: modelPath, contextSize: options.contextSize ?? 4096, threads: options.threads ?? (testModel ? 1 : undefined) },
      ...(options.embedModel ? { embeddingModel: { path: resolve(options.embedModel) } } : {}),
    });
    engine = client;
    stop = () => client.shutdown();
  }

  const grammarOptions = options.grammarOptions ?? (testModel ? TEST_MODEL_GRAMMAR : {});
  // On the test model short strings keep every envelope quick (noise fills every string to its cap); real models get
  // the schemas as they are. A clamp only narrows the grammar: ajv still checks the real schema.
  const clamp = options.clamp ?? (testModel ? TEST_MODEL_CLAMP : undefined);
  const grammarToolsNow = () => (clamp ? clampTools(registry.grammarTools(), clamp) : registry.grammarTools());
  const grammars = new SubsetCache(grammarToolsNow(), grammarOptions);
  // Tools arrive and leave at run time (MCP): the subset cache and the router follow the registry.
  registry.onChange(() => grammars.setCatalog(grammarToolsNow(), grammarOptions));
  const embedId = options.embedModel?.split(/[\\/]/).pop() ?? "embed";
  const router = new CatalogRouter(registry, (tools) =>
    new ToolRouter(tools, options.routerOptions, options.embedModel ? new EmbeddingScorer(tools.map(toolCard), engine, embedId) : undefined),
  );
  // Note names the user says ("my shopping list") read as "a note" to the router; headless vaults do not change mid-run.
  router.setNotes((await vault.list()).map((f) => f.path));
  const user = options.user ?? cliUser(!!options.allowWrites);
  const toolContext: ToolContext = { vault, user, settings, now: options.now ?? (() => new Date()) };
  let memory: MemoryPrefetch | undefined;
  let indexer: Indexer | undefined;
  if (options.memory !== false) {
    // Text memory only, kept in memory: the headless run never writes index files into the vault.
    const saved = new Map<string, string>();
    const indexStore: IndexStore = { load: async (k) => saved.get(k) ?? null, save: async (k, t) => void saved.set(k, t), remove: async (k) => void saved.delete(k) };
    indexer = new Indexer({ vault, indexStore, vectors: null, embed: null, excludedFolders: settings.excludedFolders });
    await indexer.build();
    const search = createMemorySearch({ indexer, vault });
    toolContext.memory = search;
    const counter = engine;
    memory = {
      prefetch: async (message, { maxTokens }) =>
        (await prefetchMemories(search, message, { tokenBudget: maxTokens, countTokens: (t) => counter.countTokens(t) })).text,
    };
  }
  let mcp: McpHub | undefined;
  let mcpCatalog: McpCatalog | undefined;
  if (options.mcpServers?.length) {
    mcp = new McpHub(options.mcpServers, { clientInfo: MCP_CLIENT_INFO, ...options.mcpOptions });
    mcpCatalog = new McpCatalog(mcp, registry, { grammarOptions, notify: (m) => user.notify(m, "warning") });
    // "Started when first needed": a headless run needs them for its first turn, so the router sees their tools.
    await mcp.startAll();
    for (const s of mcp.servers()) if (s.state === "failed" && s.reason) user.notify(s.reason, "error");
  }
  const transcriptFile = options.transcriptFile;
  const agent = new Agent({
    engine,
    tools: registry,
    toolContext,
    router,
    user,
    grammars,
    memory,
    prepare: mcp ? () => mcp.startAll() : undefined,
    transcript: transcriptFile ? (line) => appendFileSync(transcriptFile, line + "\n") : undefined,
    options: {
      writes: options.allowWrites ? "confirm" : "refuse",
      writesOffHint: "rerun with --allow-writes to let the agent change notes.",
      // Noise fills strings to their caps, so a test-model reply can need its whole grammar bound: history is trimmed
      // to make room for all of it, never just the default reserve.
      ...(testModel ? { maxTokensCap: 4096 } : {}),
      ...options.agentOptions,
    },
  });
  const close = async (): Promise<void> => {
    mcpCatalog?.dispose();
    router.dispose();
    await mcp?.close();
    await indexer?.close();
    await stop();
  };
  return { agent, engine, vault, registry, router, grammars, mcp, mcpCatalog, testModel, modelPath, close };
}
