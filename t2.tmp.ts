import { compileEnvelopeGrammar, GbnfRecognizer, parseGbnf } from "./src/core/grammar/index.ts";
import { syntheticCatalog } from "./src/node/bench/synthetic-catalog.ts";
import { z } from "zod";
import { getLlama } from "node-llama-cpp";
const cat = syntheticCatalog().map(t => ({ name: t.name, schema: z.toJSONSchema(t.args) as Record<string, unknown> }));
const g = compileEnvelopeGrammar(cat);
const r = new GbnfRecognizer(g.gbnf);
const env = (calls: unknown[]) => JSON.stringify({ thought: "hi \"there\" ✓ 😀\n", status: "Task", message_to_user: null, tool_calls: calls });
const cases: [string, boolean][] = [
  [env([]), true],
  [env([{ name: "vault:read", args: { path: "a.md" } }]), true],
  [env([{ name: "vault:read", args: { path: "a.md", page: 0 } }]), false],
  [env([{ name: "vault:read", args: { path: "a.md", page: 1000 } }]), true],
  [env([{ name: "vault:read", args: { path: "a.md", page: 1001 } }]), false],
  [env([{ name: "vault:read", args: { path: "a.md", x: 1 } }]), false],
  [env([{ name: "vault:reed", args: { path: "a.md" } }]), false],
  [env([{ name: "daily:open", args: { date: "2024-02-29", create: true } }]), true],
  [env([{ name: "daily:open", args: { date: "2023-02-29", create: true } }]), false],
  [env([{ name: "memory:forget", args: { id: "123e4567-e89b-12d3-a456-426614174000", confirm: true } }]), true],
  [env([{ name: "canvas:add-card", args: { path: "x.canvas", text: "t", x: -5, y: 100000, size: { width: 50, height: 2000 }, color: "3" } }]), true],
  [env([{ name: "canvas:add-card", args: { path: "x.canvas", text: "t", x: -5, y: 100001 } }]), false],
  [env([{ name: "frontmatter:set", args: { path: "p", entries: [{ key: "k", value: 1.5e-7 }, { key: "k2", value: null }] } }]), true],
];
let t0 = performance.now();
for (const [text, want] of cases) { const got = r.accepts(text); console.log(got === want ? "ok " : "BAD", want, text.slice(60, 160)); }
console.log("recog ms", (performance.now() - t0) / cases.length);
console.log(r.acceptsPrefix('{"thought":"ab'), r.acceptsPrefix('{"thought":1'));
const llama = await getLlama({ gpu: false, build: "never" });
t0 = performance.now();
const gr = await llama.createGrammar({ grammar: g.gbnf });
console.log("llama ok", performance.now() - t0, g.gbnf.length);
// round trip printer->parser
parseGbnf(g.gbnf);
