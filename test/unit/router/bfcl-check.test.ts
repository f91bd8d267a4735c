import { existsSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { argsAcceptable, sameValue, standardize } from "../../../src/node/eval/bfcl-check";
import { bfclToolName, bfclTools } from "../../../src/node/eval/bfcl-eval";
import { defaultBfclDir, loadBfcl } from "../../../src/node/eval/bfcl";
import { ToolRegistry } from "../../../src/tools/registry";

describe("BFCL's argument checker", () => {
  it("compares strings as BFCL does, accepts an int for a float, and checks lists element by element", () => {
    expect(standardize("New York, NY")).toBe("newyorkny");
    expect(sameValue("new-york ny", "New York, NY")).toBe(true);
    expect(sameValue(5, 5.0)).toBe(true);
    expect(sameValue("5", 5)).toBe(false);
    expect(sameValue(["a", "B"], ["A", "b"])).toBe(true);
    expect(sameValue(["a"], ["a", "b"])).toBe(false);
  });

  it("needs every parameter acceptable, lets '' mark an optional one, and refuses unknown parameters", () => {
    const acceptable = { city: ["Paris", "Paris, France"], unit: ["celsius", ""], days: [3] };
    expect(argsAcceptable({ city: "paris", days: 3 }, acceptable)).toBe(true);
    expect(argsAcceptable({ city: "Paris, France", unit: "Celsius", days: 3 }, acceptable)).toBe(true);
    expect(argsAcceptable({ city: "Lyon", days: 3 }, acceptable)).toBe(false);
    expect(argsAcceptable({ city: "Paris" }, acceptable)).toBe(false);
    expect(argsAcceptable({ city: "Paris", days: 3, extra: 1 }, acceptable)).toBe(false);
  });

  it("checks a dict parameter key by key against its own acceptable lists", () => {
    const acceptable = { filter: [{ genre: ["rock", "pop"], year: [2020, ""] }] };
    expect(argsAcceptable({ filter: { genre: "Pop" } }, acceptable)).toBe(true);
    expect(argsAcceptable({ filter: { genre: "jazz" } }, acceptable)).toBe(false);
    expect(argsAcceptable({ filter: { genre: "rock", mood: "x" } }, acceptable)).toBe(false);
  });
});

describe("BFCL functions as tools", () => {
  it("names them family:verb and keeps names apart", () => {
    expect(bfclToolName("math.hypot")).toBe("bfcl:math_hypot");
    expect(bfclToolName("Hotels_4_SearchHotel")).toBe("bfcl:hotels_4_searchhotel");
    expect(bfclToolName("3d_print")).toBe("bfcl:f3d_print");
  });
});

const hasBfcl = existsSync(defaultBfclDir());

describe.skipIf(!hasBfcl)("on the BFCL sample", () => {
  // vitest runs a skipped describe's body to collect its tests: load only when the sample is there.
  const items = hasBfcl ? loadBfcl() : [];

  it("accepts each item's own concrete answer, except the four the BFCL sample's README lists as contradicting their schema", () => {
    const refused = items.filter((it) => !argsAcceptable(it.answer[0].args, it.answer[0].acceptable)).map((it) => it.id);
    const flagged = new Set(items.filter((it) => (it.answer[0] as { schema_violations?: unknown[] }).schema_violations).map((it) => it.id));
    expect(refused.every((id) => flagged.has(id)), refused.join(", ")).toBe(true);
    expect(refused.length).toBeLessThanOrEqual(4);
  });

  it("registers the functions as tools whose schema validates the concrete answer (every eighth item)", () => {
    let checked = 0;
    for (const item of items.filter((_, i) => i % 8 === 0)) {
      const { tools, original } = bfclTools(item);
      const registry = new ToolRegistry(tools);
      const expected = [...original].find(([, n]) => n === item.answer[0].name)![0];
      if ((item.answer[0] as { schema_violations?: unknown[] }).schema_violations) continue;
      expect(registry.get(expected)!.validate(item.answer[0].args), item.id).toBe(true);
      checked++;
    }
    expect(checked).toBeGreaterThanOrEqual(48);
  });
});
