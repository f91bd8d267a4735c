/** The three real MCP servers from node_modules, as configs for the real client (stdio, started with this Node). */
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DEFAULT_MCP_TIMEOUT_SECONDS, type McpServerConfig } from "../../src/engine/mcp/mcp-config";

const require = createRequire(import.meta.url);

/** The entry script of an installed server package. */
export function serverScript(pkg: "everything" | "filesystem" | "memory"): string {
  return require.resolve(`@modelcontextprotocol/server-${pkg}/dist/index.js`);
}

export interface RealServers {
  configs: McpServerConfig[];
  /** The folder server-filesystem may use (holds notes/hello.txt). */
  fsRoot: string;
  /** server-memory's graph file. */
  memoryFile: string;
}

const base = { enabled: true, transport: "stdio" as const, disabledTools: [], timeoutSeconds: DEFAULT_MCP_TIMEOUT_SECONDS };

export function realServers(): RealServers {
  const dir = mkdtempSync(join(tmpdir(), "vault-agent-mcp-"));
  const fsRoot = join(dir, "files");
  mkdirSync(join(fsRoot, "notes"), { recursive: true });
  writeFileSync(join(fsRoot, "notes", "hello.txt"), "Hello from the filesystem server.\n");
  const memoryFile = join(dir, "memory.jsonl");
  return {
    fsRoot,
    memoryFile,
    configs: [
      { ...base, name: "everything", command: process.execPath, args: [serverScript("everything"), "stdio"] },
      { ...base, name: "filesystem", command: process.execPath, args: [serverScript("filesystem"), fsRoot] },
      { ...base, name: "memory", command: process.execPath, args: [serverScript("memory")], env: { MEMORY_FILE_PATH: memoryFile } },
    ],
  };
}
