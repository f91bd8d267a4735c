/**
 * The headless host: FolderVault over a folder, an engine (the real host over a GGUF, a server, or a given one such
 * as the scripted engine in tests), text memory and MCP servers, handed to the one assembly (src/app) that the
 * plugin uses too.
 */
import { appendFileSync, existsSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { parse as parseYaml, stringify as stringifyYaml } from "yaml";
import type { Agent } from "../core/agent/agent";
import { Indexer, createMemorySearch } from "../core/memory";
import { SourceTexts } from "../core/memory/source-text";
import { nodePdfText } from "./pdf/node-pdf-text";
import type { IndexStore } from "../core/ports/index-store";
import type { AgentOptions } from "../core/agent/options";
import type { GrammarOptions, SubsetCache } from "../core/grammar";
import type { Engine } from "../core/ports/engine";
import type { ConfirmDecision, ConfirmRequest, UserPort } from "../core/ports/user";
import { DEFAULT_TOOL_SETTINGS, type MemorySearch, type ToolSettings } from "../core/protocol/tool";
import type { RouterOptions } from "../core/router/tool-router";
import type { CatalogRouter } from "../core/router/catalog-router";
import type { McpServerConfig } from "../engine/mcp/mcp-config";
import type { McpConnectionOptions } from "../engine/mcp/mcp-connection";
import { McpHub } from "../engine/mcp/mcp-hub";
import type { McpCatalog } from "../tools/mcp/mcp-catalog";
import { createNodeEngine } from "../engine/client/node-launcher";
import type { ServerEngineConfig } from "../engine/server/server-config";
import { isGeneratedModel, serverRunsTestModel } from "./server-flags";
import type { ToolRegistry } from "../tools/registry";
import { FolderVault } from "./folder-vault/folder-vault";
import { cachedTestModel } from "./test-model/model-cache";
import type { ClampOptions } from "../app/clamp-schema";
import { assembleAgent } from "../app/assemble-agent";
import { defaultJournalDir, FolderJournalStore } from "./folder-journal-store";
import { LocalTextStore } from "../core/memory/text-store";

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
  /** Ground path args, headings and edit text in the vault (default true; see docs/grounded-calls.md). */
  grounding?: boolean;
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
  catalog?: { semantic?: boolean; network?: boolean; stagedMemory?: boolean };
  /** MCP servers whose tools join the catalog (started before the first turn, stopped by `close`). Default none. */
  mcpServers?: McpServerConfig[];
  /** Connection options for those servers (tests shorten the backoff or watch the transport). */
  mcpOptions?: Partial<McpConnectionOptions>;
  /** Where the change journal lives (`undo` reads it); default `<vault>/<configDir>/plugins/vault-agent/journal`, false = none. */
  journalDir?: string | false;
  /** Wraps the engine the agent talks to (`ask --transcript` records each reply as the model wrote it). */
  wrapEngine?: (engine: Engine) => Engine;
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

export async function composeHeadless(options: HeadlessOptions): Promise<HeadlessAgent> {
  const root = resolve(options.vault);
  if (!existsSync(root)) throw new Error(`The vault folder ${root} does not exist; pass an existing folder with --vault.`);
  const vault = new FolderVault(root, { watch: false });
  const pdf = nodePdfText();
  const made = await headlessEngine(options);
  const { modelPath, testModel, stop } = made;
  const engine = options.wrapEngine ? options.wrapEngine(made.engine) : made.engine;
  const user = options.user ?? cliUser(!!options.allowWrites);
  // Text memory only, kept in memory: the headless run never writes index files into the vault.
  const excludedFolders = options.settings?.excludedFolders ?? DEFAULT_TOOL_SETTINGS.excludedFolders;
  let indexer: Indexer | undefined;
  let search: MemorySearch | undefined;
  if (options.memory !== false) {
    const saved = new Map<string, string>();
    const indexStore: IndexStore = { load: async (k) => saved.get(k) ?? null, save: async (k, t) => void saved.set(k, t), remove: async (k) => void saved.delete(k) };
    indexer = new Indexer({ vault, sources: new SourceTexts(vault, pdf), indexStore, text: new LocalTextStore(indexStore), vectors: null, embed: null, excludedFolders });
    await indexer.build();
    search = createMemorySearch({ indexer, vault });
  }
  let mcp: McpHub | undefined;
  if (options.mcpServers?.length) {
    mcp = new McpHub(options.mcpServers, { clientInfo: MCP_CLIENT_INFO, ...options.mcpOptions });
  }
  const hub = mcp;
  const transcriptFile = options.transcriptFile;
  const assembled = assembleAgent(
    {
      engine,
      vault,
      user,
      memory: search ? () => search : undefined,
      pdf,
      mcp: hub ? { hub, startAll: () => hub.startAll() } : undefined,
      readConfigFile: async (name) => {
        const file = join(root, vault.configDir, name);
        return existsSync(file) ? readFileSync(file, "utf8") : null;
      },
      transcript: transcriptFile ? (line) => appendFileSync(transcriptFile, line + "\n") : undefined,
      // Node's fetch, only when network tools are on (the policy still asks before addresses the user did not write).
      fetch: options.catalog?.network ? (url, init) => fetch(url, init) : undefined,
      journal: options.journalDir === false ? undefined : new FolderJournalStore(options.journalDir ?? defaultJournalDir(root, vault.configDir)),
      notice: (m) => user.notify(m, "warning"),
      now: options.now,
      yaml: { parse: parseYaml, stringify: stringifyYaml },
    },
    {
      // Headless memory is text only, so semantic search is not offered unless a caller wires vectors and asks for it.
      catalog: { semantic: false, network: false, ...options.catalog },
      tools: options.settings,
      router: options.routerOptions,
      embedding: options.embedModel ? { id: options.embedModel.split(/[\\/]/).pop() ?? "embed" } : undefined,
      grammar: options.grammarOptions ?? (testModel ? TEST_MODEL_GRAMMAR : {}),
      grounding: options.grounding,
      // On the test model short strings keep every envelope quick (noise fills every string to its cap); real models get
      // the schemas as they are. A clamp only narrows the grammar: ajv still checks the real schema.
      clamp: options.clamp ?? (testModel ? TEST_MODEL_CLAMP : undefined),
      agent: {
        writes: options.allowWrites ? "confirm" : "refuse",
        writesOffHint: "rerun with --allow-writes to let the agent change notes.",
        // Noise fills strings to their caps, so a test-model reply can need its whole grammar bound: history is trimmed
        // to make room for all of it, never just the default reserve.
        ...(testModel ? { maxTokensCap: 4096 } : {}),
        ...options.agentOptions,
      },
    },
  );
  await assembled.refreshNotes();
  if (hub) {
    // "Started when first needed": a headless run needs them for its first turn, so the router sees their tools.
    await hub.startAll();
    for (const s of hub.servers()) if (s.state === "failed" && s.reason) user.notify(s.reason, "error");
  }
  const { agent, registry, router, grammars, mcpCatalog } = assembled;
  const close = async (): Promise<void> => {
    assembled.close();
    await mcp?.close();
    await indexer?.close();
    await stop();
  };
  return { agent, engine, vault, registry, router, grammars, mcp, mcpCatalog, testModel, modelPath, close };
}

/** The injected engine, a server engine through the host, or the host over a model file (default the test model). */
async function headlessEngine(options: HeadlessOptions): Promise<{ engine: Engine; modelPath: string; testModel: boolean; stop: () => Promise<void> }> {
  if (options.engine) return { engine: options.engine, modelPath: "", testModel: false, stop: async () => {} };
  if (options.server) {
    const client = createNodeEngine({ server: options.server });
    try {
      const info = await client.modelInfo();
      return { engine: client, modelPath: info.path, testModel: await serverRunsTestModel(info), stop: () => client.shutdown() };
    } catch (err) {
      await client.shutdown();
      throw err;
    }
  }
  const modelPath = options.model ? resolve(options.model) : defaultTestModelPath();
  if (!existsSync(modelPath)) throw new Error(`The model file ${modelPath} does not exist; pass a GGUF file with --model.`);
  // A generated model given with --model (a family model, at any size) has random weights too: the test caps apply.
  const testModel = !options.model || (await isGeneratedModel(modelPath));
  const client = createNodeEngine({
    model: { path: modelPath, contextSize: options.contextSize ?? 4096, threads: options.threads ?? (options.model ? undefined : 1) },
    ...(options.embedModel ? { embeddingModel: { path: resolve(options.embedModel) } } : {}),
  });
  return { engine: client, modelPath, testModel, stop: () => client.shutdown() };
}
