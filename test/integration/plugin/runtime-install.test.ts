/**
 * The user-initiated runtime install. Real npm would need the network, so a stand-in `npm` script on PATH records
 * how it was called; everything else (the package.json written, the child process, the output lines) is real.
 */
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { RuntimeInstallError, findNpm, installRuntime, runtimeState } from "../../../src/plugin/engine/runtime";

const DEPS = { "node-llama-cpp": "3.21.1", vectra: "0.15.0", protobufjs: "8.8.1" };
let dir: string;
let bin: string;
let savedPath: string | undefined;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "runtime-plugin-"));
  bin = mkdtempSync(join(tmpdir(), "runtime-bin-"));
  savedPath = process.env.PATH;
});
afterEach(() => {
  process.env.PATH = savedPath;
  rmSync(dir, { recursive: true, force: true });
  rmSync(bin, { recursive: true, force: true });
});

function standInNpm(exitCode: number): void {
  const script = `#!/bin/sh\necho "args: $*"\necho "cwd: $(pwd)"\necho "some warning" 1>&2\nmkdir -p node_modules/node-llama-cpp node_modules/vectra node_modules/protobufjs\necho '{"version":"3.21.1"}' > node_modules/node-llama-cpp/package.json\necho '{"version":"0.15.0"}' > node_modules/vectra/package.json\necho '{"version":"8.8.1"}' > node_modules/protobufjs/package.json\nexit ${exitCode}\n`;
  writeFileSync(join(bin, "npm"), script);
  chmodSync(join(bin, "npm"), 0o755);
  process.env.PATH = `${bin}:/usr/bin:/bin`;
}

describe("runtime install in the plugin folder", () => {
  it("reports the runtime missing before install and installed after, with its version", async () => {
    expect(await runtimeState(dir, DEPS)).toEqual({ installed: false, version: undefined, missing: ["node-llama-cpp", "vectra", "protobufjs"] });
    standInNpm(0);
    const lines: string[] = [];
    await installRuntime(dir, DEPS, (l) => lines.push(l));
    expect(lines).toContain("args: install --omit=dev --no-audit --no-fund");
    expect(lines).toContain(`cwd: ${dir}`);
    expect(lines).toContain("some warning");
    expect(JSON.parse(readFileSync(join(dir, "package.json"), "utf8")).dependencies).toEqual(DEPS);
    expect(await runtimeState(dir, DEPS)).toEqual({ installed: true, version: "3.21.1", missing: [] });
  });

  it("a failing npm gives an error with the command to run by hand", async () => {
    standInNpm(1);
    const error = await installRuntime(dir, DEPS, () => undefined).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RuntimeInstallError);
    expect((error as Error).message).toMatch(/npm install failed with exit code 1/);
    expect((error as RuntimeInstallError).command).toBe(`cd "${dir}" && npm install --omit=dev --no-audit --no-fund node-llama-cpp@3.21.1 vectra@0.15.0 protobufjs@8.8.1`);
  });

  it("without npm it installs nothing and shows the command instead", async () => {
    const empty = join(bin, "empty");
    mkdirSync(empty);
    process.env.PATH = empty;
    expect(findNpm()).toBeNull();
    const error = await installRuntime(dir, DEPS, () => undefined).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RuntimeInstallError);
    expect((error as Error).message).toMatch(/npm was not found/);
    expect((error as RuntimeInstallError).command).toContain("node-llama-cpp@3.21.1");
    expect(() => readFileSync(join(dir, "package.json"))).toThrow();
  });
});
