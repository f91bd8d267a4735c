import { EVAL_SUITE } from "./src/node/eval/suite.ts";
import { ToolRegistry } from "./src/tools/registry.ts";
import { createToolCatalog } from "./src/tools/index.ts";
import { ToolRouter } from "./src/core/router/index.ts";
const cat = createToolCatalog({semantic:false, network:false});
const reg = new ToolRegistry(cat);
const r = new ToolRouter(cat);
let ok = 0, top1 = 0, chatOk = 0, chat = 0; const miss: string[] = [];
for (const c of EVAL_SUITE) {
  for (const t of c.tools) if (!reg.has(t) && t !== "vault:semantic_search") throw new Error(t);
  for (const k of Object.keys(c.args)) if (!reg.get(c.tools[0])!.keys.includes(k)) throw new Error(c.query + " " + k);
  const d = r.routeText(c.query);
  if (c.tools.length === 0) { chat++; if (d.chatOnly) chatOk++; else miss.push("CHAT " + c.query + " " + JSON.stringify(d.tools)); continue; }
  const names = d.unsure ? reg.names() : d.tools.map(t => t.name);
  if (c.tools.some(t => names.includes(t))) ok++; else miss.push(c.query + " -> " + JSON.stringify(d.tools.map(t=>t.name)) + " want " + c.tools[0]);
  if (d.tools[0] && c.tools.includes(d.tools[0].name)) top1++;
}
console.log("cases", EVAL_SUITE.length, "recall", ok, "/", EVAL_SUITE.length - chat, "top1", top1, "chat", chatOk, "/", chat);
console.log(miss.join("\n"));
