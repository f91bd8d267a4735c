import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { defaultBfclDir } from "../../../src/node/eval/bfcl";

const root = fileURLToPath(new URL("../../../", import.meta.url));
const tsx = pathToFileURL(createRequire(import.meta.url).resolve("tsx")).href;
const cli = (...args: string[]) =>
  spawnSync(process.execPath, ["--import", tsx, join(root, "src/node/cli.ts"), ...args], { encoding: "utf8", timeout: 600_000, cwd: root });
const lastJson = (out: string) => JSON.parse(out.trim().split("\n").at(-1)!) as Record<string, unknown>;

describe("CLI: route over foreign catalogs, bench router at scale, eval suites", () => {
  const dir = mkdtempSync(join(tmpdir(), "catalog-"));

  it("route --catalog routes over the tools of an MCP-style file and refuses a broken one with one sentence", () => {
    const file = join(dir, "tools.json");
    writeFileSync(
      file,
      JSON.stringify({
        tools: [
          { name: "get_forecast", description: "Weather forecast for a place.", inputSchema: { type: "object", properties: { city: { type: "string" } } } },
          { name: "create_issue", description: "Open an issue in a repository.", inputSchema: { type: "object", properties: { title: { type: "string" } } } },
        ],
      }),
    );
    const r = cli("route", "--catalog", file, "open an issue about the crash on startup");
    expect(r.status, r.stderr).toBe(0);
    expect((lastJson(r.stdout).tools as { name: string }[])[0].name).toBe("create_issue");
    const broken = join(dir, "broken.json");
    writeFileSync(broken, JSON.stringify([{ description: "no name" }]));
    const bad = cli("route", "--catalog", broken, "x");
    expect(bad.status).toBe(2);
    expect(bad.stderr.split("\n")[0]).toBe(`${broken}: Tool 1 of the catalog has no "name" string.`);
    expect(cli("route", "--catalog", join(dir, "missing.json"), "x").stderr).toContain("Cannot read the catalog file");
  });

  it("route --semantic offers vault:semantic_search, and without it never", () => {
    const q = "notes about the idea of slow living";
    const withIt = lastJson(cli("route", "--semantic", q).stdout).tools as { name: string }[];
    const without = lastJson(cli("route", q).stdout).tools as { name: string }[];
    expect(withIt.map((t) => t.name)).toContain("vault:semantic_search");
    expect(without.map((t) => t.name)).not.toContain("vault:semantic_search");
  });

  it("bench router --tools 1000 times a thousand-tool catalog", () => {
    const r = cli("bench", "router", "--tools", "1000", "--rounds", "3");
    expect(r.status, r.stderr).toBe(0);
    const j = lastJson(r.stdout);
    expect(j).toMatchObject({ bench: "router", tools: 1000, budget_ms: 5 });
    expect(j.route_ms_median).toBeGreaterThan(0);
    expect(cli("bench", "router", "--tools", "0").status).toBe(2);
  });

  it.skipIf(!existsSync(defaultBfclDir()))("eval --suite router reports every language's suite, held-out and blind sets, and BFCL recall", () => {
    const r = cli("eval", "--suite", "router", "--json");
    expect(r.status, r.stderr).toBe(0);
    const j = lastJson(r.stdout) as { languages: { language: string; set: string }[]; bfcl: { functions: number; top3: number } };
    expect(j.languages).toHaveLength(42);
    expect(new Set(j.languages.map((l) => l.language)).size).toBe(14);
    expect(new Set(j.languages.map((l) => l.set))).toEqual(new Set(["suite", "heldout", "blind"]));
    expect(j.bfcl.functions).toBe(845);
    expect(j.bfcl.top3).toBeGreaterThanOrEqual(0.9);
    // The multi-step suite per language, with totals for every language but English and for all.
    const plans = (j as unknown as { plans: { language: string; set: string; metrics: { cases: number; whole_plan: number; first_step: number; mean_offered: number } }[] }).plans;
    const all = plans.find((p) => p.language === "all" && p.set === "multi-step")!;
    expect(all.metrics.cases).toBeGreaterThanOrEqual(150);
    expect(new Set(plans.filter((p) => p.metrics.cases > 0).map((p) => p.language)).size).toBe(16);
    expect(all.metrics.whole_plan).toBeGreaterThanOrEqual(0.95);
    expect(all.metrics.first_step).toBeGreaterThanOrEqual(0.98);
    expect(all.metrics.mean_offered).toBeLessThanOrEqual(8);
  });

  it("route --json shows its reading: per step the words, the tools chosen and the negated words", () => {
    const r = cli("route", "--json", "Search my notes about tea, then read the newest one. Do not modify any files.");
    expect(r.status, r.stderr).toBe(0);
    const j = lastJson(r.stdout) as { tools: { name: string }[]; reading: { steps: { words: string; tools: string[]; negated?: { cue: string; words: string } }[]; readOnly: boolean } };
    expect(j.reading.steps.map((s) => s.words)).toEqual(["Search my notes about tea", "then read the newest one", "Do not modify any files"]);
    expect(j.reading.steps[0].tools).toContain("vault:search");
    expect(j.reading.steps[2].negated).toEqual({ cue: "do not", words: "Do not modify any files" });
    expect(j.reading.readOnly).toBe(true);
    expect(j.tools.map((t) => t.name)).toEqual(expect.arrayContaining(["vault:search", "vault:read"]));
  });

  it.skipIf(!existsSync(defaultBfclDir()))("eval --suite bfcl runs BFCL items with their own catalogs through the real engine: every grammar reply is a valid envelope", () => {
    const r = cli("eval", "--suite", "bfcl", "--limit", "4", "--json");
    expect(r.status, r.stderr).toBe(0);
    const j = lastJson(r.stdout) as { items: number; results: { config: string; items: number; valid_json_pct: number; right_function_pct: number }[] };
    expect(j.items).toBe(4);
    expect(j.results.map((x) => x.config)).toEqual(["prompt only", "full-catalog grammar", "router + grammar", "router + grammar + recovery"]);
    for (const row of j.results.slice(1)) expect(row.valid_json_pct, row.config).toBe(100);
    expect(cli("eval", "--suite", "nope").stderr).toMatch(/^--suite must be tools, router, bfcl/);
  });
});
