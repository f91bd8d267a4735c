/**
 * The OpenAI-compatible engine against a real server: llama-server's own OpenAI API, started with --no-jinja so
 * its `response_format` path works on the test model (with the Jinja path it fails on this tokenizer; see
 * docs/servers.md, "Why response_format failed"). The envelope goes as a strict JSON Schema with the routed tools' args.
 */
import { spawnSync } from "node:child_process";
import { createRequire } from "node:module";
import { fileURLToPath, pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseEnvelope } from "../../../src/core/agent/envelope-parse";
import { SubsetCache } from "../../../src/core/grammar";
import type { EngineClient } from "../../../src/engine/client/engine-client";
import { createNodeEngine } from "../../../src/engine/client/node-launcher";
import { TEST_MODEL_CLAMP, TEST_MODEL_GRAMMAR, composeHeadless } from "../../../src/node/compose";
import { clampTools } from "../../../src/app/clamp-schema";
import { createToolCatalog } from "../../../src/tools/index";
import { ToolRegistry } from "../../../src/tools/registry";
import { requireLlamaServer, startLlamaServer, type RunningServer } from "../../helpers/llama-server";
import { testModelPath } from "../../helpers/test-model";
import { copyVault } from "../agent/scripted-helpers";

const bin = requireLlamaServer("the OpenAI-compatible engine tests");
const cli = fileURLToPath(new URL("../../../src/node/cli.ts", import.meta.url));
const tsx = pathToFileURL(createRequire(import.meta.url).resolve("tsx")).href;

describe.skipIf(!bin)("OpenAI-compatible engine (llama-server's OpenAI API, response_format json_schema)", () => {
  let server: RunningServer;
  let client: EngineClient;
  const config = () => ({ kind: "openai" as const, url: `${server.url}/v1` });

  beforeAll(async () => {
    server = await startLlamaServer(bin!, await testModelPath(), ["-c", "4096", "-np", "2", "--no-jinja"]);
    client = createNodeEngine({ server: config() });
  });
  afterAll(async () => {
    await client?.shutdown();
    await server?.stop();
  });

  it("Test connection: the model, its context, and a JSON Schema accepted (no GBNF on this engine)", async () => {
    const probe = await client.probeServer(config());
    expect(probe.kind).toBe("openai");
    expect(probe.model).toMatch(/test-model-v8192-s1-.*\.gguf$/);
    expect(probe.contextSize).toBe(2048);
    expect(probe.grammar).toBe(false);
    expect(probe.constraint).toBe("json_schema");
    expect(probe.note).toBeUndefined();
  });

  it("≥ 200 samples at temperature 1 through response_format are all valid envelopes offering only the routed tools", async () => {
    const registry = new ToolRegistry(createToolCatalog({ semantic: false, network: false }));
    const grammars = new SubsetCache(clampTools(registry.grammarTools(), TEST_MODEL_CLAMP), TEST_MODEL_GRAMMAR);
    const subsets = [["vault:read"], ["vault:search", "vault:list"], ["vault:append", "tags:notes"], []];
    const failures: string[] = [];
    let valid = 0;
    const N = 200;
    for (let i = 0; i < N; i += 2) {
      await Promise.all(
        [i, i + 1].map(async (k) => {
          const subset = subsets[k % subsets.length];
          const r = await client.generate({
            messages: [{ role: "user", content: `sample ${k}: do something with my notes` }],
            jsonSchema: grammars.jsonSchema(subset, "dynamic"),
            // The server's schema grammar allows some whitespace our GBNF does not: room for it.
            maxTokens: Math.ceil(grammars.get(subset, "dynamic").maxBytes) + 1024,
            temperature: 1,
            seed: k + 1,
          });
          expect(r.constraint).toBe("json_schema");
          const parsed = parseEnvelope(r.text);
          if (parsed.ok && parsed.envelope.tool_calls.every((c) => subset.includes(c.name))) valid++;
          else failures.push(r.text);
        }),
      );
    }
    expect(failures).toEqual([]);
    expect(valid).toBe(N);
  });

  it("agent turns run under the server's JSON Schema and say so", async () => {
    const headless = await composeHeadless({ vault: copyVault(), server: config() });
    try {
      for (const message of ["read my Inbox note", "search my notes for garden"]) {
        const errors: string[] = [];
        const r = await headless.agent.runTurn(message, { onEvent: (e) => e.type === "error" && errors.push(e.message) });
        expect(["done", "round-cap"], errors.join(" | ")).toContain(r.outcome);
        expect(r.constraint).toBe("json_schema");
      }
    } finally {
      await headless.close();
    }
  });

  it("a model name the server does not serve: the CLI exits 1 with one sentence naming the server and the fix", () => {
    const r = spawnSync(process.execPath, ["--import", tsx, cli, "ask", "--vault", copyVault(), "--engine", "openai", "--url", server.url, "--server-model", "llama-3-70b", "hello"], {
      encoding: "utf8",
      timeout: 120_000,
    });
    expect(r.status).toBe(1);
    expect(r.stderr.trim().split("\n").at(-1)).toMatch(
      /^The OpenAI-compatible server at http:\/\/127\.0\.0\.1:\d+ has no model "llama-3-70b" \(it serves ".*test-model-.*\.gguf"\); set a model name it serves in the settings\.$/,
    );
  });
});
