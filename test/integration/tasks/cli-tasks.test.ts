import { spawnSync } from "node:child_process";
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("../../../", import.meta.url));
const tsx = pathToFileURL(createRequire(import.meta.url).resolve("tsx")).href;
const cli = (...args: string[]) =>
  spawnSync(process.execPath, ["--import", tsx, join(root, "src/node/cli.ts"), ...args], { encoding: "utf8", timeout: 240_000, cwd: root });

function vaultCopy(): string {
  const dir = mkdtempSync(join(tmpdir(), "replay-vault-"));
  cpSync(join(root, "examples/tasks/fixtures/studio-en"), dir, { recursive: true });
  return dir;
}

/** The transcript without timings, which differ between a model and its replay. */
const shape = (out: string) => out.split("\n").filter((l) => !l.startsWith("[note]") && !l.startsWith("[end]")).join("\n");

describe("ask --transcript / --replay and eval --suite tasks on the command line", () => {
  it("ask --replay round-trips what ask --transcript recorded on the test model: the same calls, results and answer", () => {
    const file = join(mkdtempSync(join(tmpdir(), "transcript-")), "t.jsonl");
    const recorded = cli("ask", "--vault", vaultCopy(), "--transcript", file, "--seed", "3", "What is the office Wi-Fi password?");
    expect(recorded.status, recorded.stderr).toBe(0);
    const lines = readFileSync(file, "utf8").trim().split("\n").map((l) => JSON.parse(l) as { reply?: string; type?: string });
    const replies = lines.filter((l) => typeof l.reply === "string");
    expect(replies.length).toBeGreaterThan(0);
    expect(lines.some((l) => l.type === "turn-end")).toBe(true);
    const replayed = cli("ask", "--vault", vaultCopy(), "--replay", file, "What is the office Wi-Fi password?");
    expect(replayed.status, replayed.stderr).toBe(0);
    expect(shape(replayed.stdout)).toBe(shape(recorded.stdout));
    expect(replayed.stdout).toContain(`[note] Replaying ${replies.length} recorded replies`);
  }, 240_000);

  it("ask --replay refuses a reply that calls a tool the round does not offer, naming it; --replay-full-catalog offers every tool", () => {
    const file = join(mkdtempSync(join(tmpdir(), "replay-")), "r.jsonl");
    const call = JSON.stringify({ thought: "x", status: "Task", message_to_user: null, tool_calls: [{ name: "tasks:list", args: {} }] });
    const done = JSON.stringify({ thought: "x", status: "Idle", message_to_user: "Done.", tool_calls: [] });
    writeFileSync(file, `${JSON.stringify({ reply: call })}\n${JSON.stringify({ reply: done })}\n`);
    const narrowed = cli("ask", "--vault", vaultCopy(), "--replay", file, "What is the office Wi-Fi password?");
    expect(narrowed.status).toBe(1);
    expect(narrowed.stdout).toContain("calls tasks:list, which this round does not offer");
    const full = cli("ask", "--vault", vaultCopy(), "--replay", file, "--replay-full-catalog", "What is the office Wi-Fi password?");
    expect(full.status, full.stdout + full.stderr).toBe(0);
    expect(full.stdout).toContain("[call r1c0] tasks:list");
    writeFileSync(file, "not json\n");
    const bad = cli("ask", "--vault", vaultCopy(), "--replay", file, "hi");
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain("Line 1 of");
  }, 240_000);

  it("eval --suite tasks --reference --json ends with one JSON object holding tasks, solved, pass_k, solve_k and per-task rows", () => {
    const r = cli("eval", "--suite", "tasks", "--reference", "--json", "--task", "en-t1");
    expect([0, 1]).toContain(r.status);
    const last = r.stdout.trim().split("\n").at(-1)!;
    const report = JSON.parse(last) as Record<string, unknown> & { rows: Record<string, unknown>[] };
    expect(report).toMatchObject({ suite: "tasks", model: "reference plans", repeat: 1, tasks: 8 });
    for (const key of ["solved", "pass_k", "solve_k", "pass_rate", "solve_rate", "valid_envelope_pct", "median_ms"]) expect(typeof report[key], key).toBe("number");
    expect(Object.keys(report.by_tier as object)).toEqual(["T1"]);
    expect(report.rows).toHaveLength(8);
    for (const row of report.rows) {
      expect(row).toMatchObject({ tier: "T1", runs: 1 });
      expect(typeof row.solve_k).toBe("boolean");
      if (!row.solve_k) expect(row.why).toMatch(/^(tool not offered|plan|check failed)/);
    }
    expect(r.stderr.split("\n").filter((l) => l.startsWith("[task] en-t1-"))).toHaveLength(8);
    expect(r.status).toBe(report.solved === 8 ? 0 : 1);
  }, 240_000);

  it("eval --suite tasks on the random test model: every reply a valid envelope, nothing changed outside a task's scope, no crash", () => {
    const r = cli("eval", "--suite", "tasks", "--json", "--task", "en-t2", "--repeat", "2");
    expect(r.status, r.stderr).toBe(0);
    const report = JSON.parse(r.stdout.trim().split("\n").at(-1)!) as { tasks: number; valid_envelope_pct: number; outside_scope_changes: number; crashes: number; pass_k: number };
    expect(report.tasks).toBeGreaterThanOrEqual(5);
    expect(report).toMatchObject({ valid_envelope_pct: 100, outside_scope_changes: 0, crashes: 0, pass_k: 100 });
  }, 240_000);

  it("eval --suite tasks refuses flags it cannot honour with exit 2 and one sentence", () => {
    const r = cli("eval", "--suite", "tasks", "--task", "zz-none");
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('No task id starts with "zz-none"');
    expect(cli("eval", "--suite", "tools", "--repeat", "2").status).toBe(2);
    expect(cli("eval", "--suite", "tasks", "--reference", "--model", "x.gguf").status).toBe(2);
  });
});
