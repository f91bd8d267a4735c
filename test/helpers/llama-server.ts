/**
 * The real llama-server and RPC worker for tests: built once per machine by scripts/build-llama-server.sh from
 * node-llama-cpp's bundled llama.cpp source, started here on 127.0.0.1 with a free port. Without the build, tests
 * fail when CI=true (CI builds it first) and are skipped elsewhere with a message naming the script.
 */
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import { connect } from "node:net";
import { homedir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { freePort } from "../../src/engine/server/managed-llama-server";

const repo = fileURLToPath(new URL("../..", import.meta.url));
const BUILD_HINT = "run `bash scripts/build-llama-server.sh` once (about 30 minutes on 2 cores) to build llama-server and ggml-rpc-server";

/** The folder with llama-server and ggml-rpc-server for this node-llama-cpp's llama.cpp commit, or null. */
export function llamaServerBin(): string | null {
  const bundle = join(repo, "node_modules", "node-llama-cpp", "llama", "gitRelease.bundle");
  if (!existsSync(bundle)) return null;
  const heads = execFileSync("git", ["bundle", "list-heads", bundle], { encoding: "utf8" });
  const commit = heads.split("\n").map((l) => l.split(" ")).find((p) => p[1] === "HEAD")?.[0];
  if (!commit) return null;
  const bin = join(process.env.VAULT_AGENT_CACHE ?? join(homedir(), ".cache", "vault-agent"), "llama-server", commit, "bin");
  return existsSync(join(bin, "llama-server")) ? bin : null;
}

/**
 * The binaries folder, or null (the caller skips) outside CI; inside CI a missing build is an error.
 * Prints why the tests are skipped, so a skip is never silent.
 */
export function requireLlamaServer(what: string): string | null {
  const bin = llamaServerBin();
  if (bin) return bin;
  if (process.env.CI === "true") throw new Error(`llama-server is not built, so ${what} cannot run; ${BUILD_HINT}. .ci/run builds it before the tests.`);
  console.warn(`[skipped] ${what}: llama-server is not built here; ${BUILD_HINT}.`);
  return null;
}

export { freePort };

export interface RunningServer {
  url: string;
  port: number;
  process: ChildProcess;
  /** Everything the server printed. */
  log(): string;
  /** SIGTERM (SIGKILL after 15 s), then waits for the exit. */
  stop(): Promise<void>;
  /** SIGKILL (a crash), then waits for the exit. */
  kill(): Promise<void>;
}

function exited(child: ChildProcess): Promise<void> {
  return child.exitCode !== null || child.signalCode !== null ? Promise.resolve() : new Promise((r) => child.once("exit", () => r()));
}

/** SIGTERM, and SIGKILL if it has not exited 15 s later: llama-server can wait on an open connection, and a stop must not hang a suite's hook. */
async function terminate(child: ChildProcess): Promise<void> {
  child.kill("SIGTERM");
  const timer = setTimeout(() => child.kill("SIGKILL"), 15_000);
  await exited(child);
  clearTimeout(timer);
}

/** Starts llama-server on `model` and resolves once /health answers 200 (bounded wait). */
export async function startLlamaServer(bin: string, model: string, args: string[] = [], port?: number): Promise<RunningServer> {
  const p = port ?? (await freePort());
  const child = spawn(join(bin, "llama-server"), ["-m", model, "--host", "127.0.0.1", "--port", String(p), "-t", "1", "--no-webui", ...args], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  let log = "";
  child.stdout?.on("data", (d: Buffer) => (log += d.toString()));
  child.stderr?.on("data", (d: Buffer) => (log += d.toString()));
  const url = `http://127.0.0.1:${p}`;
  const server: RunningServer = {
    url,
    port: p,
    process: child,
    log: () => log,
    stop: () => terminate(child),
    kill: async () => {
      child.kill("SIGKILL");
      await exited(child);
    },
  };
  const deadline = Date.now() + 90_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`llama-server exited (${child.exitCode}) before it was ready:\n${log.slice(-2000)}`);
    try {
      const r = await fetch(`${url}/health`);
      if (r.ok) return server;
    } catch {
      // Not listening yet.
    }
    if (Date.now() > deadline) {
      await server.kill();
      throw new Error(`llama-server did not become ready within 90 s:\n${log.slice(-2000)}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Starts ggml-rpc-server on 127.0.0.1 and resolves once it accepts connections. */
export async function startRpcServer(bin: string): Promise<{ endpoint: string; process: ChildProcess; log(): string; stop(): Promise<void> }> {
  const port = await freePort();
  const name = existsSync(join(bin, "ggml-rpc-server")) ? "ggml-rpc-server" : "rpc-server";
  const child = spawn(join(bin, name), ["-H", "127.0.0.1", "-p", String(port), "-t", "1"], { stdio: ["ignore", "pipe", "pipe"] });
  let log = "";
  child.stdout?.on("data", (d: Buffer) => (log += d.toString()));
  child.stderr?.on("data", (d: Buffer) => (log += d.toString()));
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${name} exited (${child.exitCode}):\n${log.slice(-2000)}`);
    const open = await new Promise<boolean>((resolve) => {
      const socket = connect(port, "127.0.0.1", () => {
        socket.destroy();
        resolve(true);
      });
      socket.once("error", () => resolve(false));
    });
    if (open) break;
    if (Date.now() > deadline) {
      child.kill("SIGKILL");
      throw new Error(`${name} did not listen within 30 s:\n${log.slice(-2000)}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    endpoint: `127.0.0.1:${port}`,
    process: child,
    log: () => log,
    stop: () => terminate(child),
  };
}
