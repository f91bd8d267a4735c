/** Grounded grammars on real catalogs: existing paths only, headings and edit text of the note the call names. */
import { describe, expect, it } from "vitest";
import { GbnfRecognizer, SubsetCache } from "../../../src/core/grammar";
import { GrammarSampler } from "../../../src/core/grammar/sampler";
import { VaultPathIndex } from "../../../src/core/grammar/vault-paths";
import { VaultTagSet } from "../../../src/core/grammar/vault-tags";
import { ToolRegistry } from "../../../src/tools/registry";
import { createToolCatalog } from "../../../src/tools";

function seeded(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

const envelope = (calls: object[]) => JSON.stringify({ thought: "", status: "Task", message_to_user: null, tool_calls: calls });
const PATHS = ["Projects/Alpha.md", "Projects/Beta.md", "Inbox.md", "Daily/2024-05-01.md", "Files/photo.png", "Private/secret.md"];

function setup() {
  const registry = new ToolRegistry(createToolCatalog());
  const index = new VaultPathIndex((p) => !p.startsWith("Private/"));
  index.load(PATHS);
  const cache = new SubsetCache(registry.grammarTools());
  cache.setVaultPaths(index);
  return { registry, index, cache };
}

describe("grounded grammar", () => {
  it("admits exactly the vault's paths for an existing-path arg, with or without .md", () => {
    const { cache } = setup();
    const r = new GbnfRecognizer(cache.get(["vault:delete"], "dynamic").gbnf);
    for (const p of ["Projects/Alpha.md", "Projects/Alpha", "Inbox", "Files/photo.png"]) expect(r.accepts(envelope([{ name: "vault:delete", args: { path: p } }])), p).toBe(true);
    for (const p of ["Projects/Gamma.md", "Private/secret.md", "Files/photo", "Projects/Alpha.md.md", "Projects", ""]) expect(r.accepts(envelope([{ name: "vault:delete", args: { path: p } }])), p).toBe(false);
  });

  it("leaves a path that may be new as free text (vault:write, vault:move's to)", () => {
    const { cache } = setup();
    const r = new GbnfRecognizer(cache.get(["vault:write", "vault:move"], "dynamic").gbnf);
    expect(r.accepts(envelope([{ name: "vault:write", args: { path: "New/Note.md", content: "x" } }]))).toBe(true);
    expect(r.accepts(envelope([{ name: "vault:move", args: { from: "Inbox.md", to: "Archive/Inbox.md" } }]))).toBe(true);
    expect(r.accepts(envelope([{ name: "vault:move", args: { from: "Nowhere.md", to: "Archive/Inbox.md" } }]))).toBe(false);
  });

  it("follows a rename in the very next grammar: the new path is callable and the old one not", () => {
    const { cache, index } = setup();
    const call = (p: string) => envelope([{ name: "vault:read", args: { path: p } }]);
    expect(new GbnfRecognizer(cache.get(["vault:read"], "dynamic").gbnf).accepts(call("Inbox.md"))).toBe(true);
    index.apply({ kind: "rename", oldPath: "Inbox.md", path: "Archive/Inbox 2024.md" });
    const after = new GbnfRecognizer(cache.get(["vault:read"], "dynamic").gbnf);
    expect(after.accepts(call("Archive/Inbox 2024.md"))).toBe(true);
    expect(after.accepts(call("Inbox.md"))).toBe(false);
  });

  it("grounds heading and find in the note the same call names, for notes in context", () => {
    const { cache } = setup();
    const text = "# Alpha\nThe launch is on Friday, after review.\n## Risks\n- budget \"tight\"\n  indented line\n";
    const context = { notes: [{ path: "Projects/Alpha.md", text, headings: ["Alpha", "Risks"] }] };
    const g = cache.get(["vault:read", "vault:edit"], "dynamic", context).gbnf;
    const r = new GbnfRecognizer(g);
    const read = (args: object) => r.accepts(envelope([{ name: "vault:read", args }]));
    const edit = (find: string) => r.accepts(envelope([{ name: "vault:edit", args: { path: "Projects/Alpha.md", find, replace: "x" } }]));
    expect(read({ path: "Projects/Alpha.md", heading: "Risks" })).toBe(true);
    expect(read({ path: "Projects/Alpha", heading: "Alpha" })).toBe(true);
    expect(read({ path: "Projects/Alpha.md", heading: "Budget" })).toBe(false);
    expect(read({ path: "Projects/Beta.md", heading: "Anything" })).toBe(true);
    for (const ok of ["launch is on", "The launch is on Friday, after review.", "Friday,", "Friday", "on Friday, after", "budget \"tight\"", "## Risks\n- budget \"tight\"", "  indented line"]) expect(edit(ok), ok).toBe(true);
    for (const bad of ["launch was on", "aunch is", "Frid", "review.\n## Risks", "The launch is on Saturday"]) expect(edit(bad), bad).toBe(false);
    // A note outside the context: find stays free text (the gatekeeper asks to read it first).
    expect(r.accepts(envelope([{ name: "vault:edit", args: { path: "Projects/Beta.md", find: "anything", replace: "x" } }]))).toBe(true);
  });

  it("grounds a property key in the keys of the note the same call names, for notes in context", () => {
    const { cache } = setup();
    const text = "---\nstatus: active\nowner: Priya\n---\n# Alpha\n";
    const context = { notes: [{ path: "Projects/Alpha.md", text, headings: ["Alpha"], keys: ["status", "owner"] }, { path: "Inbox.md", text: "no properties", headings: [], keys: [] }] };
    const r = new GbnfRecognizer(cache.get(["frontmatter:get"], "dynamic", context).gbnf);
    const get = (args: object) => r.accepts(envelope([{ name: "frontmatter:get", args }]));
    expect(get({ path: "Projects/Alpha.md", key: "owner" })).toBe(true);
    expect(get({ path: "Projects/Alpha", key: "status" })).toBe(true);
    expect(get({ path: "Projects/Alpha.md" })).toBe(true);
    expect(get({ path: "Projects/Alpha.md", key: "budget" })).toBe(false);
    // A note in context without properties: no key can be asked for, all of them can.
    expect(get({ path: "Inbox.md", key: "status" })).toBe(false);
    expect(get({ path: "Inbox.md" })).toBe(true);
    // A note outside the context: the key stays free text (the tool lists the note's keys when it misses).
    expect(get({ path: "Projects/Beta.md", key: "anything" })).toBe(true);
  });

  it("grounds a tag arg in the vault's tags (nested tags bring their parents), with or without #, and follows a change", () => {
    const { cache } = setup();
    const tags = new VaultTagSet();
    tags.set(["#project", "#work/q3", "#café"]);
    cache.setVaultTags(tags);
    const call = (tag: string) => envelope([{ name: "tags:notes", args: { tag } }]);
    const r = new GbnfRecognizer(cache.get(["tags:notes"], "dynamic").gbnf);
    for (const ok of ["project", "#project", "work", "work/q3", "#work/q3", "café"]) expect(r.accepts(call(ok)), ok).toBe(true);
    for (const bad of ["projects", "proj", "q3", "work/q4", "##project", ""]) expect(r.accepts(call(bad)), bad).toBe(false);
    tags.set(["#project", "#archive"]);
    const after = new GbnfRecognizer(cache.get(["tags:notes"], "dynamic").gbnf);
    expect(after.accepts(call("archive"))).toBe(true);
    expect(after.accepts(call("work/q3"))).toBe(false);
    // Sampled: every tag named is one of the vault's.
    const sampler = new GrammarSampler(cache.get(["tags:notes", "vault:read"], "dynamic").gbnf, { random: seeded(3) });
    let named = 0;
    for (let i = 0; i < 200; i++) {
      for (const c of (JSON.parse(sampler.sample()) as { tool_calls: { name: string; args: Record<string, string> }[] }).tool_calls) {
        if (c.name !== "tags:notes") continue;
        named++;
        expect(tags.has(c.args.tag), c.args.tag).toBe(true);
      }
    }
    expect(named).toBeGreaterThan(20);
  });

  it("leaves a tag arg free while the vault has no tags", () => {
    const { cache } = setup();
    cache.setVaultTags(new VaultTagSet());
    const r = new GbnfRecognizer(cache.get(["tags:notes"], "dynamic").gbnf);
    expect(r.accepts(envelope([{ name: "tags:notes", args: { tag: "anything" } }]))).toBe(true);
  });

  it("samples only existing paths and real note text under the grounded grammar", () => {
    const { cache, index } = setup();
    const text = "# Alpha\nOne two three.\nFour five.\n";
    const g = cache.get(["vault:read", "vault:edit", "vault:delete"], "dynamic", { notes: [{ path: "Projects/Alpha.md", text, headings: ["Alpha"] }] });
    const sampler = new GrammarSampler(g.gbnf, { random: seeded(7) });
    let calls = 0;
    for (let i = 0; i < 300; i++) {
      const env = JSON.parse(sampler.sample()) as { tool_calls: { name: string; args: Record<string, string> }[] };
      for (const c of env.tool_calls) {
        calls++;
        const p = c.args.path;
        expect(index.resolve(p), p).not.toBeNull();
        if (index.resolve(p) === "Projects/Alpha.md" && c.args.find) expect(text.includes(c.args.find), c.args.find).toBe(true);
        if (index.resolve(p) === "Projects/Alpha.md" && c.args.heading) expect(c.args.heading).toBe("Alpha");
      }
    }
    expect(calls).toBeGreaterThan(50);
  });
});

describe("grounded JSON Schema for OpenAI-compatible servers", () => {
  it("gives existing-path args an enum of the vault's paths while the vault is small, and leaves may-be-new paths free", () => {
    const { cache } = setup();
    const schema = cache.jsonSchema(["vault:read", "vault:move"], "dynamic");
    // One shared enum in $defs, referred to by vault:read's path and vault:move's from; not move's to.
    expect([...((schema.$defs as Record<string, { enum: string[] }>).vaultPaths.enum)].sort()).toEqual(PATHS.filter((p) => !p.startsWith("Private/")).sort());
    expect(JSON.stringify(schema).split('"$ref":"#/$defs/vaultPaths"')).toHaveLength(3);
  });

  it("falls back to free text past the enum limit (the gatekeeper then offers the nearest paths)", () => {
    const { cache, index } = setup();
    index.load(Array.from({ length: 600 }, (_, i) => `Notes/Note ${i}.md`));
    expect(JSON.stringify(cache.jsonSchema(["vault:read"], "dynamic"))).not.toContain("Notes/Note 1.md");
  });
});
