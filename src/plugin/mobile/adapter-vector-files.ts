/**
 * VectorFiles through Obsidian's DataAdapter (works on mobile): the flat vector index in a vault folder. The adapter
 * cannot rename over an existing file, so a replace is: write `<name>.tmp`, move the current file to `<name>.old`,
 * move the new one into place, delete the old one. At every step one whole index is on disk under a name `read`
 * looks for (the new one, or the previous one as `.old` when a replace was cut off); a half-written `.tmp` is never read.
 */
import { normalizePath } from "obsidian";
import type { VectorFiles } from "../../engine/vector/vector-files";

/** The part of Obsidian's DataAdapter used here. */
export interface BinaryAdapter {
  exists(path: string): Promise<boolean>;
  readBinary(path: string): Promise<ArrayBuffer>;
  writeBinary(path: string, data: ArrayBuffer): Promise<void>;
  rename(from: string, to: string): Promise<void>;
  remove(path: string): Promise<void>;
  mkdir(path: string): Promise<void>;
}

export class AdapterVectorFiles implements VectorFiles {
  constructor(
    private readonly adapter: BinaryAdapter,
    /** Vault-relative folder of the index. */
    private readonly folder: () => string,
  ) {}

  async read(name: string): Promise<Uint8Array | null> {
    const file = this.path(name);
    if (await this.adapter.exists(file)) return new Uint8Array(await this.adapter.readBinary(file));
    // A replace cut off after the current file was moved aside: that one is whole.
    const old = `${file}.old`;
    return (await this.adapter.exists(old)) ? new Uint8Array(await this.adapter.readBinary(old)) : null;
  }

  async write(name: string, bytes: Uint8Array): Promise<void> {
    const folder = normalizePath(this.folder());
    if (!(await this.adapter.exists(folder))) await this.adapter.mkdir(folder);
    const file = this.path(name);
    const tmp = `${file}.tmp`;
    const old = `${file}.old`;
    const copy = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength ? (bytes.buffer as ArrayBuffer) : bytes.slice().buffer;
    // Written beside, then swapped in: a crash mid-write leaves the previous index whole.
    await this.adapter.writeBinary(tmp, copy);
    if (await this.adapter.exists(file)) {
      if (await this.adapter.exists(old)) await this.adapter.remove(old);
      await this.adapter.rename(file, old);
    }
    await this.adapter.rename(tmp, file);
    if (await this.adapter.exists(old)) await this.adapter.remove(old);
  }

  async rename(from: string, to: string): Promise<void> {
    await this.adapter.rename(this.path(from), this.path(to));
  }

  private path(name: string): string {
    if (name.includes("/") || name.includes("\\") || name === ".." || name === ".") throw new Error(`Vector file name "${name}" must be a plain file name.`);
    return normalizePath(`${this.folder()}/${name}`);
  }
}
