import { envelopeJsonSchema, type EnvelopeJsonSchema } from "../protocol/envelope-schema";
import { compileEnvelopeGrammar } from "./envelope";
import type { GroundingContext } from "../ports/agent";
import { resolveGrammarOptions, type CompiledGrammar, type GrammarOptions, type GrammarTool } from "./types";
import { groundedSchemaTools } from "./grounded-json-schema";
import { VaultGrounding } from "./vault-grounding";
import type { VaultPathIndex } from "./vault-paths";
import type { VaultTagSet } from "./vault-tags";

/**
 * Path and tag args get a shared `enum` in the JSON Schema form up to this many values (and within OpenAI's quota,
 * grounded-json-schema.ts): past it a server's converter costs several times the time per token (docs/servers.md).
 */
export const MAX_ENUM_PATHS = 500;

/** Separates sorted tool names in a cache key (the ASCII record separator, which no tool name contains). */
const KEY_SEPARATOR = "\u001e";

/** Envelope grammars per offered tool subset, compiled once per (subset, mode) until the catalog or options change. */
export class SubsetCache {
  /** The tools by name. */
  private byName = new Map<string, GrammarTool>();
  /** Options every grammar here is compiled with. */
  private options: GrammarOptions = {};
  /** Compiled grammars by mode + key. */
  private cache = new Map<string, CompiledGrammar>();
  /** Grounded grammars over the vault's paths; absent = none (every grammar is today's). */
  private grounding?: VaultGrounding;

  constructor(catalog: GrammarTool[], options?: GrammarOptions) {
    this.setCatalog(catalog, options);
  }

  /** Replaces the catalog (and options); every cached grammar is dropped. */
  setCatalog(catalog: GrammarTool[], options?: GrammarOptions): void {
    this.byName = new Map(catalog.map((t) => [t.name, t]));
    this.options = options ?? {};
    this.cache.clear();
    this.grounding?.clear();
  }

  /** Grounds the args tools mark (existing paths, headings, edit text) in this vault's paths from now on. */
  setVaultPaths(paths: VaultPathIndex | undefined): void {
    this.grounding = paths ? new VaultGrounding(paths) : undefined;
  }

  /** Grounds tag args in this vault's tags from now on (after setVaultPaths; without grounding, nothing). */
  setVaultTags(tags: VaultTagSet | undefined): void {
    if (this.grounding) this.grounding.tags = tags;
  }

  /** The vault's paths the grammars are grounded in, if any. */
  get vaultPaths(): VaultPathIndex | undefined {
    return this.grounding?.paths;
  }

  /** The envelope grammar offering exactly these tools (unknown names throw). */
  get(names: string[], mode?: "dynamic" | "static", context?: GroundingContext): CompiledGrammar {
    const resolvedMode = mode ?? resolveGrammarOptions(this.options).mode;
    const sorted = [...new Set(names)].sort();
    const key = resolvedMode + KEY_SEPARATOR + sorted.join(KEY_SEPARATOR);
    const tools = sorted.map((name) => {
      const tool = this.byName.get(name);
      if (!tool) throw new Error(`The tool "${name}" is not in the catalog; offer only tools the catalog defines.`);
      return tool;
    });
    let plain = this.cache.get(key);
    if (!plain) {
      plain = compileEnvelopeGrammar(tools, { ...this.options, mode: resolvedMode });
      this.cache.set(key, plain);
    }
    // Grounded: the key grows by the notes in context and the vault's version (vault-grounding.ts).
    if (this.grounding?.applies(tools, resolvedMode)) return this.grounding.grammar(tools, { ...this.options, mode: resolvedMode }, key, plain, context);
    return plain;
  }

  /**
   * The same envelope as a JSON Schema (for engines constrained by a server's JSON Schema support), with the same caps.
   * Grounded as far as JSON Schema can say (grounded-json-schema.ts): existing paths and tags as shared enums in
   * `$defs` up to MAX_ENUM_PATHS values each, and with a context, per note in it its spellings, headings and keys.
   */
  jsonSchema(names: string[], mode?: "dynamic" | "static", context?: GroundingContext): EnvelopeJsonSchema {
    const o = resolveGrammarOptions(this.options);
    const resolvedMode = mode ?? o.mode;
    const tools = [...new Set(names)].map((name) => {
      const tool = this.byName.get(name);
      if (!tool) throw new Error(`The tool "${name}" is not in the catalog; offer only tools the catalog defines.`);
      return tool;
    });
    if (!this.grounding || resolvedMode !== "dynamic") return envelopeJsonSchema(tools, { ...o, mode: resolvedMode });
    const { tools: grounded, defs } = groundedSchemaTools(tools, { paths: this.grounding.paths, tags: this.grounding.tags, notes: context?.notes ?? [], maxEnumValues: MAX_ENUM_PATHS });
    const schema = envelopeJsonSchema(grounded, { ...o, mode: resolvedMode });
    return Object.keys(defs).length ? { ...schema, $defs: defs } : schema;
  }
}
