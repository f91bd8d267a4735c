/**
 * Relative links between Markdown pages, checked the way GitHub renders them: a link's file must exist, and a
 * `#anchor` must be the slug of a heading in the target page (github-slugger's rules: lowercase, every character
 * that is not a letter, mark, digit, `_`, `-` or space dropped, spaces to `-`, a repeated slug numbered `-1`, `-2`).
 * Links in code (fenced blocks, inline spans) are text, not links; absolute URLs are not checked here.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";

/** One link as written in a page. */
export interface PageLink {
  /** The page that holds the link. */
  page: string;
  /** 1-based line of the link. */
  line: number;
  /** The target as written: `docs/cli.md#options`, `#install`, `images/a.png`. */
  target: string;
}

/** A link that leads nowhere, with the reason in a sentence. */
export interface BrokenLink extends PageLink {
  reason: string;
}

/** The anchor GitHub gives a heading's text. */
export function githubSlug(heading: string): string {
  return heading.toLowerCase().replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, "").replace(/ /g, "-");
}

/** A heading's text as GitHub renders it: links to their text, inline code and emphasis marks gone, a closing `#` run dropped. */
function headingText(raw: string): string {
  return raw
    .replace(/\s+#+\s*$/, "")
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/<[^>]+>/g, "")
    .replace(/[`*]/g, "")
    .trim();
}

/** The page's lines outside fenced code blocks, with inline code spans blanked; line numbers kept. */
function proseLines(text: string): string[] {
  let fence: string | undefined;
  return text.split("\n").map((line) => {
    const open = /^\s*(`{3,}|~{3,})/.exec(line);
    if (fence) {
      if (open && open[1][0] === fence[0] && open[1].length >= fence.length) fence = undefined;
      return "";
    }
    if (open) {
      fence = open[1];
      return "";
    }
    return line.replace(/(`+)[\s\S]*?\1/g, "");
  });
}

/** Every anchor a page's headings give, in GitHub's order (a repeated slug numbered). */
export function headingAnchors(text: string): Set<string> {
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  const lines = text.split("\n");
  proseLines(text).forEach((line, i) => {
    // A heading's inline code counts for its slug, so read the original line.
    if (!/^#{1,6}\s/.test(line)) return;
    const slug = githubSlug(headingText(lines[i].replace(/^#{1,6}\s+/, "")));
    const n = seen.get(slug) ?? 0;
    seen.set(slug, n + 1);
    anchors.add(n === 0 ? slug : `${slug}-${n}`);
  });
  return anchors;
}

/** Every relative link of a page: Markdown links and images, and HTML `src` and `href` attributes. */
export function pageLinks(page: string, text: string): PageLink[] {
  const links: PageLink[] = [];
  proseLines(text).forEach((line, i) => {
    const targets = [...line.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g), ...line.matchAll(/\s(?:src|href)="([^"]+)"/g)].map((m) => m[1]);
    for (const target of targets) if (!/^[a-z][a-z0-9+.-]*:/i.test(target)) links.push({ page, line: i + 1, target });
  });
  return links;
}

/** The links of these pages that reach no file, or no heading of their target page. */
export function brokenLinks(pages: string[], root: string): BrokenLink[] {
  const anchors = new Map<string, Set<string>>();
  const anchorsOf = (file: string) => {
    if (!anchors.has(file)) anchors.set(file, headingAnchors(readFileSync(file, "utf8")));
    return anchors.get(file)!;
  };
  const broken: BrokenLink[] = [];
  for (const page of pages) {
    for (const link of pageLinks(relative(root, page), readFileSync(page, "utf8"))) {
      const [path, anchor] = link.target.split("#", 2) as [string, string | undefined];
      const file = path === "" ? page : resolve(dirname(page), decodeURIComponent(path));
      if (!existsSync(file)) {
        broken.push({ ...link, reason: `${relative(root, file)} does not exist` });
        continue;
      }
      if (anchor === undefined) continue;
      if (statSync(file).isDirectory() || !file.endsWith(".md")) {
        broken.push({ ...link, reason: `${relative(root, file)} is not a Markdown page, so it has no #${anchor}` });
      } else if (!anchorsOf(file).has(decodeURIComponent(anchor))) {
        broken.push({ ...link, reason: `${relative(root, file)} has no heading whose anchor is #${anchor}` });
      }
    }
  }
  return broken;
}

/** The pages reached from `start` by following relative links to Markdown pages among `pages`. */
export function reachablePages(start: string, pages: string[]): Set<string> {
  const known = new Set(pages.map((p) => resolve(p)));
  const reached = new Set<string>([resolve(start)]);
  const queue = [resolve(start)];
  while (queue.length > 0) {
    const page = queue.shift()!;
    for (const link of pageLinks(page, readFileSync(page, "utf8"))) {
      const path = link.target.split("#")[0];
      if (path === "") continue;
      const file = resolve(dirname(page), decodeURIComponent(path));
      if (known.has(file) && !reached.has(file)) {
        reached.add(file);
        queue.push(file);
      }
    }
  }
  return reached;
}

/** README.md and every page of docs/, as paths. */
export function documentationPages(root: string): string[] {
  const docs = join(root, "docs");
  return [join(root, "README.md"), ...readdirSync(docs).filter((f) => f.endsWith(".md")).sort().map((f) => join(docs, f))];
}
