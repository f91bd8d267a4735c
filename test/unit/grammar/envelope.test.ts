/** The envelope grammar (dynamic and static) and the per-turn subset cache. */
import { describe, expect, it } from "vitest";
import { GbnfRecognizer, SubsetCache, compileEnvelopeGrammar, parseGbnf } from "../../../src/core/grammar";
import { validatorFor } from "./helpers/ajv";
import { longestText } from "./helpers/longest-text";
import { syntheticGrammarTools } from "./helpers/catalog";

const catalog = syntheticGrammarTools();
const pick = (...names: string[]) => catalog.filter((t) => names.includes(t.name));
const envelope = (tool_calls: unknown[], extra: Record<string, unknown> = {}) =>
  JSON.stringify({ thought: "Reading the note ✓ \"quoted\"\n", status: "Task", message_to_user: null, tool_calls, ...extra });

describe("envelope grammar", () => {
  const r = new GbnfRecognizer(compileEnvelopeGrammar(pick("vault:read", "daily:open", "task:list")).gbnf);

  it("accepts the four keys in order with typed args for each offered tool", () => {
    expect(r.accepts(envelope([]))).toBe(true);
    expect(r.accepts(envelope([{ name: "vault:read", args: { path: "a.md", page: 2 } }]))).toBe(true);
    expect(r.accepts(envelope([{ name: "daily:open", args: { date: "2024-02-29", create: false } }, { name: "task:list", args: { status: "open", due: { from: "2024-01-01" } } }]))).toBe(true);
    expect(r.accepts(JSON.stringify({ thought: "", status: "Idle", message_to_user: "Done — 2 notes.", tool_calls: [] }))).toBe(true);
  });

  it("rejects an unknown tool, a tool that was not offered, wrong args, and keys out of order", () => {
    expect(r.accepts(envelope([{ name: "vault:reed", args: { path: "a.md" } }]))).toBe(false);
    expect(r.accepts(envelope([{ name: "vault:write", args: { path: "a.md", content: "", overwrite: true } }]))).toBe(false);
    expect(r.accepts(envelope([{ name: "vault:read", args: { path: "" } }]))).toBe(false);
    expect(r.accepts(envelope([{ name: "vault:read", args: { path: "a.md", pages: 2 } }]))).toBe(false);
    expect(r.accepts(envelope([{ name: "vault:read", args: { page: 2 } }]))).toBe(false);
    expect(r.accepts(envelope([{ name: "daily:open", args: { date: "2024-02-30", create: true } }]))).toBe(false);
    expect(r.accepts(JSON.stringify({ status: "Task", thought: "", message_to_user: null, tool_calls: [] }))).toBe(false);
    expect(r.accepts(envelope([], { status: "Working" }))).toBe(false);
    expect(r.accepts(envelope([], { extra: 1 }))).toBe(false);
  });

  it("compiles an empty subset to a grammar whose tool_calls can only be []", () => {
    const compiled = compileEnvelopeGrammar([]);
    expect(compiled.gbnf).toContain('",\\"tool_calls\\":[]}"');
    const empty = new GbnfRecognizer(compiled.gbnf);
    expect(empty.accepts(envelope([]))).toBe(true);
    expect(empty.accepts(envelope([{ name: "vault:read", args: { path: "a.md" } }]))).toBe(false);
  });

  it("limits thought, message and the number of tool calls from the options", () => {
    const small = new GbnfRecognizer(compileEnvelopeGrammar(pick("vault:read"), { maxThoughtChars: 5, maxMessageChars: 3, maxToolCalls: 2 }).gbnf);
    const call = { name: "vault:read", args: { path: "a" } };
    expect(small.accepts(JSON.stringify({ thought: "12345", status: "Task", message_to_user: "abc", tool_calls: [call, call] }))).toBe(true);
    expect(small.accepts(JSON.stringify({ thought: "123456", status: "Task", message_to_user: null, tool_calls: [] }))).toBe(false);
    expect(small.accepts(JSON.stringify({ thought: "", status: "Task", message_to_user: "abcd", tool_calls: [] }))).toBe(false);
    expect(small.accepts(JSON.stringify({ thought: "", status: "Task", message_to_user: null, tool_calls: [call, call, call] }))).toBe(false);
  });

  it("static mode accepts any JSON object as args but still only offered tool names", () => {
    const loose = new GbnfRecognizer(compileEnvelopeGrammar(pick("vault:read"), { mode: "static" }).gbnf);
    expect(loose.accepts(envelope([{ name: "vault:read", args: { file: "a.md", n: [1, { x: null }] } }]))).toBe(true);
    expect(loose.accepts(envelope([{ name: "vault:list", args: {} }]))).toBe(false);
    expect(loose.accepts(envelope([{ name: "vault:read", args: [1] }]))).toBe(false);
  });

  it("maps tool names to collision-free llama.cpp rule names", () => {
    const schema = { type: "object", properties: { n: { type: "integer", minimum: 0, maximum: 3 } }, required: ["n"], additionalProperties: false };
    const valueOf: Record<string, [unknown, object]> = {
      "a:b": [3, { type: "integer", minimum: 0, maximum: 3 }],
      a_b: [true, { type: "boolean" }],
      "a-b": [null, { type: "null" }],
      "A B": ["s", { type: "string", maxLength: 1 }],
      root: [[], { type: "array", maxItems: 0 }],
      "json:char": [1.5, { type: "number", minimum: 1, maximum: 2 }],
      "a-b-object": ["xyz", { type: "string", minLength: 3, maxLength: 3 }],
    };
    const tools = Object.entries(valueOf).map(([name, [, n]]) => ({ name, schema: { ...schema, properties: { n } } }));
    const compiled = compileEnvelopeGrammar(tools);
    const names = [...compiled.gbnf.matchAll(/^(\S+) ::=/gm)].map((m) => m[1]);
    expect(new Set(names).size).toBe(names.length);
    for (const n of names) expect(n).toMatch(/^[A-Za-z0-9-]+$/);
    // Deterministic: the same tools in another order compile to the same text.
    expect(compileEnvelopeGrammar([...tools].reverse()).gbnf).toBe(compiled.gbnf);
    const rr = new GbnfRecognizer(compiled.gbnf);
    const call = (name: string, n: unknown) => ({ name, args: { n } });
    expect(rr.accepts(envelope(Object.entries(valueOf).slice(0, 4).map(([name, [v]]) => call(name, v))))).toBe(true);
    // Each tool keeps its own args rule: every other tool's value is rejected for it.
    for (const [name] of Object.entries(valueOf)) {
      for (const [other, [v]] of Object.entries(valueOf)) {
        expect(rr.accepts(envelope([call(name, v)])), `${name} with ${other}'s value`).toBe(name === other);
      }
    }
  });

  it("refuses a subset that offers the same tool twice", () => {
    expect(() => compileEnvelopeGrammar([...pick("vault:read"), ...pick("vault:read")])).toThrow(/offered twice/);
  });

  it("reports a finite byte bound that covers the longest envelope", () => {
    const compiled = compileEnvelopeGrammar(pick("vault:read"), { maxThoughtChars: 10, maxMessageChars: 10, maxToolCalls: 1 });
    const longest = JSON.stringify({ thought: "\\".repeat(10), status: "Reflect", message_to_user: "\\".repeat(10), tool_calls: [{ name: "vault:read", args: { path: "😀".repeat(512), page: 1000, includeFrontmatter: false } }] });
    expect(new GbnfRecognizer(compiled.gbnf).accepts(longest)).toBe(true);
    expect(compiled.maxBytes).toBeGreaterThanOrEqual(Buffer.byteLength(longest));
    expect(compiled.maxBytes).toBeLessThan(10_000);
  });

  it("reports maxBytes equal to the longest envelope the grammar derives, and that envelope is valid", () => {
    for (const mode of ["dynamic", "static"] as const) {
      const compiled = compileEnvelopeGrammar(catalog, { mode, maxToolCalls: 2, maxItems: 3, maxKeys: 3, maxStringChars: 20, anyValueDepth: 3, anyValueMembers: 3 });
      const longest = longestText(parseGbnf(compiled.gbnf));
      expect(Buffer.byteLength(longest, "utf8")).toBe(compiled.maxBytes);
      const parsed = JSON.parse(longest) as { status: string; tool_calls: Array<{ name: string; args: unknown }> };
      expect(parsed.tool_calls).toHaveLength(2);
      if (mode === "dynamic") {
        for (const call of parsed.tool_calls) {
          const tool = catalog.find((t) => t.name === call.name)!;
          expect(validatorFor(tool.schema)(call.args), call.name).toBe(true);
        }
      }
    }
  });

  it("compiles the whole synthetic catalog without a relaxation", () => {
    expect(compileEnvelopeGrammar(catalog).relaxations).toEqual([]);
  });
});

describe("SubsetCache", () => {
  it("returns the cached grammar for the same subset in any order, without recompiling", () => {
    const cache = new SubsetCache(catalog);
    const a = cache.get(["vault:read", "tag:add"]);
    const b = cache.get(["tag:add", "vault:read"]);
    expect(b).toBe(a);
    expect(cache.get(["vault:read"])).not.toBe(a);
  });

  it("keeps dynamic and static grammars apart", () => {
    const cache = new SubsetCache(catalog);
    expect(cache.get(["vault:read"], "static")).not.toBe(cache.get(["vault:read"], "dynamic"));
    expect(cache.get(["vault:read"], "static").gbnf).not.toContain("vault-read-object");
  });

  it("is invalidated when a tool's schema changes in the catalog", () => {
    const cache = new SubsetCache(catalog);
    const before = cache.get(["vault:read"]);
    const changed = catalog.map((t) => (t.name === "vault:read" ? { name: t.name, schema: { type: "object", properties: { only: { type: "boolean" } }, required: ["only"], additionalProperties: false } } : t));
    cache.setCatalog(changed);
    const after = cache.get(["vault:read"]);
    expect(after).not.toBe(before);
    const call = (args: unknown) => envelope([{ name: "vault:read", args }]);
    expect(new GbnfRecognizer(after.gbnf).accepts(call({ only: true }))).toBe(true);
    expect(new GbnfRecognizer(after.gbnf).accepts(call({ path: "a.md" }))).toBe(false);
    expect(new GbnfRecognizer(before.gbnf).accepts(call({ path: "a.md" }))).toBe(true);
  });

  it("keys on the set of names: duplicates and order hit the same entry, and a hit returns the identical grammar", () => {
    const cache = new SubsetCache(catalog);
    const first = cache.get(["tag:add", "vault:read"]);
    expect(cache.get(["vault:read", "tag:add", "vault:read"])).toBe(first);
    expect(cache.get(["vault:read", "tag:add"]).gbnf).toBe(first.gbnf);
    // A separately compiled grammar is equal in text but a different object: identity proves the hit did not recompile.
    const fresh = compileEnvelopeGrammar(pick("tag:add", "vault:read"));
    expect(fresh.gbnf).toBe(first.gbnf);
    expect(fresh).not.toBe(first);
  });

  it("is invalidated when the catalog or the options change", () => {
    const cache = new SubsetCache(catalog);
    const before = cache.get(["vault:read"]);
    cache.setCatalog(catalog, { maxThoughtChars: 10 });
    const after = cache.get(["vault:read"]);
    expect(after).not.toBe(before);
    expect(new GbnfRecognizer(after.gbnf).accepts(JSON.stringify({ thought: "x".repeat(11), status: "Task", message_to_user: null, tool_calls: [] }))).toBe(false);
  });

  it("names an unknown tool in its error", () => {
    const cache = new SubsetCache(catalog);
    expect(() => cache.get(["vault:nope"])).toThrow(/"vault:nope" is not in the catalog/);
  });
});
