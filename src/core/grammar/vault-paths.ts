/**
 * The vault's paths as a folder tree, kept current from vault change events (create, rename, delete) and compiled
 * into GBNF one rule per folder: a folder's rule is a prefix tree of its file names and subfolder names (each
 * subfolder continuing into its own rule), so a change re-prints only the rule of the folder it touched, and the
 * grammar stays deterministic character by character. A note `A/B.md` is admitted as `A/B.md` and as `A/B` (the
 * tools add `.md` when no extension is given); other files only by their full name. Text is JSON string content
 * (escaped as JSON.stringify escapes it), without the quotes.
 *
 * A tool whose path names a file of some kinds (a PDF, a base, a canvas) gets a filtered view: a tree of its own
 * holding the same paths of those extensions only (`ofKind`), kept current by the same create/rename/delete events and
 * printing its rules under its own names (`vpt-k<exts>-…`), cached per folder like the whole tree's.
 */
import { EMPTY, lit, opt, ref, type GbnfExpr } from "./gbnf-ast";
import { printExpr } from "./gbnf-printer";
import { literalChoice, type LiteralBranch } from "./literal-choice";

/** Rule names of the tree start with this (no compiler-made rule does: tool hints start with a tool family). */
export const PATH_RULE_PREFIX = "vpt-";
/** Paths longer than this (code points) are left out: the tools' path argument allows at most 300 characters. */
const MAX_PATH_CHARS = 300;
/** A file name that already ends in an extension (as the tools' notePath decides; `.canvas`, longer, as canvas tools do). */
const HAS_EXTENSION = /\.(?:[A-Za-z0-9]{1,5}|canvas)$/;

/** One folder of the tree. */
interface FolderNode {
  /** Stable number, the rule's name. */
  id: number;
  /** Vault-relative folder path with a trailing slash ("" = the vault root). */
  prefix: string;
  /** File names in this folder. */
  files: Set<string>;
  /** Subfolders by name. */
  folders: Map<string, FolderNode>;
  /** Printed rules of this folder's entries by their first character, until a change to one of them clears it. */
  groups: Map<string, string>;
  /** This folder's printed rule (a choice of first characters), until a change in the folder clears it. */
  text?: string;
}

/** JSON string content of a text, without the quotes. */
export function jsonContent(text: string): string {
  return JSON.stringify(text).slice(1, -1);
}

/** The tree of the vault's paths with a version that grows on every change. */
export class VaultPathIndex {
  /** Grows on every change; part of every grounded grammar's cache key. */
  version = 0;
  /** Whether the full list has been loaded at least once (before that, nothing is grounded). */
  ready = false;
  private nextId = 1;
  private root: FolderNode = this.node("");
  private readonly all = new Set<string>();
  /** The longest path's bytes; null when a delete may have shortened it (counted again when asked). */
  private longest: number | null = 0;
  /** Printed rules of the last few exclusion sets, by version and set. */
  private readonly recent = new Map<string, { text: string; own: string }>();
  /** The filtered views made so far, by their extensions (sorted, comma-joined). */
  private readonly kinds = new Map<string, VaultPathIndex>();

  /**
   * @param admits whether a path may be named at all (hidden, config and excluded folders are not).
   * @param rulePrefix the start of this tree's rule names (default PATH_RULE_PREFIX; a filtered view has its own).
   */
  constructor(
    private readonly admits: (path: string) => boolean = () => true,
    private readonly rulePrefix: string = PATH_RULE_PREFIX,
  ) {}

  /**
   * The view of this tree holding only files with one of these extensions (lower case, without the dot: `["pdf"]`),
   * made on first use from the current paths and then kept current with every change to this tree.
   */
  ofKind(extensions: readonly string[]): VaultPathIndex {
    const exts = [...new Set(extensions.map((e) => e.toLowerCase()))].sort();
    const key = exts.join(",");
    let view = this.kinds.get(key);
    if (!view) {
      view = new VaultPathIndex((p) => hasKind(p, exts), `${PATH_RULE_PREFIX}k${exts.join("")}-`);
      if (this.ready) view.load(this.all);
      this.kinds.set(key, view);
    }
    return view;
  }

  /** Replaces every path (the first listing, or a relisting). */
  load(paths: Iterable<string>): void {
    this.root = this.node("");
    this.all.clear();
    this.longest = 0;
    for (const p of paths) this.insert(p);
    this.ready = true;
    this.version++;
    for (const view of this.kinds.values()) view.load(this.all);
  }

  /** How many paths the tree holds. */
  get size(): number {
    return this.all.size;
  }

  /** Every path, in no particular order. */
  paths(): IterableIterator<string> {
    return this.all.values();
  }

  /** UTF-8 bytes of the longest path as JSON string content (`.md` included), for the grammar's byte bound. */
  longestBytes(): number {
    if (this.longest === null) {
      let max = 0;
      for (const p of this.all) max = Math.max(max, utf8Bytes(jsonContent(p)));
      this.longest = max;
    }
    return this.longest;
  }

  /** Whether this exact path is in the tree. */
  has(path: string): boolean {
    return this.all.has(path);
  }

  /** The stored path a tool would reach for this text (`A/B` → `A/B.md`), or null. */
  resolve(path: string): string | null {
    if (this.all.has(path)) return path;
    const name = path.split("/").pop() ?? path;
    return !HAS_EXTENSION.test(name) && this.all.has(`${path}.md`) ? `${path}.md` : null;
  }

  add(path: string): void {
    if (!this.insert(path)) return;
    this.version++;
    for (const view of this.kinds.values()) view.add(path);
  }

  delete(path: string): void {
    if (!this.all.delete(path)) return;
    for (const view of this.kinds.values()) view.delete(path);
    if (this.longest !== null && utf8Bytes(jsonContent(path)) >= this.longest) this.longest = null;
    const parts = path.split("/");
    const chain: FolderNode[] = [this.root];
    for (const seg of parts.slice(0, -1)) {
      const next = chain[chain.length - 1].folders.get(seg);
      if (!next) return;
      chain.push(next);
    }
    const folder = chain[chain.length - 1];
    folder.files.delete(parts[parts.length - 1]);
    touch(folder, parts[parts.length - 1]);
    // Empty folders leave the tree, and their parent's rule changes.
    for (let i = chain.length - 1; i > 0; i--) {
      const f = chain[i];
      if (f.files.size > 0 || f.folders.size > 0) break;
      const parent = chain[i - 1];
      parent.folders.delete(parts[i - 1]);
      touch(parent, parts[i - 1]);
    }
    this.version++;
  }

  rename(oldPath: string, path: string): void {
    this.delete(oldPath);
    this.add(path);
  }

  /** Follows one vault change; a modify changes no path. Folder renames arrive as one rename per file. */
  apply(change: { kind: "create" | "modify" | "delete" | "rename"; path: string; oldPath?: string }): void {
    if (change.kind === "create") this.add(change.path);
    else if (change.kind === "delete") this.delete(change.path);
    else if (change.kind === "rename") this.rename(change.oldPath ?? "", change.path);
  }

  /** Up to `k` stored paths closest to a text (same name first, then edit distance), for a refusal's sentence. */
  nearest(path: string, k = 3): string[] {
    const want = path.toLowerCase().replace(/\.md$/, "");
    const name = want.split("/").pop() ?? want;
    const scored: { p: string; d: number }[] = [];
    for (const p of this.all) {
      const low = p.toLowerCase().replace(/\.md$/, "");
      const pn = low.split("/").pop() ?? low;
      const d = (pn === name ? 0 : pn.includes(name) || name.includes(pn) ? 1 : 2) * 1000 + distance(low, want, 400);
      scored.push({ p, d });
    }
    scored.sort((a, b) => a.d - b.d || (a.p < b.p ? -1 : 1));
    return scored.slice(0, k).map((s) => s.p);
  }

  /**
   * GBNF rules admitting every path except `excluded` (notes grounded elsewhere), and the name of the rule to start
   * from; null when no path remains. Folders untouched since the last call reuse their printed rule.
   */
  rules(excluded: ReadonlySet<string> = new Set()): { root: string; text: string; own: string } | null {
    const ex = [...excluded].filter((p) => this.all.has(p)).sort();
    if (this.all.size - ex.length <= 0) return null;
    const key = `${this.version}\u001e${ex.join("\u001e")}`;
    const rootName = ex.length ? `${this.rulePrefix}0-x` : `${this.rulePrefix}0`;
    const known = this.recent.get(key);
    if (known !== undefined) return { root: rootName, ...known };
    const out: string[] = [];
    const own: string[] = [];
    this.emit(this.root, ex, out, own);
    const printed = { text: [...out, ...own].join("\n") + "\n", own: own.length ? own.join("\n") + "\n" : "" };
    if (this.recent.size >= 4) this.recent.delete(this.recent.keys().next().value as string);
    this.recent.set(key, printed);
    return { root: rootName, ...printed };
  }

  /**
   * A folder's rules: one choosing the first character of an entry, one per first character choosing the rest (so a
   * change re-prints one small group), and the subfolders'. A folder on the way to an excluded path gets rules of its
   * own (suffix -x) for itself and the groups on that way; everything else is the shared, cached rules.
   */
  private emit(node: FolderNode, excluded: readonly string[], out: string[], own: string[]): void {
    const mine = excluded.filter((p) => p.startsWith(node.prefix));
    if (mine.length === 0 && node.text !== undefined) {
      // Unchanged since printed: its rules as they are.
      out.push(node.text, ...node.groups.values());
      for (const child of node.folders.values()) this.emit(child, mine, out, own);
      return;
    }
    const groups = new Map<string, { files: string[]; folders: [string, FolderNode][] }>();
    const group = (name: string) => {
      const c = firstChar(name);
      let g = groups.get(c);
      if (!g) groups.set(c, (g = { files: [], folders: [] }));
      return g;
    };
    for (const f of node.files) group(f).files.push(f);
    for (const entry of node.folders) group(entry[0]).folders.push(entry);
    // First characters of the entries on the way to an excluded path.
    const xs = new Set(mine.map((p) => firstChar(p.slice(node.prefix.length))));
    const top: LiteralBranch[] = [];
    for (const [c, g] of groups) {
      const x = xs.has(c);
      const name = `${this.rulePrefix}${node.id}-${c.codePointAt(0)!.toString(36)}${x ? "-x" : ""}`;
      if (!x) {
        let text = node.groups.get(c);
        if (text === undefined) node.groups.set(c, (text = `${name} ::= ${printExpr(this.rest(node, g, [])!)}`));
        out.push(text);
      } else {
        const body = this.rest(node, g, mine);
        if (body === null) continue;
        own.push(`${name} ::= ${printExpr(body)}`);
      }
      top.push({ text: jsonContent(c), then: ref(name) });
    }
    const head = `${this.rulePrefix}${node.id}`;
    if (mine.length === 0) {
      node.text ??= `${head} ::= ${printExpr(literalChoice(top))}`;
      out.push(node.text);
    } else own.push(`${head}-x ::= ${printExpr(literalChoice(top)) || '""'}`);
    for (const child of node.folders.values()) this.emit(child, mine, out, own);
  }

  /** The rest of the names of one group (after their first character); null when every entry is excluded. */
  private rest(node: FolderNode, g: { files: string[]; folders: [string, FolderNode][] }, excluded: readonly string[]): GbnfExpr | null {
    const branches: LiteralBranch[] = [];
    for (const name of g.files) {
      if (excluded.includes(node.prefix + name)) continue;
      const tail = name.slice(firstChar(name).length);
      const stem = name.slice(0, -3);
      if (name.endsWith(".md") && stem !== "" && !HAS_EXTENSION.test(stem)) branches.push({ text: jsonContent(tail.slice(0, -3)), then: opt(lit(".md")) });
      else branches.push({ text: jsonContent(tail), then: EMPTY });
    }
    for (const [name, child] of g.folders) {
      const inside = excluded.filter((p) => p.startsWith(child.prefix));
      // A folder whose every path is excluded would be a dead end.
      if (inside.length > 0 && this.countUnder(child) <= inside.length) continue;
      branches.push({ text: jsonContent(name.slice(firstChar(name).length)) + "/", then: ref(`${this.rulePrefix}${child.id}${inside.length ? "-x" : ""}`) });
    }
    return branches.length ? literalChoice(branches) : null;
  }

  private countUnder(node: FolderNode): number {
    let n = node.files.size;
    for (const c of node.folders.values()) n += this.countUnder(c);
    return n;
  }

  private insert(path: string): boolean {
    if (this.all.has(path) || !path || [...path].length > MAX_PATH_CHARS || !this.admits(path)) return false;
    const parts = path.split("/");
    const name = parts[parts.length - 1];
    // A file without an extension cannot be named: the tools would look for "name.md".
    if (!HAS_EXTENSION.test(name) || parts.some((s) => s === "")) return false;
    let node = this.root;
    for (const seg of parts.slice(0, -1)) {
      let next = node.folders.get(seg);
      if (!next) {
        next = this.node(`${node.prefix}${seg}/`);
        node.folders.set(seg, next);
        touch(node, seg);
      }
      node = next;
    }
    node.files.add(name);
    touch(node, name);
    this.all.add(path);
    if (this.longest !== null) this.longest = Math.max(this.longest, utf8Bytes(jsonContent(path)));
    return true;
  }

  private node(prefix: string): FolderNode {
    return { id: prefix === "" ? 0 : this.nextId++, prefix, files: new Set(), folders: new Map(), groups: new Map() };
  }
}

/** Whether a path's file name ends in one of these extensions (lower case, without the dot), in any case. */
export function hasKind(path: string, extensions: readonly string[]): boolean {
  const m = /\.([A-Za-z0-9]+)$/.exec(path.split("/").pop() ?? path);
  return !!m && extensions.includes(m[1].toLowerCase());
}

/** The first character (code point) of a name. */
function firstChar(name: string): string {
  return String.fromCodePoint(name.codePointAt(0)!);
}

/** A change to the entry `name` of a folder: its group and the folder's rule print again. */
function touch(node: FolderNode, name: string): void {
  node.groups.delete(firstChar(name));
  node.text = undefined;
}

/** UTF-8 length of a text. */
export function utf8Bytes(text: string): number {
  let n = 0;
  for (const ch of text) {
    const cp = ch.codePointAt(0)!;
    n += cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
  }
  return n;
}

/** Levenshtein distance, stopping at `cap`. */
function distance(a: string, b: string, cap: number): number {
  if (Math.abs(a.length - b.length) >= cap) return cap;
  let prev = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) cur[j] = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    prev = cur;
  }
  return Math.min(prev[b.length], cap);
}
