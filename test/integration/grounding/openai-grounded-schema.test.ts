/**
 * The grounded JSON Schema through a real OpenAI-compatible server: llama-server's `/v1/chat/completions` with
 * `response_format` json_schema (started with --no-jinja, see docs/servers.md), the random-weight test model at
 * temperature 1. 200 envelopes name only the vault's paths, and for the note in context only its headings and keys;
 * every reply is valid against the schema that was sent (real ajv, with the `$defs` enums). The same model under the
 * ungrounded schema names paths that do not exist, so the check would see a miss.
 */
import Ajv2020 from "ajv/dist/2020";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseEnvelope } from "../../../src/core/agent/envelope-parse";
import { SubsetCache } from "../../../src/core/grammar";
import { VaultPathIndex } from "../../../src/core/grammar/vault-paths";
import type { GroundingContext } from "../../../src/core/ports/agent";
import type { EngineClient } from "../../../src/engine/client/engine-client";
import { createNodeEngine } from "../../../src/engine/client/node-launcher";
import { clampTools } from "../../../src/app/clamp-schema";
import { TEST_MODEL_CLAMP, TEST_MODEL_GRAMMAR } from "../../../src/node/compose";
import { createToolCatalog } from "../../../src/tools";
import { ToolRegistry } from "../../../src/tools/registry";
import { requireLlamaServer, startLlamaServer, type RunningServer } from "../../helpers/llama-server";
import { testModelPath } from "../../helpers/test-model";

const SAMPLES = 200;
const TOOLS = ["vault:read", "frontmatter:get", "vault:edit"];
/** Every other sample offers the reader alone, so its optional heading is tried more often. */
const SUBSETS = [TOOLS, ["vault:read"]];
const PATHS = ["Inbox.md", "Projects/Alpha.md", "Projects/Beta plan.md", "Daily/2026-11-22.md", "People/Maya Chen.md", "Files/scan.pdf"];
const NOTE = { path: "Projects/Alpha.md", text: "---\nstatus: active\nowner: Maya\n---\n# Alpha\nLaunch on Friday.\n## Risks\nBudget is tight.\n", headings: ["Alpha", "Risks"], keys: ["status", "owner"] };
const CONTEXT: GroundingContext = { notes: [NOTE] };

function grammars(grounded: boolean) {
  const registry = new ToolRegistry(createToolCatalog());
  const cache = new SubsetCache(clampTools(registry.grammarTools(), TEST_MODEL_CLAMP), TEST_MODEL_GRAMMAR);
  const index = new VaultPathIndex();
  index.load(PATHS);
  if (grounded) cache.setVaultPaths(index);
  return { cache, index };
}

const bin = requireLlamaServer("the grounded JSON Schema on an OpenAI-compatible server");

describe.skipIf(!bin)("grounded JSON Schema through llama-server's OpenAI API (response_format)", () => {
  let server: RunningServer;
  let client: EngineClient;

  beforeAll(async () => {
    server = await startLlamaServer(bin!, await testModelPath(), ["-c", "4096", "-np", "2", "--no-jinja"]);
    client = createNodeEngine({ server: { kind: "openai", url: `${server.url}/v1` } });
  });
  afterAll(async () => {
    await client?.shutdown();
    await server?.stop();
  });

  /** `n` envelopes under the schema: calls, and those that name a missing path, heading or key. */
  async function sample(grounded: boolean, n: number) {
    const { cache, index } = grammars(grounded);
    const schemas = SUBSETS.map((tools) => cache.jsonSchema(tools, "dynamic", CONTEXT));
    const validators = schemas.map((schema) => new Ajv2020({ strict: false }).compile(schema));
    const counts = { replies: 0, invalid: [] as string[], calls: 0, missingPath: [] as string[], noteCalls: 0, headings: 0, keys: 0, missingHeading: [] as string[], missingKey: [] as string[] };
    for (let i = 0; i < n; i += 2) {
      await Promise.all(
        [i, i + 1].map(async (k) => {
          const schema = schemas[k % 2];
          const r = await client.generate({
            messages: [{ role: "user", content: `Call ${k + 1}: read a note, a heading of it, or one of its properties.` }],
            jsonSchema: schema,
            // The server's schema grammar allows whitespace our GBNF does not: room for it.
            maxTokens: Math.ceil(cache.get(SUBSETS[k % 2], "dynamic", CONTEXT).maxBytes) + 1024,
            temperature: 1,
            seed: k + 1,
          });
          expect(r.constraint).toBe("json_schema");
          const parsed = parseEnvelope(r.text);
          if (!parsed.ok || !validators[k % 2](JSON.parse(r.text))) {
            counts.invalid.push(r.text);
            return;
          }
          counts.replies++;
          for (const c of parsed.envelope.tool_calls) {
            counts.calls++;
            const path = typeof c.args.path === "string" ? index.resolve(c.args.path) : null;
            if (path === null) counts.missingPath.push(String(c.args.path));
            if (path !== NOTE.path) continue;
            counts.noteCalls++;
            if (typeof c.args.heading === "string") {
              counts.headings++;
              if (!NOTE.headings.includes(c.args.heading)) counts.missingHeading.push(c.args.heading);
            }
            if (typeof c.args.key === "string") {
              counts.keys++;
              if (!NOTE.keys.includes(c.args.key)) counts.missingKey.push(c.args.key);
            }
          }
        }),
      );
    }
    return counts;
  }

  it(`${SAMPLES} envelopes name only existing paths, and for the note in context only its headings and keys`, { timeout: 900_000 }, async () => {
    const grounded = await sample(true, SAMPLES);
    console.info(`[grounded schema] ${grounded.replies} replies, ${grounded.calls} calls, ${grounded.noteCalls} name the note in context (${grounded.headings} headings, ${grounded.keys} keys); missing: ${grounded.missingPath.length} paths, ${grounded.missingHeading.length} headings, ${grounded.missingKey.length} keys`);
    expect(grounded.invalid).toEqual([]);
    expect(grounded.replies).toBe(SAMPLES);
    expect(grounded.calls).toBeGreaterThan(50);
    expect(grounded.missingPath).toEqual([]);
    // The note in context is named often enough for its headings and keys to be tried.
    expect(grounded.headings).toBeGreaterThan(5);
    expect(grounded.keys).toBeGreaterThan(5);
    expect(grounded.missingHeading).toEqual([]);
    expect(grounded.missingKey).toEqual([]);
  });

  it("the ungrounded schema lets the same model name paths that do not exist", { timeout: 600_000 }, async () => {
    const plain = await sample(false, 40);
    console.info(`[ungrounded schema] ${plain.replies} replies, ${plain.calls} calls, ${plain.missingPath.length} name a missing path, ${plain.missingHeading.length} of ${plain.headings} headings and ${plain.missingKey.length} of ${plain.keys} keys missing`);
    expect(plain.calls).toBeGreaterThan(10);
    expect(plain.missingPath.length).toBeGreaterThan(0);
  });
});
