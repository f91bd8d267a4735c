/**
 * `bench sampling [--family F[,F…]|all] [--model F.gguf] [--runs N]`: ms per token — free, under our
 * envelope grammar, and under node-llama-cpp's `createGrammarForJsonSchema` for the same envelope shape
 * — on the 32,000-token test model (default), on family test models with real vocabularies, or on a
 * model file; every model in one run.
 */
import { z } from "zod";
import { compileEnvelopeGrammar, type GrammarTool } from "../../core/grammar";
import { ENVELOPE_STATUS_VALUES } from "../../core/grammar/envelope";
import { runSamplingBench } from "../../host/bench/sampling-bench";
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { UsageError } from "../cli-types";
import { FAMILY_IDS, familySpec } from "../test-model/families";
import { cachedFamilyModel, cachedTestModel } from "../test-model/model-cache";
import { syntheticCatalog } from "./synthetic-catalog";

/** Tools offered in the measured turn: a typical router pick (five tools, three families). */
const OFFERED = ["vault:read", "vault:list", "search:text", "task:add", "daily:open"];
const LIMITS = { maxThoughtChars: 200, maxMessageChars: 200, maxToolCalls: 2 };

/** Keywords node-llama-cpp's JSON-schema grammar understands; the rest are dropped for its side. */
const NLC_KEYS = new Set(["type", "enum", "const", "properties", "required", "additionalProperties", "items", "prefixItems", "minItems", "maxItems", "minLength", "maxLength"]);

function toNlcSchema(schema: unknown): unknown {
  if (typeof schema !== "object" || schema === null) return schema;
  const s = schema as Record<string, unknown>;
  if (Array.isArray(s.anyOf) || Array.isArray(s.oneOf)) return { oneOf: ((s.anyOf ?? s.oneOf) as unknown[]).map(toNlcSchema) };
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(s)) {
    if (!NLC_KEYS.has(k) && !(k === "format" && ["date", "time", "date-time"].includes(String(v)))) continue;
    if (k === "properties") out[k] = Object.fromEntries(Object.entries(v as Record<string, unknown>).map(([pk, pv]) => [pk, toNlcSchema(pv)]));
    else if (k === "items" || (k === "additionalProperties" && typeof v === "object")) out[k] = toNlcSchema(v);
    else if (k === "prefixItems") out[k] = (v as unknown[]).map(toNlcSchema);
    else out[k] = v;
  }
  if (out.format !== undefined) {
    delete out.minLength;
    delete out.maxLength;
  }
  return out;
}

/** The envelope as a JSON schema for node-llama-cpp: same keys, order, statuses and per-tool args. */
export function envelopeJsonSchema(tools: GrammarTool[]): Record<string, unknown> {
  return {
    type: "object",
    properties: {
      thought: { type: "string", maxLength: LIMITS.maxThoughtChars },
      status: { enum: [...ENVELOPE_STATUS_VALUES] },
      message_to_user: { oneOf: [{ type: "string", maxLength: LIMITS.maxMessageChars }, { type: "null" }] },
      tool_calls: {
        type: "array",
        maxItems: LIMITS.maxToolCalls,
        items: {
          oneOf: tools.map((t) => ({
            type: "object",
            properties: { name: { const: t.name }, args: toNlcSchema(t.schema) },
            required: ["name", "args"],
            additionalProperties: false,
          })),
        },
      },
    },
    required: ["thought", "status", "message_to_user", "tool_calls"],
    additionalProperties: false,
  };
}

/**
 * node-llama-cpp's JSON-schema grammar writes every declared property (it has no optional keys), so
 * for the same envelope shape the measured tools' args declare every property required on both sides.
 */
function allRequired(schema: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...schema };
  if (out.properties && typeof out.properties === "object") {
    const props = Object.fromEntries(Object.entries(out.properties as Record<string, unknown>).map(([k, v]) => [k, typeof v === "object" && v !== null ? allRequired(v as Record<string, unknown>) : v]));
    out.properties = props;
    out.required = Object.keys(props);
  }
  if (out.items && typeof out.items === "object") out.items = allRequired(out.items as Record<string, unknown>);
  return out;
}

/** The models to measure, by label: `--family` and `--model` may be combined; neither means the 32k test model. */
function modelsFrom(argv: string[], log: (line: string) => void): Array<[string, () => string]> {
  const valueOf = (flag: string): string | undefined => {
    const i = argv.indexOf(flag);
    if (i < 0) return undefined;
    const v = argv[i + 1];
    if (v === undefined || v.startsWith("--")) throw new UsageError(`${flag} needs a value.`);
    return v;
  };
  const out: Array<[string, () => string]> = [];
  const families = valueOf("--family");
  if (families !== undefined) {
    const ids = families === "all" ? [...FAMILY_IDS] : families.split(",").map((f) => f.trim());
    for (const id of ids) {
      const spec = familySpec(id);
      if (!spec) throw new UsageError(`Unknown family "${id}"; choose from ${FAMILY_IDS.join(", ")}, or all.`);
      out.push([spec.id, () => {
        log(`bench sampling: preparing the ${spec.label} test model`);
        return cachedFamilyModel(spec.id);
      }]);
    }
  }
  const model = valueOf("--model");
  if (model !== undefined) {
    const path = resolve(model);
    if (!existsSync(path)) throw new UsageError(`The model file ${path} does not exist.`);
    out.push([path, () => path]);
  }
  if (out.length === 0) out.push(["test-32k", () => {
    log("bench sampling: preparing the 32,000-token test model");
    return cachedTestModel({ vocab: 32000 });
  }]);
  return out;
}

/** This benchmark's line in `bench --help`. */
export const usage =
  "sampling [--family F[,F…]|all] [--model F.gguf] [--runs N] [--json]   ms per token free, under our envelope grammar and under node-llama-cpp's JSON-schema grammar, on the 32k test model, family test models or a model file (--runs: envelopes per model, default 16)";

export async function run(argv: string[]): Promise<Record<string, unknown>> {
  const runs = Number(argv[argv.indexOf("--runs") + 1]) || 16;
  const tools = syntheticCatalog()
    .filter((t) => OFFERED.includes(t.name))
    .map((t) => ({ name: t.name, schema: allRequired(z.toJSONSchema(t.args) as Record<string, unknown>) }));
  const compiled = compileEnvelopeGrammar(tools, LIMITS);
  const log = (line: string) => process.stderr.write(`${line}\n`);
  const models = modelsFrom(argv, log);
  const common = { offered: OFFERED, runs, max_thought_chars: LIMITS.maxThoughtChars, max_tool_calls: LIMITS.maxToolCalls };
  const results: Record<string, unknown> = {};
  for (const [label, path] of models) {
    log(`bench sampling: ${label}`);
    results[label] = await runSamplingBench({ modelPath: path(), gbnf: compiled.gbnf, nlcSchema: envelopeJsonSchema(tools), runs, log });
  }
  // One model keeps the flat shape earlier runs (and docs/measured.md) use; several are keyed by label.
  if (models.length === 1) return { model: models[0][0], ...(results[models[0][0]] as Record<string, unknown>), ...common };
  return { models: results, ...common };
}
