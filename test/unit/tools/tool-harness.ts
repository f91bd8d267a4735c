/** A temp copy of examples/vault behind a FolderVault, and a ToolContext over it, for tool tests. */
import { cp, mkdtemp, rm } from "node:fs/promises";
import { existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { FolderVault } from "../../../src/node/folder-vault/folder-vault";
import { DEFAULT_TOOL_SETTINGS, type ToolContext, type ToolDefinition, type ToolResult, type ToolPreview } from "../../../src/core/protocol/tool";
import type { ConfirmRequest, UserPort } from "../../../src/core/ports/user";
import { createToolCatalog } from "../../../src/tools";

export const exampleVault = fileURLToPath(new URL("../../../examples/vault", import.meta.url));

/** Everything a tool test needs. */
export interface Harness {
  root: string;
  vault: FolderVault;
  ctx: ToolContext;
  /** Messages the tools sent the user. */
  notices: string[];
  tool(name: string): ToolDefinition;
  /** Parses args through the tool's Zod schema (as the gatekeeper would) and runs the handler. */
  call(name: string, args: Record<string, unknown>): Promise<ToolResult>;
  preview(name: string, args: Record<string, unknown>): Promise<ToolPreview>;
  cleanup(): Promise<void>;
}

export async function makeHarness(overrides: Partial<ToolContext> = {}): Promise<Harness> {
  if (!existsSync(join(exampleVault, "Home.md"))) throw new Error("examples/vault is missing; the tool tests run against a copy of it");
  const root = await mkdtemp(join(tmpdir(), "tools-vault-"));
  await cp(exampleVault, root, { recursive: true });
  const vault = new FolderVault(root, { watch: false });
  const notices: string[] = [];
  const user: UserPort = {
    confirm: (_req: ConfirmRequest) => Promise.resolve("approve"),
    notify: (m) => notices.push(m),
  };
  const ctx: ToolContext = {
    vault,
    user,
    settings: { ...DEFAULT_TOOL_SETTINGS },
    now: () => new Date(2026, 10, 23, 9, 30, 0),
    ...overrides,
  };
  const catalog = createToolCatalog();
  const tool = (name: string) => {
    const t = catalog.find((x) => x.name === name);
    if (!t) throw new Error(`no tool ${name}`);
    return t;
  };
  return {
    root,
    vault,
    ctx,
    notices,
    tool,
    call: (name, args) => {
      const t = tool(name);
      return t.handler(t.args.parse(args), ctx);
    },
    preview: (name, args) => {
      const t = tool(name);
      if (!t.preview) throw new Error(`${name} has no preview`);
      return t.preview(t.args.parse(args), ctx);
    },
    cleanup: async () => {
      vault.close();
      await rm(root, { recursive: true, force: true });
    },
  };
}
