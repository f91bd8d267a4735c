/**
 * The envelope grammar: exactly `{"thought","status","message_to_user","tool_calls"}` in that order,
 * compact (no whitespace), each tool name selecting its own args rule (dynamic mode) or any JSON object
 * (static mode). Tool names are factored into a prefix tree so the name is matched deterministically.
 */
import { EMPTY, alt, lit, opt, seq, type GbnfExpr } from "./gbnf-ast";
import { boundedRepeat } from "./bounded-repeat";
import { jsonString } from "./json-text";
import { literalChoice } from "./literal-choice";
import { RuleSet } from "./rule-set";
import { BudgetExceeded, SchemaCompiler } from "./schema-compiler";
import { finish } from "./schema-grammar";
import { callable, groundedVariants, type EnvelopeGrounding } from "./grounded-args";
import { GrammarRefusal, resolveGrammarOptions, type CompiledGrammar, type GrammarCap, type GrammarRelaxation, type GrammarOptions, type GrammarTool } from "./types";

export const ENVELOPE_STATUS_VALUES = ["Task", "Reflect", "Idle", "Process"] as const;

/**
 * @param grounding what the vault offers for grounded args (placeholders stand for its rules, see grounded-args.ts);
 *   absent = no grounding (the grammar of today).
 */
export function compileEnvelopeGrammar(tools: GrammarTool[], options?: GrammarOptions, grounding?: EnvelopeGrounding): CompiledGrammar {
  const opts = resolveGrammarOptions(options);
  const rules = new RuleSet();
  const relaxations: GrammarRelaxation[] = [];
  const caps: GrammarCap[] = [
    { path: "/thought", kind: "string", cap: opts.maxThoughtChars },
    { path: "/message_to_user", kind: "string", cap: opts.maxMessageChars },
    { path: "/tool_calls", kind: "array", cap: opts.maxToolCalls },
  ];
  const names = new Set<string>();
  for (const t of tools) {
    if (names.has(t.name)) throw new Error(`The tool "${t.name}" is offered twice; offer each tool once.`);
    names.add(t.name);
  }

  const thought = jsonString(rules, 0, opts.maxThoughtChars);
  const message = alt(jsonString(rules, 0, opts.maxMessageChars), lit("null"));
  const status = literalChoice(ENVELOPE_STATUS_VALUES.map((s) => ({ text: `"${s}"`, then: EMPTY })));

  // A tool whose required path names a kind of file the vault has none of cannot be called (grounded-args.ts).
  const offered = grounding && opts.mode === "dynamic" ? tools.filter((t) => !t.grounding || callable(t.schema, t.grounding, grounding)) : tools;
  let calls: GbnfExpr = lit("[]");
  if (offered.length > 0 && opts.maxToolCalls > 0) {
    const sorted = [...offered].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    const branches = sorted.map((tool) => ({ text: JSON.stringify(tool.name) + ',"args":', then: argsRule(tool, rules, opts, relaxations, caps, grounding) }));
    const call = rules.add("tool-call", seq(lit('{"name":'), literalChoice(branches), lit("}")));
    calls = seq(lit("["), opt(seq(call, boundedRepeat(seq(lit(","), call), 0, opts.maxToolCalls - 1))), lit("]"));
  }
  const root = seq(
    lit('{"thought":'),
    thought,
    lit(',"status":'),
    rules.add("status", status),
    lit(',"message_to_user":'),
    message,
    lit(',"tool_calls":'),
    offered.length > 0 && opts.maxToolCalls > 0 ? rules.add("tool-calls", calls) : calls,
    lit("}"),
  );
  return finish(rules, root, { relaxations, caps });
}

/**
 * The args rule of one tool: exact or locally relaxed; a schema the compiler refuses (too large,
 * malformed, unsatisfiable) makes this tool's args any JSON object, reported as a relaxation at the root.
 */
function argsRule(
  tool: GrammarTool,
  rules: RuleSet,
  opts: ReturnType<typeof resolveGrammarOptions>,
  relaxations: GrammarRelaxation[],
  caps: GrammarCap[],
  grounding?: EnvelopeGrounding,
): GbnfExpr {
  const hint = tool.name;
  const toolCaps: GrammarCap[] = [];
  const toolRelaxations: GrammarRelaxation[] = [];
  const report = { relaxations: toolRelaxations, caps: toolCaps, tool: tool.name };
  const compiler = new SchemaCompiler(rules, opts, tool.schema, hint, report);
  if (opts.mode === "static") {
    const e = compiler.anyObjectRule("");
    caps.push(...toolCaps);
    return e;
  }
  const mark = rules.mark();
  try {
    const variants = grounding && tool.grounding ? groundedVariants(tool.schema, tool.grounding, grounding) : [];
    // Grounded variants share the tool's rule set; caps and relaxations are reported once, from the first variant.
    const extra = variants.slice(1).map((v) => new SchemaCompiler(rules, opts, v, hint, { relaxations: [], caps: [], tool: tool.name }).compile(v, ""));
    const first = variants.length ? new SchemaCompiler(rules, opts, variants[0], hint, report).compile(variants[0], "") : compiler.compile(tool.schema, "");
    const options = [first, ...extra].filter((x): x is GbnfExpr => x !== null);
    const e = options.length ? alt(...options) : null;
    if (e === null) throw new GrammarRefusal("", "schema", "no arguments satisfy this schema");
    caps.push(...toolCaps);
    relaxations.push(...toolRelaxations);
    return e.kind === "ref" ? e : rules.add(`${hint}-args`, e);
  } catch (err) {
    if (!(err instanceof GrammarRefusal) && !(err instanceof BudgetExceeded)) throw err;
    rules.rollback(mark);
    const refusal = err instanceof GrammarRefusal ? err : new GrammarRefusal(err.pointer, err.limit, `its grammar would exceed ${opts.maxRules} rules`);
    relaxations.push({ tool: tool.name, pointer: refusal.pointer, keyword: refusal.keyword, reason: `${refusal.reason}; this tool's args accept any JSON object instead` });
    const fresh: GrammarCap[] = [];
    const e = new SchemaCompiler(rules, opts, true, hint, { relaxations, caps: fresh, tool: tool.name }).anyObjectRule("");
    caps.push(...fresh);
    return e;
  }
}
