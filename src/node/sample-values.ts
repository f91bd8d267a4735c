/**
 * Values generated under a schema's grammar through an engine (the host, with its token bans): what
 * `sample` prints and what the sampling test checks with ajv.
 */
import { compileSchemaGrammar, type CompiledGrammar, type GrammarOptions, type JsonSchema } from "../core/grammar";
import type { Engine } from "../core/ports/engine";
import { TEST_MODEL_CLAMP, TEST_MODEL_GRAMMAR } from "./compose";
import { clampSchema } from "../app/clamp-schema";

/** Schema text shown to the model is cut here (the test model's context is small). */
const MAX_SCHEMA_PROMPT_CHARS = 1500;
/** Tokens per value when the grammar's byte bound is larger or unbounded. */
const MAX_TOKENS = 2048;

/**
 * The grammar values are sampled under. On the test model, small caps and the schema's sizes clamped,
 * so random weights finish every value; clamping only narrows the grammar, so values stay valid.
 * @throws GrammarRefusal
 */
export function samplingGrammar(schema: JsonSchema, testModel: boolean): CompiledGrammar {
  const options: GrammarOptions = testModel ? TEST_MODEL_GRAMMAR : {};
  return compileSchemaGrammar(testModel && typeof schema === "object" ? clampSchema(schema, TEST_MODEL_CLAMP) : schema, options);
}

export interface SampleOptions {
  /** How many values. */
  n: number;
  /** Seed of the first value; value i uses seed + i. */
  seed: number;
  temperature: number;
}

/** One generated value: its text, and whether ajv accepts it (false when it is not JSON). */
export interface SampledValue {
  text: string;
  valid: boolean;
  stopReason: string;
}

export async function sampleValues(engine: Engine, schema: JsonSchema, grammar: CompiledGrammar, validate: (value: unknown) => boolean, o: SampleOptions): Promise<SampledValue[]> {
  const schemaText = JSON.stringify(schema);
  const system = `Reply with one JSON value that satisfies this JSON Schema:\n${schemaText.length > MAX_SCHEMA_PROMPT_CHARS ? `${schemaText.slice(0, MAX_SCHEMA_PROMPT_CHARS)}…` : schemaText}`;
  const maxTokens = Number.isFinite(grammar.maxBytes) ? Math.min(grammar.maxBytes, MAX_TOKENS) : MAX_TOKENS;
  const out: SampledValue[] = [];
  for (let i = 0; i < o.n; i++) {
    const result = await engine.generate({
      messages: [
        { role: "system", content: system },
        { role: "user", content: `Value ${i + 1} of ${o.n}.` },
      ],
      grammar: grammar.gbnf,
      maxTokens,
      temperature: o.temperature,
      seed: o.seed + i,
    });
    let valid = false;
    try {
      valid = validate(JSON.parse(result.text));
    } catch {
      valid = false;
    }
    out.push({ text: result.text, valid, stopReason: result.stopReason });
  }
  return out;
}
