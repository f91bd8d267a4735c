/** `bench router`: median time of one routing decision (text only, no embeddings) over a 50-tool synthetic catalog and 1,000 note names. */
import { ToolRouter } from "../../core/router/tool-router";
import { syntheticCatalog } from "./synthetic-catalog";

const QUERIES = [
  "open my note about the garden project",
  "add buy milk to my shopping list",
  "what did I write about rust last week",
  "rename Ideas.md to Archive/Ideas.md",
  "which notes link to Home",
  "list my open tasks",
  "set the status of Projects/Alpha.md to done",
  "hello there",
  "what is the capital of France?",
  "summarize today's daily note",
  "find notes tagged #recipe",
  "Zeig mir die Backlinkliste von Home",
];

function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

const WRITE_VERBS = /:(write|append|edit|set|add|create|update|move|rename|complete|save|insert|replace|tag|link)/;
const DESTRUCTIVE_VERBS = /:(delete|remove|trash|archive)/;

export async function run(argv: string[]): Promise<Record<string, unknown>> {
  const rounds = Number(argv[argv.indexOf("--rounds") + 1]) || 200;
  const tools = syntheticCatalog().map((t) => ({
    name: t.name,
    family: t.name.split(":")[0],
    description: t.description,
    routingHints: [],
    effect: DESTRUCTIVE_VERBS.test(t.name) ? ("destructive" as const) : WRITE_VERBS.test(t.name) ? ("write" as const) : ("read" as const),
  }));
  const built = performance.now();
  const router = new ToolRouter(tools);
  // As in `ask`, the router knows the vault's note names; 1,000 of them, as a mid-sized vault has.
  const topics = ["Garden", "Project", "Shopping List", "Reading List", "Meeting", "Recipe", "Trip", "Budget", "Home", "Ideas"];
  router.setNotes(Array.from({ length: 1000 }, (_, i) => `Folder ${i % 20}/${topics[i % topics.length]} ${i}.md`).concat(topics.map((t) => `${t}.md`)));
  const buildMs = performance.now() - built;
  const samples: number[] = [];
  for (let r = 0; r < rounds; r++) {
    for (const q of QUERIES) {
      const start = performance.now();
      router.routeText(q);
      samples.push(performance.now() - start);
    }
  }
  return { tools: tools.length, queries: samples.length, route_ms_median: Math.round(median(samples) * 1000) / 1000, index_build_ms: Math.round(buildMs * 100) / 100 };
}
