import { describe, expect, it } from "vitest";
import { SubsetCache } from "../../../src/core/grammar";
import { GbnfRecognizer, parseGbnf } from "../../../src/core/grammar";
import { createToolCatalog } from "../../../src/tools/index";
import { ToolRegistry } from "../../../src/tools/registry";
import { makeAjv } from "../grammar/helpers/ajv";

const registry = new ToolRegistry(createToolCatalog({ semantic: false, network: false }));
const cache = new SubsetCache(registry.grammarTools(), { maxThoughtChars: 40, maxMessageChars: 60, maxToolCalls: 2 });
const ajv = makeAjv();

const envelope = (calls: unknown[], extra: Record<string, unknown> = {}) => ({ thought: "t", status: "Task", message_to_user: null, tool_calls: calls, ...extra });

describe("the envelope as a JSON Schema (for servers constrained by response_format)", () => {
  it("accepts an envelope that calls an offered tool with valid args, and refuses other tools, bad args and extra keys", () => {
    const validate = ajv.compile(cache.jsonSchema(["vault:read", "vault:search"], "dynamic"));
    expect(validate(envelope([{ name: "vault:read", args: { path: "Inbox.md" } }]))).toBe(true);
    expect(validate(envelope([{ name: "vault:delete", args: { path: "Inbox.md" } }]))).toBe(false);
    expect(validate(envelope([{ name: "vault:read", args: { path: 3 } }]))).toBe(false);
    expect(validate(envelope([{ name: "vault:read", args: { path: "a.md" }, extra: 1 }]))).toBe(false);
    expect(validate(envelope([], { more: true }))).toBe(false);
    expect(validate({ ...envelope([]), status: "Done" })).toBe(false);
  });

  it("carries the grammar's caps: thought, message and call count", () => {
    const validate = ajv.compile(cache.jsonSchema(["vault:read"], "dynamic"));
    expect(validate({ ...envelope([]), thought: "x".repeat(40) })).toBe(true);
    expect(validate({ ...envelope([]), thought: "x".repeat(41) })).toBe(false);
    expect(validate({ ...envelope([]), message_to_user: "y".repeat(61) })).toBe(false);
    const call = { name: "vault:read", args: { path: "a.md" } };
    expect(validate(envelope([call, call]))).toBe(true);
    expect(validate(envelope([call, call, call]))).toBe(false);
  });

  it("chat only allows no tool calls, with `items` present so llama.cpp's converter keeps maxItems", () => {
    const schema = cache.jsonSchema([], "dynamic") as { properties: { tool_calls: Record<string, unknown> } };
    expect(schema.properties.tool_calls).toMatchObject({ type: "array", maxItems: 0, items: { type: "object" } });
    const validate = ajv.compile(schema);
    expect(validate(envelope([]))).toBe(true);
    expect(validate(envelope([{ name: "vault:read", args: { path: "a.md" } }]))).toBe(false);
  });

  it("static mode lets args be any object, as the looser recovery grammar does", () => {
    const validate = ajv.compile(cache.jsonSchema(["vault:read"], "static"));
    expect(validate(envelope([{ name: "vault:read", args: { anything: [1, 2] } }]))).toBe(true);
    expect(validate(envelope([{ name: "vault:read", args: "no" }]))).toBe(false);
  });

  it("keeps every length bound below 2000 (llama.cpp refuses longer repetitions) and drops nested $schema", () => {
    const wide = new SubsetCache(registry.grammarTools(), {});
    const text = JSON.stringify(wide.jsonSchema(registry.names(), "dynamic"));
    const bounds = [...text.matchAll(/"max(Length|Items)":(\d+)/g)].map((m) => Number(m[2]));
    expect(bounds.length).toBeGreaterThan(10);
    expect(Math.max(...bounds)).toBeLessThan(2000);
    expect(text).not.toContain("$schema");
  });

  it("every envelope the GBNF accepts for a subset is valid under that subset's schema", () => {
    const names = ["vault:read", "tasks:add"];
    const validate = ajv.compile(cache.jsonSchema(names, "dynamic"));
    const recognizer = new GbnfRecognizer(parseGbnf(cache.get(names, "dynamic").gbnf));
    const samples = [
      envelope([]),
      envelope([{ name: "vault:read", args: { path: "Inbox.md" } }]),
      envelope([{ name: "tasks:add", args: { path: "Inbox.md", text: "buy seeds" } }]),
    ];
    for (const sample of samples) {
      const text = JSON.stringify(sample);
      if (recognizer.accepts(text)) expect(validate(sample), text).toBe(true);
    }
    expect(samples.some((s) => recognizer.accepts(JSON.stringify(s)))).toBe(true);
  });
});
