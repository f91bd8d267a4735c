/** The `grammar` CLI command: GBNF on stdout, clear errors and exit codes. */
import { execFile } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { GbnfRecognizer } from "../../../src/core/grammar";

const run = promisify(execFile);
async function cli(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run("npx", ["tsx", "src/node/cli.ts", "grammar", ...args], { cwd: process.cwd() });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

describe("grammar command", () => {
  it("prints a schema's grammar whose root is a value of that schema", async () => {
    const dir = mkdtempSync(join(tmpdir(), "grammar-cli-"));
    const file = join(dir, "schema.json");
    writeFileSync(file, JSON.stringify({ type: "integer", minimum: -3, exclusiveMaximum: 12.5 }));
    const { code, stdout } = await cli("--schema", file);
    expect(code).toBe(0);
    const r = new GbnfRecognizer(stdout);
    expect(r.accepts("12")).toBe(true);
    expect(r.accepts("13")).toBe(false);
  });

  it("prints the envelope grammar for none, a subset and all tools", async () => {
    const none = await cli("--tools", "none");
    expect(none.code).toBe(0);
    expect(new GbnfRecognizer(none.stdout).accepts('{"thought":"","status":"Idle","message_to_user":null,"tool_calls":[]}')).toBe(true);
    const all = await cli("--tools", "all");
    expect(all.code).toBe(0);
    expect(all.stdout.length).toBeGreaterThan(none.stdout.length);
  });

  it("exits 2 with the known tools named for an unknown tool, and 1 for an unreadable schema", async () => {
    const bad = await cli("--tools", "nope:tool");
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/Unknown tool "nope:tool"; known tools: /);
    const missing = await cli("--schema", "/nonexistent/schema.json");
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/Could not read \/nonexistent\/schema.json as JSON/);
  });
});
