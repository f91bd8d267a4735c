/**
 * "llama.cpp on this computer": the user's llama-server found through PATH, checked, started on the first turn,
 * restarted after a crash, stopped on unload, its key kept out of every log and transcript. The checks that refuse
 * a binary run everywhere (small shell scripts pretending to be one); the rest need the real llama-server that
 * scripts/build-llama-server.sh builds, and skip with a message without it.
 */
import { alive } from "../../helpers/process";
import { spawnSync } from "node:child_process";
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseEnvelope } from "../../../src/core/agent/envelope-parse";
import { SubsetCache } from "../../../src/core/grammar";
import { EngineError } from "../../../src/core/ports/engine";
import { createNodeEngine } from "../../../src/engine/client/node-launcher";
import { checkLlamaServer, findLlamaServer, llamaServerCandidates, parseLlamaVersion } from "../../../src/engine/server/managed-llama-binary";
import { ManagedLlamaEngine } from "../../../src/engine/server/managed-llama-engine";
import { ManagedLlamaServer } from "../../../src/engine/server/managed-llama-server";
import type { ServerEngineConfig } from "../../../src/engine/server/server-config";
import { clampTools } from "../../../src/app/clamp-schema";
import { TEST_MODEL_CLAMP, TEST_MODEL_GRAMMAR, composeHeadless } from "../../../src/node/compose";
import { createToolCatalog } from "../../../src/tools/index";
import { ToolRegistry } from "../../../src/tools/registry";
import { requireLlamaServer } from "../../helpers/llama-server";
import { testModelPath } from "../../helpers/test-model";
import { copyVault } from "../agent/scripted-helpers";

const cli = fileURLToPath(new URL("../../../src/node/cli.ts", import.meta.url));
const tsx = pathToFileURL(createRequire(import.meta.url).resolve("tsx")).href;
const cliRun = (args: string[], env: Record<string, string> = {}) =>
  spawnSync(process.execPath, ["--import", tsx, cli, ...args], { encoding: "utf8", timeout: 240_000, env: { ...process.env, ...env } });

/** A shell script named llama-server that prints `version` for --version and `help` for --help. */
function pretender(dir: string, version: string, help: string): string {
  const file = join(dir, "llama-server");
  writeFileSync(file, `#!/bin/sh\nif [ "$1" = "--version" ]; then printf '%s\\n' '${version}' >&2; else printf '%s\\n' '${help}'; fi\n`);
  chmodSync(file, 0o755);
  return file;
}

const FULL_HELP = "-np, --parallel N\n-c, --ctx-size N\n--embeddings\n--pooling\n-ngl, --n-gpu-layers N\n--api-key KEY (env: LLAMA_API_KEY)";

describe("finding and checking llama-server", () => {
  let dir: string;
  beforeAll(() => void (dir = mkdtempSync(join(tmpdir(), "va-fake-llama-"))));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("looks on PATH first, then in each platform's usual install places", () => {
    const mac = llamaServerCandidates("darwin", { PATH: "/a/bin:/b/bin" }, "/Users/u");
    expect(mac.slice(0, 2)).toEqual(["/a/bin/llama-server", "/b/bin/llama-server"]);
    expect(mac).toContain("/opt/homebrew/bin/llama-server");
    expect(mac).toContain("/usr/local/bin/llama-server");
    const win = llamaServerCandidates("win32", { Path: "C:\\tools", LOCALAPPDATA: "C:\\Users\\u\\AppData\\Local" }, "C:\\Users\\u");
    expect(win[0]).toBe("C:\\tools\\llama-server.exe");
    expect(win).toContain("C:\\Users\\u\\AppData\\Local\\Microsoft\\WinGet\\Links\\llama-server.exe");
    const linux = llamaServerCandidates("linux", { PATH: "" }, "/home/u");
    expect(linux).toEqual(expect.arrayContaining(["/usr/bin/llama-server", "/usr/local/bin/llama-server", "/home/linuxbrew/.linuxbrew/bin/llama-server"]));
  });

  it("finds a llama-server through a PATH entry", () => {
    const file = pretender(dir, "version: 6000 (abcdef1)", FULL_HELP);
    expect(findLlamaServer({ PATH: `/nonexistent:${dir}` }, "/nonexistent-home")).toBe(file);
  });

  it("reads both version formats llama.cpp prints", () => {
    expect(parseLlamaVersion("version: 5123 (abc1234)\nbuilt with cc")).toEqual({ version: "b5123", build: 5123, commit: "abc1234" });
    expect(parseLlamaVersion("load_backend: x\nversion: 0.4.0-dev (build 1, commit 80fb11a)")).toEqual({ version: "0.4.0-dev", build: 1, commit: "80fb11a" });
    expect(parseLlamaVersion("Python 3.11")).toBeNull();
  });

  it("refuses a program that is not llama-server with one sentence", async () => {
    const file = pretender(dir, "hello from something else", "usage: something");
    await expect(checkLlamaServer(file)).rejects.toThrow(/^\S+ is not llama\.cpp's llama-server \(its --version names no llama\.cpp build\); pick the llama-server program of your llama\.cpp install\.$/);
  });

  it("refuses a release older than the floor, and a build whose --help lacks a flag we pass", async () => {
    await expect(checkLlamaServer(pretender(dir, "version: 3000 (abc1234)", FULL_HELP))).rejects.toThrow(/^llama-server b3000 is too old for this plugin \(it needs b5000 or newer\); update llama\.cpp and check again\.$/);
    await expect(checkLlamaServer(pretender(dir, "version: 0.4.0-dev (build 1, commit 80fb11a)", FULL_HELP.replace("LLAMA_API_KEY", "")))).rejects.toThrow(
      /^llama-server 0\.4\.0-dev is too old for this plugin \(its --help lacks LLAMA_API_KEY\); update llama\.cpp and check again\.$/,
    );
    await expect(checkLlamaServer(pretender(dir, "version: 6000 (abcdef1)", FULL_HELP))).resolves.toMatchObject({ version: "b6000", build: 6000 });
  });

  it("ask with a pretender binary fails with one sentence on stderr", async () => {
    const file = pretender(dir, "not a llama", "nothing");
    const model = await testModelPath();
    const vault = copyVault();
    const r = cliRun(["ask", "--vault", vault, "--engine", "llama-cpp", "--llama-server", file, "--model", model, "hello"]);
    expect(r.status).toBe(1);
    expect(r.stderr.trim()).toMatch(/^\S+ is not llama\.cpp's llama-server .*\.$/);
    expect(r.stderr.trim().split("\n")).toHaveLength(1);
  });

  it("rejects --llama-server without --engine llama-cpp as bad usage", () => {
    const r = cliRun(["ask", "--vault", ".", "--llama-server", "/bin/true", "hi"]);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/--llama-server needs --engine llama-cpp\./);
  });
});

const bin = requireLlamaServer("the managed llama-server tests");

describe.skipIf(!bin)("llama.cpp on this computer (real llama-server)", () => {
  let model: string;
  const oldPath = process.env.PATH;
  const grammarOf = () => {
    const registry = new ToolRegistry(createToolCatalog({ semantic: false, network: false }));
    return new SubsetCache(clampTools(registry.grammarTools(), TEST_MODEL_CLAMP), TEST_MODEL_GRAMMAR).get(["vault:read"]).gbnf;
  };

  beforeAll(async () => {
    model = await testModelPath();
    // The test sets up the PATH entry; the engine finds the binary there like a user's Homebrew install.
    process.env.PATH = `${bin}:${oldPath ?? ""}`;
  });
  afterAll(() => void (process.env.PATH = oldPath));

  /** A managed engine whose log and keys the test sees. */
  function managed() {
    const log: string[] = [];
    const keys: string[] = [];
    const binary = findLlamaServer();
    expect(binary).toBe(join(bin!, "llama-server"));
    const server = new ManagedLlamaServer({ binary: binary!, model, contextSize: 2048, threads: 1, log: (l) => log.push(l), backoffMs: [200] });
    const engine = new ManagedLlamaEngine(server, (config: ServerEngineConfig) => {
      keys.push(config.apiKey!);
      return createNodeEngine({ server: config });
    });
    return { server, engine, log, keys };
  }

  it("starts on the first turn, answers with a valid envelope, and leaves no process after unload", async () => {
    const { server, engine, keys, log } = managed();
    expect(server.pid).toBeUndefined();
    try {
      const reply = await engine.generate({ messages: [{ role: "user", content: "Read my inbox." }], grammar: grammarOf(), maxTokens: 1500, seed: 1 });
      const pid = server.pid!;
      expect(alive(pid)).toBe(true);
      expect(parseEnvelope(reply.text).ok).toBe(true);
      expect(keys).toHaveLength(1);
      // The key is in the environment only: not on the command line others can read.
      if (existsSync(`/proc/${pid}/cmdline`)) expect(readFileSync(`/proc/${pid}/cmdline`, "utf8")).not.toContain(keys[0]);
      await engine.shutdown();
      expect(alive(pid)).toBe(false);
      expect(server.pid).toBeUndefined();
      expect(log.join("\n")).not.toContain(keys[0]);
    } finally {
      await engine.shutdown();
    }
  }, 240_000);

  it("a crash mid-turn fails that turn with one sentence, and the next turn starts it again", async () => {
    const { server, engine, keys, log } = managed();
    try {
      await engine.countTokens("warm up");
      const first = server.pid!;
      const err = await engine
        .generate({
          messages: [{ role: "user", content: "Write a long note." }],
          grammar: "root ::= [a-z ]{400,500}",
          maxTokens: 450,
          seed: 2,
          onText: () => void (alive(first) && process.kill(first, "SIGKILL")),
        })
        .then(() => null, (e: unknown) => e);
      expect(err).toBeInstanceOf(EngineError);
      expect((err as Error).message).toBe("llama.cpp on this computer stopped (killed by SIGKILL); it starts again for the next turn.");
      const reply = await engine.generate({ messages: [{ role: "user", content: "Read my inbox." }], grammar: grammarOf(), maxTokens: 1500, seed: 3 });
      expect(parseEnvelope(reply.text).ok).toBe(true);
      expect(server.pid).not.toBe(first);
      // A new key per start, and neither in the log.
      expect(keys).toHaveLength(2);
      expect(keys[0]).not.toBe(keys[1]);
      for (const k of keys) expect(log.join("\n")).not.toContain(k);
    } finally {
      await engine.shutdown();
    }
  }, 300_000);

  it("a whole headless turn keeps the key out of the transcript", async () => {
    const { engine, keys, log } = managed();
    const dir = mkdtempSync(join(tmpdir(), "va-managed-"));
    const transcriptFile = join(dir, "t.jsonl");
    const headless = await composeHeadless({ vault: copyVault(), engine, grammarOptions: TEST_MODEL_GRAMMAR, clamp: TEST_MODEL_CLAMP, transcriptFile, agentOptions: { maxTokensCap: 4096 } });
    try {
      const result = await headless.agent.runTurn("what is in my inbox?");
      expect(result.outcome).not.toBe("failed");
      const transcript = readFileSync(transcriptFile, "utf8");
      expect(transcript.length).toBeGreaterThan(0);
      expect(keys).toHaveLength(1);
      expect(transcript).not.toContain(keys[0]);
      expect(log.join("\n")).not.toContain(keys[0]);
    } finally {
      await headless.close();
      await engine.shutdown();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 300_000);

  it("ask --engine llama-cpp runs a turn through its own llama-server and stops it", async () => {
    const r = cliRun(["ask", "--vault", copyVault(), "--engine", "llama-cpp", "--model", model, "what is in my inbox?"], { PATH: `${bin}:${oldPath ?? ""}` });
    expect(r.stderr).not.toMatch(/Error:/);
    expect(r.stdout).toMatch(/\[engine\] llama\.cpp on this computer: model /);
    expect(r.stdout).toMatch(/\[end\] /);
    expect(r.status).toBe(0);
  }, 300_000);
});
