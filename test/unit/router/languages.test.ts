import { existsSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { CatalogError, parseCatalog, parseCatalogText } from "../../../src/core/router/catalog";
import { ToolRouter } from "../../../src/core/router/tool-router";
import { bfclRouteMetrics } from "../../../src/node/eval/bfcl-route";
import { defaultBfclDir, loadBfcl } from "../../../src/node/eval/bfcl";
import { languageCases, SUITE_LANGUAGES } from "../../../src/node/eval/language-suites";
import { routeMetrics } from "../../../src/node/eval/route-metrics";
import { defaultRouter } from "../../../src/node/eval/router-eval";
import { createToolCatalog } from "../../../src/tools/index";

const router = defaultRouter();
const names = (q: string) => router.routeText(q).tools.map((t) => t.name);

describe("routing in every supported language (text scores only)", () => {
  for (const lang of SUITE_LANGUAGES) {
    it(`${lang}: the tool is in the top 3 for ${lang === "en" ? "95" : "90"}% of the suite, small talk gets no tools`, () => {
      const m = routeMetrics(router, languageCases(lang));
      const why = JSON.stringify(m.misses);
      expect(m.top3_recall, why).toBeGreaterThanOrEqual(lang === "en" ? 0.95 : 0.9);
      expect(m.chat_recall, why).toBeGreaterThanOrEqual(0.9);
      expect(m.chat_precision, why).toBeGreaterThanOrEqual(0.9);
    });
  }

  it("holds up on the held-out requests, which the router was never tuned on", () => {
    for (const lang of SUITE_LANGUAGES) {
      const m = routeMetrics(router, languageCases(lang, "heldout"));
      expect(m.tool_cases, lang).toBeGreaterThanOrEqual(10);
      expect(m.top3_recall, `${lang} ${JSON.stringify(m.misses)}`).toBeGreaterThanOrEqual(lang === "en" ? 0.95 : 0.9);
    }
  });

  it("holds up on the blind requests, written from the tool list alone by someone who never saw the router", () => {
    for (const lang of SUITE_LANGUAGES) {
      const m = routeMetrics(router, languageCases(lang, "blind"));
      const why = `${lang} ${JSON.stringify(m.misses)}`;
      expect(m.tool_cases, lang).toBeGreaterThanOrEqual(20);
      expect(m.top3_recall, why).toBeGreaterThanOrEqual(lang === "en" ? 0.95 : 0.9);
      expect(m.chat_precision, why).toBeGreaterThanOrEqual(0.9);
    }
  });

  it("every suite covers the tool families and has small talk", () => {
    const families = ["vault", "note", "tags", "links", "frontmatter", "daily", "tasks", "clock", "memory", "web"];
    for (const lang of SUITE_LANGUAGES) {
      const cases = languageCases(lang);
      const covered = new Set(cases.flatMap((c) => c.tools.map((t) => t.split(":")[0])));
      // The English suite is the agent eval's, which runs without network tools.
      expect([...covered].sort(), lang).toEqual(expect.arrayContaining(lang === "en" ? families.filter((f) => f !== "web") : families));
      expect(cases.filter((c) => c.tools.length === 0).length, lang).toBeGreaterThanOrEqual(5);
    }
  });

  it("offers a write sibling when a request in another language asks for a change", () => {
    expect(names("Füge „Eier“ zu meiner Tagesnotiz von heute hinzu")).toContain("daily:append");
    expect(names("把“买鸡蛋”加到今天的日记里")).toContain("daily:append");
  });

  it("reads a greeting or thanks followed by a request as the request", () => {
    for (const q of ["ok, delete the draft", "Danke! Und jetzt füge Eier hinzu", "Привет! Добавь задачу купить хлеб", "谢谢，再帮我新建一个笔记"]) {
      expect(router.routeText(q).chatOnly, q).toBe(false);
    }
    for (const q of ["Danke, das war's", "merci, c'est parfait", "спасибо, всё понятно", "ありがとう、またね"]) expect(router.routeText(q).chatOnly, q).toBe(true);
  });

  it("answers a request after a greeting with tools when a tool matches it", () => {
    const r = new ToolRouter(parseCatalog([{ name: "find_venues", description: "Find free performance venues in a city.", parameters: { type: "object", properties: { city: { type: "string" } } } }]));
    expect(r.routeText("Hi, are there any free performance venues I can visit in London?").tools.map((t) => t.name)).toEqual(["find_venues"]);
    expect(r.routeText("hi there!").chatOnly).toBe(true);
  });

  it("leans a statement to writing and a question to reading ('remember that' vs 'do you remember')", () => {
    expect(names("Recuerda que mi hermana vive en Sevilla")[0]).toBe("memory:save");
    expect(names("¿Recuerdas dónde vive mi hermana?")[0]).toBe("memory:recall");
  });
});

describe("foreign catalogs", () => {
  const tools = parseCatalog([
    { name: "get_weather", description: "Current weather for a city.", parameters: { type: "object", properties: { city: { type: "string", description: "City name" } } } },
    { type: "function", function: { name: "sendEmail", description: "Send an email to someone.", parameters: { type: "object", properties: { to: { type: "string" } } } } },
    { name: "fs.delete_file", description: "Delete a file.", inputSchema: { type: "object" }, annotations: { destructiveHint: true } },
  ]);

  it("reads BFCL, OpenAI and MCP shapes: name words, parameter text, effect from MCP annotations", () => {
    expect(tools.map((t) => [t.name, t.family, t.effect])).toEqual([
      ["get_weather", "get_weather", "read"],
      ["sendEmail", "sendEmail", "read"],
      ["fs.delete_file", "fs", "destructive"],
    ]);
    expect(tools[0].parameterText).toContain("City name");
    const r = new ToolRouter(tools);
    expect(r.routeText("what's the weather like in Lisbon").tools[0].name).toBe("get_weather");
    expect(r.routeText("email my landlord about the heating").tools[0].name).toBe("sendEmail");
    expect(parseCatalog({ tools: [{ name: "a", description: "x" }] })).toHaveLength(1);
  });

  it("refuses a malformed catalog with one sentence", () => {
    const cases: [unknown, RegExp][] = [
      [{ x: 1 }, /must be a JSON array of tools/],
      [[], /has no tools/],
      [[{ description: "no name" }], /Tool 1 of the catalog has no "name"/],
      [[{ name: "a" }, { name: "a" }], /names two tools "a"/],
      [[{ name: "a", parameters: "x" }], /parameters that are not a JSON Schema object/],
      [[{ name: "a", description: 3 }], /"description" that is not a string/],
    ];
    for (const [data, re] of cases) {
      expect(() => parseCatalog(data)).toThrow(CatalogError);
      expect(() => parseCatalog(data)).toThrow(re);
    }
    expect(() => parseCatalogText("{nope")).toThrow(/not valid JSON/);
  });

  it("mixes built-in and foreign tools in one router, and the built-ins keep their languages", () => {
    const r = new ToolRouter([...createToolCatalog({ semantic: false }), ...tools]);
    expect(r.routeText("check the weather forecast for Berlin").tools[0].name).toBe("get_weather");
    expect(r.routeText("Lösche die Notiz Entwurf.md").tools[0].name).toBe("vault:delete");
  });
});

describe.skipIf(!existsSync(defaultBfclDir()))("BFCL: all functions of the sample as one catalog", () => {
  it("finds the expected function in the top 3 for 90% of the requests and in the top 10 for 97%", () => {
    const m = bfclRouteMetrics(loadBfcl());
    expect(m.functions).toBe(845);
    expect(m.items).toBe(400);
    expect(m.top3).toBeGreaterThanOrEqual(0.9);
    expect(m.top10).toBeGreaterThanOrEqual(0.97);
  });
});
