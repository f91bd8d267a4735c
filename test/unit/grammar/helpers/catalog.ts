/** The synthetic 50-tool catalog as grammar tools. */
import { z } from "zod";
import type { GrammarTool } from "../../../../src/core/grammar";
import { syntheticCatalog } from "../../../../src/node/bench/synthetic-catalog";

export function syntheticGrammarTools(): GrammarTool[] {
  return syntheticCatalog().map((t) => ({ name: t.name, schema: z.toJSONSchema(t.args) }));
}
