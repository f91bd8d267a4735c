/** IndexStore over a folder on disk: one file per key, written atomically (temp file + rename). */
import { promises as fs } from "node:fs";
import { dirname, resolve, sep } from "node:path";
import type { IndexStore } from "../../core/ports/index-store";

export class FolderIndexStore implements IndexStore {
  /** Absolute folder holding the files. */
  readonly folder: string;

  constructor(folder: string) {
    this.folder = resolve(folder);
  }

  async load(key: string): Promise<string | null> {
    try {
      return await fs.readFile(this.file(key), "utf8");
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === "ENOENT") return null;
      throw err;
    }
  }

  async save(key: string, text: string): Promise<void> {
    const target = this.file(key);
    await fs.mkdir(dirname(target), { recursive: true });
    const tmp = `${target}.tmp-${process.pid}-${Date.now()}`;
    await fs.writeFile(tmp, text, "utf8");
    await fs.rename(tmp, target);
  }

  async remove(key: string): Promise<void> {
    await fs.rm(this.file(key), { force: true });
  }

  private file(key: string): string {
    const full = resolve(this.folder, key);
    if (!full.startsWith(this.folder + sep)) throw new Error(`Index key "${key}" would leave the index folder; use a plain file name.`);
    return full;
  }
}
