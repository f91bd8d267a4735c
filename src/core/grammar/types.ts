/** A JSON Schema (draft 2020-12) as `z.toJSONSchema()` produces it; `true`/`false` are the boolean schemas. */
export type JsonSchema = Record<string, unknown> | boolean;

/** One tool as the grammar sees it: its name and the JSON Schema of its args. */
export interface GrammarTool {
  /** `family:verb`, e.g. `vault:read`. */
  name: string;
  /** From `z.toJSONSchema(tool.args)`. */
  schema: JsonSchema;
}

/** Compiler options; every default is stated. */
export interface GrammarOptions {
  /** "dynamic" (default): each tool name selects its typed args rule; "static": args are any JSON object (the looser recovery grammar). */
  mode?: "dynamic" | "static";
  /** Longest `thought`, in characters (default: maxStringChars). */
  maxThoughtChars?: number;
  /** Longest `message_to_user`, in characters (default: maxStringChars). */
  maxMessageChars?: number;
  /** Most tool calls in one envelope (default 4). */
  maxToolCalls?: number;
  /** Cap on strings the schema leaves unbounded, in characters (default 2000). */
  maxStringChars?: number;
  /** Cap on arrays the schema leaves unbounded (default 32). */
  maxItems?: number;
  /** Cap on keys of free-form objects (default 32). */
  maxKeys?: number;
  /** How deep recursive `$ref`s and free-form JSON values nest (default 3). */
  recursionDepth?: number;
}

/** A place where the compiler could not be exact and fell back to a looser rule. */
export interface GrammarFallback {
  /** The tool whose args fell back (absent for a bare schema). */
  tool?: string;
  /** JSON pointer into the schema where the unsupported keyword sits. */
  path: string;
  /** The keyword that caused it, e.g. `not`. */
  keyword: string;
  /** One sentence: what was done instead. */
  reason: string;
}

/** A default cap applied where the schema left a size unbounded. */
export interface GrammarCap {
  /** The tool the cap applies to (absent for the envelope or a bare schema). */
  tool?: string;
  /** JSON pointer of the capped value (envelope fields use `/thought` etc.). */
  path: string;
  /** What was capped. */
  kind: "string" | "array" | "object";
  /** Characters, items or keys allowed. */
  cap: number;
}

/** A compiled grammar and what the compiler knows about it. */
export interface CompiledGrammar {
  /** GBNF text for llama.cpp; the start rule is `root`. */
  gbnf: string;
  /** Upper bound of the UTF-8 byte length of any text the grammar accepts. */
  maxBytes: number;
  /** Places the compiler was not exact (empty when it was exact everywhere). */
  fallbacks: GrammarFallback[];
  /** Default caps that bound otherwise unbounded sizes. */
  caps: GrammarCap[];
}

/** Options with every default filled in. */
export type ResolvedGrammarOptions = Required<GrammarOptions>;

export const DEFAULT_GRAMMAR_OPTIONS: ResolvedGrammarOptions = {
  mode: "dynamic",
  maxThoughtChars: 2000,
  maxMessageChars: 2000,
  maxToolCalls: 4,
  maxStringChars: 2000,
  maxItems: 32,
  maxKeys: 32,
  recursionDepth: 3,
};

/** Fills defaults; thought/message default to maxStringChars when only that is given. */
export function resolveGrammarOptions(options: GrammarOptions = {}): ResolvedGrammarOptions {
  const maxStringChars = options.maxStringChars ?? DEFAULT_GRAMMAR_OPTIONS.maxStringChars;
  return {
    mode: options.mode ?? "dynamic",
    maxThoughtChars: options.maxThoughtChars ?? maxStringChars,
    maxMessageChars: options.maxMessageChars ?? maxStringChars,
    maxToolCalls: options.maxToolCalls ?? DEFAULT_GRAMMAR_OPTIONS.maxToolCalls,
    maxStringChars,
    maxItems: options.maxItems ?? DEFAULT_GRAMMAR_OPTIONS.maxItems,
    maxKeys: options.maxKeys ?? DEFAULT_GRAMMAR_OPTIONS.maxKeys,
    recursionDepth: options.recursionDepth ?? DEFAULT_GRAMMAR_OPTIONS.recursionDepth,
  };
}
