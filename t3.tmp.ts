import { createToolCatalog } from "./src/tools/index.ts";
import { compileEnvelopeGrammar } from "./src/core/grammar/index.ts";
import { z } from "zod";
const tools = createToolCatalog();
const g = compileEnvelopeGrammar(tools.map(t => ({ name: t.name, schema: z.toJSONSchema(t.args) as Record<string, unknown> })));
console.log(tools.length, g.gbnf.length, g.maxBytes, JSON.stringify(g.fallbacks, null, 1));
for (const t of tools) console.log(t.name, JSON.stringify(z.toJSONSchema(t.args)).slice(0, 300));
