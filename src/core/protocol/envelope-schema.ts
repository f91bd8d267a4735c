/**
 * The envelope as a JSON Schema, for engines that constrain replies through a server's own JSON Schema
 * converter (OpenAI-compatible `response_format`) instead of our GBNF. It states what the envelope grammar
 * states: exactly the four keys in order, `status` from its enum, each tool call's `name` selecting that
 * tool's args schema, and the same size caps, so a server that honours it yields envelopes the agent accepts.
 */
import { ENVELOPE_STATUSES } from "./envelope";

/** A JSON Schema object (or a boolean schema). */
export type EnvelopeJsonSchema = Record<string, unknown>;

/** One offered tool: its name and its args schema (as `z.toJSONSchema` gives it). */
export interface SchemaTool {
  name: string;
  schema: Record<string, unknown> | boolean;
}

/** The same caps the envelope grammar applies (see src/core/grammar/types.ts for their defaults). */
export interface EnvelopeSchemaCaps {
  maxThoughtChars: number;
  maxMessageChars: number;
  maxToolCalls: number;
  /** Cap on strings the args schemas leave unbounded. */
  maxStringChars: number;
  /** Cap on arrays the args schemas leave unbounded. */
  maxItems: number;
  /** "static": args are any JSON object (the looser recovery form). */
  mode: "dynamic" | "static";
}

/**
 * llama.cpp's converter writes a length bound as a GBNF repetition `x{0,N}`, and its grammar parser refuses N of
 * 2000 or more ("failed to parse grammar"): bounds are kept below that, a narrowing the gatekeeper never notices.
 */
const MAX_REPEAT = 1999;

/** Draft annotations some servers' converters refuse inside a nested schema. */
const DROPPED_KEYS = new Set(["$schema", "$id"]);

/** Bounds every unbounded string and array, like the grammar's default caps, and drops draft annotations. */
function capped(node: unknown, caps: EnvelopeSchemaCaps): unknown {
  if (Array.isArray(node)) return node.map((n) => capped(n, caps));
  if (!node || typeof node !== "object") return node;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(node as Record<string, unknown>)) {
    if (DROPPED_KEYS.has(k)) continue;
    out[k] = k === "enum" || k === "const" || k === "default" || k === "examples" ? v : capped(v, caps);
  }
  const types = Array.isArray(out.type) ? out.type : [out.type];
  if (types.includes("string") && out.enum === undefined && out.const === undefined) out.maxLength = bounded(out.maxLength, caps.maxStringChars, out.minLength);
  if (types.includes("array")) out.maxItems = bounded(out.maxItems, caps.maxItems, out.minItems);
  return out;
}

/** The schema's own bound, else the cap; below MAX_REPEAT either way (never below the minimum). */
function bounded(own: unknown, cap: number, min: unknown): number {
  const limit = Math.min(typeof own === "number" ? own : cap, MAX_REPEAT);
  return typeof min === "number" ? Math.max(limit, min) : limit;
}

function argsSchema(tool: SchemaTool, caps: EnvelopeSchemaCaps): unknown {
  if (caps.mode === "static" || tool.schema === true) return { type: "object" };
  if (tool.schema === false) return false;
  return capped(tool.schema, caps);
}

/** The envelope schema offering exactly these tools ([] = chat only: `tool_calls` must be empty). */
export function envelopeJsonSchema(tools: readonly SchemaTool[], caps: EnvelopeSchemaCaps): EnvelopeJsonSchema {
  const calls =
    tools.length === 0 || caps.maxToolCalls <= 0
      ? // `items` too: llama.cpp's converter ignores maxItems on an array schema without it.
        { type: "array", maxItems: 0, items: { type: "object" } }
      : {
          type: "array",
          maxItems: Math.min(caps.maxToolCalls, MAX_REPEAT),
          items: {
            anyOf: [...tools]
              .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
              .map((tool) => ({
                type: "object",
                properties: { name: { const: tool.name }, args: argsSchema(tool, caps) },
                required: ["name", "args"],
                additionalProperties: false,
              })),
          },
        };
  return {
    type: "object",
    properties: {
      thought: { type: "string", maxLength: Math.min(caps.maxThoughtChars, MAX_REPEAT) },
      status: { type: "string", enum: [...ENVELOPE_STATUSES] },
      message_to_user: { anyOf: [{ type: "string", maxLength: Math.min(caps.maxMessageChars, MAX_REPEAT) }, { type: "null" }] },
      tool_calls: calls,
    },
    required: ["thought", "status", "message_to_user", "tool_calls"],
    additionalProperties: false,
  };
}
