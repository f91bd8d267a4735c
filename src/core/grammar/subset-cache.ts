import { envelopeJsonSchema, type EnvelopeJsonSchema } from "../protocol/envelope-schema";
import { compileEnvelopeGrammar } from "./envelope";
import { resolveGrammarOptions, type CompiledGrammar, type GrammarOptions, type GrammarTool } from "./types";

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

  constructor(catalog: GrammarTool[], options?: GrammarOptions) {
    this.setCatalog(catalog, options);
  }

  /** Replaces the catalog (and options); every cached grammar is dropped. */
  setCatalog(catalog: GrammarTool[], options?: GrammarOptions): void {
    this.byName = new Map(catalog.map((t) => [t.name, t]));
    this.options = options ?? {};
    this.cache.clear();
  }

  /** The envelope grammar offering exactly these tools (unknown names throw). */
  get(names: string[], mode?: "dynamic" | "static"): CompiledGrammar {
    const resolvedMode = mode ?? resolveGrammarOptions(this.options).mode;
    const sorted = [...new Set(names)].sort();
    const key = resolvedMode + KEY_SEPARATOR + sorted.join(KEY_SEPARATOR);
    const hit = this.cache.get(key);
    if (hit) return hit;
    const tools = sorted.map((name) => {
      const tool = this.byName.get(name);
      if (!tool) throw new Error(`The tool "${name}" is not in the catalog; offer only tools the catalog defines.`);
      return tool;
    });
    const compiled = compileEnvelopeGrammar(tools, { ...this.options, mode: resolvedMode });
    this.cache.set(key, compiled);
    return compiled;
  }

  /** The same envelope as a JSON Schema (for engines constrained by a server's JSON Schema support), with the same caps. */
  jsonSchema(names: string[], mode?: "dynamic" | "static"): EnvelopeJsonSchema {
    const o = resolveGrammarOptions(this.options);
    const tools = [...new Set(names)].map((name) => {
      const tool = this.byName.get(name);
      if (!tool) throw new Error(`The tool "${name}" is not in the catalog; offer only tools the catalog defines.`);
      return tool;
    });
    return envelopeJsonSchema(tools, { ...o, mode: mode ?? o.mode });
  }
}
