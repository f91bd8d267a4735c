/** The Bases expression parser and the `.base` file reader: what they accept, and the one sentence they give otherwise. */
import { describe, expect, it } from "vitest";
import { parse, stringify } from "yaml";
import { describeBase, parseBaseText, parseExpression, readBase } from "../../../src/core/bases";

const yaml = { parse, stringify };

/** The Bases syntax page's example file, as a user would save it. */
const SYNTAX_EXAMPLE = `filters:
  or:
    - file.hasTag("tag")
    - and:
        - file.hasTag("book")
        - file.hasLink("Textbook")
    - not:
        - file.hasTag("book")
        - file.inFolder("Required Reading")
formulas:
  formatted_price: 'if(price, price.toFixed(2) + " dollars")'
  ppu: "(price / age).toFixed(2)"
properties:
  status:
    displayName: Status
  formula.formatted_price:
    displayName: "Price"
summaries:
  customAverage: 'values.mean().round(3)'
views:
  - type: table
    name: "My table"
    limit: 10
    groupBy:
      property: note.age
      direction: DESC
    filters:
      and:
        - 'status != "done"'
        - or:
            - "formula.ppu > 5"
            - "price > 2.1"
    order:
      - file.name
      - formula.ppu
    summaries:
      formula.ppu: Average
`;

describe("Bases expressions", () => {
  it.each([
    ['file.hasTag("tag")', { k: "call" }],
    ["price * (2 * 3.14)", { k: "bin", op: "*" }],
    ["!completed", { k: "not" }],
    ["-5", { k: "neg" }],
    ['note["price"]', { k: "get" }],
    ["[1, [2, 3]]", { k: "list" }],
    ['{"a": 1}', { k: "obj" }],
    ["/abc/g", { k: "lit" }],
    ["a || b && c", { k: "bin", op: "||" }],
    ["a == b + 1", { k: "bin", op: "==" }],
  ])("parses %s", (src, shape) => {
    const p = parseExpression(src);
    expect(p.ok && p.expr).toMatchObject(shape);
  });

  it("reads 1.isTruthy() as a method on the number 1, and a / b as a division", () => {
    const m = parseExpression("1.isTruthy()");
    expect(m.ok && m.expr).toMatchObject({ k: "call", fn: { k: "get", obj: { k: "lit", v: 1 } } });
    expect(parseExpression("a / b / c")).toMatchObject({ ok: true, expr: { k: "bin", op: "/" } });
  });

  it.each([
    ['status == "done', "has no closing quote"],
    ["price >", "ends too early"],
    ["(a + b", 'expected ")"'],
    ["a # b", '"#" at character 3'],
    ["a b", 'unexpected "b"'],
    ["", "empty"],
  ])("refuses %j with a sentence", (src, words) => {
    const p = parseExpression(src);
    expect(p.ok).toBe(false);
    if (!p.ok) expect(p.error).toContain(words);
  });
});

describe(".base files", () => {
  it("reads the Bases syntax page's example: filters, formulas, properties, summaries, views", () => {
    const r = parseBaseText(SYNTAX_EXAMPLE, yaml);
    if (!r.ok) throw new Error(r.error);
    expect(r.base.filters).toMatchObject({ or: ['file.hasTag("tag")', { and: expect.any(Array) }, { not: expect.any(Array) }] });
    expect(Object.keys(r.base.formulas)).toEqual(["formatted_price", "ppu"]);
    expect(r.base.views[0]).toMatchObject({ type: "table", name: "My table", limit: 10, groupBy: { property: "note.age", direction: "DESC" }, summaries: { "formula.ppu": "Average" } });
    const words = describeBase(r.base);
    expect(words).toContain('any of (file.hasTag("tag"); all of (file.hasTag("book"); file.hasLink("Textbook")); none of (');
    expect(words).toContain('1. table "My table"');
    expect(words).toContain("grouped by note.age descending");
    expect(words).toContain('formula.formatted_price as "Price"');
  });

  it("accepts a single filter string and a sort list", () => {
    const r = readBase({ filters: 'file.ext == "md"', views: [{ type: "cards", name: "C", sort: [{ property: "file.mtime", direction: "desc" }] }] });
    expect(r.ok && r.base.views[0].sort).toEqual([{ property: "file.mtime", direction: "DESC" }]);
  });

  it.each([
    [{ filters: { xor: ["a"] } }, "filters must be an expression or one of and, or, not (found xor)."],
    [{ filters: { and: "a" } }, "filters.and must be a list of filters."],
    [{ formulas: { f: "price *" } }, "formulas.f:"],
    [{ views: { type: "table" } }, "views must be a list of views."],
    [{ views: [{ name: "V", limit: 0 }] }, "views[0].limit must be a whole number above 0."],
    [{ views: [{ name: "V", sort: [{ property: "x", direction: "UP" }] }] }, "views[0].sort[0].direction must be ASC or DESC."],
    [{ views: [{ name: "V", filters: { and: ['status = "x"'] } }] }, "views[0].filters.and[0]:"],
  ])("refuses %j naming the field", (data, words) => {
    const r = readBase(data);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error).toContain(words);
  });

  it("says when the text is not YAML at all", () => {
    const r = parseBaseText("views: [unclosed", yaml);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error).toMatch(/^The base is not valid YAML: /);
  });
});
