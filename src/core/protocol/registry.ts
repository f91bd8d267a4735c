/**
 * The registry's types: what the core (agent, gatekeeper, prompt) needs of the tool catalog. The catalog is not a
 * fixed list: tools arrive and leave at run time (MCP servers start, stop, or change their tool lists), so the
 * parts built over it (subset cache, router) listen to `onChange`.
 */
import type { ToolDefinition } from "./tool";

/** A JSON Schema object (draft 2020-12 as `z.toJSONSchema` emits it, or what an MCP server sent). */
export type { JsonSchema } from "../ports/json-schema";
import type { JsonSchema } from "../ports/json-schema";

/** What the grammar compiler needs of a tool. */
export interface GrammarTool {
  name: string;
  schema: JsonSchema;
  /** Args grounded in the vault (existing paths, a heading or text of the note named); absent = none. */
  grounding?: { existingPaths: string[]; heading?: string; find?: string; kinds?: Record<string, string[]> };
}

/** One schema error as the validator reports it (ajv's ErrorObject, the fields the core reads). */
export interface SchemaError {
  /** JSON pointer of the failing value inside the args ("" for the args object). */
  instancePath: string;
  /** The schema keyword that failed, e.g. `required`. */
  keyword: string;
  /** Keyword parameters (ajv's `params`). */
  params: Record<string, unknown>;
  message?: string;
}

/** Validates one tool's args; after a failed call `errors` says why. */
export interface ArgsValidator {
  (args: unknown): boolean;
  errors?: SchemaError[] | null;
}

/** A tool after the registry's checks, with its compiled validator. */
export interface RegisteredTool {
  definition: ToolDefinition;
  /** The args' JSON Schema: the grammar and the validator are both built from exactly this object. */
  schema: JsonSchema;
  /** Top-level property names in declaration order. */
  keys: string[];
  /** Required top-level property names. */
  required: string[];
  /** Validator compiled from `schema`. */
  validate: ArgsValidator;
}

/** Which tools arrived and which left in one change of the catalog. */
export interface CatalogChange {
  added: string[];
  removed: string[];
}

/** The tool catalog as the core reads it; the registry in src/tools implements it. */
export interface ToolCatalog {
  get(name: string): RegisteredTool | undefined;
  has(name: string): boolean;
  /** Every tool name, in registration order. */
  names(): string[];
  list(): RegisteredTool[];
  /** Name + schema pairs for the grammar compiler (all tools, or the named ones in the given order). */
  grammarTools(names?: readonly string[]): GrammarTool[];
  /** Tool names per family, in registration order. */
  families(): Map<string, string[]>;
  /** Called after tools arrived or left; returns the function that stops listening. */
  onChange(listener: (change: CatalogChange) => void): () => void;
}
