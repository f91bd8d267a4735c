/**
 * A fake of Obsidian's Vault, MetadataCache and FileManager over a pluggable backend: files in memory (browser
 * harness) or a real folder on disk (vitest, test/fakes/folder-backend.ts). The MetadataCache is computed from the
 * files with the project's own note parser, in the shape Obsidian's CachedMetadata has.
 */
import { parseNote } from "../../src/core/memory/note-parser";
import { parseYaml, splitFrontmatter, withFrontmatter } from "../../src/core/memory/frontmatter";
import { resolveLinkpath, rewriteLinks, shortestLinktext } from "../../src/core/memory/links";
import { Events } from "./events";

/** Obsidian's path normalization: one forward slash between parts, no leading/trailing slash, NFC. */
export function normalizePath(path: string): string {
  let p = path.replace(/([\\/])+/g, "/").replace(/(^\/+|\/+$)/g, "");
  if (p === "") p = "/";
  p = p.replace(/\u00A0|\u202F/g, " ");
  return p.normalize("NFC");
}

export interface FileStats {
  ctime: number;
  mtime: number;
  size: number;
}

/** Where the fake vault's bytes live. Synchronous on purpose: a fake, not a file system. */
export interface VaultBackend {
  /** Absolute folder when files live on disk (what FileSystemAdapter.getBasePath returns). */
  readonly basePath?: string;
  /** Every file and folder, vault-relative. */
  scan(): { files: (FileStats & { path: string })[]; folders: string[] };
  exists(path: string): boolean;
  read(path: string): string;
  write(path: string, text: string): FileStats;
  mkdir(path: string): void;
  remove(path: string): void;
  rename(from: string, to: string): void;
  listDir(path: string): { files: string[]; folders: string[] };
  /** Bytes of a file (the flat vector index's files). */
  readBytes(path: string): Uint8Array;
  writeBytes(path: string, bytes: Uint8Array): FileStats;
}

let clock = 0;
/** Strictly increasing milliseconds, so two writes in the same millisecond still differ in mtime. */
export function tick(): number {
  clock = Math.max(clock + 1, Date.now());
  return clock;
}

/** Files in a Map: the browser harness's vault. */
export class MemoryBackend implements VaultBackend {
  private files = new Map<string, { text: string; bytes?: Uint8Array } & FileStats>();
  private folders = new Set<string>();

  constructor(initial: Record<string, string> = {}) {
    for (const [path, text] of Object.entries(initial)) {
      const parts = path.split("/");
      for (let i = 1; i < parts.length; i++) this.folders.add(parts.slice(0, i).join("/"));
      this.write(path, text);
    }
  }

  scan() {
    return {
      files: [...this.files.entries()].map(([path, f]) => ({ path, ctime: f.ctime, mtime: f.mtime, size: f.size })),
      folders: [...this.folders],
    };
  }
  exists(path: string): boolean {
    return this.files.has(path) || this.folders.has(path);
  }
  read(path: string): string {
    const f = this.files.get(path);
    if (!f) throw new Error(`ENOENT: no such file, open '${path}'`);
    return f.text;
  }
  write(path: string, text: string): FileStats {
    const now = tick();
    const prev = this.files.get(path);
    const entry = { text, ctime: prev?.ctime ?? now, mtime: now, size: new TextEncoder().encode(text).length };
    this.files.set(path, entry);
    return { ctime: entry.ctime, mtime: entry.mtime, size: entry.size };
  }
  readBytes(path: string): Uint8Array {
    const f = this.files.get(path);
    if (!f) throw new Error(`ENOENT: no such file, open '${path}'`);
    return f.bytes ?? new TextEncoder().encode(f.text);
  }
  writeBytes(path: string, bytes: Uint8Array): FileStats {
    const stats = this.write(path, "");
    const entry = this.files.get(path)!;
    entry.bytes = bytes.slice();
    entry.size = bytes.length;
    return { ...stats, size: bytes.length };
  }
  mkdir(path: string): void {
    const parts = path.split("/");
    for (let i = 1; i <= parts.length; i++) this.folders.add(parts.slice(0, i).join("/"));
  }
  remove(path: string): void {
    this.files.delete(path);
    this.folders.delete(path);
  }
  rename(from: string, to: string): void {
    const f = this.files.get(from);
    if (f) {
      this.files.delete(from);
      this.files.set(to, f);
      return;
    }
    for (const folder of [...this.folders]) {
      if (folder === from || folder.startsWith(`${from}/`)) {
        this.folders.delete(folder);
        this.folders.add(to + folder.slice(from.length));
      }
    }
    for (const [path, file] of [...this.files]) {
      if (path.startsWith(`${from}/`)) {
        this.files.delete(path);
        this.files.set(to + path.slice(from.length), file);
      }
    }
  }
  listDir(path: string) {
    const prefix = path === "" || path === "/" ? "" : `${path}/`;
    const direct = (p: string) => p.startsWith(prefix) && !p.slice(prefix.length).includes("/");
    return { files: [...this.files.keys()].filter(direct), folders: [...this.folders].filter(direct) };
  }
}

export abstract class TAbstractFile {
  vault: Vault;
  path: string;
  name: string;
  parent: TFolder | null;
  constructor(vault: Vault, path: string, parent: TFolder | null) {
    this.vault = vault;
    this.path = path;
    this.name = path.split("/").pop() ?? path;
    this.parent = parent;
  }
}

export class TFile extends TAbstractFile {
  stat: FileStats;
  basename: string;
  extension: string;
  constructor(vault: Vault, path: string, parent: TFolder | null, stat: FileStats) {
    super(vault, path, parent);
    this.stat = stat;
    const dot = this.name.lastIndexOf(".");
    this.basename = dot > 0 ? this.name.slice(0, dot) : this.name;
    this.extension = dot > 0 ? this.name.slice(dot + 1) : "";
  }
  /** Keeps name/basename/extension in step with path after a rename. */
  setPath(path: string): void {
    this.path = path;
    this.name = path.split("/").pop() ?? path;
    const dot = this.name.lastIndexOf(".");
    this.basename = dot > 0 ? this.name.slice(0, dot) : this.name;
    this.extension = dot > 0 ? this.name.slice(dot + 1) : "";
  }
}

export class TFolder extends TAbstractFile {
  children: TAbstractFile[] = [];
  isRoot(): boolean {
    return this.path === "/";
  }
}

/** Obsidian's DataAdapter, the part plugins use (loadData/saveData go through it too). */
export class DataAdapter {
  constructor(protected backend: VaultBackend) {}
  getName(): string {
    return "fake";
  }
  async exists(path: string): Promise<boolean> {
    return this.backend.exists(normalizePath(path));
  }
  async read(path: string): Promise<string> {
    return this.backend.read(normalizePath(path));
  }
  async write(path: string, data: string): Promise<void> {
    const p = normalizePath(path);
    const parent = p.split("/").slice(0, -1).join("/");
    if (parent) this.backend.mkdir(parent);
    this.backend.write(p, data);
  }
  async mkdir(path: string): Promise<void> {
    this.backend.mkdir(normalizePath(path));
  }
  async remove(path: string): Promise<void> {
    this.backend.remove(normalizePath(path));
  }
  async list(path: string): Promise<{ files: string[]; folders: string[] }> {
    return this.backend.listDir(normalizePath(path));
  }
  async readBinary(path: string): Promise<ArrayBuffer> {
    const bytes = this.backend.readBytes(normalizePath(path));
    return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
  }
  async writeBinary(path: string, data: ArrayBuffer): Promise<void> {
    const p = normalizePath(path);
    const parent = p.split("/").slice(0, -1).join("/");
    if (parent) this.backend.mkdir(parent);
    this.backend.writeBytes(p, new Uint8Array(data));
  }
  async rename(from: string, to: string): Promise<void> {
    // Obsidian's adapter refuses to overwrite an existing file.
    if (this.backend.exists(normalizePath(to))) throw new Error("Destination file already exists!");
    this.backend.rename(normalizePath(from), normalizePath(to));
  }
  async stat(path: string): Promise<{ type: "file"; ctime: number; mtime: number; size: number } | null> {
    const p = normalizePath(path);
    if (!this.backend.exists(p)) return null;
    const file = this.backend.scan().files.find((f) => f.path === p);
    return file ? { type: "file", ctime: file.ctime, mtime: file.mtime, size: file.size } : null;
  }
}

/** The desktop adapter: files on disk under a base path. */
export class FileSystemAdapter extends DataAdapter {
  getBasePath(): string {
    return this.backend.basePath ?? "";
  }
  getFullPath(normalizedPath: string): string {
    return `${this.getBasePath()}/${normalizedPath}`;
  }
}

/** Obsidian does not index dot folders (the config folder, .trash). */
function hidden(path: string): boolean {
  return path.split("/").some((part) => part.startsWith("."));
}

export class Vault extends Events {
  configDir: string;
  adapter: DataAdapter;
  private backend: VaultBackend;
  private byPath = new Map<string, TAbstractFile>();
  private root: TFolder;

  constructor(backend: VaultBackend, configDir = ".obsidian") {
    super();
    this.backend = backend;
    this.configDir = configDir;
    this.adapter = backend.basePath ? new FileSystemAdapter(backend) : new DataAdapter(backend);
    this.root = new TFolder(this, "/", null);
    this.byPath.set("/", this.root);
    const { files, folders } = backend.scan();
    for (const folder of folders.filter((f) => !hidden(f)).sort()) this.addFolder(folder);
    for (const file of files.filter((f) => !hidden(f.path)).sort((a, b) => a.path.localeCompare(b.path))) {
      this.addFile(file.path, { ctime: file.ctime, mtime: file.mtime, size: file.size });
    }
  }

  getName(): string {
    return "Fake vault";
  }
  getRoot(): TFolder {
    return this.root;
  }
  getAbstractFileByPath(path: string): TAbstractFile | null {
    return this.byPath.get(normalizePath(path)) ?? null;
  }
  getFileByPath(path: string): TFile | null {
    const f = this.getAbstractFileByPath(path);
    return f instanceof TFile ? f : null;
  }
  getFolderByPath(path: string): TFolder | null {
    const f = this.getAbstractFileByPath(path);
    return f instanceof TFolder ? f : null;
  }
  getFiles(): TFile[] {
    return [...this.byPath.values()].filter((f): f is TFile => f instanceof TFile);
  }
  getMarkdownFiles(): TFile[] {
    return this.getFiles().filter((f) => f.extension === "md");
  }
  getAllLoadedFiles(): TAbstractFile[] {
    return [...this.byPath.values()];
  }
  getAllFolders(includeRoot = false): TFolder[] {
    return [...this.byPath.values()].filter((f): f is TFolder => f instanceof TFolder && (includeRoot || !f.isRoot()));
  }
  static recurseChildren(root: TFolder, cb: (file: TAbstractFile) => unknown): void {
    cb(root);
    for (const child of root.children) {
      if (child instanceof TFolder) Vault.recurseChildren(child, cb);
      else cb(child);
    }
  }

  async read(file: TFile): Promise<string> {
    return this.backend.read(file.path);
  }
  async cachedRead(file: TFile): Promise<string> {
    return this.backend.read(file.path);
  }
  async readBinary(file: TFile): Promise<ArrayBuffer> {
    const bytes = this.backend.readBytes(file.path);
    return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
  }

  async create(path: string, data: string): Promise<TFile> {
    const p = normalizePath(path);
    if (this.byPath.has(p) || this.backend.exists(p)) throw new Error("File already exists.");
    const parentPath = p.includes("/") ? p.slice(0, p.lastIndexOf("/")) : "/";
    if (!this.byPath.has(parentPath)) throw new Error(`ENOENT: no such file or directory, open '${p}'`);
    const stat = this.backend.write(p, data);
    const file = this.addFile(p, stat);
    this.trigger("create", file);
    return file;
  }

  /** Creates a file from bytes (a PDF, an image), as Obsidian's `Vault.createBinary`. */
  async createBinary(path: string, data: ArrayBuffer): Promise<TFile> {
    const p = normalizePath(path);
    if (this.byPath.has(p) || this.backend.exists(p)) throw new Error("File already exists.");
    const parentPath = p.includes("/") ? p.slice(0, p.lastIndexOf("/")) : "/";
    if (!this.byPath.has(parentPath)) throw new Error(`ENOENT: no such file or directory, open '${p}'`);
    const stat = this.backend.writeBytes(p, new Uint8Array(data));
    const file = this.addFile(p, stat);
    this.trigger("create", file);
    return file;
  }

  async createFolder(path: string): Promise<TFolder> {
    const p = normalizePath(path);
    if (this.byPath.has(p)) throw new Error("Folder already exists.");
    this.backend.mkdir(p);
    const parts = p.split("/");
    let folder: TFolder = this.root;
    for (let i = 1; i <= parts.length; i++) {
      const sub = parts.slice(0, i).join("/");
      if (!this.byPath.has(sub)) {
        folder = this.addFolder(sub);
        this.trigger("create", folder);
      } else folder = this.byPath.get(sub) as TFolder;
    }
    return folder;
  }

  async modify(file: TFile, data: string): Promise<void> {
    file.stat = this.backend.write(file.path, data);
    this.trigger("modify", file);
  }

  async append(file: TFile, data: string): Promise<void> {
    await this.modify(file, this.backend.read(file.path) + data);
  }

  /** Atomic read-modify-write: `fn` runs synchronously on the current text. */
  async process(file: TFile, fn: (data: string) => string): Promise<string> {
    const current = this.backend.read(file.path);
    const next = fn(current);
    if (next !== current) await this.modify(file, next);
    return next;
  }

  async rename(file: TAbstractFile, newPath: string): Promise<void> {
    const to = normalizePath(newPath);
    if (this.byPath.has(to)) throw new Error("Destination file already exists!");
    const parentPath = to.includes("/") ? to.slice(0, to.lastIndexOf("/")) : "/";
    const parent = this.byPath.get(parentPath);
    if (!(parent instanceof TFolder)) throw new Error(`ENOENT: no such file or directory, rename '${file.path}' -> '${to}'`);
    const oldPath = file.path;
    this.backend.rename(oldPath, to);
    this.detachFromParent(file);
    this.byPath.delete(oldPath);
    if (file instanceof TFile) file.setPath(to);
    else {
      for (const [p, f] of [...this.byPath]) {
        if (p.startsWith(`${oldPath}/`)) {
          this.byPath.delete(p);
          const moved = to + p.slice(oldPath.length);
          if (f instanceof TFile) f.setPath(moved);
          else f.path = moved;
          this.byPath.set(moved, f);
        }
      }
      file.path = to;
      file.name = to.split("/").pop() ?? to;
    }
    file.parent = parent;
    parent.children.push(file);
    this.byPath.set(to, file);
    this.trigger("rename", file, oldPath);
  }

  async delete(file: TAbstractFile): Promise<void> {
    if (file instanceof TFolder) for (const child of [...file.children]) await this.delete(child);
    this.backend.remove(file.path);
    this.detachFromParent(file);
    this.byPath.delete(file.path);
    this.trigger("delete", file);
  }

  /** Moves to the vault's `.trash` folder (the fake never touches the system trash). */
  async trash(file: TAbstractFile, _system: boolean): Promise<void> {
    const target = `.trash/${file.name}`;
    this.backend.mkdir(".trash");
    if (this.backend.exists(target)) this.backend.remove(target);
    this.backend.rename(file.path, target);
    this.detachFromParent(file);
    this.byPath.delete(file.path);
    this.trigger("delete", file);
  }

  private addFolder(path: string): TFolder {
    const parentPath = path.includes("/") ? path.slice(0, path.lastIndexOf("/")) : "/";
    const parent = (this.byPath.get(parentPath) as TFolder | undefined) ?? this.addFolder(parentPath);
    const folder = new TFolder(this, path, parent);
    parent.children.push(folder);
    this.byPath.set(path, folder);
    return folder;
  }

  private addFile(path: string, stat: FileStats): TFile {
    const parentPath = path.includes("/") ? path.slice(0, path.lastIndexOf("/")) : "/";
    const parent = (this.byPath.get(parentPath) as TFolder | undefined) ?? this.addFolder(parentPath);
    const file = new TFile(this, path, parent, stat);
    parent.children.push(file);
    this.byPath.set(path, file);
    return file;
  }

  private detachFromParent(file: TAbstractFile): void {
    if (file.parent) file.parent.children = file.parent.children.filter((c) => c !== file);
  }

  /** Test helper: synchronous text of a file (also works for paths under the config folder). */
  peek(path: string): string | null {
    return this.backend.exists(path) ? this.backend.read(path) : null;
  }
}

interface Loc {
  line: number;
  col: number;
  offset: number;
}
interface Pos {
  start: Loc;
  end: Loc;
}
export interface CachedMetadata {
  frontmatter?: Record<string, unknown>;
  frontmatterPosition?: Pos;
  tags?: { tag: string; position: Pos }[];
  links?: { link: string; original: string; displayText?: string; position: Pos }[];
  embeds?: { link: string; original: string; displayText?: string; position: Pos }[];
  headings?: { heading: string; level: number; position: Pos }[];
  listItems?: { task?: string; parent: number; position: Pos }[];
}

function at(line: number): Pos {
  return { start: { line, col: 0, offset: 0 }, end: { line, col: 0, offset: 0 } };
}

/** CachedMetadata computed synchronously from the files whenever they change. */
export class MetadataCache extends Events {
  resolvedLinks: Record<string, Record<string, number>> = {};
  unresolvedLinks: Record<string, Record<string, number>> = {};
  private caches = new Map<string, CachedMetadata>();

  constructor(private vault: Vault) {
    super();
    for (const file of vault.getMarkdownFiles()) this.compute(file);
    this.resolveAll();
    vault.on("create", (file: TAbstractFile) => this.update(file));
    vault.on("modify", (file: TAbstractFile) => this.update(file));
    vault.on("delete", (file: TAbstractFile) => {
      this.caches.delete(file.path);
      this.trigger("deleted", file);
      this.resolveAll();
    });
    vault.on("rename", (file: TAbstractFile, oldPath: string) => {
      this.caches.delete(oldPath);
      this.update(file);
    });
  }

  getFileCache(file: TFile): CachedMetadata | null {
    return this.caches.get(file.path) ?? null;
  }
  getCache(path: string): CachedMetadata | null {
    return this.caches.get(path) ?? null;
  }

  /** Obsidian's link resolution: exact path, then relative to the source, then the closest file with that name. */
  getFirstLinkpathDest(linkpath: string, sourcePath: string): TFile | null {
    const lp = linkpath.trim();
    if (lp === "") return this.vault.getFileByPath(sourcePath);
    const hit = resolveLinkpath(lp, sourcePath, this.vault.getFiles().map((f) => f.path));
    return hit === null ? null : this.vault.getFileByPath(hit);
  }

  fileToLinktext(file: TFile, _sourcePath: string, omitMdExtension = true): string {
    const text = shortestLinktext(file.path, this.vault.getFiles().map((f) => f.path));
    return omitMdExtension || file.extension !== "md" ? text : `${text}.md`;
  }

  private update(file: TAbstractFile): void {
    if (!(file instanceof TFile) || file.extension !== "md") return;
    const cache = this.compute(file);
    this.trigger("changed", file, this.vault.peek(file.path) ?? "", cache);
    this.resolveAll();
  }

  private compute(file: TFile): CachedMetadata {
    const text = this.vault.peek(file.path) ?? "";
    const parsed = parseNote(text);
    const cache: CachedMetadata = {};
    const { yaml, bodyLine } = splitFrontmatter(text);
    if (parsed.frontmatter && yaml !== null) {
      cache.frontmatter = parsed.frontmatter;
      cache.frontmatterPosition = { start: at(0).start, end: at(bodyLine - 1).end };
    }
    const fmTags = new Set<string>();
    const fmValue = parsed.frontmatter?.tags ?? parsed.frontmatter?.tag;
    for (const t of Array.isArray(fmValue) ? fmValue : typeof fmValue === "string" ? fmValue.split(/[,\s]+/) : []) {
      if (typeof t === "string" && t.trim()) fmTags.add(`#${t.trim().replace(/^#/, "")}`);
    }
    const lines = text.split("\n");
    const bodyTags = parsed.tags.filter((t) => !fmTags.has(t) || lines.slice(bodyLine).some((l) => l.includes(t)));
    if (bodyTags.length) {
      cache.tags = bodyTags.map((tag) => {
        const line = lines.findIndex((l, i) => i >= bodyLine && l.includes(tag));
        return { tag, position: at(Math.max(line, 0)) };
      });
    }
    for (const link of parsed.links) {
      const ref = link.target + (link.subpath ? `#${link.subpath}` : "");
      const isWiki = lines[link.line]?.includes(`[[${link.target}`) ?? true;
      const original = isWiki
        ? `${link.embed ? "!" : ""}[[${ref}${link.display !== undefined ? `|${link.display}` : ""}]]`
        : `${link.embed ? "!" : ""}[${link.display ?? ""}](${ref})`;
      const entry = { link: ref, original, displayText: link.display ?? ref, position: at(link.line) };
      if (link.embed) (cache.embeds ??= []).push(entry);
      else (cache.links ??= []).push(entry);
    }
    if (parsed.headings.length) cache.headings = parsed.headings.map((h) => ({ heading: h.text, level: h.level, position: at(h.line) }));
    if (parsed.tasks.length) cache.listItems = parsed.tasks.map((t) => ({ task: t.status, parent: -1, position: at(t.line) }));
    this.caches.set(file.path, cache);
    return cache;
  }

  private resolveAll(): void {
    this.resolvedLinks = {};
    this.unresolvedLinks = {};
    for (const [path, cache] of this.caches) {
      const resolved: Record<string, number> = {};
      const unresolved: Record<string, number> = {};
      for (const link of [...(cache.links ?? []), ...(cache.embeds ?? [])]) {
        const target = link.link.split("#")[0];
        const dest = target === "" ? null : this.getFirstLinkpathDest(target, path);
        if (dest) resolved[dest.path] = (resolved[dest.path] ?? 0) + 1;
        else if (target !== "") unresolved[target] = (unresolved[target] ?? 0) + 1;
      }
      this.resolvedLinks[path] = resolved;
      this.unresolvedLinks[path] = unresolved;
    }
    this.trigger("resolved");
  }
}

/** FileManager: renames that update links, the trash, and frontmatter edits. */
export class FileManager {
  constructor(
    private vault: Vault,
    private metadataCache: MetadataCache,
  ) {}

  /** Moves the file and rewrites links to it in other notes, as Obsidian does with "update internal links" on. */
  async renameFile(file: TAbstractFile, newPath: string): Promise<void> {
    const from = file.path;
    const to = normalizePath(newPath);
    const pathsBefore = this.vault.getFiles().map((f) => f.path);
    await this.vault.rename(file, to);
    if (!(file instanceof TFile)) return;
    const pathsAfter = this.vault.getFiles().map((f) => f.path);
    for (const source of this.vault.getMarkdownFiles()) {
      if (source === file) continue;
      await this.vault.process(source, (text) => rewriteLinks(text, source.path, from, to, pathsBefore, pathsAfter).text);
    }
  }

  async trashFile(file: TAbstractFile): Promise<void> {
    await this.vault.trash(file, true);
  }

  async processFrontMatter(file: TFile, fn: (frontmatter: Record<string, unknown>) => void): Promise<void> {
    await this.vault.process(file, (text) => {
      const { yaml } = splitFrontmatter(text);
      const data = yaml === null ? {} : parseYaml(yaml);
      fn(data);
      return withFrontmatter(text, data);
    });
  }

  generateMarkdownLink(file: TFile, sourcePath: string): string {
    return `[[${this.metadataCache.fileToLinktext(file, sourcePath)}]]`;
  }
}
