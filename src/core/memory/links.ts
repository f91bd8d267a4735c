/**
 * Link resolution and link rewriting with Obsidian's semantics: a link resolves to an exact vault
 * path first, then relative to the linking note's folder, then by file name anywhere (same folder
 * first, then the shortest path). Moving a note rewrites links to it in the "shortest path when
 * possible" format, keeping each link's `#heading` and `|alias`.
 */
import { CodeFence } from "./code-fence";

/** Resolves link targets against one snapshot of the vault's paths, with lookup tables built once. */
export class LinkResolver {
  /** Lowercased path → path. */
  private readonly byPath = new Map<string, string>();
  /** Lowercased file name (with extension) → paths. */
  private readonly byName = new Map<string, string[]>();

  constructor(readonly paths: readonly string[]) {
    for (const p of paths) {
      const lower = p.toLowerCase();
      if (!this.byPath.has(lower)) this.byPath.set(lower, p);
      const name = lower.split("/").pop() ?? lower;
      const list = this.byName.get(name);
      if (list) list.push(p);
      else this.byName.set(name, [p]);
    }
  }

  /** The vault path a link target points to, as seen from `sourcePath`; null when nothing matches. */
  resolve(target: string, sourcePath: string): string | null {
    const clean = target.trim().replace(/^\/+/, "");
    if (clean === "") return null;
    const candidates = hasExtension(clean) ? [clean] : [`${clean}.md`, clean];
    const sourceFolder = folderOf(sourcePath);
    for (const c of candidates) {
      const exact = this.byPath.get(c.toLowerCase());
      if (exact) return exact;
    }
    for (const c of candidates) {
      const relative = normalizeRelative(sourceFolder, c);
      if (relative !== null) {
        const hit = this.byPath.get(relative.toLowerCase());
        if (hit) return hit;
      }
    }
    for (const c of candidates) {
      const lower = c.toLowerCase();
      const suffix = `/${lower}`;
      const matches = (this.byName.get(lower.split("/").pop() ?? lower) ?? []).filter((p) => `/${p.toLowerCase()}`.endsWith(suffix));
      if (matches.length === 0) continue;
      matches.sort((a, b) => {
        const sameA = folderOf(a) === sourceFolder ? 0 : 1;
        const sameB = folderOf(b) === sourceFolder ? 0 : 1;
        return sameA - sameB || a.split("/").length - b.split("/").length || a.length - b.length || a.localeCompare(b);
      });
      return matches[0];
    }
    return null;
  }

  /** How many files share this file name (case-insensitively). */
  nameCount(fileName: string): number {
    return this.byName.get(fileName.toLowerCase())?.length ?? 0;
  }
}

/** Resolves a link target against the set of vault paths; null when nothing matches. */
export function resolveLinkpath(target: string, sourcePath: string, paths: readonly string[]): string | null {
  return new LinkResolver(paths).resolve(target, sourcePath);
}

/** The link text Obsidian writes for `path` ("shortest path when possible"): the bare name when unique. */
export function shortestLinktext(path: string, paths: readonly string[]): string {
  const withoutMd = path.toLowerCase().endsWith(".md") ? path.slice(0, -3) : path;
  const name = withoutMd.split("/").pop() ?? withoutMd;
  const fileName = path.split("/").pop() ?? path;
  const sameName = paths.filter((p) => (p.split("/").pop() ?? p).toLowerCase() === fileName.toLowerCase());
  return sameName.length <= 1 ? name : withoutMd;
}

/** Rewrites every link in `text` that resolves to `from`, so it points at `to`. Returns the new text and how many links changed. */
export function rewriteLinks(
  text: string,
  sourcePath: string,
  from: string,
  to: string,
  pathsBefore: readonly string[] | LinkResolver,
  pathsAfter: readonly string[],
): { text: string; changed: number } {
  let changed = 0;
  const newWikiTarget = shortestLinktext(to, pathsAfter);
  const before = pathsBefore instanceof LinkResolver ? pathsBefore : new LinkResolver(pathsBefore);
  const lines = text.split("\n");
  const fence = new CodeFence();
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (fence.covers(line)) continue;
    // Inline code is not a link (the parser skips it too): rewrite only the text between code spans.
    lines[i] = line
      .split(/(`[^`]*`)/)
      .map((part) => (part.startsWith("`") && part.endsWith("`") && part.length > 1 ? part : rewritePart(part)))
      .join("");
  }
  return { text: lines.join("\n"), changed };

  function rewritePart(line: string): string {
    let updated = line.replace(/(!?)\[\[([^\]\n]+?)\]\]/g, (whole, bang: string, inner: string) => {
      const pipe = inner.indexOf("|");
      const ref = pipe >= 0 ? inner.slice(0, pipe) : inner;
      const rest = pipe >= 0 ? inner.slice(pipe) : "";
      const hash = ref.indexOf("#");
      const target = hash >= 0 ? ref.slice(0, hash) : ref;
      const sub = hash >= 0 ? ref.slice(hash) : "";
      if (target.trim() === "" || before.resolve(target, sourcePath) !== from) return whole;
      changed++;
      const written = hasExtension(target.trim()) && !target.trim().toLowerCase().endsWith(".md") ? to : newWikiTarget;
      return `${bang}[[${written}${sub}${rest}]]`;
    });
    updated = updated.replace(/(!?)\[([^\]\n]*)\]\(\s*(<[^>\n]+>|[^)\s]+)\s*\)/g, (whole, bang: string, label: string, rawUrl: string) => {
      const angle = rawUrl.startsWith("<");
      let url = angle ? rawUrl.slice(1, -1) : rawUrl;
      if (/^[a-z][a-z0-9+.-]*:/i.test(url) || url.startsWith("#")) return whole;
      try {
        url = decodeURI(url);
      } catch {
        return whole;
      }
      const hash = url.indexOf("#");
      const target = hash >= 0 ? url.slice(0, hash) : url;
      const sub = hash >= 0 ? url.slice(hash) : "";
      if (before.resolve(target, sourcePath) !== from) return whole;
      changed++;
      const newUrl = angle ? `<${to}${sub}>` : encodeURI(to) + sub;
      return `${bang}[${label}](${newUrl})`;
    });
    return updated;
  }
}

function hasExtension(p: string): boolean {
  return /\.[A-Za-z0-9]{1,5}$/.test(p.split("/").pop() ?? p);
}

function folderOf(path: string): string {
  const idx = path.lastIndexOf("/");
  return idx >= 0 ? path.slice(0, idx) : "";
}

/** Joins a relative path to a folder, resolving `.` and `..`; null when it climbs out of the vault. */
function normalizeRelative(folder: string, rel: string): string | null {
  const parts = folder === "" ? [] : folder.split("/");
  for (const seg of rel.split("/")) {
    if (seg === "" || seg === ".") continue;
    if (seg === "..") {
      if (parts.length === 0) return null;
      parts.pop();
    } else parts.push(seg);
  }
  return parts.join("/");
}
