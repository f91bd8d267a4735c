/**
 * The random-weight test model through the real engine host (its GBNF sampler and token bans), and through a real
 * llama-server when one is built: 200 envelopes under a grounded grammar name only the vault's paths, and edit text
 * only from the note in context; under today's grammar the same model names paths that do not exist.
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
import { requireLlamaServer } from "../../helpers/llama-server";
import { testModelPath } from "../../helpers/test-model";

const SAMPLES = 200;
const TOOLS = ["vault:read", "vault:edit", "vault:delete"];
const PATHS = ["Inbox.md", "Projects/Alpha.md", "Projects/Beta plan.md", "Daily/2026-11-22.md", "People/Maya Chen.md", "Files/scan.pdf"];
const NOTE = { path: "Projects/Alpha.md", text: "# Alpha\nLaunch on Friday.\n## Risks\nBudget is tight.\n", headings: ["Alpha", "Risks"] };

function grammars(grounded: boolean) {
  const registry = new ToolRegistry(createToolCatalog());
  const cache = new SubsetCache(clampTools(registry.grammarTools(), TEST_MODEL_CLAMP), TEST_MODEL_GRAMMAR);
  const index = new VaultPathIndex();
  index.load(PATHS);
  if (grounded) cache.setVaultPaths(index);
  return { grammar: cache.get(TOOLS, "dynamic", { notes: [NOTE] }), index };
}

/** Generates `n` envelopes and counts calls, missing paths and edit texts not in the note. */
async function sample(engine: Engine, grounded: boolean, n: number) {
  const { grammar, index } = grammars(grounded);
  const counts = { replies: 0, calls: 0, missingPath: 0, finds: 0, missingFind: 0 };
  for (let i = 0; i < n; i++) {
    const r = await engine.generate({
      messages: [{ role: "system", content: "Reply with one envelope." }, { role: "user", content: `Call ${i + 1}: read or edit a note.` }],
      grammar: grammar.gbnf,
      maxTokens: Math.min(grammar.maxBytes, 1024),
      temperature: 1,
      seed: 1 + i,
    });
    if (r.stopReason !== "eos") continue;
    counts.replies++;
    const env = JSON.parse(r.text) as { tool_calls: { name: string; args: Record<string, unknown> }[] };
    for (const c of env.tool_calls) {
      const path = c.args.path;
      counts.calls++;
      const resolved = typeof path === "string" ? index.resolve(path) : null;
      if (resolved === null) counts.missingPath++;
      if (resolved === NOTE.path && typeof c.args.find === "string") {
        counts.finds++;
        if (!NOTE.text.includes(c.args.find)) counts.missingFind++;
      }
    }
  }
  return counts;
}

let stop: (() => Promise<void>) | undefined;
let stopServerEngine: (() => Promise<void>) | undefined;
afterAll(async () => {
  await stop?.();
});

describe("grounded grammar on the random-weight test model", () => {
  it(`through the engine host: ${SAMPLES} envelopes name only existing paths, and today's grammar does not`, { timeout: 900_000 }, async () => {
    const engine = createNodeEngine({ model: { path: await testModelPath(), contextSize: 2048, threads: 1 } });
    stop = () => engine.shutdown();
    const grounded = await sample(engine, true, SAMPLES);
    expect(grounded.replies).toBeGreaterThan(SAMPLES * 0.9);
    expect(grounded.calls).toBeGreaterThan(50);
    expect(grounded.missingPath).toBe(0);
    expect(grounded.missingFind).toBe(0);
    const today = await sample(engine, false, 40);
    expect(today.missingPath).toBeGreaterThan(0);
  });

  const bin = requireLlamaServer("the grounded grammar on llama-server");
  it.skipIf(!bin)(`through a real llama-server: ${SAMPLES} envelopes name only existing paths`, { timeout: 900_000 }, async () => {
    const { startLlamaServer } = await import("../../helpers/llama-server");
    const server = await startLlamaServer(bin!, await testModelPath());
    try {
      // Through the engine host, as the plugin makes it: the host reads the model file for the tokens that spell part of
      // a character, which llama-server must not sample (it fails a reply that is not UTF-8).
      const engine = createNodeEngine({ server: { kind: "llama-server", url: server.url } });
      stopServerEngine = () => engine.shutdown();
      const grounded = await sample(engine, true, SAMPLES);
      expect(grounded.calls).toBeGreaterThan(50);
      expect(grounded.missingPath).toBe(0);
      expect(grounded.missingFind).toBe(0);
    } finally {
      await stopServerEngine?.();
      await server.stop();
    }
  });
});
