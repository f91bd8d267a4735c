/**
 * Builds one runtime pack: npm installs the plan's packages (exact versions and integrity from package-lock.json)
 * into a temporary project for the target platform (`--os`, `--cpu`, `--libc`, no install scripts), the builder
 * checks the installed tree against the plan, keeps the files the host loads, and writes a deterministic tar.gz.
 * npm's download cache lives under the project cache folder, so later builds and the tests reuse the tarballs.
 */
import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import { join, relative, sep } from "node:path";
import { PLATFORMS, packFileName, type GpuKind, type PackEntry, type PlatformId } from "../../desktop/runtime/pack-format";
import { keepFile } from "./file-filter";
import { PACK_FORMAT, planLockfile, planPack, type Lockfile, type PackPlan } from "./lockfile-plan";
import { tarGz, type TarFile } from "./tar-writer";

/** The pack's own description, at the archive's root; the installer checks it against what it asked for. */
export const PACK_INFO_FILE = "runtime.json";

export interface PackInfo {
  version: string;
  platform: PlatformId;
  gpu?: GpuKind;
  packFormat: number;
  /** `name@version` of every package inside. */
  packages: string[];
}

export interface BuiltPack extends PackEntry {
  /** Absolute path of the written archive. */
  path: string;
  /** Files in the archive. */
  files: number;
}

export class PackBuildError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "PackBuildError";
  }
}

/** The project cache (`$VAULT_AGENT_CACHE`, default ~/.cache/vault-agent). */
export function cacheDir(): string {
  return process.env.VAULT_AGENT_CACHE ?? join(homedir(), ".cache", "vault-agent");
}

/** How to call npm: the npm running this script when there is one, else `npm` on PATH. */
function npmCommand(): { command: string; prefix: string[]; shell: boolean } {
  const execPath = process.env.npm_execpath;
  if (execPath && /\.c?js$/.test(execPath) && existsSync(execPath)) return { command: process.execPath, prefix: [execPath], shell: false };
  return { command: process.platform === "win32" ? "npm.cmd" : "npm", prefix: [], shell: process.platform === "win32" };
}

function runNpm(args: string[], cwd: string, log: (line: string) => void): Promise<void> {
  const npm = npmCommand();
  return new Promise((resolve, reject) => {
    const child = spawn(npm.command, [...npm.prefix, ...args], { cwd, shell: npm.shell, stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, npm_config_update_notifier: "false" } });
    let output = "";
    const collect = (chunk: Buffer) => {
      output += chunk.toString();
      for (const line of chunk.toString().split(/\r?\n/)) if (line.trim()) log(line);
    };
    child.stdout.on("data", collect);
    child.stderr.on("data", collect);
    child.on("error", (error) => reject(new PackBuildError(`npm could not start (${error.message}); install Node.js with npm.`)));
    child.on("exit", (code) => {
      if (code === 0) resolve();
      else reject(new PackBuildError(`npm ${args[0]} failed (exit code ${code ?? "unknown"}): ${output.trim().split("\n").slice(-5).join(" ")}`));
    });
  });
}

/** Every regular file under `dir`, as forward-slash paths relative to it. */
function walk(dir: string, base = dir, out: string[] = []): string[] {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = join(dir, entry.name);
    if (entry.isDirectory()) walk(full, base, out);
    else if (entry.isFile()) out.push(relative(base, full).split(sep).join("/"));
    // Symlinks (node_modules/.bin) stay out: packs hold regular files only.
  }
  return out;
}

/** The package a file under node_modules belongs to, and its path inside that package. */
function ownerOf(rel: string): { name: string; inner: string } {
  const parts = rel.split("/");
  // Find the last node_modules segment: the package is the one or two segments after it.
  let i = parts.lastIndexOf("node_modules");
  const scoped = parts[i + 1]?.startsWith("@");
  const name = scoped ? `${parts[i + 1]}/${parts[i + 2]}` : parts[i + 1];
  i += scoped ? 3 : 2;
  return { name, inner: parts.slice(i).join("/") };
}

/** Checks that npm installed exactly the plan: every planned package at its place and version, nothing else. */
function checkInstalled(root: string, plan: PackPlan): void {
  const planned = new Map(plan.packages.map((p) => [p.path, p.version]));
  for (const [path, version] of planned) {
    const file = join(root, path, "package.json");
    if (!existsSync(file)) throw new PackBuildError(`npm did not install ${path}; the pack would be incomplete.`);
    const got = (JSON.parse(readFileSync(file, "utf8")) as { version?: string }).version;
    if (got !== version) throw new PackBuildError(`npm installed ${path} ${got}, but package-lock.json pins ${version}.`);
  }
  const installed = walk(join(root, "node_modules"), root)
    .filter((f) => /(^|\/)node_modules\/(@[^/]+\/)?[^/@]+\/package\.json$/.test(f))
    .map((f) => f.slice(0, -"/package.json".length))
    .filter((p) => ownerOf(`${p}/x`).inner === "x");
  const extra = installed.filter((p) => !planned.has(p));
  if (extra.length) throw new PackBuildError(`npm installed packages outside the plan: ${extra.slice(0, 5).join(", ")}.`);
}

export interface BuildOptions {
  lockfile: Lockfile;
  platform: PlatformId;
  gpu?: GpuKind;
  /** Folder the archive is written to. */
  outDir: string;
  log?: (line: string) => void;
}

/** Builds the pack and returns what runtime-packs.json lists for it, plus where it is and how big it unpacks. */
export async function buildPack(options: BuildOptions): Promise<BuiltPack> {
  const log = options.log ?? (() => undefined);
  const plan = planPack(options.lockfile, options.platform, options.gpu);
  const spec = PLATFORMS[options.platform];
  const work = mkdtempSync(join(tmpdir(), "vault-agent-pack-"));
  try {
    const { packageJson, lockfile } = planLockfile(options.lockfile, plan, "vault-agent-runtime");
    writeFileSync(join(work, "package.json"), JSON.stringify(packageJson, null, 2));
    writeFileSync(join(work, "package-lock.json"), JSON.stringify(lockfile, null, 2));
    const npmCache = join(cacheDir(), "npm");
    mkdirSync(npmCache, { recursive: true });
    const args = ["ci", `--os=${spec.os}`, `--cpu=${spec.cpu}`, "--ignore-scripts", "--no-audit", "--no-fund", "--omit=dev", "--omit=peer", "--no-bin-links", `--cache=${npmCache}`, "--prefer-offline"];
    if (spec.libc) args.push(`--libc=${spec.libc}`);
    log(`npm ${args.join(" ")}`);
    await runNpm(args, work, log);
    checkInstalled(work, plan);

    const files: TarFile[] = [];
    for (const rel of walk(join(work, "node_modules"), work).sort()) {
      if (rel === "node_modules/.package-lock.json") continue;
      const { name, inner } = ownerOf(rel);
      if (!keepFile(name, inner)) continue;
      const full = join(work, rel);
      const data = readFileSync(full);
      files.push({ path: rel, data, executable: (statSync(full).mode & 0o111) !== 0 });
    }
    const info: PackInfo = {
      version: plan.runtimeVersion,
      platform: options.platform,
      ...(options.gpu ? { gpu: options.gpu } : {}),
      packFormat: PACK_FORMAT,
      packages: plan.packages.map((p) => `${p.name}@${p.version}`),
    };
    files.push({ path: PACK_INFO_FILE, data: Buffer.from(JSON.stringify(info, null, 2) + "\n") });
    const unpackedBytes = files.reduce((sum, f) => sum + f.data.length, 0);
    const archive = tarGz(files);
    mkdirSync(options.outDir, { recursive: true });
    const file = packFileName(plan.runtimeVersion, options.platform, options.gpu);
    const path = join(options.outDir, file);
    writeFileSync(path, archive);
    return {
      platform: options.platform,
      ...(options.gpu ? { gpu: options.gpu } : {}),
      file,
      bytes: archive.length,
      sha256: createHash("sha256").update(archive).digest("hex"),
      path,
      files: files.length,
      unpackedBytes,
    };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
