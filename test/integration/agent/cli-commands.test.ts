import { spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("../../../", import.meta.url));
const tsx = pathToFileURL(createRequire(import.meta.url).resolve("tsx")).href;

function node(script: string, args: string[], env: Record<string, string> = {}) {
  return spawnSync(process.execPath, ["--import", tsx, join(root, script), ...args], { encoding: "utf8", timeout: 240_000, cwd: root, env: { ...process.env, ...env } });
}
const cli = (...args: string[]) => node("src/node/cli.ts", args);

describe("CLI: route, bench step/router, eval usage, demo", () => {
  it("route prints one JSON line per query from --file, with scores", () => {
    const file = join(mkdtempSync(join(tmpdir(), "route-")), "q.txt");
    writeFileSync(file, "what time is it\n\nhello there\nmark the task done in Inbox\n");
    const r = cli("route", "--top", "2", "--json", "--file", file);
    expect(r.status, r.stderr).toBe(0);
    const lines = r.stdout.trim().split("\n").map((l) => JSON.parse(l) as { query: string; tools: { name: string; score: number }[]; chatOnly: boolean });
    expect(lines.map((l) => l.query)).toEqual(["what time is it", "hello there", "mark the task done in Inbox"]);
    expect(lines[0].tools[0].name).toBe("clock:now");
    expect(lines[0].tools[0].score).toBeGreaterThan(0.5);
    expect(lines[1]).toMatchObject({ tools: [], chatOnly: true });
    expect(lines[2].tools[0].name).toBe("tasks:complete");
  });

  it("route --vault reads the vault's note names in a query as notes, as ask does", () => {
    const r = cli("route", "--vault", join(root, "examples/vault"), "What is on my shopping list?");
    expect(r.status, r.stderr).toBe(0);
    const line = JSON.parse(r.stdout.trim()) as { tools: { name: string }[] };
    expect(line.tools[0].name).toBe("vault:read");
    expect(line.tools.map((t) => t.name)).not.toEqual(expect.arrayContaining(["vault:list"]));
    expect(line.tools.map((t) => t.name)).not.toEqual(expect.arrayContaining(["tags:list"]));
    expect(cli("route", "--vault", "/nonexistent/vault", "x").stderr).toContain("does not exist");
  });

  it("route refuses bad usage with exit 2 and a sentence", () => {
    const r = cli("route", "--top", "0", "x");
    expect(r.status).toBe(2);
    expect(r.stderr).toContain("--top must be a whole number from 1 to 50");
    expect(cli("route").stderr).toContain("Give a QUERY or --file F");
  });

  it("bench step and bench router print their JSON objects", () => {
    const step = cli("bench", "step", "--json");
    expect(step.status, step.stderr).toBe(0);
    const s = JSON.parse(step.stdout.trim().split("\n").at(-1)!) as Record<string, number>;
    expect(s.step_overhead_ms_median).toBeGreaterThan(0);
    const router = cli("bench", "router", "--json");
    const r = JSON.parse(router.stdout.trim().split("\n").at(-1)!) as Record<string, number>;
    expect(r.tools).toBe(50);
    expect(r.route_ms_median).toBeGreaterThan(0);
  });

  it("eval refuses a bad --limit and a missing model file", () => {
    expect(cli("eval", "--limit", "zero").stderr).toContain("--limit must be a positive whole number");
    const missing = cli("eval", "--model", "/nonexistent/model.gguf");
    expect(missing.status).toBe(2);
    expect(missing.stderr).toContain("does not exist");
  });

  it("ask checks the model before anything else: a file that is not a model is one sentence on stderr, exit 1", () => {
    const fake = join(mkdtempSync(join(tmpdir(), "ask-fake-")), "fake.gguf");
    writeFileSync(fake, "this is not a model\n");
    const r = cli("ask", "--vault", join(root, "examples/vault"), "--model", fake, "What is on my shopping list?");
    expect(r.status).toBe(1);
    expect(r.stdout).toBe("");
    expect(r.stderr.trim().split("\n")).toHaveLength(1);
    expect(r.stderr).toContain("fake.gguf is not a usable GGUF model");
  });

  it("npm run demo runs a real ask turn over a copy of examples/vault", () => {
    const r = node("src/node/demo.ts", [], { VAULT_AGENT_MODEL: "" });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toContain("[demo] vault copied to");
    expect(r.stdout).toContain("> What is on my shopping list?");
    // "shopping list" names the note Shopping List.md: the router offers reading it, not listing files or tags.
    expect(r.stdout).toMatch(/\[routed\] routed: vault:read \((1|0\.\d+)\)[,\n]/);
    expect(r.stdout).toMatch(/\[end\] (done|round-cap)/);
  });
});
