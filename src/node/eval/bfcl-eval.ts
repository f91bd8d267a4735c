/**
 * `eval --suite bfcl`: BFCL's requests through the real agent, each with its own function catalog, in the four
 * configurations of the tool-use eval (prompt only, full-catalog grammar, router + grammar, router + grammar +
 * recovery). Measured per configuration: valid envelopes, right function, right arguments (BFCL's acceptable
 * values). Functions become tools `bfcl:<name>` whose args are the BFCL parameter schema; they are never run: the
 * first tool round is what is judged.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { z } from "zod";
import type { GrammarOptions } from "../../core/grammar";
import type { Engine } from "../../core/ports/engine";
import type { ToolDefinition } from "../../core/protocol/tool";
import { parameterText } from "../../core/router/catalog";
import type { JsonSchema } from "../../tools/registry";
import { cliUser } from "../compose";
import { FolderVault } from "../folder-vault/folder-vault";
import { argsAcceptable } from "./bfcl-check";
import type { BfclItem } from "./bfcl";
import type { ClampOptions } from "../../app/clamp-schema";
import { assembleAgent } from "../../app/assemble-agent";
import { alignedTable, pct, RecordingEngine } from "./recording-engine";
import { measureConfigs } from "./measure-configs";
import { configAgentOptions, EVAL_CONFIGS, type EvalConfig } from "./run-eval";

/** The tool name a BFCL function gets ("math.hypot" → "bfcl:math_hypot"); BFCL's names are kept in a map. */
export function bfclToolName(name: string): string {
  const verb = name.toLowerCase().replace(/[^a-z0-9_-]+/g, "_");
  return `bfcl:${/^[a-z]/.test(verb) ? verb : `f${verb}`}`;
}

type BfclTool = ToolDefinition & { parameterText: string; inputSchema: JsonSchema };

/** An item's functions as tools (args from the parameter schema), and their BFCL names by tool name. */
export function bfclTools(item: BfclItem): { tools: BfclTool[]; original: Map<string, string> } {
  const original = new Map<string, string>();
  const tools = item.functions.map((f) => {
    let name = bfclToolName(f.name);
    for (let n = 2; original.has(name); n++) name = `${bfclToolName(f.name)}-${n}`;
    original.set(name, f.name);
    const args = z.fromJSONSchema(f.parameters);
    if (!(args instanceof z.ZodObject)) throw new Error(`BFCL function ${f.name} (${item.id}) does not take an object of arguments.`);
    const tool: BfclTool = {
      name,
      family: "bfcl",
      description: f.description,
      routingHints: [],
      args,
      // The exact schema, for a registry that compiles given schemas rather than the Zod round trip.
      inputSchema: f.parameters,
      parameterText: parameterText(f.parameters),
      effect: "read",
      handler: async () => ({ content: "Recorded; the benchmark judges the call, not its result." }),
    };
    return tool;
  });
  return { tools, original };
}

export interface BfclConfigMetrics {
  config: string;
  items: number;
  valid_json_pct: number;
  right_function_pct: number;
  right_args_pct: number;
  /** Items where the router offered no tools (chat only). */
  chat_only: number;
  mean_latency_ms: number;
  generations: number;
}

export interface BfclEvalOptions {
  engine: Engine;
  items: BfclItem[];
  configs?: EvalConfig[];
  freeMaxTokens: number;
  grammarOptions?: GrammarOptions;
  clamp?: ClampOptions;
  seed?: number;
  temperature?: number;
  log?: (line: string) => void;
}

export async function runBfclEval(options: BfclEvalOptions): Promise<BfclConfigMetrics[]> {
  const vaultDir = mkdtempSync(join(tmpdir(), "vault-bfcl-"));
  const vault = new FolderVault(vaultDir, { watch: false });
  const engine = new RecordingEngine(options.engine);
  const user = cliUser(false, () => {});
  // Each request's functions are its own catalog, assembled as the plugin and the CLI assemble theirs.
  const prepared = options.items.map((item) => {
    const { tools, original } = bfclTools(item);
    const assembled = assembleAgent(
      { engine, vault, user, now: () => new Date("2026-11-22T10:00:00") },
      { catalog: { semantic: false, network: false, tools }, grammar: options.grammarOptions ?? {}, clamp: options.clamp, agent: { writes: "refuse" } },
    );
    return { item, tools, original, assembled };
  });
  try {
    return await measureConfigs({
      engine,
      configs: options.configs ?? EVAL_CONFIGS,
      cases: prepared,
      criteria: ["valid", "rightFunction", "rightArgs", "chatOnly"],
      log: options.log,
      prepare: async (config) => ({
        judge: async (p, clock) => {
          const agent = p.assembled.withOptions({
            ...configAgentOptions(config, options),
            writes: "refuse",
            ...(p.item.system ? { instructions: p.item.system } : {}),
          });
          const routed: { chatOnly: boolean }[] = [];
          await clock.time(() => agent.runTurn(p.item.question, { onEvent: (e) => void (e.type === "routed" && routed.push({ chatOnly: e.chatOnly })) }));
          // The first envelope with a call is judged (recovery may have corrected it); validity is the last reply's.
          const parsed = engine.envelopes();
          const calls = parsed.flatMap((r) => (r.ok ? r.envelope.tool_calls : []));
          const call = config.recovery ? calls.at(-1) : calls[0];
          const expected = p.item.answer[0];
          const rightFunction = call !== undefined && p.original.get(call.name) === expected.name;
          return {
            valid: !!parsed.at(-1)?.ok,
            rightFunction,
            rightArgs: rightFunction && argsAcceptable(call.args ?? {}, expected.acceptable),
            chatOnly: !!routed[0]?.chatOnly,
          };
        },
        metrics: (counts, n, clock): BfclConfigMetrics => ({
          config: config.name,
          items: n,
          valid_json_pct: pct(counts.valid, n),
          right_function_pct: pct(counts.rightFunction, n),
          right_args_pct: pct(counts.rightArgs, n),
          chat_only: counts.chatOnly,
          mean_latency_ms: clock.meanMs(n),
          generations: clock.generations,
        }),
      }),
    });
  } finally {
    for (const p of prepared) p.assembled.close();
    rmSync(vaultDir, { recursive: true, force: true });
  }
}

/** The metrics as an aligned text table. */
export function formatBfclTable(rows: BfclConfigMetrics[]): string {
  const head = ["configuration", "valid JSON %", "right function %", "right args %", "chat only", "mean ms"];
  const body = rows.map((r) => [r.config, String(r.valid_json_pct), String(r.right_function_pct), String(r.right_args_pct), String(r.chat_only), String(r.mean_latency_ms)]);
  return alignedTable(head, body);
}
