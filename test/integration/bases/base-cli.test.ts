/**
 * Bases on the command line: `base query` prints a view's rows and summaries (text and JSON) and refuses bad input
 * in one sentence; `ask --replay` creates a base and then edits it, each written as valid .base YAML, undone by undo.
 */
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { parse, stringify } from "yaml";
import { parseBaseText } from "../../../src/core/bases";

const root = fileURLToPath(new URL("../../../", import.meta.url));
const tsx = pathToFileURL(createRequire(import.meta.url).resolve("tsx")).href;
const cli = (...args: string[]) => spawnSync(process.execPath, ["--import", tsx, join(root, "src/node/cli.ts"), ...args], { encoding: "utf8", timeout: 240_000, cwd: root });

function studio(): string {
  const vault = mkdtempSync(join(tmpdir(), "base-vault-"));
  cpSync(join(root, "examples/tasks/fixtures/studio-en"), vault, { recursive: true });
  return vault;
}

const BASE = `filters:
  and:
    - file.inFolder("Projects")
formulas:
  rate: "budget / hours"
views:
  - type: table
    name: Active
    filters: 'status == "active"'
    order: [file.name, owner, budget, formula.rate]
    sort:
      - property: budget
        direction: DESC
    summaries:
      budget: Sum
  - type: table
    name: By owner
    groupBy:
      property: owner
      direction: ASC
    summaries:
      hours: Average
`;

describe("base query on the command line", () => {
  it("prints the first view's rows (path, properties, formulas) and its summaries", () => {
    const vault = studio();
    writeFileSync(join(vault, "Projects.base"), BASE);
    const r = cli("base", "query", "--vault", vault, "--file", "Projects.base");
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout.split("\n").slice(0, 5)).toEqual([
      'View "Active": 3 of 3 matching files',
      "path\tfile.name\towner\tbudget\tformula.rate",
      "Projects/Cobalt.md\tCobalt.md\tMaya Chen\t6000\t300",
      "Projects/Atlas.md\tAtlas.md\tMaya Chen\t4000\t333.3333333333333",
      "Projects/Beacon.md\tBeacon.md\tTom Reyes\t2500\t333.3333333333333",
    ]);
    expect(r.stdout).toContain("Sum of budget: 12500");
  });

  it("--view NAME --json prints one object with rows, groups and summaries", () => {
    const vault = studio();
    writeFileSync(join(vault, "Projects.base"), BASE);
    const r = cli("base", "query", "--vault", vault, "--file", "Projects.base", "--view", "By owner", "--json");
    expect(r.status, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout) as { rows: { path: string }[]; summaries: Record<string, number>; groups: { key: string; paths: string[] }[] };
    expect(out.rows.map((x) => x.path)).toEqual(["Projects/Atlas.md", "Projects/Cobalt.md", "Projects/Beacon.md", "Projects/Dune.md"]);
    expect(out.summaries).toEqual({ "Average of hours": 10.625 });
    expect(out.groups.map((g) => [g.key, g.paths.length])).toEqual([["Maya Chen", 2], ["Tom Reyes", 2]]);
  });

  it("bad input is one sentence on stderr: a missing file, an invalid base, a view that is not there", () => {
    const vault = studio();
    const missing = cli("base", "query", "--vault", vault, "--file", "Nope.base");
    expect(missing.status).toBe(2);
    expect(missing.stderr.split("\n")[0]).toBe('The base "Nope.base" does not exist in the vault or the current folder.');
    writeFileSync(join(vault, "Bad.base"), "filters:\n  and:\n    - status ==\n");
    const bad = cli("base", "query", "--vault", vault, "--file", "Bad.base");
    expect(bad.status).toBe(1);
    expect(bad.stderr).toMatch(/^Bad\.base is not a valid base: filters\.and\[0\]: "status ==" is not a valid Bases expression: the expression ends too early\.\n$/);
    writeFileSync(join(vault, "Projects.base"), BASE);
    const view = cli("base", "query", "--vault", vault, "--file", "Projects.base", "--view", "Nope");
    expect(view.status).toBe(1);
    expect(view.stderr).toBe('The base has no view "Nope"; its views are "Active", "By owner".\n');
  });
});

/** A replay file of envelopes: each round's tool calls, then a last reply that answers. */
function replay(rounds: { name: string; args: unknown }[][], answer: string): string {
  const file = join(mkdtempSync(join(tmpdir(), "base-replay-")), "r.jsonl");
  const envelope = (calls: { name: string; args: unknown }[], status: string, message: string | null) =>
    JSON.stringify({ reply: JSON.stringify({ thought: "Base work.", status, message_to_user: message, tool_calls: calls }) });
  writeFileSync(file, [...rounds.map((calls) => envelope(calls, "Task", null)), envelope([], "Idle", answer)].join("\n") + "\n");
  return file;
}

describe("ask --replay with the base tools", () => {
  it("creates a base and then edits it; each is valid .base YAML, and undo takes the edit and the base back", () => {
    const vault = studio();
    const yaml = { parse, stringify };
    const create = replay(
      [[{ name: "base:create", // Keys in the grammar's order: required ones first, then the optional ones as declared.
      args: { path: "Bases/Projects.base", views: [{ name: "Active", filters: ['status == "active"'], order: ["file.name", "owner", "budget"], sort: [{ property: "budget", direction: "DESC" }], summaries: [{ property: "budget", summary: "Sum" }] }], filters: ['file.inFolder("Projects")'] } }]],
      "I made Bases/Projects.base.",
    );
    const made = cli("ask", "--vault", vault, "--allow-writes", "--replay", create, "Create a base Bases/Projects.base that shows the active projects as a table sorted by budget");
    expect(made.status, made.stdout + made.stderr).toBe(0);
    expect(made.stdout).toContain("base:create");
    const first = parseBaseText(readFileSync(join(vault, "Bases/Projects.base"), "utf8"), yaml);
    expect(first.ok && first.base.views.map((v) => v.name)).toEqual(["Active"]);

    const edit = replay(
      [[{ name: "base:edit", args: { path: "Bases/Projects.base", views: [{ name: "By owner", group_by: { property: "owner" }, summaries: [{ property: "hours", summary: "Average" }] }] } }]],
      "Added the view.",
    );
    const before = readFileSync(join(vault, "Bases/Projects.base"), "utf8");
    const edited = cli("ask", "--vault", vault, "--allow-writes", "--replay", edit, "Add a view By owner to the base Bases/Projects.base, grouped by owner");
    expect(edited.status, edited.stdout + edited.stderr).toBe(0);
    const second = parseBaseText(readFileSync(join(vault, "Bases/Projects.base"), "utf8"), yaml);
    expect(second.ok && second.base.views.map((v) => v.name)).toEqual(["Active", "By owner"]);
    const q = cli("base", "query", "--vault", vault, "--file", "Bases/Projects.base", "--view", "By owner", "--json");
    expect((JSON.parse(q.stdout) as { summaries: unknown }).summaries).toEqual({ "Average of hours": 10.625 });

    expect(cli("undo", "--vault", vault, "--last").status).toBe(0);
    expect(readFileSync(join(vault, "Bases/Projects.base"), "utf8")).toBe(before);
    expect(cli("undo", "--vault", vault, "--last").status).toBe(0);
    expect(existsSync(join(vault, "Bases/Projects.base"))).toBe(false);
  }, 240_000);
});
