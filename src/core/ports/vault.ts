/**
 * The vault as the core sees it. Paths are vault-relative, forward slashes, already normalized
 * by the caller's path policy. Implemented by ObsidianVault (Vault API) and FolderVault (a folder on disk);
 * both pass the same contract suite (test/contract/vault-contract.ts).
 */
export interface VaultPort {
  /** The config folder name (Obsidian's `Vault#configDir`, usually `.obsidian`). */
  readonly configDir: string;

  /** Whether a file (not a folder) exists at the path. */
  exists(path: string): Promise<boolean>;
  /** A file's full text. Rejects with VaultError "not_found". */
  read(path: string): Promise<string>;
  /** A file's bytes (a PDF, an image). Rejects with VaultError "not_found". */
  readBinary(path: string): Promise<ArrayBuffer>;
  /** Size and times without reading the content; null when absent. */
  stat(path: string): Promise<FileStat | null>;
  /** Creates a new file (and missing parent folders). Rejects with "exists" when the path is taken. */
  create(path: string, content: string): Promise<void>;
  /**
   * Atomic read-modify-write. `fn` gets the current text and returns the new text.
   * When `expected` is given and the current text differs from it (someone edited the note since it was read),
   * rejects with VaultError "conflict" and changes nothing.
   */
  process(path: string, fn: (current: string) => string, expected?: string): Promise<string>;
  /** Files under a folder ("" = the whole vault), recursively, sorted by path. Never lists the config folder. */
  list(folder?: string): Promise<FileStat[]>;
  /** Moves or renames a file; implementations that can (Obsidian) update links to it. Rejects "exists" / "not_found". */
  move(from: string, to: string): Promise<void>;
  /** Moves a file to the trash (system or vault `.trash`), never a hard delete. */
  trash(path: string): Promise<void>;
  /** Parsed metadata of a markdown note; null when absent or not markdown. */
  metadata(path: string): Promise<NoteMetadata | null>;
  /** Paths of notes that link to this path. */
  backlinks(path: string): Promise<string[]>;
  /** Resolves a wikilink target (`Note`, `folder/Note`, `Note#Heading`) as seen from `sourcePath`; null when unresolved. */
  resolveLink(linkText: string, sourcePath: string): Promise<string | null>;
  /** Edits frontmatter atomically; `fn` mutates the object in place. Creates a frontmatter block when absent. */
  processFrontMatter(path: string, fn: (frontmatter: Record<string, unknown>) => void): Promise<void>;
  /** Subscribes to changes; returns the unsubscribe function. */
  onChange(listener: (change: VaultChange) => void): () => void;
}

export interface FileStat {
  path: string;
  /** Bytes. */
  size: number;
  /** Milliseconds since the epoch. */
  mtime: number;
  ctime: number;
}

export interface NoteMetadata {
  frontmatter: Record<string, unknown> | null;
  /** Tags with their leading `#`, from the body and from frontmatter `tags`, in order of appearance, unique. */
  tags: string[];
  /** Wikilinks and markdown links to notes (not external URLs). */
  links: NoteLink[];
  headings: NoteHeading[];
  tasks: NoteTask[];
}

export interface NoteLink {
  /** The link target as written, without alias or heading (`Projects/Alpha`). */
  target: string;
  /** Display text when an alias is given. */
  display?: string;
  /** 0-based line. */
  line: number;
  /** `#Heading` part, if any, without the `#`. */
  subpath?: string;
  /** Resolved vault path, or null when the note does not exist. */
  resolved: string | null;
  /** Embeds (`![[x]]`) are links too. */
  embed: boolean;
}

export interface NoteHeading {
  level: number;
  text: string;
  /** 0-based line. */
  line: number;
}

export interface NoteTask {
  /** 0-based line. */
  line: number;
  text: string;
  done: boolean;
  /** The checkbox character: " ", "x", or a custom status. */
  status: string;
}

export type VaultChange =
  | { kind: "create"; path: string }
  | { kind: "modify"; path: string }
  | { kind: "delete"; path: string }
  | { kind: "rename"; path: string; oldPath: string };

/** What the editor shows now. Implemented by the Obsidian workspace; headless there is none. */
export interface WorkspacePort {
  /** The note open in the active editor, if any. */
  activeNote(): { path: string } | null;
  /** The selected text in the active editor, if any. */
  selection(): { path: string; text: string; fromLine: number; toLine: number } | null;
}

export type VaultErrorCode = "not_found" | "exists" | "conflict" | "not_markdown" | "too_large" | "io";

/** A vault failure with one sentence a user (and the model) can act on. */
export class VaultError extends Error {
  constructor(
    message: string,
    readonly code: VaultErrorCode,
    readonly path?: string,
  ) {
    super(message);
    this.name = "VaultError";
  }
}
