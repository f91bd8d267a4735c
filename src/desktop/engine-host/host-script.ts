import { nodeModule } from "../../engine/node-builtins";

const fs = nodeModule("fs");
const path = nodeModule("path");
/**
 * Obsidian installs only main.js, manifest.json and styles.css, so main.js carries the engine host's text and
 * writes it next to itself when it is missing or outdated (a different hash in the marker line).
 */

/** File name of the host script in the plugin folder. */
export const HOST_SCRIPT_NAME = "engine-host.mjs";

/** The marker line the written script starts with. */
function marker(hash: string): string {
  return `// vault-agent engine host ${hash}\n`;
}

export class HostScriptError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "HostScriptError";
  }
}

/**
 * Makes sure `<pluginDir>/engine-host.mjs` holds this build's host. Returns its path and whether it was written.
 * Throws HostScriptError when this build carries no host (a development build without the engine).
 */
export async function ensureHostScript(pluginDir: string, source: string, hash: string): Promise<{ path: string; written: boolean }> {
  const file = path.join(pluginDir, HOST_SCRIPT_NAME);
  if (!source) throw new HostScriptError("This build of Vault Agent has no engine host; reinstall the plugin from a release build.");
  const expected = marker(hash);
  try {
    const handle = await fs.promises.open(file, "r");
    try {
      const buffer = Buffer.alloc(expected.length);
      await handle.read(buffer, 0, expected.length, 0);
      if (buffer.toString("utf8") === expected) return { path: file, written: false };
    } finally {
      await handle.close();
    }
  } catch {
    // Missing or unreadable: write it below.
  }
  await fs.promises.mkdir(pluginDir, { recursive: true });
  // Write to a temp file and rename, so a host starting meanwhile never sees half a script.
  const temp = `${file}.${process.pid}.tmp`;
  await fs.promises.writeFile(temp, expected + source, "utf8");
  await fs.promises.rename(temp, file);
  return { path: file, written: true };
}
