/** IndexStore over a folder on disk: one file per key, written atomically (temp file + rename). */
import { promises as fs } from "node:fs";
import { resolve, sep } from "node:path";
import { readFileOrNull, writeFileAtomic } from "../../engine/atomic-file";
import type { IndexStore } from "../../core/ports/index-store";

export class FolderIndexStore implements IndexStore {
  /** Absolute folder holding the files. */
  readonly folder: string;

  constructor(folder: string) {
    this.folder = resolve(folder);
  }

  async load(key: string): Promise<string | null> {
    return await readFileOrNull(this.file(key), "utf8");
  }

  async save(key: string, text: string): Promise<void> {
    await writeFileAtomic(this.file(key), text);
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
