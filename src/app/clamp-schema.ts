/**
 * Tightens a JSON Schema's size bounds (string maxLength, array maxItems) to small caps. A grammar compiled
 * from the clamped schema accepts a subset of what the real schema allows, so every envelope stays valid, while
 * its byte bound becomes small: what lets a random-weight model finish every envelope within a few hundred tokens.
 */
import type { GrammarTool, JsonSchema } from "../tools/registry";

export interface ClampOptions {
  /** Longest string any arg may be. */
  maxString: number;
  /** Most items any array arg may have. */
  maxItems: number;
}

function clamp(node: unknown, o: ClampOptions): unknown {
  if (Array.isArray(node)) return node.map((n) => clamp(n, o));
  if (!node || typeof node !== "object") return node;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(node as Record<string, unknown>)) out[k] = k === "enum" || k === "const" ? v : clamp(v, o);
  const types = Array.isArray(out.type) ? out.type : [out.type];
  if (types.includes("string") && out.enum === undefined && out.const === undefined && out.format === undefined && out.pattern === undefined) {
    const min = typeof out.minLength === "number" ? out.minLength : 0;
    out.maxLength = Math.max(min, Math.min(typeof out.maxLength === "number" ? out.maxLength : Infinity, o.maxString));
  }
  if (types.includes("array")) {
    const min = typeof out.minItems === "number" ? out.minItems : 0;
    out.maxItems = Math.max(min, Math.min(typeof out.maxItems === "number" ? out.maxItems : Infinity, o.maxItems));
  }
  return out;
}

export function clampSchema(schema: JsonSchema, options: ClampOptions): JsonSchema {
  return clamp(schema, options) as JsonSchema;
}

export function clampTools(tools: GrammarTool[], options: ClampOptions): GrammarTool[] {
  return tools.map((t) => ({ ...t, schema: clampSchema(t.schema, options) }));
}
