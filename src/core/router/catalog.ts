/**
 * Foreign tool catalogs: tools described as `[{name, description, parameters}]` (BFCL, OpenAI functions, also
 * wrapped as `{type: "function", function: {...}}`) or as MCP lists them (`{tools: [{name, description,
 * inputSchema, annotations}]}`), turned into tools the router can index. Parameter names, descriptions and enum
 * values become the card's parameter text, since such descriptions are often one short line.
 */
import type { RoutableTool } from "./tool-card";

/** A catalog that cannot be read; the message says what is wrong and where. */
export class CatalogError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "CatalogError";
  }
}

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json => !!v && typeof v === "object" && !Array.isArray(v);

/** Parameter text of a JSON Schema: names as words, descriptions, enum values; two levels deep. */
export function parameterText(schema: unknown, depth = 0): string {
  if (!isObject(schema) || depth > 2) return "";
  const parts: string[] = [];
  const props = isObject(schema.properties) ? schema.properties : {};
  for (const [key, prop] of Object.entries(props)) {
    parts.push(key.replace(/([a-z0-9])([A-Z])/g, "$1 $2").replace(/[_.-]+/g, " "));
    if (!isObject(prop)) continue;
    if (typeof prop.description === "string") parts.push(prop.description);
    if (Array.isArray(prop.enum)) parts.push(prop.enum.filter((v) => typeof v === "string").slice(0, 20).join(" "));
    parts.push(parameterText(prop, depth + 1));
    if (isObject(prop.items)) parts.push(parameterText(prop.items, depth + 1));
  }
  return parts.filter(Boolean).join(". ");
}

function effectOf(annotations: unknown): RoutableTool["effect"] {
  if (!isObject(annotations)) return "read";
  if (annotations.destructiveHint === true) return "destructive";
  return annotations.readOnlyHint === false ? "write" : "read";
}

/** The tools of a parsed catalog file. */
export function parseCatalog(data: unknown): RoutableTool[] {
  const list: unknown[] | null = Array.isArray(data)
    ? (data as unknown[])
    : isObject(data) && Array.isArray(data.tools)
      ? (data.tools as unknown[])
      : isObject(data) && Array.isArray(data.functions)
        ? (data.functions as unknown[])
        : null;
  if (!list) throw new CatalogError("The catalog must be a JSON array of tools [{name, description, parameters}] or an object with a \"tools\" array.");
  if (list.length === 0) throw new CatalogError("The catalog has no tools.");
  const seen = new Set<string>();
  return list.map((entry, i) => {
    const tool = isObject(entry) && entry.type === "function" && isObject(entry.function) ? entry.function : entry;
    if (!isObject(tool) || typeof tool.name !== "string" || !tool.name.trim()) {
      throw new CatalogError(`Tool ${i + 1} of the catalog has no "name" string.`);
    }
    const name = tool.name.trim();
    if (seen.has(name)) throw new CatalogError(`The catalog names two tools "${name}"; tool names must be unique.`);
    seen.add(name);
    if (tool.description !== undefined && typeof tool.description !== "string") throw new CatalogError(`Tool "${name}" has a "description" that is not a string.`);
    const schema = tool.parameters ?? tool.inputSchema ?? tool.input_schema;
    if (schema !== undefined && !isObject(schema)) throw new CatalogError(`Tool "${name}" has parameters that are not a JSON Schema object.`);
    return {
      name,
      family: name.split(/[.:/]|__/)[0] || name,
      effect: effectOf(tool.annotations),
      description: typeof tool.description === "string" ? tool.description : "",
      routingHints: [],
      parameterText: parameterText(schema),
    };
  });
}

/** Parses catalog text (JSON); a syntax error becomes one sentence. */
export function parseCatalogText(text: string): RoutableTool[] {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (err) {
    throw new CatalogError(`The catalog is not valid JSON (${(err as Error).message}).`);
  }
  return parseCatalog(data);
}
