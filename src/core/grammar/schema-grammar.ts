/** compileSchemaGrammar: a grammar whose root is one JSON value of a schema. */
import { lit, type GbnfExpr } from "./gbnf-ast";
import { printGbnf } from "./gbnf-printer";
import { maxBytesOf } from "./max-bytes";
import { RuleSet } from "./rule-set";
import { SchemaCompiler, UnsupportedSchema } from "./schema-compiler";
import { resolveGrammarOptions, type CompiledGrammar, type GrammarCap, type GrammarFallback, type GrammarOptions, type JsonSchema } from "./types";

/**
 * Compiles one JSON Schema into a grammar whose root is a JSON value of that schema. Unsupported
 * keywords make the root a free-form JSON value, reported in `fallbacks`; a schema no value can
 * satisfy is reported too (its grammar then accepts nothing useful: `null`... never, so it falls back).
 */
export function compileSchemaGrammar(schema: JsonSchema, options?: GrammarOptions): CompiledGrammar {
  const resolved = resolveGrammarOptions(options);
  const rules = new RuleSet();
  const report = { fallbacks: [] as GrammarFallback[], caps: [] as GrammarCap[] };
  const compiler = new SchemaCompiler(rules, resolved, schema, "value", report);
  let root: GbnfExpr | null;
  try {
    root = compiler.compile(schema, "");
    if (root === null) {
      report.fallbacks.push({ path: "", keyword: "schema", reason: "no JSON value satisfies this schema; the grammar accepts any JSON value instead" });
    }
  } catch (err) {
    if (!(err instanceof UnsupportedSchema)) throw err;
    report.fallbacks.push({ path: err.path, keyword: err.keyword, reason: `${err.reason}; the grammar accepts any JSON value instead` });
    root = null;
  }
  if (root === null) {
    report.caps.length = 0;
    const fresh = new RuleSet();
    const generic = new SchemaCompiler(fresh, resolved, true, "value", report).compile(true, "") ?? lit("null");
    return finish(fresh, generic, report);
  }
  return finish(rules, root, report);
}

export function finish(rules: RuleSet, root: GbnfExpr, report: { fallbacks: GrammarFallback[]; caps: GrammarCap[] }): CompiledGrammar {
  const grammar = rules.grammar(root);
  return { gbnf: printGbnf(grammar), maxBytes: maxBytesOf(grammar), fallbacks: report.fallbacks, caps: report.caps };
}
