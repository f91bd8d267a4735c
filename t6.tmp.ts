import { getLlama } from "node-llama-cpp";
import { envelopeJsonSchema } from "./src/node/bench/sampling.ts";
import { syntheticCatalog } from "./src/node/bench/synthetic-catalog.ts";
import { z } from "zod";
const tools = syntheticCatalog().filter(t => ["vault:read", "daily:open"].includes(t.name)).map(t => ({ name: t.name, schema: z.toJSONSchema(t.args) as Record<string, unknown> }));
const llama = await getLlama({ gpu: false, build: "never" });
const g = await llama.createGrammarForJsonSchema(envelopeJsonSchema(tools) as never);
console.log(g.grammar);
