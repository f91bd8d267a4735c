import { nodeModule } from "./node-builtins";

const fs = nodeModule("fsPromises");
const nodePath = nodeModule("path");
/**
 * Files written whole or not at all (temp file in the same folder, then a rename), and reads where a missing file
 * is an answer, not an error. Desktop and headless only: the index, vector and journal stores over a folder use it.
 */

/** The file's bytes, or null when it does not exist. */
export async function readFileOrNull(path: string): Promise<Buffer | null>;
/** The file's text, or null when it does not exist. */
export async function readFileOrNull(path: string, encoding: "utf8"): Promise<string | null>;
export async function readFileOrNull(path: string, encoding?: "utf8"): Promise<Buffer | string | null> {
  try {
    return encoding ? await fs.readFile(path, encoding) : await fs.readFile(path);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw err;
  }
}

/**
 * Writes `data` to `path` through a temp file and a rename, creating the folder. `durable` also syncs the temp file
 * before the rename, so the new content outlives a crash of the machine, not only of the process (the journal).
 */
export async function writeFileAtomic(path: string, data: string | Uint8Array, options: { durable?: boolean } = {}): Promise<void> {
  await fs.mkdir(nodePath.dirname(path), { recursive: true });
  const tmp = `${path}.tmp-${process.pid}-${Date.now()}`;
  const handle = await fs.open(tmp, "w");
  try {
    await handle.writeFile(data);
    if (options.durable) await handle.sync();
  } finally {
    await handle.close();
  }
  await fs.rename(tmp, path);
}
