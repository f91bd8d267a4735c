import { describe, expect, it } from "vitest";
import { createToolCatalog } from "../../../src/tools/index";
import { ToolRegistry } from "../../../src/tools/registry";
import { argMatches, scoreCall } from "../../../src/node/eval/score";
import { EVAL_SUITE } from "../../../src/node/eval/suite";
import { clampSchema } from "../../../src/app/clamp-schema";

const registry = new ToolRegistry(createToolCatalog({ semantic: false, network: false }));

describe("evaluation suite and scoring", () => {
  it("has at least 150 cases, each naming real tools and real arg keys", () => {
    expect(EVAL_SUITE.length).toBeGreaterThanOrEqual(150);
    for (const c of EVAL_SUITE) {
      for (const t of c.tools) if (t !== "vault:semantic_search") expect(registry.has(t), c.query).toBe(true);
      if (c.tools.length) for (const k of Object.keys(c.args)) expect(registry.get(c.tools[0])!.keys, c.query).toContain(k);
    }
    expect(new Set(EVAL_SUITE.flatMap((c) => c.tools)).size).toBeGreaterThanOrEqual(20);
  });

  it("matches args by normalized containment", () => {
    expect(argMatches("Projects/Project Alpha", "Projects\\Project Alpha.md")).toBe(true);
    expect(argMatches("errand", "#errand")).toBe(true);
    expect(argMatches("Inbox", "Shopping List.md")).toBe(false);
    expect(argMatches(5, "5")).toBe(true);
    expect(argMatches("x", undefined)).toBe(false);
  });

  it("scores the right tool, right args after alias repair, and flags mixed-tool hybrids", () => {
    const c = { query: "read my Inbox note", tools: ["vault:read"], args: { path: "Inbox" } };
    expect(scoreCall(c, { name: "vault:read", args: { file: "Inbox.md" } }, registry)).toEqual({ rightTool: true, rightArgs: true, hybrid: false });
    expect(scoreCall(c, { name: "vault:read", args: { path: "Home.md" } }, registry)).toEqual({ rightTool: true, rightArgs: false, hybrid: false });
    expect(scoreCall(c, { name: "vault:read", args: { query: "inbox", limit: 3 } }, registry).hybrid).toBe(true);
    expect(scoreCall(c, undefined, registry).rightTool).toBe(false);
    expect(scoreCall({ query: "hi", tools: [], args: {} }, undefined, registry)).toEqual({ rightTool: true, rightArgs: true, hybrid: false });
  });

  it("clamps schema sizes without loosening any bound", () => {
    const s = clampSchema({ type: "object", properties: { a: { type: "string", maxLength: 20000 }, b: { type: "string", minLength: 30 }, c: { type: "array", items: { type: "string" } }, d: { type: "string", enum: ["x"] } } }, { maxString: 16, maxItems: 2 });
    const p = s.properties as Record<string, Record<string, unknown>>;
    expect(p.a.maxLength).toBe(16);
    expect(p.b.maxLength).toBe(30);
    expect(p.c.maxItems).toBe(2);
    expect((p.c.items as Record<string, unknown>).maxLength).toBe(16);
    expect(p.d.maxLength).toBeUndefined();
  });
});
