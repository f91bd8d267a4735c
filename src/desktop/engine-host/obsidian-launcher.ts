/**
 * Starts the engine host inside Obsidian: Obsidian's own binary (`process.execPath`) run as plain Node with
 * ELECTRON_RUN_AS_NODE=1, on the host script in the plugin folder, so node-llama-cpp loads from the plugin's
 * node_modules and never in the renderer.
 */
import type { HostLauncher } from "../../engine/client/launcher";
import { nodeModule } from "../../engine/node-builtins";

const nodeChildProcess = nodeModule("childProcess");

export function obsidianHostLauncher(pluginDir: string, hostScript: string): HostLauncher {
  return () =>
    nodeChildProcess.spawn(process.execPath, [hostScript], {
      cwd: pluginDir,
      stdio: ["pipe", "pipe", "pipe"],
      env: { ...process.env, ELECTRON_RUN_AS_NODE: "1" },
      windowsHide: true,
    });
}
