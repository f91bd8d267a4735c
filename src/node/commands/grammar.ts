/** `grammar --schema F.json | --tools a,b|all|none [--mode static]`: prints GBNF; relaxations and the byte bound go to stderr. */
import { readFile } from "node:fs/promises";
import { z } from "zod";
import { UsageError, parseArgs } from "../cli-types";
import { GrammarRefusal, compileEnvelopeGrammar, compileSchemaGrammar, type CompiledGrammar, type GrammarTool } from "../../core/grammar";
import { syntheticCatalog } from "../bench/synthetic-catalog";

export const usage = "grammar (--schema F.json | --tools a,b|all|none) [--mode dynamic|static]   print the GBNF grammar";

/** The tools the grammar is compiled from: the real catalog, or the synthetic one while src/tools is absent. */
export async function grammarCatalog(): Promise<{ source: string; tools: GrammarTool[] }> {
  const toJson = (args: z.ZodObject) => z.toJSONSchema(args) as Record<string, unknown>;
  try {
    const mod = (await import("../../tools/index.ts")) as { createToolCatalog?: () => Array<{ name: string; args: z.ZodObject }> };
    if (typeof mod.createToolCatalog === "function") {
      return { source: "src/tools", tools: mod.createToolCatalog().map((t) => ({ name: t.name, schema: toJson(t.args) })) };
    }
  } catch {
    // No real catalog yet: fall through to the synthetic one.
  }
  return { source: "synthetic", tools: syntheticCatalog().map((t) => ({ name: t.name, schema: toJson(t.args) })) };
}

export async function run(argv: string[]): Promise<number> {
  const { options, positionals } = parseArgs(argv, { strings: ["schema", "tools", "mode"] });
  if (positionals.length) throw new UsageError(`Unexpected argument "${positionals[0]}".`);
  const mode = options.mode ?? "dynamic";
  if (mode !== "dynamic" && mode !== "static") throw new UsageError(`--mode must be dynamic or static, not "${String(mode)}".`);
  const schemaFile = options.schema as string | undefined;
  const toolList = options.tools as string | undefined;
  if ((schemaFile === undefined) === (toolList === undefined)) throw new UsageError("Give exactly one of --schema F.json or --tools a,b|all|none.");

  let compiled: CompiledGrammar;
  if (schemaFile !== undefined) {
    let schema: unknown;
    try {
      schema = JSON.parse(await readFile(schemaFile, "utf8"));
    } catch (err) {
      process.stderr.write(`Could not read ${schemaFile} as JSON: ${err instanceof Error ? err.message : String(err)}\n`);
      return 1;
    }
    if (typeof schema !== "boolean" && (typeof schema !== "object" || schema === null || Array.isArray(schema))) {
      process.stderr.write(`${schemaFile} must hold a JSON Schema (an object or a boolean).\n`);
      return 1;
    }
    try {
      compiled = compileSchemaGrammar(schema as Record<string, unknown> | boolean, { mode });
    } catch (err) {
      if (!(err instanceof GrammarRefusal)) throw err;
      process.stderr.write(`${err.message}\n`);
      return 1;
    }
  } else {
    const { tools } = await grammarCatalog();
    let chosen: GrammarTool[];
    if (toolList === "all") chosen = tools;
    else if (toolList === "none" || toolList === "") chosen = [];
    else {
      const names = toolList!.split(",").map((n) => n.trim()).filter(Boolean);
      const unknown = names.filter((n) => !tools.some((t) => t.name === n));
      if (unknown.length) throw new UsageError(`Unknown tool ${unknown.map((n) => `"${n}"`).join(", ")}; known tools: ${tools.map((t) => t.name).join(", ")}.`);
      chosen = tools.filter((t) => names.includes(t.name));
    }
    compiled = compileEnvelopeGrammar(chosen, { mode });
  }
  process.stdout.write(compiled.gbnf);
  for (const r of compiled.relaxations) process.stderr.write(`relaxed: ${r.tool ? `${r.tool} ` : ""}${r.pointer || "/"} (${r.keyword}): ${r.reason}\n`);
  process.stderr.write(`max bytes: ${compiled.maxBytes}\n`);
  return 0;
}
