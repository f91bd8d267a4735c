/**
 * scripts/cli.mjs, the entry of `npm run cli`: the CLI run from its esbuild bundle answers as the CLI run through tsx
 * (same output, same exit codes), and without the bundle (VAULT_AGENT_CLI_TSX=1) it still runs through tsx.
 */
import { spawnSync } from "node:child_process";
import { cpSync, mkdtempSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("../../../", import.meta.url));
const tsx = pathToFileURL(createRequire(import.meta.url).resolve("tsx")).href;
const run = (args: string[], env: Record<string, string> = {}) => spawnSync(process.execPath, args, { encoding: "utf8", timeout: 240_000, cwd: root, env: { ...process.env, ...env } });
const launcher = (...args: string[]) => run([join(root, "scripts/cli.mjs"), ...args]);
const throughTsx = (...args: string[]) => run(["--import", tsx, join(root, "src/node/cli.ts"), ...args]);

describe("the CLI's entry (scripts/cli.mjs)", () => {
  it("answers a search as the CLI run through tsx does, from its bundle", () => {
    const vault = mkdtempSync(join(tmpdir(), "launcher-vault-"));
    cpSync(join(root, "examples/vault"), vault, { recursive: true });
    const bundled = launcher("search", "--vault", vault, "--json", "project meeting notes");
    expect(bundled.status, bundled.stderr).toBe(0);
    const plain = throughTsx("search", "--vault", vault, "--json", "project meeting notes");
    expect(plain.status, plain.stderr).toBe(0);
    expect(bundled.stdout).toBe(plain.stdout);
    expect(bundled.stdout.trim()).not.toBe("");
  }, 300_000);

  it("keeps the exit codes and the help, and the router's answers", () => {
    expect(launcher("no-such-command").status).toBe(2);
    expect(launcher("search").status).toBe(2);
    expect(launcher("help").stdout).toBe(throughTsx("help").stdout);
    const route = launcher("route", "--json", "add a tag to today's note");
    expect(route.status, route.stderr).toBe(0);
    expect(route.stdout).toBe(throughTsx("route", "--json", "add a tag to today's note").stdout);
  }, 300_000);

  it("runs through tsx when asked to", () => {
    const r = run([join(root, "scripts/cli.mjs"), "route", "--json", "add a tag to today's note"], { VAULT_AGENT_CLI_TSX: "1" });
    expect(r.status, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout.trim().split("\n").at(-1)!)).toHaveProperty("tools");
  }, 300_000);
});
