/**
 * The evaluation harness: runs the bundled suite through the real agent in four configurations and
 * measures valid envelopes, right tool, right key args, mixed-tool hybrids and latency.
 */
import { cpSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Conversation } from "../../core/agent/conversation";
import { parseEnvelope } from "../../core/agent/envelope-parse";
import type { Engine, GenerateRequest, GenerateResult } from "../../core/ports/engine";
import type { GrammarOptions } from "../../core/grammar";
import { composeHeadless } from "../compose";
import type { ClampOptions } from "./clamp-schema";
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
  /** Progress lines. */
  log?: (line: string) => void;
}

/** Records each reply's text so validity is judged on what the model actually produced. */
class RecordingEngine implements Engine {
  texts: string[] = [];
  /** Per reply: whether its bytes were valid UTF-8 (false only when the engine says so). */
  utf8: boolean[] = [];
  constructor(private readonly inner: Engine) {}
  async generate(request: GenerateRequest): Promise<GenerateResult> {
    const result = await this.inner.generate(request);
    this.texts.push(result.text);
    this.utf8.push(result.utf8Valid !== false);
    return result;
  }
  embed(texts: string[], options?: { signal?: AbortSignal }) {
    return this.inner.embed(texts, options);
  }
  countTokens(text: string) {
    return this.inner.countTokens(text);
  }
  modelInfo() {
    return this.inner.modelInfo();
  }
}

const exampleVault = fileURLToPath(new URL("../../../examples/vault", import.meta.url));
const pct = (n: number, d: number): number => (d ? Math.round((1000 * n) / d) / 10 : 0);

export async function runEval(options: EvalRunOptions): Promise<ConfigMetrics[]> {
  const vaultDir = mkdtempSync(join(tmpdir(), "vault-eval-"));
  cpSync(exampleVault, vaultDir, { recursive: true });
  const engine = new RecordingEngine(options.engine);
  const out: ConfigMetrics[] = [];
  try {
    for (const config of options.configs ?? EVAL_CONFIGS) {
      const headless = await composeHeadless({
        vault: vaultDir,
        engine,
        embedModel: options.embedModel,
        allowWrites: false,
        now: () => new Date("2026-11-22T10:00:00"),
        grammarOptions: options.grammarOptions,
        clamp: options.clamp,
        catalog: { semantic: !!options.embedModel, network: false },
        agentOptions: {
          grammar: config.grammar,
          toolSelection: config.selection,
          recovery: config.recovery,
          // Only the first tool round is judged; later rounds would only cost time.
          maxRounds: 1,
          seed: options.seed,
          temperature: options.temperature,
          ...(config.grammar ? {} : { maxTokensCap: options.freeMaxTokens }),
        },
      });
      let valid = 0;
      let utf8Valid = 0;
      let rightTool = 0;
      let rightArgs = 0;
      let hybrids = 0;
      let totalMs = 0;
      let generations = 0;
      for (const [i, testCase] of options.cases.entries()) {
        headless.agent.conversation = new Conversation();
        engine.texts = [];
        engine.utf8 = [];
        const started = performance.now();
        await headless.agent.runTurn(testCase.query);
        totalMs += performance.now() - started;
        generations += engine.texts.length;
        const last = engine.texts.at(-1) ?? "";
        const bytesValid = engine.utf8.at(-1) ?? true;
        if (bytesValid) utf8Valid++;
        // JSON.parse accepts U+FFFD decoded from broken bytes: an envelope counts only when its bytes were valid.
        const parsed = bytesValid ? parseEnvelope(last) : ({ ok: false } as const);
        if (parsed.ok) valid++;
        const score = parsed.ok ? scoreCall(testCase, parsed.envelope.tool_calls[0], headless.registry) : { rightTool: false, rightArgs: false, hybrid: false };
        if (score.rightTool) rightTool++;
        if (score.rightArgs) rightArgs++;
        if (score.hybrid) hybrids++;
        if ((i + 1) % 25 === 0) options.log?.(`${config.name}: ${i + 1}/${options.cases.length}`);
      }
      const n = options.cases.length;
      const metrics: ConfigMetrics = {
        config: config.name,
        cases: n,
        valid_json_pct: pct(valid, n),
        utf8_valid_pct: pct(utf8Valid, n),
        right_tool_pct: pct(rightTool, n),
        right_params_pct: pct(rightArgs, n),
        mixed_tool_hybrids: hybrids,
        mean_latency_ms: Math.round(totalMs / Math.max(1, n)),
        generations,
      };
      options.log?.(JSON.stringify(metrics));
      out.push(metrics);
    }
  } finally {
    rmSync(vaultDir, { recursive: true, force: true });
  }
  return out;
}

/** The metrics as an aligned text table. */
export function formatTable(rows: ConfigMetrics[]): string {
  const head = ["configuration", "valid JSON %", "UTF-8 valid %", "right tool %", "right params %", "hybrids", "mean ms"];
  const body = rows.map((r) => [r.config, String(r.valid_json_pct), String(r.utf8_valid_pct), String(r.right_tool_pct), String(r.right_params_pct), String(r.mixed_tool_hybrids), String(r.mean_latency_ms)]);
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((b) => b[i].length)));
  const line = (cells: string[]): string => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join("  ");
  return [line(head), line(widths.map((w) => "-".repeat(w))), ...body.map(line)].join("\n");
}
