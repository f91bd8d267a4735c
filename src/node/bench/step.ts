/**
 * `bench step`: the agent's per-call overhead from a complete envelope text to the handler being entered —
 * envelope parse, alias repair, ajv validation, zod defaults, path policy, effect policy, dispatch.
 * Runs on the real catalog's `vault:read` definition (its handler replaced by a stopwatch).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseEnvelope } from "../../core/agent/envelope-parse";
import { Gatekeeper } from "../../core/gatekeeper/gatekeeper";
import { DEFAULT_TOOL_SETTINGS, type ToolContext, type ToolDefinition } from "../../core/protocol/tool";
import { createToolCatalog } from "../../tools/index";
import { ToolRegistry } from "../../tools/registry";
import { cliUser } from "../compose";
import { FolderVault } from "../folder-vault/folder-vault";

function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

/** This benchmark's line in `bench --help`. */
export const usage =
  "step [--iterations N] [--json]   per-call overhead from a complete envelope to the tool handler being entered";

export async function run(argv: string[]): Promise<Record<string, unknown>> {
  const iterations = Number(argv[argv.indexOf("--iterations") + 1]) || 5000;
  let entered = 0;
  const catalog: ToolDefinition[] = createToolCatalog().map((t) =>
    t.name === "vault:read"
      ? {
          ...t,
          handler: async () => {
            entered = performance.now();
            return { content: "" };
          },
        }
      : t,
  );
  const registry = new ToolRegistry(catalog);
  const user = cliUser(false, () => {});
  const vaultDir = mkdtempSync(join(tmpdir(), "bench-step-"));
  const ctx: ToolContext = { vault: new FolderVault(vaultDir, { watch: false }), user, settings: DEFAULT_TOOL_SETTINGS, now: () => new Date() };
  const gatekeeper = new Gatekeeper(registry, ctx);
  const offered = new Set(["vault:read", "vault:search", "vault:list"]);
  const text = JSON.stringify({
    thought: "The user wants the project note; read it.",
    status: "Task",
    message_to_user: null,
    tool_calls: [{ name: "vault:read", args: { file: "Projects\\Alpha.md", heading: "Goals" } }],
  });
  const samples: number[] = [];
  try {
    for (let i = 0; i < iterations; i++) {
      const start = performance.now();
      const parsed = parseEnvelope(text);
      if (!parsed.ok) throw new Error(parsed.reason);
      const checked = gatekeeper.check(parsed.envelope.tool_calls[0], { state: "Task", offered });
      await gatekeeper.authorize(checked, ctx, { writes: "refuse", writesOffHint: "", alwaysAllowed: new Set() });
      await checked.tool.definition.handler(checked.args, ctx);
      samples.push(entered - start);
    }
  } finally {
    rmSync(vaultDir, { recursive: true, force: true });
  }
  // The first runs include JIT warm-up; the median is what a turn pays.
  return { iterations, step_overhead_ms_median: Math.round(median(samples) * 10000) / 10000, step_overhead_ms_p95: Math.round([...samples].sort((a, b) => a - b)[Math.floor(samples.length * 0.95)] * 10000) / 10000 };
}
