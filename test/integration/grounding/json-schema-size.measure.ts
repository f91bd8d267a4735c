/**
 * The grounded JSON Schema (OpenAI-compatible servers) on a generated vault of N notes, enums unlimited: its size, the
 * build time, and what a real llama-server (response_format json_schema, --no-jinja, the random-weight test model)
 * does with it — accepted or refused, the first request's time (its schema converted to a grammar and parsed) and the
 * time per produced token, beside the same schema with the vault's enums opened up.
 *
 *   npx tsx test/integration/grounding/json-schema-size.measure.ts [N ...]     (default: 500 1000 10000)
 *
 * One JSON line per N. Used for docs/servers.md and docs/task-suite.md; needs `bash scripts/build-llama-server.sh`.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { clampTools } from "../../../src/app/clamp-schema";
import { SubsetCache } from "../../../src/core/grammar";
import { groundedSchemaTools, withoutVaultEnums } from "../../../src/core/grammar/grounded-json-schema";
import { VaultPathIndex } from "../../../src/core/grammar/vault-paths";
import { headingsOf } from "../../../src/tools/sections";
import { envelopeJsonSchema } from "../../../src/core/protocol/envelope-schema";
import { resolveGrammarOptions } from "../../../src/core/grammar/types";
import { TEST_MODEL_CLAMP, TEST_MODEL_GRAMMAR } from "../../../src/node/compose";
import { generateVault } from "../../../src/node/vault-generator/generate-vault";
import { createToolCatalog } from "../../../src/tools";
import { ToolRegistry } from "../../../src/tools/registry";
import { llamaServerBin, startLlamaServer } from "../../helpers/llama-server";
import { testModelPath } from "../../helpers/test-model";

/** The tools bench grounding offers. */
const TOOLS = ["vault:read", "vault:edit", "vault:search", "vault:list"];
const REQUESTS = 8;

async function timeRequests(url: string, schema: Record<string, unknown>): Promise<Record<string, unknown>> {
  const runs: { ms: number; tokens: number }[] = [];
  for (let i = 0; i < REQUESTS; i++) {
    const started = performance.now();
    const res = await fetch(`${url}/v1/chat/completions`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ messages: [{ role: "user", content: `read note ${i}` }], max_tokens: 3000, temperature: 1, seed: i + 1, stream: true, stream_options: { include_usage: true }, response_format: { type: "json_schema", json_schema: { name: "envelope", strict: true, schema } } }),
    });
    const raw = await res.text();
    if (!res.ok) return { status: res.status, refused: raw.slice(0, 200) };
    // The streamed reply's last data line before [DONE] carries the usage.
    const usage = raw
      .split("\n")
      .filter((l) => l.startsWith("data: {"))
      .map((l) => JSON.parse(l.slice(6)) as { usage?: { completion_tokens?: number } })
      .findLast((c) => c.usage)?.usage;
    runs.push({ ms: performance.now() - started, tokens: usage?.completion_tokens ?? 0 });
  }
  const later = runs.slice(1);
  const tokens = later.reduce((n, r) => n + r.tokens, 0);
  return {
    status: 200,
    first_request_ms: Math.round(runs[0].ms),
    later_request_ms: Math.round(later.reduce((n, r) => n + r.ms, 0) / later.length),
    ms_per_token: tokens ? Math.round((100 * later.reduce((n, r) => n + r.ms, 0)) / tokens) / 100 : null,
  };
}

async function main(): Promise<void> {
  const sizes = process.argv.slice(2).map(Number);
  const bin = llamaServerBin();
  const server = bin ? await startLlamaServer(bin, await testModelPath(), ["-c", "4096", "-np", "1", "--no-jinja"]) : undefined;
  try {
    for (const notes of sizes.length ? sizes : [500, 1000, 10000]) {
      const dir = mkdtempSync(join(tmpdir(), "va-schema-"));
      try {
        const vault = generateVault(dir, { notes });
        const index = new VaultPathIndex();
        index.load(vault.paths);
        const registry = new ToolRegistry(createToolCatalog());
        const tools = clampTools(registry.grammarTools(), TEST_MODEL_CLAMP);
        const byName = new Map(tools.map((t) => [t.name, t]));
        const offered = TOOLS.map((n) => byName.get(n)!);
        const text = readFileSync(join(dir, vault.paths[1]), "utf8");
        const note = { path: vault.paths[1], text, headings: headingsOf(text).map((h) => h.text) };
        const started = performance.now();
        const { tools: grounded, defs } = groundedSchemaTools(offered, { paths: index, notes: [note], maxEnumValues: Infinity, quota: { totalValues: Infinity, largeEnumValues: Infinity, largeEnumChars: Infinity } });
        const caps = { ...resolveGrammarOptions(TEST_MODEL_GRAMMAR), mode: "dynamic" as const };
        const schema = { ...envelopeJsonSchema(grounded, caps), $defs: defs };
        const buildMs = performance.now() - started;
        const bytes = Buffer.byteLength(JSON.stringify(schema));
        const enumChars = Object.values(defs).reduce((n, d) => n + (d as { enum: string[] }).enum.reduce((m, v) => m + v.length, 0), 0);
        const plain = new SubsetCache(tools, TEST_MODEL_GRAMMAR).jsonSchema(TOOLS, "dynamic");
        const real = new SubsetCache(tools, TEST_MODEL_GRAMMAR);
        real.setVaultPaths(index);
        const sent = real.jsonSchema(TOOLS, "dynamic", { notes: [note] });
        const row: Record<string, unknown> = {
          notes,
          paths: index.size,
          schema_bytes: bytes,
          plain_schema_bytes: Buffer.byteLength(JSON.stringify(plain)),
          enum_values: Object.values(defs).reduce((n, d) => n + (d as { enum: string[] }).enum.length, 0),
          enum_chars: enumChars,
          build_ms: Math.round(buildMs * 10) / 10,
          // What the engine sends under the limits (MAX_ENUM_PATHS and OpenAI's quota).
          shared_enums_sent: Object.keys((sent.$defs as object | undefined) ?? {}),
          sent_schema_bytes: Buffer.byteLength(JSON.stringify(sent)),
        };
        if (server) {
          row.llama_server_grounded = await timeRequests(server.url, schema);
          row.llama_server_open = await timeRequests(server.url, withoutVaultEnums(schema));
        }
        process.stdout.write(JSON.stringify(row) + "\n");
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    }
  } finally {
    await server?.stop();
  }
}

await main();
