/**
 * The evaluation harness: runs the bundled suite through the real agent in four configurations and
 * measures valid envelopes, right tool, right key args, mixed-tool hybrids and latency.
 */
import type { PromptLayout } from "../../core/agent/prompt";
import { cpSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Conversation } from "../../core/agent/conversation";
import type { AgentOptions } from "../../core/agent/options";
import type { Engine } from "../../core/ports/engine";
import type { GrammarOptions } from "../../core/grammar";
import { composeHeadless } from "../compose";
import type { ClampOptions } from "../../app/clamp-schema";
import { alignedTable, pct, RecordingEngine } from "./recording-engine";
import { measureConfigs } from "./measure-configs";
import { scoreCall } from "./score";
import type { EvalCase } from "./suite";

export interface EvalConfig {
  name: string;
  /** Generate under the envelope grammar. */
  grammar: boolean;
  /** "full": every tool offered; "routed": the router's choice. */
  selection: "full" | "routed";
  recovery: boolean;
}

export const EVAL_CONFIGS: EvalConfig[] = [
  { name: "prompt only", grammar: false, selection: "full", recovery: false },
  { name: "full-catalog grammar", grammar: true, selection: "full", recovery: false },
  { name: "router + grammar", grammar: true, selection: "routed", recovery: false },
  { name: "router + grammar + recovery", grammar: true, selection: "routed", recovery: true },
];

/** The agent options one configuration runs under. Only the first tool round is judged; later rounds would only cost time. */
export function configAgentOptions(
  config: EvalConfig,
  options: { seed?: number; temperature?: number; freeMaxTokens: number },
): Partial<AgentOptions> {
  return {
    grammar: config.grammar,
    toolSelection: config.selection,
    recovery: config.recovery,
    maxRounds: 1,
    seed: options.seed,
    temperature: options.temperature,
    // The no-grammar generation has no byte bound of its own.
    ...(config.grammar ? {} : { maxTokensCap: options.freeMaxTokens }),
  };
}

export interface ConfigMetrics {
  config: string;
  cases: number;
  /** Percent of turns whose last reply was a valid envelope (and valid UTF-8 bytes). */
  valid_json_pct: number;
  /** Percent of turns whose last reply's bytes were valid UTF-8, as the engine reports them (bytes, not U+FFFD). */
  utf8_valid_pct: number;
  right_tool_pct: number;
  right_params_pct: number;
  /** Calls whose keys belong to another tool. */
  mixed_tool_hybrids: number;
  mean_latency_ms: number;
  /** Model replies generated (recovery adds some). */
  generations: number;
}

export interface EvalRunOptions {
  engine: Engine;
  cases: EvalCase[];
  configs?: EvalConfig[];
  /** Caps the no-grammar generation (which has no byte bound). */
  freeMaxTokens: number;
  grammarOptions?: GrammarOptions;
  clamp?: ClampOptions;
  /** Embedding model for the router, if any. */
  embedModel?: string;
  seed?: number;
  temperature?: number;
  /** Where the turn's tools and memories go; default the agent's (growing: in the user message). */
  promptLayout?: PromptLayout;
  /** Progress lines. */
  log?: (line: string) => void;
}

const exampleVault = fileURLToPath(new URL("../../../examples/vault", import.meta.url));

export async function runEval(options: EvalRunOptions): Promise<ConfigMetrics[]> {
  const vaultDir = mkdtempSync(join(tmpdir(), "vault-eval-"));
  cpSync(exampleVault, vaultDir, { recursive: true });
  const engine = new RecordingEngine(options.engine);
  try {
    return await measureConfigs({
      engine,
      configs: options.configs ?? EVAL_CONFIGS,
      cases: options.cases,
      criteria: ["valid", "utf8Valid", "rightTool", "rightArgs", "hybrid"],
      log: options.log,
      prepare: async (config) => {
        const headless = await composeHeadless({
          vault: vaultDir,
          engine,
          embedModel: options.embedModel,
          allowWrites: false,
          now: () => new Date("2026-11-22T10:00:00"),
          grammarOptions: options.grammarOptions,
          clamp: options.clamp,
          catalog: { semantic: !!options.embedModel, network: false },
          agentOptions: { ...configAgentOptions(config, options), ...(options.promptLayout ? { promptLayout: options.promptLayout } : {}) },
        });
        return {
          judge: async (testCase, clock) => {
            headless.agent.conversation = new Conversation();
            await clock.time(() => headless.agent.runTurn(testCase.query));
            const parsed = engine.envelopes().at(-1);
            const score = parsed?.ok ? scoreCall(testCase, parsed.envelope.tool_calls[0], headless.registry) : { rightTool: false, rightArgs: false, hybrid: false };
            return { valid: !!parsed?.ok, utf8Valid: engine.utf8.at(-1) ?? true, ...score };
          },
          metrics: (counts, n, clock): ConfigMetrics => ({
            config: config.name,
            cases: n,
            valid_json_pct: pct(counts.valid, n),
            utf8_valid_pct: pct(counts.utf8Valid, n),
            right_tool_pct: pct(counts.rightTool, n),
            right_params_pct: pct(counts.rightArgs, n),
            mixed_tool_hybrids: counts.hybrid,
            mean_latency_ms: clock.meanMs(n),
            generations: clock.generations,
          }),
        };
      },
    });
  } finally {
    rmSync(vaultDir, { recursive: true, force: true });
  }
}

/** The metrics as an aligned text table. */
export function formatTable(rows: ConfigMetrics[]): string {
  const head = ["configuration", "valid JSON %", "UTF-8 valid %", "right tool %", "right params %", "hybrids", "mean ms"];
  const body = rows.map((r) => [r.config, String(r.valid_json_pct), String(r.utf8_valid_pct), String(r.right_tool_pct), String(r.right_params_pct), String(r.mixed_tool_hybrids), String(r.mean_latency_ms)]);
  return alignedTable(head, body);
}
