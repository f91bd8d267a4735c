/**
 * Headless launcher: runs the engine host under the current Node binary. The TypeScript source runs
 * through tsx (`--import tsx`); a built host script (.js/.mjs/.cjs) runs as is.
 */
import { EngineClient, type EngineClientOptions } from "./engine-client";
import type { HostLauncher } from "./launcher";
import { nodeModule } from "../node-builtins";

const nodeChildProcess = nodeModule("childProcess");
const nodeModuleApi = nodeModule("module");
const nodeUrl = nodeModule("url");

/** The host's TypeScript entry in this source tree. */
export const hostSourcePath = nodeUrl.fileURLToPath(new URL("../../host/main.ts", import.meta.url));

/** How to start the host headless. */
export interface NodeLauncherOptions {
  /** Host script; default the TypeScript source (src/host/main.ts). */
  hostScript?: string;
  /** Extra environment for the host (e.g. VAULT_AGENT_HOST_FAULT for tests). */
  env?: Record<string, string>;
}

/** A launcher that spawns `process.execPath` on the host script. */
export function nodeHostLauncher(options: NodeLauncherOptions = {}): HostLauncher {
  const script = options.hostScript ?? hostSourcePath;
  const args = /\.[cm]?ts$/.test(script)
    ? ["--import", nodeUrl.pathToFileURL(nodeModuleApi.createRequire(import.meta.url).resolve("tsx")).href, script]
    : [script];
  return () =>
    nodeChildProcess.spawn(process.execPath, args, {
      stdio: ["pipe", "pipe", "pipe"],
      env: { ...process.env, ...options.env },
      windowsHide: true,
    });
}

/** A ready-to-use headless engine client (the host starts on the first request). */
export function createNodeEngine(options: EngineClientOptions & NodeLauncherOptions = {}): EngineClient {
  const { hostScript, env, ...clientOptions } = options;
  return new EngineClient(nodeHostLauncher({ hostScript, env }), clientOptions);
}
