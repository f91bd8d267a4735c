import { describe, expect, it } from "vitest";
import { z } from "zod";
import type { ToolDefinition } from "../../../src/core/protocol/tool";
import { createToolCatalog } from "../../../src/tools/index";
import { ToolRegistry, ToolRegistryError } from "../../../src/tools/registry";
import { localTools, readTool } from "./local-tools";

const tool = (over: Partial<ToolDefinition>): ToolDefinition => ({ ...readTool, ...over });

describe("tool registry", () => {
  it("accepts the real catalog with a non-empty JSON Schema for every tool", () => {
    const reg = new ToolRegistry(createToolCatalog());
    expect(reg.names().length).toBeGreaterThanOrEqual(20);
    for (const t of reg.list()) {
      expect(t.schema.type, t.definition.name).toBe("object");
      for (const [key, prop] of Object.entries(t.schema.properties as Record<string, object>)) expect(Object.keys(prop).length, `${t.definition.name}.${key}`).toBeGreaterThan(0);
    }
  });

  it("refuses duplicate names", () => {
    expect(() => new ToolRegistry([readTool, readTool])).toThrow(/Two tools are named "notes:read"/);
  });

  it("refuses aliases that point at no arg", () => {
    expect(() => new ToolRegistry([tool({ aliases: { file: "filename" } })])).toThrow(ToolRegistryError);
    expect(() => new ToolRegistry([tool({ aliases: { file: "filename" } })])).toThrow(/alias "file" points at "filename"/);
  });

  it("refuses a name that is not family:verb, or a family that disagrees", () => {
    expect(() => new ToolRegistry([tool({ name: "Read Note" })])).toThrow(/family:verb/);
    expect(() => new ToolRegistry([tool({ family: "vault" })])).toThrow(/declares family "vault"/);
  });

  it("refuses args whose JSON Schema is empty", () => {
    expect(() => new ToolRegistry([tool({ args: z.object({ path: z.any() }), aliases: {} })])).toThrow(/empty JSON Schema/);
  });

  it("exposes input-form schemas: defaulted keys optional, unknown keys refused", () => {
    const reg = new ToolRegistry(localTools);
    const count = reg.get("math:count")!;
    expect(count.required).toEqual(["from", "to"]);
    expect(count.schema.additionalProperties).toBe(false);
    expect(count.validate({ from: 1, to: 2 })).toBe(true);
    expect(count.validate({ from: 1, to: 2, x: 1 })).toBe(false);
    expect(reg.grammarTools(["math:count"])).toEqual([{ name: "math:count", schema: count.schema }]);
    expect(reg.families().get("notes")).toEqual(["notes:read", "notes:append"]);
  });
});
