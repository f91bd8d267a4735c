/**
 * The random-weight test model through the real engine host (its GBNF sampler): under the grounded grammar, pdf, base
 * and canvas calls name only the vault's files of their kind; with the same grammar less the kind markers (every
 * existing path admitted), the same model hands those tools notes.
 */
import { afterAll, describe, expect, it } from "vitest";
import { SubsetCache } from "../../../src/core/grammar";
import { VaultPathIndex } from "../../../src/core/grammar/vault-paths";
import type { Engine } from "../../../src/core/ports/engine";
import { createNodeEngine } from "../../../src/engine/client/node-launcher";
import { clampTools } from "../../../src/app/clamp-schema";
import { TEST_MODEL_CLAMP, TEST_MODEL_GRAMMAR } from "../../../src/node/compose";
import { createToolCatalog } from "../../../src/tools";
import { ToolRegistry } from "../../../src/tools/registry";
import { testModelPath } from "../../helpers/test-model";

const SAMPLES = 80;
const TOOLS = ["pdf:read", "base:read", "base:edit", "canvas:read", "canvas:edit", "vault:read"];
const KIND: Record<string, string> = { "pdf:read": "pdf", "base:read": "base", "base:edit": "base", "canvas:read": "canvas", "canvas:edit": "canvas" };
const PATHS = ["Changelog.md", "Inbox.md", "Projects/Alpha.md", "Projects/Beta plan.md", "People/Maya Chen.md", "Files/photo.png", "Docs/Manual.pdf", "Docs/Invoice 2026.pdf", "Bases/Books.base", "Maps/Alpha.canvas"];

function grammar(kinds: boolean) {
  const registry = new ToolRegistry(createToolCatalog());
  const tools = registry.grammarTools().map((t) => {
    if (kinds || !t.grounding?.kinds) return t;
    const { kinds: _kinds, ...grounding } = t.grounding;
    return { ...t, grounding };
  });
  const cache = new SubsetCache(clampTools(tools, TEST_MODEL_CLAMP), TEST_MODEL_GRAMMAR);
  const index = new VaultPathIndex();
  index.load(PATHS);
  cache.setVaultPaths(index);
  return { grammar: cache.get(TOOLS, "dynamic"), index };
}

/** Generates `n` envelopes and counts the calls of a kind's tools and those naming a file of another kind. */
async function sample(engine: Engine, kinds: boolean, n: number) {
  const { grammar: g, index } = grammar(kinds);
  const counts = { replies: 0, kindCalls: 0, wrongKind: 0, missing: 0, byTool: {} as Record<string, number> };
  for (let i = 0; i < n; i++) {
    const r = await engine.generate({
      messages: [{ role: "system", content: "Reply with one envelope." }, { role: "user", content: `Call ${i + 1}: read a PDF, a base or a canvas.` }],
      grammar: g.gbnf,
      maxTokens: Math.min(g.maxBytes, 1024),
      temperature: 1,
      seed: 1 + i,
    });
    if (r.stopReason !== "eos") continue;
    counts.replies++;
    const env = JSON.parse(r.text) as { tool_calls: { name: string; args: Record<string, unknown> }[] };
    for (const c of env.tool_calls) {
      const kind = KIND[c.name];
      if (!kind) continue;
      counts.kindCalls++;
      counts.byTool[c.name] = (counts.byTool[c.name] ?? 0) + 1;
      const path = typeof c.args.path === "string" ? index.resolve(c.args.path) : null;
      if (path === null) counts.missing++;
      else if (!index.ofKind([kind]).has(path)) counts.wrongKind++;
    }
  }
  return counts;
}

let stop: (() => Promise<void>) | undefined;
afterAll(async () => {
  await stop?.();
});

describe("path args of a kind on the random-weight test model", () => {
  it(`through the engine host: ${SAMPLES} envelopes give pdf, base and canvas tools only files of their kind`, { timeout: 900_000 }, async () => {
    const engine = createNodeEngine({ model: { path: await testModelPath(), contextSize: 2048, threads: 1 } });
    stop = () => engine.shutdown();
    const grounded = await sample(engine, true, SAMPLES);
    expect(grounded.replies).toBeGreaterThan(SAMPLES * 0.9);
    expect(grounded.kindCalls).toBeGreaterThan(30);
    expect(Object.keys(grounded.byTool).length).toBeGreaterThanOrEqual(3);
    expect(grounded.missing).toBe(0);
    expect(grounded.wrongKind).toBe(0);
    const anyPath = await sample(engine, false, 40);
    expect(anyPath.missing).toBe(0);
    expect(anyPath.wrongKind).toBeGreaterThan(0);
    console.log(`path kinds, test model: grounded ${JSON.stringify(grounded)}; any path ${JSON.stringify(anyPath)}`);
  });
});
