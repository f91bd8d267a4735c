import { nodeModule } from "../node-builtins";

const nodeChildProcess = nodeModule("childProcess");
const nodeFs = nodeModule("fs");
const nodePath = nodeModule("path");
/**
 * Finding the user's own llama-server and checking it can run what LlamaServerEngine sends. Nothing is downloaded:
 * the binary comes from PATH, the usual install places (Homebrew, winget, distribution packages) or the user's pick.
 * Desktop only (Node's child_process and fs); the plugin loads this file behind a desktop check.
 */

/** What `--version` and `--help` told about a binary that passed the check. */
export interface LlamaServerBinary {
  /** Absolute path of the binary. */
  path: string;
  /** As the binary prints it: a release number ("b5123", old format) or a version ("0.4.0-dev"). */
  version: string;
  /** The release build number, when the binary reports one (0 or 1 for a source build without git history). */
  build?: number;
  /** The llama.cpp commit, when printed. */
  commit?: string;
  /** Flags the binary lists in `--help` that we pass only when present. */
  supports: { noWebui: boolean; slotSavePath: boolean; ctxCheckpoints: boolean };
}

/** A binary refused, with one sentence saying why and what to do. */
export class LlamaServerCheckError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "LlamaServerCheckError";
  }
}

/**
 * Releases before this build number are refused outright. A conservative floor (spring 2025): the `--help` check
 * below is what proves the flags; this keeps out old releases whose HTTP replies lack fields the engine reads.
 */
export const MIN_LLAMA_BUILD = 5000;

/**
 * What `--help` must list. `LLAMA_API_KEY` is how the key reaches the server (an environment variable, so it never
 * shows on a command line other users can read); a build without it would run unauthenticated, so it is refused.
 */
const REQUIRED_HELP = ["--parallel", "--ctx-size", "--embeddings", "--pooling", "--n-gpu-layers", "LLAMA_API_KEY"];

/** How a binary is named on this platform. */
export function llamaServerFileName(platform: NodeJS.Platform = process.platform): string {
  return platform === "win32" ? "llama-server.exe" : "llama-server";
}

/**
 * Where to look, in order: every PATH entry, then the usual install places of this platform. Pure, so each
 * platform's list is testable anywhere.
 */
export function llamaServerCandidates(platform: NodeJS.Platform, env: Record<string, string | undefined>, home: string): string[] {
  const name = llamaServerFileName(platform);
  const paths = platform === "win32" ? nodePath.win32 : nodePath.posix;
  const join = (...parts: string[]): string => paths.join(...parts);
  const fromPath = (env.PATH ?? env.Path ?? "").split(platform === "win32" ? ";" : ":").filter((p) => p.trim() !== "");
  const usual =
    platform === "darwin"
      ? ["/opt/homebrew/bin", "/usr/local/bin", "/opt/local/bin", join(home, ".local", "bin")]
      : platform === "win32"
        ? [
            join(env.LOCALAPPDATA ?? join(home, "AppData", "Local"), "Microsoft", "WinGet", "Links"),
            join(home, "scoop", "shims"),
            join(env.ProgramFiles ?? "C:\\Program Files", "llama.cpp"),
          ]
        : ["/home/linuxbrew/.linuxbrew/bin", join(home, ".linuxbrew", "bin"), "/usr/local/bin", "/usr/bin", join(home, ".local", "bin"), "/snap/bin"];
  const seen = new Set<string>();
  const out: string[] = [];
  for (const dir of [...fromPath, ...usual]) {
    const file = join(dir, name);
    if (!seen.has(file)) {
      seen.add(file);
      out.push(file);
    }
  }
  return out;
}

function isExecutableFile(file: string): boolean {
  try {
    if (!nodeFs.statSync(file).isFile()) return false;
    nodeFs.accessSync(file, process.platform === "win32" ? nodeFs.constants.F_OK : nodeFs.constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** The first llama-server found on PATH or in the usual places, or null. */
export function findLlamaServer(env: Record<string, string | undefined> = process.env, home = env.HOME ?? env.USERPROFILE ?? ""): string | null {
  return llamaServerCandidates(process.platform, env, home).find(isExecutableFile) ?? null;
}

/** Runs the binary with one flag; resolves with everything it printed (llama.cpp prints its version on stderr). */
function printed(file: string, flag: string, timeoutMs: number): Promise<{ text: string; timedOut: boolean }> {
  return new Promise((resolve) => {
    nodeChildProcess.execFile(file, [flag], { timeout: timeoutMs, maxBuffer: 4 * 1024 * 1024, windowsHide: true, env: { ...process.env, LLAMA_API_KEY: "" } }, (error, stdout, stderr) =>
      resolve({ text: `${stdout}\n${stderr}`, timedOut: !!(error as { killed?: boolean } | null)?.killed }),
    );
  });
}

/** Parses `--version` output: "version: 0.4.0-dev (build 1, commit 80fb11a)" or the older "version: 5123 (abc1234)". */
export function parseLlamaVersion(text: string): { version: string; build?: number; commit?: string } | null {
  const m = /^version:\s*(\S+)\s*\((?:build\s+(\d+),\s*commit\s+)?([0-9a-f]{6,40})\)/m.exec(text);
  if (!m) return null;
  const build = m[2] !== undefined ? Number(m[2]) : /^\d+$/.test(m[1]) ? Number(m[1]) : undefined;
  return { version: /^\d+$/.test(m[1]) ? `b${m[1]}` : m[1], ...(build !== undefined ? { build } : {}), commit: m[3] };
}

/**
 * Checks that `file` is a llama-server new enough for this plugin: `--version` names a llama.cpp build, the build is
 * not older than MIN_LLAMA_BUILD, and `--help` lists every flag we pass. Rejects with one sentence otherwise.
 */
export async function checkLlamaServer(file: string, timeoutMs = 20_000): Promise<LlamaServerBinary> {
  if (!isExecutableFile(file)) {
    throw new LlamaServerCheckError(`${file} is not an executable file; pick the llama-server program of your llama.cpp install.`);
  }
  const version = await printed(file, "--version", timeoutMs);
  if (version.timedOut) throw new LlamaServerCheckError(`${file} did not answer --version within ${Math.round(timeoutMs / 1000)} s; pick llama.cpp's llama-server.`);
  const parsed = parseLlamaVersion(version.text);
  if (!parsed) throw new LlamaServerCheckError(`${file} is not llama.cpp's llama-server (its --version names no llama.cpp build); pick the llama-server program of your llama.cpp install.`);
  // Builds 0 and 1 are source builds without git history (the number counts commits): --help decides for them.
  if (parsed.build !== undefined && parsed.build > 1 && parsed.build < MIN_LLAMA_BUILD) {
    throw new LlamaServerCheckError(`llama-server ${parsed.version} is too old for this plugin (it needs b${MIN_LLAMA_BUILD} or newer); update llama.cpp and check again.`);
  }
  const help = await printed(file, "--help", timeoutMs);
  const missing = REQUIRED_HELP.filter((flag) => !help.text.includes(flag));
  if (missing.length) {
    throw new LlamaServerCheckError(`llama-server ${parsed.version} is too old for this plugin (its --help lacks ${missing.join(", ")}); update llama.cpp and check again.`);
  }
  return {
    path: file,
    version: parsed.version,
    ...(parsed.build !== undefined ? { build: parsed.build } : {}),
    ...(parsed.commit ? { commit: parsed.commit } : {}),
    supports: { noWebui: help.text.includes("--no-webui"), slotSavePath: help.text.includes("--slot-save-path"), ctxCheckpoints: help.text.includes("--ctx-checkpoints") },
  };
}
