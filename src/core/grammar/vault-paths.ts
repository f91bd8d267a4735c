/**
 * The vault's paths as a folder tree, kept current from vault change events (create, rename, delete) and compiled
 * into GBNF one rule per folder: a folder's rule is a prefix tree of its file names and subfolder names (each
 * subfolder continuing into its own rule), so a change re-prints only the rule of the folder it touched, and the
 * grammar stays deterministic character by character. A note `A/B.md` is admitted as `A/B.md` and as `A/B` (the
 * tools add `.md` when no extension is given); other files only by their full name. Text is JSON string content
 * (escaped as JSON.stringify escapes it), without the quotes.
 */
import { EMPTY, lit, opt, ref, type GbnfExpr } from "./gbnf-ast";
import { printExpr } from "./gbnf-printer";
import { literalChoice, type LiteralBranch } from "./literal-choice";

/** Rule names of the tree start with this (no compiler-made rule does: tool hints start with a tool family). */
export const PATH_RULE_PREFIX = "vpt-";
/** Paths longer than this (code points) are left out: the tools' path argument allows at most 300 characters. */
const MAX_PATH_CHARS = 300;
/** A file name that already ends in an extension (as the tools' notePath decides). */
const HAS_EXTENSION = /\.[A-Za-z0-9]{1,5}$/;

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
  /** This folder's printed rule, until a change in the folder clears it. */
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
  /** The longest path's bytes at a version. */
  private longest: { version: number; bytes: number } | null = null;
  /** Printed rules of the last few exclusion sets, by version and set. */
  private readonly recent = new Map<string, string>();

  /** @param admits whether a path may be named at all (hidden, config and excluded folders are not). */
  constructor(private readonly admits: (path: string) => boolean = () => true) {}

  /** Replaces every path (the first listing, or a relisting). */
  load(paths: Iterable<string>): void {
    this.root = this.node("");
    this.all.clear();
    for (const p of paths) this.insert(p);
    this.ready = true;
    this.version++;
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
    if (this.longest?.version !== this.version) {
      let max = 0;
      for (const p of this.all) max = Math.max(max, utf8Bytes(jsonContent(p)));
      this.longest = { version: this.version, bytes: max };
    }
    return this.longest.bytes;
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
    if (this.insert(path)) this.version++;
  }

  delete(path: string): void {
    if (!this.all.delete(path)) return;
    const parts = path.split("/");
    const chain: FolderNode[] = [this.root];
    for (const seg of parts.slice(0, -1)) {
      const next = chain[chain.length - 1].folders.get(seg);
      if (!next) return;
      chain.push(next);
    }
    const folder = chain[chain.length - 1];
    folder.files.delete(parts[parts.length - 1]);
    folder.text = undefined;
    // Empty folders leave the tree, and their parent's rule changes.
    for (let i = chain.length - 1; i > 0; i--) {
      const f = chain[i];
      if (f.files.size > 0 || f.folders.size > 0) break;
      const parent = chain[i - 1];
      parent.folders.delete(parts[i - 1]);
      parent.text = undefined;
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
  rules(excluded: ReadonlySet<string> = new Set()): { root: string; text: string } | null {
    const ex = [...excluded].filter((p) => this.all.has(p)).sort();
    if (this.all.size - ex.length <= 0) return null;
    const key = `${this.version}\u001e${ex.join("\u001e")}`;
    const rootName = ex.length ? `${PATH_RULE_PREFIX}0-x` : `${PATH_RULE_PREFIX}0`;
    const known = this.recent.get(key);
    if (known !== undefined) return { root: rootName, text: known };
    const out: string[] = [];
    this.emit(this.root, ex, out);
    const text = out.join("\n") + "\n";
    if (this.recent.size >= 4) this.recent.delete(this.recent.keys().next().value as string);
    this.recent.set(key, text);
    return { root: rootName, text };
  }

  private emit(node: FolderNode, excluded: readonly string[], out: string[]): void {
    const mine = excluded.filter((p) => p.startsWith(node.prefix));
    if (mine.length === 0 || excluded.length === 0) {
      node.text ??= `${PATH_RULE_PREFIX}${node.id} ::= ${printExpr(this.choice(node, []))}`;
      out.push(node.text);
      for (const child of node.folders.values()) this.emit(child, [], out);
      return;
    }
    // A folder holding an excluded path gets its own rule (suffix -x); the rest of the tree is shared.
    out.push(`${PATH_RULE_PREFIX}${node.id}-x ::= ${printExpr(this.choice(node, mine)) || '""'}`);
    for (const child of node.folders.values()) this.emit(child, mine, out);
  }

  private choice(node: FolderNode, excluded: readonly string[]): GbnfExpr {
    const branches: LiteralBranch[] = [];
    for (const name of node.files) {
      if (excluded.includes(node.prefix + name)) continue;
      const stem = name.slice(0, -3);
      if (name.endsWith(".md") && stem !== "" && !HAS_EXTENSION.test(stem)) branches.push({ text: jsonContent(stem), then: opt(lit(".md")) });
      else branches.push({ text: jsonContent(name), then: EMPTY });
    }
    for (const [name, child] of node.folders) {
      const inside = excluded.filter((p) => p.startsWith(child.prefix));
      // A folder whose every path is excluded would be a dead end.
      if (inside.length > 0 && this.countUnder(child) <= inside.length) continue;
      branches.push({ text: jsonContent(name) + "/", then: ref(`${PATH_RULE_PREFIX}${child.id}${inside.length ? "-x" : ""}`) });
    }
    return literalChoice(branches);
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
        node.text = undefined;
      }
      node = next;
    }
    node.files.add(name);
    node.text = undefined;
    this.all.add(path);
    return true;
  }

  private node(prefix: string): FolderNode {
    return { id: prefix === "" ? 0 : this.nextId++, prefix, files: new Set(), folders: new Map() };
  }
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
