/** VectorFiles through Obsidian's DataAdapter (works on mobile): the flat vector index in a vault folder. */
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
    return (await this.adapter.exists(file)) ? new Uint8Array(await this.adapter.readBinary(file)) : null;
  }

  async write(name: string, bytes: Uint8Array): Promise<void> {
    const folder = normalizePath(this.folder());
    if (!(await this.adapter.exists(folder))) await this.adapter.mkdir(folder);
    const file = this.path(name);
    const tmp = `${file}.tmp`;
    const copy = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength ? (bytes.buffer as ArrayBuffer) : bytes.slice().buffer;
    // Written beside, then swapped in: a crash mid-write leaves the previous index whole.
    await this.adapter.writeBinary(tmp, copy);
    if (await this.adapter.exists(file)) await this.adapter.remove(file);
    await this.adapter.rename(tmp, file);
  }

  async rename(from: string, to: string): Promise<void> {
    await this.adapter.rename(this.path(from), this.path(to));
  }

  private path(name: string): string {
    if (name.includes("/") || name.includes("\\") || name === ".." || name === ".") throw new Error(`Vector file name "${name}" must be a plain file name.`);
    return normalizePath(`${this.folder()}/${name}`);
  }
}
