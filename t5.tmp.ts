import { getLlama } from "node-llama-cpp";
import { compileEnvelopeGrammar } from "./src/core/grammar/index.ts";
const llama = await getLlama({ gpu: false, build: "never" });
const g = compileEnvelopeGrammar([]).gbnf;
console.log(g);
const lines = g.trim().split("\n");
for (const t of ['root ::= "a" x\nx ::= ("b" "c"{0,1999})?', 'root ::= "a"{0,1999}', 'root ::= "a"{0,1000}', 'root ::= ("b" "c"{0,1999})?']) {
  try { await llama.createGrammar({ grammar: t }); console.log("ok", t); } catch (e) { console.log("FAIL", t); }
}
