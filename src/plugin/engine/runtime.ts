/**
 * The engine runtime (node-llama-cpp, vectra) lives in `node_modules` inside the plugin folder. It is installed only
 * when the user asks (Obsidian's developer policies forbid downloading code on its own): `npm install` there when
 * npm exists, otherwise the exact command to copy.
 */
import { spawn } from "child_process";
import * as fs from "fs";
import * as path from "path";

export interface RuntimeState {
  /** node-llama-cpp is present in the plugin folder. */
  installed: boolean;
  /** Its version, when installed. */
  version?: string;
  /** Packages the build expects that are absent. */
  missing: string[];
}

export async function runtimeState(pluginDir: string, dependencies: Record<string, string>): Promise<RuntimeState> {
  const missing: string[] = [];
  let version: string | undefined;
  for (const name of Object.keys(dependencies)) {
    try {
      const pkg = JSON.parse(await fs.promises.readFile(path.join(pluginDir, "node_modules", name, "package.json"), "utf8")) as { version?: string };
      if (name === "node-llama-cpp") version = pkg.version;
    } catch {
      missing.push(name);
    }
  }
  return { installed: missing.length === 0, version, missing };
}

/** The command a user can paste into a terminal to install the runtime by hand. */
export function installCommand(pluginDir: string, dependencies: Record<string, string>): string {
  const specs = Object.entries(dependencies).map(([name, version]) => `${name}@${version}`);
  return `cd "${pluginDir}" && npm install --omit=dev --no-audit --no-fund ${specs.join(" ")}`;
}

/** The npm executable on PATH, or null. */
export function findNpm(env: NodeJS.ProcessEnv = process.env): string | null {
  const names = process.platform === "win32" ? ["npm.cmd", "npm.exe"] : ["npm"];
  for (const dir of (env.PATH ?? "").split(path.delimiter)) {
    for (const name of names) {
      const candidate = path.join(dir, name);
      if (dir && fs.existsSync(candidate)) return candidate;
    }
  }
  return null;
}

export class RuntimeInstallError extends Error {
  constructor(
    message: string,
    /** The command to run by hand. */
    readonly command: string,
  ) {
    super(message);
    this.name = "RuntimeInstallError";
  }
}

/** Runs npm in the plugin folder (user-initiated only). Streams npm's output lines to `onLine`. */
export async function installRuntime(pluginDir: string, dependencies: Record<string, string>, onLine: (line: string) => void, signal?: AbortSignal): Promise<void> {
  const command = installCommand(pluginDir, dependencies);
  const npm = findNpm();
  if (!npm) throw new RuntimeInstallError("npm was not found on this computer; install Node.js or run the command shown below in a terminal.", command);
  const manifest = { name: "vault-agent-runtime", private: true, description: "Engine runtime of the Vault Agent plugin.", dependencies };
  await fs.promises.writeFile(path.join(pluginDir, "package.json"), JSON.stringify(manifest, null, 2), "utf8");
  await new Promise<void>((resolve, reject) => {
    const child = spawn(npm, ["install", "--omit=dev", "--no-audit", "--no-fund"], {
      cwd: pluginDir,
      env: process.env,
      shell: process.platform === "win32",
      windowsHide: true,
    });
    const onAbort = () => child.kill();
    signal?.addEventListener("abort", onAbort, { once: true });
    const forward = (chunk: Buffer) => chunk.toString().split(/\r?\n/).filter(Boolean).forEach(onLine);
    child.stdout?.on("data", forward);
    child.stderr?.on("data", forward);
    child.on("error", (error) => reject(new RuntimeInstallError(`npm could not start (${error.message}); run the command below in a terminal.`, command)));
    child.on("exit", (code) => {
      signal?.removeEventListener("abort", onAbort);
      if (code === 0) resolve();
      else reject(new RuntimeInstallError(`npm install failed with exit code ${code ?? "unknown"}; see the log above, or run the command below in a terminal.`, command));
    });
  });
}
