/** compileSchemaGrammar: a grammar whose root is one JSON value of a schema. */
import type { GbnfExpr } from "./gbnf-ast";
import { printGbnf } from "./gbnf-printer";
import { maxBytesOf } from "./max-bytes";
import { RuleSet } from "./rule-set";
import { BudgetExceeded, SchemaCompiler, type CompileReport } from "./schema-compiler";
import { GrammarRefusal, resolveGrammarOptions, type CompiledGrammar, type GrammarOptions, type JsonSchema, type SchemaCompileResult } from "./types";

/**
 * An idle compiler kept for the life of the module. V8 drops a hidden class that no live object uses
 * at a full collection, and with it the optimized code of every method that relied on it. Compiles
 * are far apart, with collections between them, so without a live instance of the compiler's
 * classes every compile ran all of its methods cold again: about twice as slow on the largest sample
 * schemas. This instance (of a one-property schema, never compiled) keeps those classes alive.
 */
const keptWarm: SchemaCompiler[] = [];
keptWarm.push(new SchemaCompiler(new RuleSet(), resolveGrammarOptions(), { type: "object", properties: { a: { type: "string" } } }, "value", { relaxations: [], caps: [] }));

/**
 * Compiles one JSON Schema into a grammar whose root is a JSON value of that schema: exact, or with
 * local relaxations listed in `relaxations`. When the grammar would exceed its rule or size budget,
 * recursive `$ref`s are unrolled less deeply (reported as a "depth" cap) before giving up.
 * @throws GrammarRefusal when no grammar fits the budget, the schema is malformed, or no value satisfies it.
 */
export function compileSchemaGrammar(schema: JsonSchema, options?: GrammarOptions): CompiledGrammar {
  const resolved = resolveGrammarOptions(options);
  let failure: BudgetExceeded | GrammarRefusal | null = null;
  for (let depth = resolved.recursionDepth; depth >= Math.min(1, resolved.recursionDepth); depth--) {
    const rules = new RuleSet();
    const report: CompileReport = { relaxations: [], caps: [] };
    const compiler = new SchemaCompiler(rules, { ...resolved, recursionDepth: depth }, schema, "value", report);
    try {
      const root = compiler.compile(schema, "");
      if (root === null) throw new GrammarRefusal("", "schema", "no JSON value satisfies this schema");
      const compiled = finish(rules, root, report);
      if (compiled.gbnf.length > resolved.maxGrammarBytes) {
        failure = new GrammarRefusal("", "maxGrammarBytes", `its grammar would be ${compiled.gbnf.length} bytes, over the ${resolved.maxGrammarBytes}-byte limit`);
        continue;
      }
      if (depth < resolved.recursionDepth) compiled.caps.push({ path: "", kind: "depth", cap: depth });
      return compiled;
    } catch (err) {
      if (!(err instanceof BudgetExceeded)) throw err;
      failure = err;
    }
  }
  if (failure instanceof GrammarRefusal) throw failure;
  const at = failure?.pointer ?? "";
  const limit = failure?.limit === "steps" ? "its compile would take too many steps" : `its grammar would exceed ${resolved.maxRules} rules`;
  throw new GrammarRefusal(at, failure?.limit ?? "maxRules", `${limit}, even with recursive references unrolled once`);
}

/** compileSchemaGrammar as a result instead of an exception. */
export function compileSchema(schema: JsonSchema, options?: GrammarOptions): SchemaCompileResult {
  try {
    return { ok: true, grammar: compileSchemaGrammar(schema, options) };
  } catch (err) {
    if (err instanceof GrammarRefusal) return { ok: false, refusal: err };
    throw err;
  }
}

export function finish(rules: RuleSet, root: GbnfExpr, report: CompileReport): CompiledGrammar {
  const grammar = rules.grammar(root);
  return { gbnf: printGbnf(grammar), maxBytes: maxBytesOf(grammar), relaxations: report.relaxations, caps: report.caps };
}
