/**
 * A VaultPort that journals before it writes: one tool call's view of the vault. Reads pass through; each
 * create, process, frontmatter edit, move (with the notes whose links it rewrites) and trash is recorded
 * before the inner vault is touched, and its result after.
 */
import { VaultError, type FileStat, type NoteMetadata, type VaultChange, type VaultPort } from "../ports/vault";
import type { ChangeCall, ChangeRecorder, PendingChange } from "./records";

export class JournalingVault implements VaultPort {
  constructor(
    private readonly inner: VaultPort,
    private readonly journal: ChangeRecorder,
    private readonly call: ChangeCall,
  ) {}

  get configDir(): string {
    return this.inner.configDir;
  }

  exists(path: string): Promise<boolean> {
    return this.inner.exists(path);
  }
  read(path: string): Promise<string> {
    return this.inner.read(path);
  }
  readBinary(path: string): Promise<ArrayBuffer> {
    return this.inner.readBinary(path);
  }
  stat(path: string): Promise<FileStat | null> {
    return this.inner.stat(path);
  }
  list(folder?: string): Promise<FileStat[]> {
    return this.inner.list(folder);
  }
  metadata(path: string): Promise<NoteMetadata | null> {
    return this.inner.metadata(path);
  }
  backlinks(path: string): Promise<string[]> {
    return this.inner.backlinks(path);
  }
  resolveLink(linkText: string, sourcePath: string): Promise<string | null> {
    return this.inner.resolveLink(linkText, sourcePath);
  }
  onChange(listener: (change: VaultChange) => void): () => void {
    return this.inner.onChange(listener);
  }

  async create(path: string, content: string): Promise<void> {
    // A taken path fails in the inner vault without a record: the file there is not the agent's to undo.
    if (await this.inner.exists(path)) return this.inner.create(path, content);
    const pending = await this.journal.begin(this.call, { op: "create", path, before: null });
    await this.settle(pending, () => this.inner.create(path, content));
    await this.journal.finish(pending, await this.textOrNull(path));
  }

  async process(path: string, fn: (current: string) => string, expected?: string): Promise<string> {
    const before = await this.inner.read(path);
    if (expected !== undefined && before !== expected) return this.inner.process(path, fn, expected);
    const pending = await this.journal.begin(this.call, { op: "modify", path, before });
    // Compare-and-swap against the very text recorded, so the record is exactly what the write replaced.
    const after = await this.settle(pending, () => this.inner.process(path, fn, before));
    if (after === before) await this.journal.discard(pending);
    else await this.journal.finish(pending, after);
    return after;
  }

  async processFrontMatter(path: string, fn: (frontmatter: Record<string, unknown>) => void): Promise<void> {
    const before = await this.inner.read(path);
    const pending = await this.journal.begin(this.call, { op: "modify", path, before });
    await this.settle(pending, () => this.inner.processFrontMatter(path, fn));
    const after = await this.textOrNull(path);
    if (after === before) await this.journal.discard(pending);
    else await this.journal.finish(pending, after);
  }

  async move(from: string, to: string): Promise<void> {
    if (from === to || !(await this.inner.exists(from)) || (await this.inner.exists(to))) return this.inner.move(from, to);
    const before = await this.inner.read(from);
    const linkers = (await this.inner.backlinks(from)).filter((p) => p !== from);
    const linkTexts = await Promise.all(linkers.map((p) => this.textOrNull(p)));
    const pending = await this.journal.begin(this.call, { op: "move", path: from, to, before });
    const linked: { path: string; pending: PendingChange; before: string }[] = [];
    for (let i = 0; i < linkers.length; i++) {
      const text = linkTexts[i];
      if (text === null) continue;
      linked.push({ path: linkers[i], before: text, pending: await this.journal.begin(this.call, { op: "modify", path: linkers[i], before: text, partOf: pending.record.seq }) });
    }
    try {
      await this.inner.move(from, to);
    } catch (err) {
      if (!(await this.inner.exists(to))) {
        for (const l of linked) await this.journal.discard(l.pending);
        await this.journal.discard(pending);
      }
      throw err;
    }
    await this.journal.finish(pending, await this.textOrNull(to));
    for (const l of linked) {
      const after = await this.textOrNull(l.path);
      if (after === l.before) await this.journal.discard(l.pending);
      else await this.journal.finish(l.pending, after);
    }
  }

  async trash(path: string): Promise<void> {
    if (!(await this.inner.exists(path))) return this.inner.trash(path);
    const before = await this.inner.read(path);
    const pending = await this.journal.begin(this.call, { op: "trash", path, before });
    await this.settle(pending, () => this.inner.trash(path));
    await this.journal.finish(pending, null);
  }

  /** Runs the write; when the vault refused it, the record goes (nothing changed). */
  private async settle<T>(pending: PendingChange, write: () => Promise<T>): Promise<T> {
    try {
      return await write();
    } catch (err) {
      if (err instanceof VaultError) await this.journal.discard(pending);
      throw err;
    }
  }

  private async textOrNull(path: string): Promise<string | null> {
    try {
      return await this.inner.read(path);
    } catch (err) {
      if (err instanceof VaultError && err.code === "not_found") return null;
      throw err;
    }
  }
}
