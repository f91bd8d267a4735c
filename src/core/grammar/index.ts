/**
 * The grammar layer: JSON Schema → GBNF compiler, envelope assembly, per-turn subset cache, and a GBNF
 * parser + recognizer that decides whether text belongs to a grammar's language.
 */
export type {
  JsonSchema,
  GrammarTool,
  GrammarOptions,
  GrammarRelaxation,
  GrammarCap,
  CompiledGrammar,
  SchemaCompileResult,
} from "./types";
export { DEFAULT_GRAMMAR_OPTIONS, GrammarRefusal } from "./types";
export { compileSchema, compileSchemaGrammar } from "./schema-grammar";
export { compileEnvelopeGrammar } from "./envelope";
export { SubsetCache } from "./subset-cache";
export { parseGbnf, GbnfParseError } from "./gbnf-parser";
export type { GbnfGrammar, GbnfExpr } from "./gbnf-ast";
export { GbnfRecognizer } from "./recognizer";
export { GrammarSampler, type SamplerOptions } from "./sampler";
export { isWholeUtf8, sentencePieceBytes, splitCharacterTokens } from "./utf8-guard";
export { GbnfWalker, type WalkPosition } from "./gbnf-walker";
