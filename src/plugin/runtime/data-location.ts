import { nodeModule } from "../../engine/node-builtins";

const fs = nodeModule("fs");
const os = nodeModule("os");
const path = nodeModule("path");
/**
 * Where models and the engine runtime live: the plugin's folder inside the vault (the default), or one per-user
 * folder outside every vault, shared by all vaults and out of reach of vault sync. Moving between the two moves
 * both folders (a rename on the same disk, else copy then delete).
 */

export type DataLocation = "plugin" | "user";

/** The folders that move. */
export const MOVED_FOLDERS = ["models", "runtime"] as const;

/** The per-user folder: Application Support on macOS, LocalAppData on Windows, XDG data home on Linux. */
export function userDataFolder(platform: string = process.platform, env: NodeJS.ProcessEnv = process.env, home: string = os.homedir()): string {
  if (platform === "darwin") return path.join(home, "Library", "Application Support", "vault-agent");
  if (platform === "win32") return path.join(env.LOCALAPPDATA || path.join(home, "AppData", "Local"), "vault-agent");
  return path.join(env.XDG_DATA_HOME || path.join(home, ".local", "share"), "vault-agent");
}

async function copyTree(from: string, to: string): Promise<void> {
  await fs.promises.mkdir(to, { recursive: true });
  for (const entry of await fs.promises.readdir(from, { withFileTypes: true })) {
    const src = path.join(from, entry.name);
    const dest = path.join(to, entry.name);
    if (entry.isDirectory()) await copyTree(src, dest);
    else if (entry.isFile()) await fs.promises.copyFile(src, dest, fs.constants.COPYFILE_EXCL);
  }
}

/**
 * Moves `models/` and `runtime/` from one data folder to the other. Refuses when the target already holds either
 * (nothing is merged or overwritten). Returns the folders moved.
 */
export async function moveDataFolders(from: string, to: string): Promise<string[]> {
  if (path.resolve(from) === path.resolve(to)) return [];
  const moved: string[] = [];
  for (const name of MOVED_FOLDERS) {
    const src = path.join(from, name);
    const dest = path.join(to, name);
    if (!fs.existsSync(src)) continue;
    if (fs.existsSync(dest) && (await fs.promises.readdir(dest)).length > 0) {
      throw new Error(`${dest} already exists; move or delete it first, so nothing there is overwritten.`);
    }
    await fs.promises.mkdir(to, { recursive: true });
    await fs.promises.rm(dest, { recursive: true, force: true });
    try {
      await fs.promises.rename(src, dest);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EXDEV") throw error;
      // Another disk: copy, then delete the original only once the copy is complete.
      await copyTree(src, dest);
      await fs.promises.rm(src, { recursive: true, force: true });
    }
    moved.push(name);
  }
  return moved;
}
