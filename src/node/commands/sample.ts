/**
 * `sample --schema F.json [--n N] [--model F] [--seed S] [--temperature T] [--json]`: N values generated
 * under the schema's grammar through the engine host (the real path, with its token bans), one JSON
 * value per line; each is checked with ajv. Without --model, the generated test model, with small caps
 * (and the schema's sizes clamped) so random weights finish every value.
 */
import { existsSync, readFileSync } from "node:fs";
import { resolve } from "node:path";
import { GrammarRefusal, type JsonSchema } from "../../core/grammar";
import { createNodeEngine } from "../../engine/client/node-launcher";
import { UsageError, parseArgs } from "../cli-types";
import { defaultTestModelPath } from "../compose";
import { sampleValues, samplingGrammar } from "../sample-values";
import { schemaValidator } from "../schema-validator";

export const usage =
  "sample --schema F.json [--n N] [--model F] [--seed S] [--temperature T] [--json]   N values (default 5) generated under the schema's grammar through the engine host, one JSON value per line; --json ends with a summary object";

function wholeNumber(value: string | boolean | undefined, name: string, fallback: number, min: number): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (typeof value !== "string" || !/^\d+$/.test(value) || !Number.isSafeInteger(n) || n < min) throw new UsageError(`--${name} must be a whole number of at least ${min}, got "${String(value)}".`);
  return n;
}

export async function run(argv: string[]): Promise<number> {
  const { options, positionals } = parseArgs(argv, { strings: ["schema", "n", "model", "seed", "temperature"], booleans: ["json"] });
  if (positionals.length) throw new UsageError(`Unexpected argument "${positionals[0]}".`);
  if (typeof options.schema !== "string") throw new UsageError("Give the schema file with --schema F.json.");
  const n = wholeNumber(options.n, "n", 5, 1);
  const seed = wholeNumber(options.seed, "seed", 1, 0);
  const temperature = options.temperature === undefined ? 1 : Number(options.temperature);
  if (!Number.isFinite(temperature) || temperature < 0 || temperature > 2) throw new UsageError(`--temperature must be a number from 0 to 2, got "${String(options.temperature)}".`);

  let schema: JsonSchema;
  try {
    schema = JSON.parse(readFileSync(options.schema, "utf8")) as JsonSchema;
  } catch (err) {
    process.stderr.write(`Could not read ${options.schema} as JSON: ${err instanceof Error ? err.message : String(err)}\n`);
    return 1;
  }
  if (typeof schema !== "boolean" && (typeof schema !== "object" || schema === null || Array.isArray(schema))) {
    process.stderr.write(`${options.schema} must hold a JSON Schema (an object or a boolean).\n`);
    return 1;
  }
  const testModel = typeof options.model !== "string";
  const modelPath = testModel ? defaultTestModelPath() : resolve(options.model as string);
  if (!existsSync(modelPath)) {
    process.stderr.write(`The model file ${modelPath} does not exist; pass a GGUF file with --model.\n`);
    return 1;
  }
  let validate: (value: unknown) => boolean;
  try {
    validate = schemaValidator(schema);
  } catch (err) {
    process.stderr.write(`ajv cannot compile ${options.schema}: ${err instanceof Error ? err.message : String(err)}\n`);
    return 1;
  }
  let compiled;
  try {
    compiled = samplingGrammar(schema, testModel);
  } catch (err) {
    if (!(err instanceof GrammarRefusal)) throw err;
    process.stderr.write(`${err.message}\n`);
    return 1;
  }
  for (const r of compiled.relaxations) process.stderr.write(`relaxed: ${r.pointer || "/"} (${r.keyword}): ${r.reason}\n`);
  const engine = createNodeEngine({ model: { path: modelPath, contextSize: 4096, threads: testModel ? 1 : undefined } });
  const started = performance.now();
  let values;
  try {
    values = await sampleValues(engine, schema, compiled, validate, { n, seed, temperature });
  } finally {
    await engine.shutdown();
  }
  for (const v of values) process.stdout.write(`${v.text}\n`);
  const valid = values.filter((v) => v.valid).length;
  const unfinished = values.filter((v) => v.stopReason !== "eos").length;
  const seconds = (performance.now() - started) / 1000;
  const summary = {
    schema: options.schema,
    model: modelPath,
    n,
    valid,
    invalid: n - valid,
    unfinished,
    exact: compiled.relaxations.length === 0,
    relaxations: compiled.relaxations,
    seconds: Math.round(seconds * 100) / 100,
  };
  if (options.json) process.stdout.write(JSON.stringify(summary) + "\n");
  else process.stderr.write(`${valid} of ${n} values valid by ajv${compiled.relaxations.length ? ` (the grammar is relaxed in ${compiled.relaxations.length} places)` : ""}, in ${summary.seconds} s.\n`);
  return 0;
}
