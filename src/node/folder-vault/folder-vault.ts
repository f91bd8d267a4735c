/**
 * A vault that is a plain folder on disk: the headless VaultPort for the CLI, benchmarks and tests.
 * Same semantics as ObsidianVault: hidden folders (config dir, `.trash`) are never listed, writes are
 * compare-and-swap, deletes go to `<root>/.trash`, moves update links like Obsidian does, and changes
 * (ours and anyone else's) arrive as events.
 */
import { promises as fs, watch, type FSWatcher } from "node:fs";
import { dirname, join, relative, sep } from "node:path";
import { randomBytes } from "node:crypto";
import {
  VaultError,
  type FileStat,
  type NoteMetadata,
  type VaultChange,
  type VaultPort,
} from "../../core/ports/vault";
import { parseNote, type ParsedNote } from "../../core/memory/note-parser";
import { LinkResolver, rewriteLinks } from "../../core/memory/links";
import { parseYaml, splitFrontmatter, withFrontmatter } from "../../core/memory/frontmatter";

/** Stats in flight while listing one folder: enough to keep libuv's 4 file threads busy, few enough to issue in 1 ms. */
const STAT_WAVE = 64;

export interface FolderVaultOptions {
  /** The config folder name, default ".obsidian". */
  configDir?: string;
  /** Whether to watch the folder for outside edits once someone subscribes; default true. */
  watch?: boolean;
  /** Quiet time before a burst of outside file events becomes one change; default 100 ms. */
  debounceMs?: number;
}

/** What a file looked like when we last saw it, so watcher echoes of our own writes are ignored. */
interface Seen {
  /** Milliseconds since the epoch. */
  mtime: number;
  /** Bytes. */
  size: number;
}

export class FolderVault implements VaultPort {
  /** The config folder name. */
  readonly configDir: string;
  /** Absolute folder on disk. */
  readonly root: string;
  /** Change subscribers. */
  private readonly listeners = new Set<(change: VaultChange) => void>();
  /** Parsed notes by path, valid while mtime and size match. */
  private readonly parsed = new Map<string, { mtime: number; size: number; note: ParsedNote }>();
  /** Per-path queue so our own read-modify-writes never interleave. */
  private readonly locks = new Map<string, Promise<unknown>>();
  /** Last known state of each file, for turning watcher noise into create/modify/delete. */
  private readonly seen = new Map<string, Seen>();
  /** Paths with pending watcher events. */
  private readonly pending = new Set<string>();
  /** The vault's paths and a link resolver over them, reused for a moment so per-note lookups stay cheap. */
  private snapshot: { at: number; resolver: LinkResolver } | null = null;
  private watcher: FSWatcher | null = null;
  private flushTimer: ReturnType<typeof setTimeout> | null = null;
  private readonly watchEnabled: boolean;
  private readonly debounceMs: number;

  constructor(root: string, options: FolderVaultOptions = {}) {
    this.root = root;
    this.configDir = options.configDir ?? ".obsidian";
    this.watchEnabled = options.watch ?? true;
    this.debounceMs = options.debounceMs ?? 100;
  }

  /** Stops watching the folder. */
  close(): void {
    this.watcher?.close();
    this.watcher = null;
    if (this.flushTimer) clearTimeout(this.flushTimer);
    this.flushTimer = null;
  }

  async exists(path: string): Promise<boolean> {
    return (await this.stat(path)) !== null;
  }

  async read(path: string): Promise<string> {
    try {
      return await fs.readFile(this.abs(path), "utf8");
    } catch (err) {
      throw this.ioError(err, path);
    }
  }

  async readBinary(path: string): Promise<ArrayBuffer> {
    try {
      const bytes = await fs.readFile(this.abs(path));
      return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
    } catch (err) {
      throw this.ioError(err, path);
    }
  }

  async stat(path: string): Promise<FileStat | null> {
    try {
      const s = await fs.stat(this.abs(path));
      if (!s.isFile()) return null;
      return { path, size: s.size, mtime: s.mtimeMs, ctime: s.birthtimeMs || s.ctimeMs };
    } catch (err) {
      if (isNotFound(err)) return null;
      throw this.ioError(err, path);
    }
  }

  async create(path: string, content: string): Promise<void> {
    await this.locked(path, async () => {
      const abs = this.abs(path);
      await fs.mkdir(dirname(abs), { recursive: true });
      try {
        await fs.writeFile(abs, content, { encoding: "utf8", flag: "wx" });
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === "EEXIST") {
          throw new VaultError(`"${path}" already exists; choose another name or edit the existing note.`, "exists", path);
        }
        throw this.ioError(err, path);
      }
      await this.remember(path);
      this.snapshot = null;
      this.emit({ kind: "create", path });
    });
  }

  async process(path: string, fn: (current: string) => string, expected?: string): Promise<string> {
    return this.locked(path, async () => {
      const current = await this.read(path);
      if (expected !== undefined && current !== expected) {
        throw new VaultError(`"${path}" changed since it was read; read it again before editing.`, "conflict", path);
      }
      const next = fn(current);
      if (next === current) return current;
      await this.writeAtomic(path, next);
      this.emit({ kind: "modify", path });
      return next;
    });
  }

  async list(folder = ""): Promise<FileStat[]> {
    const base = folder.replace(/\/+$/, "");
    const out: FileStat[] = [];
    let start: string;
    try {
      start = this.abs(base);
    } catch {
      return [];
    }
    await this.walk(start, out, relative(this.root, start).split(sep).join("/"));
    return out.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  }

  async move(from: string, to: string): Promise<void> {
    if (from === to) return;
    const before = (await this.list()).map((f) => f.path);
    const resolverBefore = new LinkResolver(before);
    if (!before.includes(from)) throw new VaultError(`"${from}" does not exist; check the path with vault:list.`, "not_found", from);
    if (await this.exists(to)) throw new VaultError(`"${to}" already exists; choose another name.`, "exists", to);
    await this.locked(from, async () => {
      const absTo = this.abs(to);
      await fs.mkdir(dirname(absTo), { recursive: true });
      await fs.rename(this.abs(from), absTo);
      this.seen.delete(from);
      this.parsed.delete(from);
      this.snapshot = null;
      await this.remember(to);
    });
    this.emit({ kind: "rename", path: to, oldPath: from });
    const after = before.map((p) => (p === from ? to : p));
    for (const source of after) {
      if (!source.endsWith(".md")) continue;
      const sourceBefore = source === to ? from : source;
      const text = await this.read(source);
      const lower = text.toLowerCase();
      const name = baseName(from).toLowerCase();
      // Cheap filter: a note that never mentions the name cannot link to it.
      if (!lower.includes(name) && !lower.includes(encodeURI(name))) continue;
      const result = rewriteLinks(text, sourceBefore, from, to, resolverBefore, after);
      if (result.changed > 0) await this.process(source, () => result.text, text);
    }
  }

  async trash(path: string): Promise<void> {
    if (!(await this.exists(path))) throw new VaultError(`"${path}" does not exist; nothing was deleted.`, "not_found", path);
    await this.locked(path, async () => {
      let target = join(this.root, ".trash", path);
      if (await pathExists(target)) target = target.replace(/(\.[^./]+)?$/, (ext) => ` ${Date.now()}${ext}`);
      await fs.mkdir(dirname(target), { recursive: true });
      await fs.rename(this.abs(path), target);
      this.seen.delete(path);
      this.parsed.delete(path);
      this.snapshot = null;
    });
    this.emit({ kind: "delete", path });
  }

  async metadata(path: string): Promise<NoteMetadata | null> {
    if (!path.endsWith(".md")) return null;
    const note = await this.parsedNote(path);
    if (!note) return null;
    const resolver = await this.resolver();
    return {
      frontmatter: note.frontmatter,
      tags: [...note.tags],
      links: note.links.map((l) => ({ ...l, resolved: resolver.resolve(l.target, path) })),
      headings: note.headings.map((h) => ({ ...h })),
      tasks: note.tasks.map((t) => ({ ...t })),
    };
  }

  async backlinks(path: string): Promise<string[]> {
    const resolver = await this.resolver(true);
    const out: string[] = [];
    for (const source of resolver.paths) {
      if (!source.endsWith(".md") || source === path) continue;
      const note = await this.parsedNote(source);
      if (note?.links.some((l) => resolver.resolve(l.target, source) === path)) out.push(source);
    }
    return out;
  }

  async resolveLink(linkText: string, sourcePath: string): Promise<string | null> {
    const target = linkText.replace(/\|.*$/, "").replace(/#.*$/, "");
    return (await this.resolver()).resolve(target === "" ? sourcePath : target, sourcePath);
  }

  async processFrontMatter(path: string, fn: (frontmatter: Record<string, unknown>) => void): Promise<void> {
    await this.process(path, (text) => {
      const { yaml } = splitFrontmatter(text);
      const data = yaml === null ? {} : parseYaml(yaml);
      fn(data);
      return withFrontmatter(text, data);
    });
  }

  onChange(listener: (change: VaultChange) => void): () => void {
    this.listeners.add(listener);
    if (this.watchEnabled && !this.watcher) this.startWatching();
    return () => {
      this.listeners.delete(listener);
      if (this.listeners.size === 0) this.close();
    };
  }

  // --- internals ---

  /** The absolute path for a vault path; refuses paths that would leave the folder. */
  private abs(path: string): string {
    const clean = path.replace(/^\/+/, "");
    const full = join(this.root, clean);
    const rel = relative(this.root, full);
    if (rel.startsWith("..") || rel.split(sep).includes("..")) {
      throw new VaultError(`"${path}" is outside the vault; use a vault-relative path.`, "not_found", path);
    }
    return full;
  }

  /** Files under `dir` (whose vault path is `rel`, "" for the root), depth first. */
  private async walk(dir: string, out: FileStat[], rel: string): Promise<void> {
    let entries: import("node:fs").Dirent[];
    try {
      entries = await fs.readdir(dir, { withFileTypes: true });
    } catch {
      return;
    }
    const files: { full: string; path: string }[] = [];
    for (const e of entries) {
      // Obsidian hides dot-folders and dot-files: the config dir, `.trash`, `.git`, our temp files.
      if (e.name.startsWith(".")) continue;
      const full = join(dir, e.name);
      // The vault path by concatenation: path.relative per file cost a tenth of listing a 6,000-note vault.
      const path = rel === "" ? e.name : `${rel}/${e.name}`;
      if (e.isDirectory()) await this.walk(full, out, path);
      else if (e.isFile()) files.push({ full, path });
    }
    // A folder's files are stat'ed STAT_WAVE at a time, not one after another (a 6,000-note vault listed in a fraction
    // of the time) and not all at once: issuing 25,000 stats in one go held the event loop 150 ms and more.
    const found: (FileStat | null)[] = new Array<FileStat | null>(files.length).fill(null);
    let next = 0;
    const statNext = async (): Promise<void> => {
      while (next < files.length) {
        const i = next++;
        try {
          const s = await fs.stat(files[i].full);
          found[i] = { path: files[i].path, size: s.size, mtime: s.mtimeMs, ctime: s.birthtimeMs || s.ctimeMs };
        } catch {
          // Deleted while listing.
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(STAT_WAVE, files.length) }, statNext));
    for (const f of found) if (f) out.push(f);
  }

  /** A resolver over the vault's paths; reused for 2 s (our own creates, moves and deletes refresh it at once). */
  private async resolver(fresh = false): Promise<LinkResolver> {
    if (!fresh && this.snapshot && Date.now() - this.snapshot.at < 2000) return this.snapshot.resolver;
    const resolver = new LinkResolver((await this.list()).map((f) => f.path));
    this.snapshot = { at: Date.now(), resolver };
    return resolver;
  }

  private async parsedNote(path: string): Promise<ParsedNote | null> {
    const s = await this.stat(path);
    if (!s) return null;
    const cached = this.parsed.get(path);
    if (cached && cached.mtime === s.mtime && cached.size === s.size) return cached.note;
    let text: string;
    try {
      text = await fs.readFile(this.abs(path), "utf8");
    } catch {
      return null;
    }
    const note = parseNote(text);
    this.parsed.set(path, { mtime: s.mtime, size: s.size, note });
    return note;
  }

  private async writeAtomic(path: string, content: string): Promise<void> {
    const abs = this.abs(path);
    const tmp = join(dirname(abs), `.${baseName(abs)}.${randomBytes(4).toString("hex")}.tmp`);
    try {
      await fs.writeFile(tmp, content, "utf8");
      await fs.rename(tmp, abs);
    } catch (err) {
      await fs.rm(tmp, { force: true });
      throw this.ioError(err, path);
    }
    await this.remember(path);
  }

  private async remember(path: string): Promise<void> {
    try {
      const s = await fs.stat(this.abs(path));
      this.seen.set(path, { mtime: s.mtimeMs, size: s.size });
    } catch {
      this.seen.delete(path);
    }
  }

  private async locked<T>(path: string, job: () => Promise<T>): Promise<T> {
    const prev = this.locks.get(path) ?? Promise.resolve();
    const next = prev.then(job, job);
    const settled = next.catch(() => undefined);
    this.locks.set(path, settled);
    try {
      return await next;
    } finally {
      if (this.locks.get(path) === settled) this.locks.delete(path);
    }
  }

  private emit(change: VaultChange): void {
    for (const l of [...this.listeners]) {
      try {
        l(change);
      } catch {
        // A failing listener must not break a write.
      }
    }
  }

  private startWatching(): void {
    const watcher = watch(this.root, { recursive: true }, (_event, filename) => {
      if (!filename) return;
      const path = filename.toString().split(sep).join("/");
      if (path.split("/").some((seg) => seg.startsWith("."))) return;
      this.pending.add(path);
      if (this.flushTimer) clearTimeout(this.flushTimer);
      this.flushTimer = setTimeout(() => void this.flush(), this.debounceMs);
    });
    watcher.on("error", () => this.close());
    this.watcher = watcher;
    // What exists now is the baseline: later differences become events.
    void this.list().then((files) => {
      for (const f of files) if (!this.seen.has(f.path)) this.seen.set(f.path, { mtime: f.mtime, size: f.size });
    });
  }

  private async flush(): Promise<void> {
    this.flushTimer = null;
    this.snapshot = null;
    const paths = [...this.pending];
    this.pending.clear();
    for (const path of paths) {
      let s: import("node:fs").Stats | null = null;
      try {
        s = await fs.stat(this.abs(path));
      } catch {
        s = null;
      }
      const before = this.seen.get(path);
      if (s?.isDirectory()) {
        // A folder appeared or was renamed in: its files are new to us.
        const files = await this.list(path);
        for (const f of files) {
          if (!this.seen.has(f.path)) {
            this.seen.set(f.path, { mtime: f.mtime, size: f.size });
            this.emit({ kind: "create", path: f.path });
          }
        }
        continue;
      }
      if (!s) {
        if (before) {
          this.seen.delete(path);
          this.parsed.delete(path);
          this.emit({ kind: "delete", path });
        } else {
          // A folder may have gone: everything we knew under it is gone too.
          for (const known of [...this.seen.keys()]) {
            if (known.startsWith(`${path}/`)) {
              this.seen.delete(known);
              this.emit({ kind: "delete", path: known });
            }
          }
        }
        continue;
      }
      if (!s.isFile()) continue;
      this.seen.set(path, { mtime: s.mtimeMs, size: s.size });
      if (!before) this.emit({ kind: "create", path });
      else if (before.mtime !== s.mtimeMs || before.size !== s.size) this.emit({ kind: "modify", path });
    }
  }

  private ioError(err: unknown, path: string): VaultError {
    if (err instanceof VaultError) return err;
    if (isNotFound(err)) return new VaultError(`"${path}" does not exist; check the path with vault:list.`, "not_found", path);
    const code = (err as NodeJS.ErrnoException).code;
    if (code === "EISDIR") return new VaultError(`"${path}" is a folder, not a note; list it with vault:list.`, "not_found", path);
    return new VaultError(`Could not access "${path}" (${code ?? String(err)}); check the file's permissions.`, "io", path);
  }
}

function isNotFound(err: unknown): boolean {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  return code === "ENOENT" || code === "ENOTDIR";
}

async function pathExists(p: string): Promise<boolean> {
  try {
    await fs.stat(p);
    return true;
  } catch {
    return false;
  }
}

function baseName(p: string): string {
  const name = p.split(/[\\/]/).pop() ?? p;
  return name.replace(/\.md$/, "");
}
