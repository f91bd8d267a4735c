/**
 * The VaultPort over Obsidian's own APIs: files through `Vault` (cachedRead, process, create), metadata through
 * `MetadataCache`, moves/trash/frontmatter through `FileManager` (so links update and the user's trash setting
 * holds). Passes the same contract suite as FolderVault (test/contract/vault-contract.ts).
 */
import { TFile, TFolder, Vault, normalizePath, type CachedMetadata, type EventRef, type FileManager, type MetadataCache, type TAbstractFile } from "obsidian";
import { parseNote } from "../../core/memory/note-parser";
import {
  VaultError,
  type FileStat,
  type NoteLink,
  type NoteMetadata,
  type NoteTask,
  type VaultChange,
  type VaultPort,
} from "../../core/ports/vault";

/** The Obsidian pieces this adapter uses, handed over from the plugin (no global `app`). */
export interface ObsidianVaultDeps {
  vault: Vault;
  metadataCache: MetadataCache;
  fileManager: FileManager;
}

const TASK_LINE = /^\s*(?:[-*+]|\d+[.)])\s+\[(.)\]\s?(.*)$/;

export class ObsidianVault implements VaultPort {
  /** Obsidian's config folder name. */
  readonly configDir: string;
  private readonly vault: Vault;
  private readonly metadataCache: MetadataCache;
  private readonly fileManager: FileManager;

  constructor(deps: ObsidianVaultDeps) {
    this.vault = deps.vault;
    this.metadataCache = deps.metadataCache;
    this.fileManager = deps.fileManager;
    this.configDir = deps.vault.configDir;
  }

  async exists(path: string): Promise<boolean> {
    return this.vault.getFileByPath(normalizePath(path)) !== null;
  }

  async read(path: string): Promise<string> {
    return this.vault.cachedRead(this.file(path));
  }

  async readBinary(path: string): Promise<ArrayBuffer> {
    return this.vault.readBinary(this.file(path));
  }

  async stat(path: string): Promise<FileStat | null> {
    const file = this.vault.getFileByPath(normalizePath(path));
    return file ? toStat(file) : null;
  }

  async create(path: string, content: string): Promise<void> {
    const p = normalizePath(path);
    if (this.vault.getAbstractFileByPath(p)) throw new VaultError(`${p} already exists; choose another name or edit the existing note.`, "exists", p);
    await this.ensureFolder(parentOf(p));
    await this.vault.create(p, content);
  }

  async process(path: string, fn: (current: string) => string, expected?: string): Promise<string> {
    const file = this.file(path);
    // Vault.process runs `fn` atomically on the text on disk, so the comparison and the write cannot interleave.
    return this.vault.process(file, (current) => {
      if (expected !== undefined && current !== expected) {
        throw new VaultError(`${file.path} changed since it was read; read it again before editing.`, "conflict", file.path);
      }
      return fn(current);
    });
  }

  async list(folder = ""): Promise<FileStat[]> {
    const prefix = normalizePath(folder);
    let files: TFile[];
    if (prefix === "/") files = this.vault.getFiles();
    else {
      const root = this.vault.getFolderByPath(prefix);
      if (!root) return [];
      files = [];
      Vault.recurseChildren(root, (f) => {
        if (f instanceof TFile) files.push(f);
      });
    }
    return files
      .filter((f) => !hiddenPath(f.path))
      .map(toStat)
      .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  }

  async move(from: string, to: string): Promise<void> {
    const file = this.file(from);
    const target = normalizePath(to);
    if (this.vault.getAbstractFileByPath(target)) throw new VaultError(`${target} already exists; choose another name.`, "exists", target);
    await this.ensureFolder(parentOf(target));
    await this.fileManager.renameFile(file, target);
  }

  async trash(path: string): Promise<void> {
    await this.fileManager.trashFile(this.file(path));
  }

  async metadata(path: string): Promise<NoteMetadata | null> {
    const file = this.vault.getFileByPath(normalizePath(path));
    if (!file || file.extension !== "md") return null;
    const text = await this.vault.cachedRead(file);
    const cache = this.metadataCache.getFileCache(file);
    // Right after a write Obsidian may not have indexed the note yet: parse it ourselves rather than report nothing.
    if (!cache) return this.parsed(file.path, text);
    return this.fromCache(file.path, cache, text);
  }

  async backlinks(path: string): Promise<string[]> {
    const target = normalizePath(path);
    const sources: string[] = [];
    for (const [source, targets] of Object.entries(this.metadataCache.resolvedLinks)) {
      if (source !== target && targets[target]) sources.push(source);
    }
    return sources.sort();
  }

  async resolveLink(linkText: string, sourcePath: string): Promise<string | null> {
    const linkpath = linkText.split("|")[0].split("#")[0].trim();
    if (linkpath === "") return null;
    return this.metadataCache.getFirstLinkpathDest(linkpath, normalizePath(sourcePath))?.path ?? null;
  }

  async processFrontMatter(path: string, fn: (frontmatter: Record<string, unknown>) => void): Promise<void> {
    await this.fileManager.processFrontMatter(this.file(path), fn);
  }

  onChange(listener: (change: VaultChange) => void): () => void {
    const emit = (change: VaultChange) => {
      if (hiddenPath(change.path)) return;
      try {
        listener(change);
      } catch (error) {
        console.error("Vault agent: a change listener failed", error);
      }
    };
    const refs: EventRef[] = [
      this.vault.on("create", (f: TAbstractFile) => f instanceof TFile && emit({ kind: "create", path: f.path })),
      this.vault.on("modify", (f: TAbstractFile) => f instanceof TFile && emit({ kind: "modify", path: f.path })),
      this.vault.on("delete", (f: TAbstractFile) => f instanceof TFile && emit({ kind: "delete", path: f.path })),
      this.vault.on("rename", (f: TAbstractFile, oldPath: string) => f instanceof TFile && emit({ kind: "rename", path: f.path, oldPath })),
    ];
    return () => refs.forEach((ref) => this.vault.offref(ref));
  }

  /** The file at a path, or a not_found error naming it. */
  private file(path: string): TFile {
    const p = normalizePath(path);
    const file = this.vault.getFileByPath(p);
    if (!file) throw new VaultError(`${p} does not exist; check the path or list the folder first.`, "not_found", p);
    return file;
  }

  /** Creates a folder and its missing parents ("/" is the vault root). */
  private async ensureFolder(folder: string): Promise<void> {
    if (folder === "/" || this.vault.getAbstractFileByPath(folder) instanceof TFolder) return;
    if (this.vault.getAbstractFileByPath(folder)) throw new VaultError(`${folder} is a file, so it cannot hold notes.`, "exists", folder);
    await this.ensureFolder(parentOf(folder));
    await this.vault.createFolder(folder);
  }

  private fromCache(path: string, cache: CachedMetadata, text: string): NoteMetadata {
    const { position: _position, ...frontmatter } = (cache.frontmatter ?? {}) as Record<string, unknown>;
    const tags: string[] = [];
    const addTag = (raw: unknown) => {
      if (typeof raw !== "string") return;
      const clean = raw.trim().replace(/^#/, "");
      if (clean && !tags.includes(`#${clean}`)) tags.push(`#${clean}`);
    };
    const fmTags = frontmatter.tags ?? frontmatter.tag;
    if (Array.isArray(fmTags)) fmTags.forEach(addTag);
    else if (typeof fmTags === "string") fmTags.split(/[,\s]+/).forEach(addTag);
    for (const t of cache.tags ?? []) addTag(t.tag);

    const links: NoteLink[] = [];
    for (const [refs, embed] of [
      [cache.links ?? [], false],
      [cache.embeds ?? [], true],
    ] as const) {
      for (const ref of refs) {
        const hash = ref.link.indexOf("#");
        const target = hash >= 0 ? ref.link.slice(0, hash) : ref.link;
        const isWiki = ref.original.startsWith("[[") || ref.original.startsWith("![[");
        const hasAlias = isWiki ? ref.original.includes("|") : true;
        const link: NoteLink = {
          target,
          line: ref.position.start.line,
          embed,
          resolved: target === "" ? null : (this.metadataCache.getFirstLinkpathDest(target, path)?.path ?? null),
        };
        if (hasAlias && ref.displayText) link.display = ref.displayText;
        if (hash >= 0 && ref.link.slice(hash + 1)) link.subpath = ref.link.slice(hash + 1);
        links.push(link);
      }
    }
    links.sort((a, b) => a.line - b.line);

    const lines = text.split("\n");
    const tasks: NoteTask[] = [];
    for (const item of cache.listItems ?? []) {
      if (item.task === undefined) continue;
      const line = item.position.start.line;
      const m = TASK_LINE.exec((lines[line] ?? "").replace(/\r$/, ""));
      tasks.push({ line, text: (m?.[2] ?? "").trim(), done: item.task !== " ", status: item.task });
    }
    return {
      frontmatter: cache.frontmatter ? frontmatter : null,
      tags,
      links,
      headings: (cache.headings ?? []).map((h) => ({ level: h.level, text: h.heading, line: h.position.start.line })),
      tasks,
    };
  }

  private parsed(path: string, text: string): NoteMetadata {
    const note = parseNote(text);
    return {
      ...note,
      links: note.links.map((l) => ({ ...l, resolved: l.target === "" ? null : (this.metadataCache.getFirstLinkpathDest(l.target, path)?.path ?? null) })),
    };
  }
}

function toStat(file: TFile): FileStat {
  return { path: file.path, size: file.stat.size, mtime: file.stat.mtime, ctime: file.stat.ctime };
}

function parentOf(path: string): string {
  const i = path.lastIndexOf("/");
  return i < 0 ? "/" : path.slice(0, i);
}

/** Dot folders (the config folder, `.trash`) are not part of the vault the agent sees. */
function hiddenPath(path: string): boolean {
  return path.split("/").some((part) => part.startsWith("."));
}
