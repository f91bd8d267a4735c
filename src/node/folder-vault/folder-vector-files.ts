/** VectorFiles over a folder on disk (headless): atomic writes through a temp file and a rename. */
import { promises as fs } from "node:fs";
import { basename, join, resolve } from "node:path";
import type { VectorFiles } from "../../engine/vector/vector-files";

export class FolderVectorFiles implements VectorFiles {
  /** Absolute folder holding the index file. */
  readonly folder: string;

  constructor(folder: string) {
    this.folder = resolve(folder);
  }

  async read(name: string): Promise<Uint8Array | null> {
    try {
      return await fs.readFile(this.file(name));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === "ENOENT") return null;
      throw err;
    }
  }

  async write(name: string, bytes: Uint8Array): Promise<void> {
    await fs.mkdir(this.folder, { recursive: true });
    const target = this.file(name);
    const tmp = `${target}.tmp-${process.pid}-${Date.now()}`;
    await fs.writeFile(tmp, bytes);
    await fs.rename(tmp, target);
  }

  async rename(from: string, to: string): Promise<void> {
    await fs.rename(this.file(from), this.file(to));
  }

  private file(name: string): string {
    if (basename(name) !== name || name === "." || name === "..") throw new Error(`Vector file name "${name}" must be a plain file name.`);
    return join(this.folder, name);
  }
}
