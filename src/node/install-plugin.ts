/**
 * `npm run install-plugin -- <vault path> [--config-dir NAME]`: builds the plugin and installs it into a vault.
 *
 * Copies main.js, manifest.json and styles.css into `<vault>/<configDir>/plugins/vault-agent/`, writes a package.json
 * there that pins the engine runtime (node-llama-cpp, vectra) to this repo's versions, and runs
 * `npm install --omit=dev` in that folder, because the engine host loads those packages from the plugin folder.
 */
import { spawnSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, readFileSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { parseArgs, reportFailure, UsageError } from "./cli-types";

/** The repository root (this file lives in src/node/). */
const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");

/** Obsidian's plugin id, which is also the plugin's folder name. */
const PLUGIN_ID = "vault-agent";

/** What Obsidian itself loads from a plugin folder. */
const PLUGIN_FILES = ["main.js", "manifest.json", "styles.css"];

/** Packages that only the engine host imports; they are installed next to main.js, never bundled into it. */
const RUNTIME_PACKAGES = ["node-llama-cpp", "vectra", "protobufjs"];

/** Obsidian's default config folder; a vault may use another (Vault#configDir), recognised by its app.json. */
const DEFAULT_CONFIG_DIR = ".obsidian";

const USAGE = "npm run install-plugin -- <vault path> [--config-dir NAME]";

/** A failure of the install with a sentence the user can act on. */
export class InstallError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "InstallError";
  }
}

/** Checks that the vault path is an existing folder and returns it absolute. */
export function checkVaultFolder(vaultPath: string): string {
  const vault = resolve(vaultPath);
  if (!existsSync(vault)) {
    throw new InstallError(`The vault folder ${vault} does not exist; pass the path of an existing Obsidian vault.`);
  }
  if (!statSync(vault).isDirectory()) {
    throw new InstallError(`${vault} is a file, not a folder; pass the vault's folder, not a note inside it.`);
  }
  return vault;
}

/**
 * The vault's config folder: `.obsidian` when it exists or when no other folder qualifies; otherwise the single
 * top-level dot-folder holding an app.json (a vault opened with a custom config dir).
 */
export function findConfigDir(vault: string): string {
  if (existsSync(join(vault, DEFAULT_CONFIG_DIR))) return DEFAULT_CONFIG_DIR;
  const candidates = readdirSync(vault, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && entry.name.startsWith(".") && entry.name !== ".git" && entry.name !== ".trash")
    .filter((entry) => existsSync(join(vault, entry.name, "app.json")))
    .map((entry) => entry.name)
    .sort();
  if (candidates.length === 0) return DEFAULT_CONFIG_DIR;
  if (candidates.length === 1) return candidates[0];
  throw new InstallError(
    `The vault has several config folders (${candidates.join(", ")}); choose one with --config-dir NAME.`,
  );
}

/** The package.json written into the plugin folder: only the engine runtime, pinned to this repo's versions. */
export function runtimePackageJson(repoPackage: { version?: string; dependencies?: Record<string, string> }): object {
  const dependencies: Record<string, string> = {};
  for (const name of RUNTIME_PACKAGES) {
    const version = repoPackage.dependencies?.[name];
    if (!version) throw new InstallError(`package.json has no dependency on ${name}; the engine runtime needs it.`);
    dependencies[name] = version;
  }
  // No "type" field: main.js is CommonJS, and the engine host is an .mjs file that is ESM on its own.
  return {
    name: `${PLUGIN_ID}-runtime`,
    version: repoPackage.version ?? "0.0.0",
    private: true,
    description: "Engine runtime for the Vault Agent Obsidian plugin (installed by npm run install-plugin).",
    dependencies,
  };
}

/** How to call npm: through the npm that started this script when there is one, else `npm` from PATH. */
function npmCommand(): { command: string; prefix: string[]; shell: boolean } {
  const execPath = process.env.npm_execpath;
  if (execPath && /\.c?js$/.test(execPath) && existsSync(execPath)) {
    return { command: process.execPath, prefix: [execPath], shell: false };
  }
  // Windows needs a shell to start npm.cmd.
  return { command: process.platform === "win32" ? "npm.cmd" : "npm", prefix: [], shell: process.platform === "win32" };
}

/** Runs npm with the given arguments in `cwd`, output shown to the user; returns false when npm cannot be started. */
function runNpm(args: string[], cwd: string): boolean {
  const npm = npmCommand();
  const result = spawnSync(npm.command, [...npm.prefix, ...args], { cwd, stdio: "inherit", shell: npm.shell });
  if (result.error && (result.error as NodeJS.ErrnoException).code === "ENOENT") return false;
  if (result.error) throw new InstallError(`npm ${args.join(" ")} could not run in ${cwd}: ${result.error.message}.`);
  if (result.status !== 0) {
    throw new InstallError(`npm ${args.join(" ")} failed in ${cwd} (exit code ${result.status}); see its output above.`);
  }
  return true;
}

/** Builds, copies and installs; returns the plugin folder. */
export function installPlugin(vaultPath: string, configDirOption?: string): string {
  const vault = checkVaultFolder(vaultPath);
  const configDir = configDirOption ?? findConfigDir(vault);
  const pluginDir = join(vault, configDir, "plugins", PLUGIN_ID);

  process.stderr.write(`Building the plugin (npm run build)...\n`);
  if (!runNpm(["run", "build"], REPO_ROOT)) {
    throw new InstallError(`npm was not found on PATH; install Node.js with npm, then run: npm run build`);
  }
  for (const file of PLUGIN_FILES) {
    if (!existsSync(join(REPO_ROOT, file))) {
      throw new InstallError(`${file} is missing from ${REPO_ROOT} after the build; fix the build, then run this again.`);
    }
  }

  mkdirSync(pluginDir, { recursive: true });
  for (const file of PLUGIN_FILES) copyFileSync(join(REPO_ROOT, file), join(pluginDir, file));
  const repoPackage = JSON.parse(readFileSync(join(REPO_ROOT, "package.json"), "utf8")) as {
    version?: string;
    dependencies?: Record<string, string>;
  };
  writeFileSync(join(pluginDir, "package.json"), JSON.stringify(runtimePackageJson(repoPackage), null, 2) + "\n");
  process.stderr.write(`Copied ${PLUGIN_FILES.join(", ")} to ${pluginDir}\n`);

  const installArgs = ["install", "--omit=dev", "--no-audit", "--no-fund"];
  process.stderr.write(`Installing the engine runtime (${RUNTIME_PACKAGES.join(", ")}) there...\n`);
  if (!runNpm(installArgs, pluginDir)) {
    throw new InstallError(
      `npm was not found, so the engine runtime is not installed; run this yourself: cd "${pluginDir}" && npm install --omit=dev`,
    );
  }
  return pluginDir;
}

/** Entry point: exit 0 installed, 1 the install failed, 2 bad usage. */
export function main(argv: string[]): number {
  try {
    const { options, positionals } = parseArgs(argv, { strings: ["config-dir"] });
    if (positionals.length !== 1) throw new UsageError("Pass exactly one vault path.");
    const configDir = typeof options["config-dir"] === "string" ? options["config-dir"] : undefined;
    if (configDir !== undefined && (configDir.includes("/") || configDir.includes("\\") || configDir === "..")) {
      throw new UsageError(`--config-dir takes a folder name inside the vault, such as .obsidian, not a path.`);
    }
    const pluginDir = installPlugin(positionals[0], configDir);
    process.stdout.write(
      `${pluginDir}\nInstalled. In Obsidian: Settings → Community plugins → enable "Vault Agent" (reload the vault if it was open).\n`,
    );
    return 0;
  } catch (err) {
    return reportFailure(err, USAGE);
  }
}

// Run only when executed as a script, so the helpers above can be imported by tests.
if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  process.exitCode = main(process.argv.slice(2));
}
