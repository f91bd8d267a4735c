/** A JSON Schema (draft 2020-12) as `z.toJSONSchema()` produces it; `true`/`false` are the boolean schemas. */
export type JsonSchema = Record<string, unknown> | boolean;

/** One tool as the grammar sees it: its name and the JSON Schema of its args. */
export interface GrammarTool {
  /** `family:verb`, e.g. `vault:read`. */
  name: string;
  /** From `z.toJSONSchema(tool.args)`. */
  schema: JsonSchema;
  /** Args grounded in the vault (see grounded-args.ts); absent = none. */
  grounding?: ToolGrounding;
}

/** Which args of a tool name things in the vault: the grammar admits only what exists there. */
export interface ToolGrounding {
  /** Args that must name an existing file (the vault's paths); other path args may name a new one. */
  existingPaths: string[];
  /** An arg that is a heading of the note the `path` arg names (only notes in the conversation's context). */
  heading?: string;
  /** An arg that is text of the note the `path` arg names, exact to the character (notes in context). */
  find?: string;
  /** An arg that is one of the property (frontmatter) keys of the note the `path` arg names (notes in context). */
  key?: string;
  /** Args that name one of the vault's tags (with or without `#`). */
  tags?: string[];
  /** Existing-path args that name only files of these extensions (lower case, no dot): `{ path: ["pdf"] }`. */
  kinds?: Record<string, string[]>;
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
  /** Cap on the extra keys (additionalProperties, patternProperties) of a typed object the schema leaves unbounded (default 256, as many as a free-form object's members). */
  maxKeys?: number;
  /** How many times a recursive `$ref` unrolls on one path (default 3). */
  recursionDepth?: number;
  /** How deep a free-form JSON value (a schema that allows anything) nests objects and arrays (default 10). */
  anyValueDepth?: number;
  /** Most members or items of each object or array inside a free-form JSON value (default 256). */
  anyValueMembers?: number;
  /** Most GBNF rules one compile may create before it refuses the schema (default 20000). */
  maxRules?: number;
  /** Longest GBNF text, in bytes, before the compile refuses the schema (default 4 MiB). */
  maxGrammarBytes?: number;
  /** Compile steps (subschema visits) one schema may take before it is refused (default 50000; the largest sample schema takes under 5000). */
  maxSteps?: number;
}

/**
 * A local relaxation: one subschema the grammar enforces more loosely than the schema says (a keyword
 * dropped or weakened there, the rest of the schema still exact). The gatekeeper's validator still
 * enforces the whole schema on every call.
 */
export interface GrammarRelaxation {
  /** The tool whose args are relaxed (absent for a bare schema). */
  tool?: string;
  /** JSON pointer into the schema document of the subschema holding the keyword ("" is the root). */
  pointer: string;
  /** The keyword the grammar does not enforce exactly, e.g. `uniqueItems`. */
  keyword: string;
  /** One sentence: what the grammar enforces instead. */
  reason: string;
}

/** A default cap applied where the schema left a size unbounded. */
export interface GrammarCap {
  /** The tool the cap applies to (absent for the envelope or a bare schema). */
  tool?: string;
  /** JSON pointer of the capped value (envelope fields use `/thought` etc.). */
  path: string;
  /** What was capped; "depth" is how deep a recursive `$ref` or free-form value nests. */
  kind: "string" | "array" | "object" | "depth";
  /** Characters, items, keys or levels allowed. */
  cap: number;
}

/** A compiled grammar and what the compiler knows about it. */
export interface CompiledGrammar {
  /** GBNF text for llama.cpp; the start rule is `root`. */
  gbnf: string;
  /** Upper bound of the UTF-8 byte length of any text the grammar accepts. */
  maxBytes: number;
  /** Subschemas enforced more loosely than the schema says (empty when the grammar is exact). */
  relaxations: GrammarRelaxation[];
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
  maxKeys: 256,
  recursionDepth: 3,
  anyValueDepth: 10,
  anyValueMembers: 256,
  maxRules: 20000,
  maxGrammarBytes: 4 * 1024 * 1024,
  maxSteps: 50_000,
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
    anyValueDepth: options.anyValueDepth ?? DEFAULT_GRAMMAR_OPTIONS.anyValueDepth,
    anyValueMembers: options.anyValueMembers ?? DEFAULT_GRAMMAR_OPTIONS.anyValueMembers,
    maxRules: options.maxRules ?? DEFAULT_GRAMMAR_OPTIONS.maxRules,
    maxGrammarBytes: options.maxGrammarBytes ?? DEFAULT_GRAMMAR_OPTIONS.maxGrammarBytes,
    maxSteps: options.maxSteps ?? DEFAULT_GRAMMAR_OPTIONS.maxSteps,
  };
}

/**
 * The compiler will not build a grammar for this schema (too large, malformed, or no value satisfies
 * it). `message` is one sentence that names the pointer.
 */
export class GrammarRefusal extends Error {
  constructor(
    /** JSON pointer of the subschema that caused the refusal ("" is the root). */
    readonly pointer: string,
    /** The keyword or limit involved, e.g. `$ref`, `maxRules`, `schema`. */
    readonly keyword: string,
    /** Why, as a clause ("the grammar would exceed 20000 rules"). */
    readonly reason: string,
  ) {
    super(`The schema at ${pointer === "" ? "the root" : pointer} cannot be compiled (${keyword}): ${reason}.`);
    this.name = "GrammarRefusal";
  }
}

/** The outcome of compiling one schema: a grammar (exact or with local relaxations) or a refusal. */
export type SchemaCompileResult = { ok: true; grammar: CompiledGrammar } | { ok: false; refusal: GrammarRefusal };
