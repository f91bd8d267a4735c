import type { PdfTextPort } from "../ports/pdf";
import type { z } from "zod";
import type { UserPort, VaultPort, WorkspacePort } from "../ports";
import type { JsonSchema } from "../ports/json-schema";
import type { YamlPort } from "../ports/yaml";
import type { MemoryStaging } from "./staged-memory";

/** What a tool does to the vault; decides whether the gatekeeper asks before running it. */
export type ToolEffect = "read" | "write" | "destructive";

/**
 * One tool: a name `family:verb`, text the router and the prompt use, Zod args that the grammar and
 * the validator are compiled from, and a handler that works only through ports.
 */
export interface ToolDefinition<Args extends z.ZodObject = z.ZodObject> {
  /** `family:verb`, e.g. `vault:read`. */
  name: string;
  /** The part before the colon. */
  family: string;
  /** One or two sentences for the model and the router. */
  description: string;
  /** Phrases users say when they want this tool ("open my note", "what did I write about"). */
  routingHints: string[];
  args: Args;
  /**
   * The args' JSON Schema as the tool's source sent it (MCP tools). When set, the grammar and the validator use it as
   * is and `args` only passes the object through (a loose Zod object).
   */
  inputSchema?: JsonSchema;
  /** Where the tool comes from; absent for the built-in tools. */
  origin?: ToolOrigin;
  /** Wrong key → right key, repaired before validation (`file` → `path`). */
  aliases?: Record<string, string>;
  effect: ToolEffect;
  /**
   * The change stays in the conversation and never reaches the vault (memory:save staging a fact): it still reads as a
   * change to the router, but the gatekeeper neither asks first nor refuses it when writes are off.
   */
  conversationOnly?: boolean;
  /** Arg names holding vault paths; the gatekeeper applies the path policy to each. */
  pathArgs?: string[];
  /**
   * The path args that must name an existing file (the grammar admits only the vault's paths; the gatekeeper refuses
   * a missing one with the nearest paths). Path args not listed may name a new file.
   */
  existingPaths?: string[];
  /**
   * Existing-path args that name only files of some kinds, by extension (lower case, no dot): `{ path: ["pdf"] }`.
   * The grammar admits only the vault's files of those kinds; the gatekeeper refuses another kind with the nearest
   * files of the right one.
   */
  pathKinds?: Record<string, string[]>;
  /** Path args that must not name an existing file (the gatekeeper refuses, nothing is overwritten). */
  newPaths?: string[];
  /** Args that depend on the note the `path` arg names: a heading of it, text of it (an edit's `find`), or one of its properties' keys. */
  noteArgs?: { heading?: string; find?: string; key?: string };
  /** Args that name one of the vault's tags, with or without `#` (the grammar admits only those). */
  tagArgs?: string[];
  /** For write/destructive tools: what the confirmation shows. */
  preview?(args: z.infer<Args>, ctx: ToolContext): Promise<ToolPreview>;
  handler(args: z.infer<Args>, ctx: ToolContext): Promise<ToolResult>;
}

/** A tool that an MCP server provides. */
export interface ToolOrigin {
  kind: "mcp";
  /** The server's name as configured (e.g. "filesystem"). */
  server: string;
  /** The tool's name on that server (e.g. "write_file"). */
  tool: string;
}

export interface ToolPreview {
  /** One line: "Append 2 lines to Projects/Alpha.md". */
  summary: string;
  preview: string;
  previewKind: "diff" | "content" | "text";
}

export interface ToolResult {
  /** Text for the model (bounded by the handler; the loop truncates again to its budget). */
  content: string;
  /** Structured result for UIs and tests. */
  data?: unknown;
  /** True when the result is empty (nothing found); the semantic guard treats it as a failure during recovery. */
  empty?: boolean;
}

/** Search over the vault's memory; absent pieces mean "not available" and tools say so. */
export interface MemorySearch {
  /** Full-text search (minisearch); a folder filter applies inside the query, so it never misses a match there. */
  textSearch(query: string, limit: number, filter?: { pathPrefix?: string }): Promise<{ path: string; score: number; snippet: string }[]>;
  /** Semantic search; null when no embedding model is configured. */
  semanticSearch:
    | ((query: string, limit: number, filter?: { pathPrefix?: string }) => Promise<{ path: string; heading: string; score: number; text: string }[]>)
    | null;
  /** The embedding model that semantic search uses, for texts outside the index (staged memories); absent without one. */
  embed?: (texts: string[]) => Promise<number[][]>;
}

/** Settings tools read. */
export interface ToolSettings {
  /** Daily notes folder ("" = vault root). */
  dailyFolder: string;
  /** Moment-style date format for daily note names, default "YYYY-MM-DD". */
  dailyFormat: string;
  /** Folder for memory:save notes. */
  memoryFolder: string;
  /** Folders the agent must not read or write. */
  excludedFolders: string[];
  /** web:fetch is refused unless this is on. */
  networkTools: boolean;
  /** Characters a read returns per page. */
  readPageChars: number;
  /** The outbound-data policy (on when absent): web fetches the user did not choose and untrusted MCP calls ask first. */
  outboundPolicy?: boolean;
  /** MCP servers the user marked as trusted (local only): their calls do not ask as outbound. */
  trustedMcpServers?: string[];
}

export const DEFAULT_TOOL_SETTINGS: ToolSettings = {
  dailyFolder: "Daily",
  dailyFormat: "YYYY-MM-DD",
  memoryFolder: "Memory",
  excludedFolders: [],
  networkTools: false,
  readPageChars: 4000,
};

/** Everything a handler may use. Constructed once per host and passed down. */
export interface ToolContext {
  vault: VaultPort;
  user: UserPort;
  /** The host's YAML parser for `.base` files; the base tools refuse without one. */
  yaml?: YamlPort;
  /** Absent headless. */
  workspace?: WorkspacePort;
  memory?: MemorySearch;
  /** The staged memories of the conversation the call belongs to; set per call by the turn loop. */
  staging?: MemoryStaging;
  settings: ToolSettings;
  /** Current time (injectable for tests). */
  now(): Date;
  /** Reads PDFs' text page by page (absent: pdf:read says PDFs cannot be read here). */
  pdf?: PdfTextPort;
  /** Network fetch when network tools are on (absent otherwise). */
  fetch?: (url: string, init?: { signal?: AbortSignal }) => Promise<{ status: number; text(): Promise<string>; headers: { get(name: string): string | null } }>;
  signal?: AbortSignal;
}
