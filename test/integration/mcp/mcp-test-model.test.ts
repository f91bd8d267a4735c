/**
 * The random-weight test model, generating under the envelope grammar compiled from each real server's tool schemas
 * at temperature 1: every sample parses as an envelope and every call names an offered tool with arguments that ajv
 * accepts against the schema the server sent. Random weights know nothing, so only the grammar makes this hold.
 */
import Ajv from "ajv";
import addFormats from "ajv-formats";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseEnvelope } from "../../../src/core/agent/envelope-parse";
import { SubsetCache } from "../../../src/core/grammar";
import { createNodeEngine } from "../../../src/engine/client/node-launcher";
import type { EngineClient } from "../../../src/engine/client";
import { McpHub } from "../../../src/engine/mcp/mcp-hub";
import { TEST_MODEL_CLAMP, TEST_MODEL_GRAMMAR } from "../../../src/node/compose";
import { clampTools } from "../../../src/app/clamp-schema";
import { McpCatalog } from "../../../src/tools/mcp/mcp-catalog";
import { ToolRegistry } from "../../../src/tools/registry";
import { realServers } from "../../helpers/mcp-servers";
import { testModelPath } from "../../helpers/test-model";

/** Samples per server (3 servers): 300 in all. */
const SAMPLES = Number(process.env.MCP_SAMPLES ?? 100);
/** Short envelope strings so noise reaches the tool call quickly; the args keep the test model's clamp. */
const GRAMMAR = { ...TEST_MODEL_GRAMMAR, maxThoughtChars: 8, maxMessageChars: 8, maxToolCalls: 1 };

let hub: McpHub;
let engine: EngineClient;
const registry = new ToolRegistry();

beforeAll(async () => {
  hub = new McpHub(realServers().configs, { clientInfo: { name: "test", version: "0" } });
  new McpCatalog(hub, registry, { grammarOptions: GRAMMAR });
  await hub.startAll();
  engine = createNodeEngine({ model: { path: await testModelPath(), contextSize: 2048, threads: 1 } });
});
afterAll(async () => {
  await engine?.shutdown();
  await hub?.close();
});

describe("the test model calls real MCP servers' tools with valid arguments under the grammar", () => {
  it.each(["everything", "filesystem", "memory"])(`%s: ${SAMPLES} samples at temperature 1`, { timeout: 900_000 }, async (server) => {
    const names = registry.names().filter((n) => n.startsWith(`mcp:${server}:`));
    expect(names.length).toBeGreaterThan(5);
    const grammars = new SubsetCache(clampTools(registry.grammarTools(names), TEST_MODEL_CLAMP), GRAMMAR);
    const grammar = grammars.get(names, "dynamic");
    // An independent validator over the schemas exactly as the server listed them (not the registry's copy).
    const ajv = new Ajv({ allErrors: true, strict: false });
    addFormats(ajv);
    const listed = new Map(hub.servers().find((s) => s.name === server)!.tools.map((t) => [t.name, t.inputSchema]));
    const problems: string[] = [];
    const called = new Set<string>();
    let calls = 0;
    for (let seed = 1; seed <= SAMPLES; seed++) {
      const r = await engine.generate({ messages: [{ role: "user", content: "Use a tool." }], grammar: grammar.gbnf, maxTokens: Math.ceil(grammar.maxBytes), temperature: 1, seed });
      const parsed = parseEnvelope(r.text);
      if (!parsed.ok) {
        problems.push(`seed ${seed}: ${parsed.reason} ${r.text.slice(0, 120)}`);
        continue;
      }
      for (const call of parsed.envelope.tool_calls) {
        calls++;
        called.add(call.name);
        if (!names.includes(call.name)) problems.push(`seed ${seed}: ${call.name} was not offered`);
        const tool = registry.get(call.name);
        const { $schema: _s, ...schema } = listed.get(tool?.definition.origin?.tool ?? "") ?? {};
        if (!ajv.validate(schema, call.args)) problems.push(`seed ${seed}: ${call.name} ${JSON.stringify(call.args)}: ${ajv.errorsText()}`);
      }
    }
    console.log(`${server}: ${SAMPLES} samples, ${calls} calls to ${called.size} of ${names.length} tools, ${problems.length} problems`);
    expect(problems).toEqual([]);
    // Noise picks tools at random: over the samples most of the server's tools get called.
    expect(calls).toBeGreaterThan(SAMPLES / 5);
    expect(called.size).toBeGreaterThan(names.length / 3);
  });
});
