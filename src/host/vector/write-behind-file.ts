/**
 * Write-behind persistence for vectra's index file. vectra serialises and rewrites the whole index on
 * every `endUpdate`; for a 10,000-note vault that is tens of megabytes per small update. Here the
 * codec only remembers the latest index data and the storage writes it later (debounced, or on
 * `flush`), atomically via a temp file and rename, so a crash never leaves a half-written index.
 */
import { promises as fs, renameSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import type { FileDetails, FileStorage, IndexCodec, IndexData, MetadataTypes } from "vectra";

/** Stands in for vectra's codec: serialising is postponed, everything else is delegated. */
export class DeferredCodec implements IndexCodec {
  /** The index data as of the last `endUpdate`, not yet written. */
  pending: IndexData | null = null;
  get extension(): string {
    return this.real.extension;
  }
  constructor(readonly real: IndexCodec) {}
  serializeIndex(data: IndexData): Buffer {
    this.pending = data;
    return Buffer.alloc(0);
  }
  deserializeIndex(buffer: Buffer): IndexData {
    return this.real.deserializeIndex(buffer);
  }
  serializeCatalog(catalog: Parameters<IndexCodec["serializeCatalog"]>[0]): Buffer {
    return this.real.serializeCatalog(catalog);
  }
  deserializeCatalog(buffer: Buffer): ReturnType<IndexCodec["deserializeCatalog"]> {
    return this.real.deserializeCatalog(buffer);
  }
  serializeMetadata(metadata: Record<string, MetadataTypes>): Buffer {
    return this.real.serializeMetadata(metadata);
  }
  deserializeMetadata(buffer: Buffer): Record<string, MetadataTypes> {
    return this.real.deserializeMetadata(buffer);
  }
}

/** Node file storage over the absolute paths vectra passes; writes of the index file are deferred to `flush`. */
export class WriteBehindStorage implements FileStorage {
  private timer: ReturnType<typeof setTimeout> | null = null;
  private writing: Promise<void> = Promise.resolve();

  constructor(
    /** Absolute path of the index file. */
    private readonly indexPath: string,
    private readonly codec: DeferredCodec,
    /** Quiet time before the index is written. */
    private readonly delayMs: number,
  ) {}

  /** Writes pending index data now; resolves when it is on disk. */
  async flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const data = this.codec.pending;
    this.codec.pending = null;
    const write = this.writing.then(async () => {
      if (!data) return;
      const target = this.indexPath;
      const tmp = `${target}.tmp-${process.pid}`;
      await fs.mkdir(dirname(target), { recursive: true });
      await fs.writeFile(tmp, this.codec.real.serializeIndex(data));
      await fs.rename(tmp, target);
    });
    this.writing = write.catch(() => undefined);
    return write;
  }

  /** Writes pending index data synchronously: for process exit, where async work never finishes. */
  flushSync(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const data = this.codec.pending;
    if (!data) return;
    this.codec.pending = null;
    const tmp = `${this.indexPath}.tmp-${process.pid}`;
    writeFileSync(tmp, this.codec.real.serializeIndex(data));
    renameSync(tmp, this.indexPath);
  }

  /** Whether index data is waiting to be written. */
  get dirty(): boolean {
    return this.codec.pending !== null;
  }

  async upsertFile(filePath: string, content: Buffer | string): Promise<void> {
    if (this.isIndex(filePath) && content.length === 0 && this.codec.pending) {
      if (this.timer) clearTimeout(this.timer);
      this.timer = setTimeout(() => void this.flush().catch(() => undefined), this.delayMs);
      return;
    }
    await fs.mkdir(dirname(filePath), { recursive: true });
    await fs.writeFile(filePath, content);
  }

  async createFile(filePath: string, content: Buffer | string): Promise<void> {
    if (this.isIndex(filePath) && content.length === 0 && this.codec.pending) {
      await this.flush();
      return;
    }
    await fs.writeFile(filePath, content, { flag: "wx" });
  }

  async createFolder(folderPath: string): Promise<void> {
    await fs.mkdir(folderPath, { recursive: true });
  }

  async deleteFile(filePath: string): Promise<void> {
    await fs.rm(filePath, { force: true });
  }

  async deleteFolder(folderPath: string): Promise<void> {
    await fs.rm(folderPath, { recursive: true, force: true });
  }

  async getDetails(p: string): Promise<FileDetails> {
    const s = await fs.stat(p);
    return { name: p.split(/[\\/]/).pop() ?? p, path: p, isFolder: s.isDirectory() };
  }

  async listFiles(folderPath: string): Promise<FileDetails[]> {
    const entries = await fs.readdir(folderPath, { withFileTypes: true });
    return entries.map((e) => ({ name: e.name, path: join(folderPath, e.name), isFolder: e.isDirectory() }));
  }

  async pathExists(p: string): Promise<boolean> {
    if (this.isIndex(p) && this.codec.pending) return true;
    try {
      await fs.access(p);
      return true;
    } catch {
      return false;
    }
  }

  async readFile(filePath: string): Promise<Buffer> {
    if (this.isIndex(filePath) && this.codec.pending) await this.flush();
    return fs.readFile(filePath);
  }

  private isIndex(p: string): boolean {
    return resolve(p) === this.indexPath;
  }
}
