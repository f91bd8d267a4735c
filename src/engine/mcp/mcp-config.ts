/**
 * MCP server configuration: the Claude-Desktop `{"mcpServers": {...}}` form (what users copy from a server's README)
 * read into one typed entry per server. Every problem is one sentence naming the server and the field.
 */

/** One MCP server as configured. */
export interface McpServerConfig {
  /** The key under `mcpServers`, as the user wrote it. */
  name: string;
  /** Off servers never start and offer no tools. Default on. */
  enabled: boolean;
  /** "stdio": a local command; "http": streamable HTTP at `url`. */
  transport: "stdio" | "http";
  /** stdio: the program to run (e.g. `node`, `npx`, `uvx`). */
  command?: string;
  /** stdio: its arguments. */
  args?: string[];
  /** stdio: extra environment variables (added to a minimal safe environment, as the SDK does). */
  env?: Record<string, string>;
  /** stdio: working folder. Default: the app's. */
  cwd?: string;
  /** http: the endpoint, e.g. `http://127.0.0.1:3001/mcp`. */
  url?: string;
  /** http: request headers (e.g. `Authorization`). */
  headers?: Record<string, string>;
  /** Tool names (as the server names them) the agent must not see. Default none. */
  disabledTools: string[];
  /** Seconds one tool call may take before it is cancelled. Default 60. */
  timeoutSeconds: number;
}

export const DEFAULT_MCP_TIMEOUT_SECONDS = 60;

/** A configuration that cannot be used; the message is one sentence saying what to fix. */
export class McpConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "McpConfigError";
  }
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

function stringMap(value: unknown, where: string): Record<string, string> | undefined {
  if (value === undefined) return undefined;
  if (!isRecord(value)) throw new McpConfigError(`${where} must be an object of text values.`);
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(value)) {
    if (typeof v !== "string") throw new McpConfigError(`${where}.${k} must be text, not ${JSON.stringify(v)}.`);
    out[k] = v;
  }
  return out;
}

function stringList(value: unknown, where: string): string[] | undefined {
  if (value === undefined) return undefined;
  if (!Array.isArray(value) || value.some((v) => typeof v !== "string")) throw new McpConfigError(`${where} must be a list of text values.`);
  return value as string[];
}

/** One server entry (`mcpServers.<name>`), checked. */
export function serverFromJson(name: string, value: unknown): McpServerConfig {
  const where = `MCP server "${name}"`;
  if (!name.trim()) throw new McpConfigError("An MCP server has an empty name; give every entry under mcpServers a name.");
  if (!isRecord(value)) throw new McpConfigError(`${where} must be an object with a "command" or a "url".`);
  const type = value.type ?? value.transport;
  const url = value.url;
  const command = value.command;
  const isHttp = url !== undefined || type === "http" || type === "streamable-http" || type === "streamableHttp";
  if (type === "sse") throw new McpConfigError(`${where} uses the old SSE transport; use its streamable HTTP endpoint ("type": "http") instead.`);
  const timeout = value.timeoutSeconds ?? value.timeout ?? DEFAULT_MCP_TIMEOUT_SECONDS;
  if (typeof timeout !== "number" || !(timeout > 0)) throw new McpConfigError(`${where} has a timeout that is not a positive number of seconds.`);
  const common = {
    name,
    enabled: value.disabled === true ? false : value.enabled !== false,
    disabledTools: stringList(value.disabledTools, `${where} disabledTools`) ?? [],
    timeoutSeconds: timeout,
  };
  if (isHttp) {
    if (typeof url !== "string" || !url) throw new McpConfigError(`${where} is an HTTP server without a "url".`);
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      throw new McpConfigError(`${where} has a url that is not a valid address: ${url}.`);
    }
    if (parsed.protocol !== "http:" && parsed.protocol !== "https:") throw new McpConfigError(`${where} has a url that is not http or https: ${url}.`);
    return { ...common, transport: "http", url, headers: stringMap(value.headers, `${where} headers`) };
  }
  if (typeof command !== "string" || !command.trim()) throw new McpConfigError(`${where} needs a "command" (the program to run) or a "url".`);
  if (value.cwd !== undefined && typeof value.cwd !== "string") throw new McpConfigError(`${where} cwd must be a folder path.`);
  return {
    ...common,
    transport: "stdio",
    command,
    args: stringList(value.args, `${where} args`) ?? [],
    env: stringMap(value.env, `${where} env`),
    ...(typeof value.cwd === "string" && value.cwd ? { cwd: value.cwd } : {}),
  };
}

/** Reads a Claude-Desktop-style `{"mcpServers": {...}}` text; `source` names it in errors (a file name). */
export function parseMcpConfig(text: string, source = "The MCP configuration"): McpServerConfig[] {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    throw new McpConfigError(`${source} is not valid JSON (${(err as Error).message}).`);
  }
  if (!isRecord(json)) throw new McpConfigError(`${source} must be a JSON object with an "mcpServers" object.`);
  const servers = json.mcpServers ?? json.servers;
  if (!isRecord(servers)) throw new McpConfigError(`${source} has no "mcpServers" object; it should look like {"mcpServers": {"name": {"command": "…", "args": []}}}.`);
  return Object.entries(servers).map(([name, value]) => serverFromJson(name, value));
}

/** The config back in the Claude-Desktop form (what the settings store and export). */
export function mcpConfigJson(servers: readonly McpServerConfig[]): { mcpServers: Record<string, Record<string, unknown>> } {
  const out: Record<string, Record<string, unknown>> = {};
  for (const s of servers) {
    const entry: Record<string, unknown> =
      s.transport === "http"
        ? { type: "http", url: s.url, ...(s.headers ? { headers: s.headers } : {}) }
        : { command: s.command, args: s.args ?? [], ...(s.env ? { env: s.env } : {}), ...(s.cwd ? { cwd: s.cwd } : {}) };
    if (!s.enabled) entry.disabled = true;
    if (s.disabledTools.length) entry.disabledTools = s.disabledTools;
    if (s.timeoutSeconds !== DEFAULT_MCP_TIMEOUT_SECONDS) entry.timeoutSeconds = s.timeoutSeconds;
    out[s.name] = entry;
  }
  return { mcpServers: out };
}

/**
 * Reads the stored form entry by entry: a broken entry is reported (one sentence each) and left out, the others
 * still work. What the plugin uses for its saved settings.
 */
export function readMcpServers(json: { mcpServers: Record<string, unknown> }): { servers: McpServerConfig[]; problems: string[] } {
  const servers: McpServerConfig[] = [];
  const problems: string[] = [];
  for (const [name, value] of Object.entries(json.mcpServers)) {
    try {
      servers.push(serverFromJson(name, value));
    } catch (err) {
      problems.push(err instanceof Error ? err.message : String(err));
    }
  }
  return { servers, problems };
}
