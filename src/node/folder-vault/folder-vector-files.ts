/** VectorFiles over a folder on disk (headless): atomic writes through a temp file and a rename. */
import { promises as fs } from "node:fs";
import { basename, join, resolve } from "node:path";
import type { VectorFiles } from "../../engine/vector/vector-files";
import { readFileOrNull, writeFileAtomic } from "../../engine/atomic-file";

export class FolderVectorFiles implements VectorFiles {
  /** Absolute folder holding the index file. */
  readonly folder: string;

  constructor(folder: string) {
    this.folder = resolve(folder);
  }

  async read(name: string): Promise<Uint8Array | null> {
    return await readFileOrNull(this.file(name));
  }

  async write(name: string, bytes: Uint8Array): Promise<void> {
    await writeFileAtomic(this.file(name), bytes);
  }

  async rename(from: string, to: string): Promise<void> {
    await fs.rename(this.file(from), this.file(to));
  }

  private file(name: string): string {
    if (basename(name) !== name || name === "." || name === "..") throw new Error(`Vector file name "${name}" must be a plain file name.`);
    return join(this.folder, name);
  }
}
