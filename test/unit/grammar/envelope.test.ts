/** The envelope grammar (dynamic and static) and the per-turn subset cache. */
import { describe, expect, it } from "vitest";
import { GbnfRecognizer, SubsetCache, compileEnvelopeGrammar } from "../../../src/core/grammar";
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
    const compiled = compileEnvelopeGrammar([
      { name: "a:b", schema },
      { name: "a-b", schema: { ...schema, properties: { n: { type: "boolean" } } } },
      { name: "A B", schema: { ...schema, properties: { n: { type: "null" } } } },
    ]);
    const names = [...compiled.gbnf.matchAll(/^(\S+) ::=/gm)].map((m) => m[1]);
    expect(new Set(names).size).toBe(names.length);
    for (const n of names) expect(n).toMatch(/^[A-Za-z0-9-]+$/);
    const rr = new GbnfRecognizer(compiled.gbnf);
    expect(rr.accepts(envelope([{ name: "a:b", args: { n: 3 } }, { name: "a-b", args: { n: true } }, { name: "A B", args: { n: null } }]))).toBe(true);
    expect(rr.accepts(envelope([{ name: "a:b", args: { n: true } }]))).toBe(false);
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

  it("compiles the whole synthetic catalog without a fallback", () => {
    expect(compileEnvelopeGrammar(catalog).fallbacks).toEqual([]);
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
