/**
 * Reads a markdown note's metadata the way Obsidian's MetadataCache sees it: frontmatter, tags,
 * wikilinks and markdown links, headings and tasks. Code blocks and inline code are ignored.
 */
import type { NoteHeading, NoteLink, NoteTask } from "../ports/vault";
import { parseYaml, splitFrontmatter } from "./frontmatter";
import { CodeFence } from "./code-fence";

/** A note's metadata before links are resolved against the vault. */
export interface ParsedNote {
  frontmatter: Record<string, unknown> | null;
  /** With leading `#`, unique, frontmatter tags first. */
  tags: string[];
  links: Omit<NoteLink, "resolved">[];
  headings: NoteHeading[];
  tasks: NoteTask[];
}

const HEADING = /^(#{1,6})[ \t]+(.*?)[ \t#]*$/;
const TASK = /^\s*(?:[-*+]|\d+[.)])\s+\[(.)\]\s?(.*)$/;
const TAG = /(^|[\s(,;])#([\p{L}\p{N}_\-/]+)/gu;
const WIKILINK = /(!?)\[\[([^\]\n]+?)\]\]/g;
const MDLINK = /(!?)\[([^\]\n]*)\]\(\s*(<[^>\n]+>|[^)\s]+)(?:\s+"[^"]*")?\s*\)/g;

export function parseNote(text: string): ParsedNote {
  const { yaml, bodyLine } = splitFrontmatter(text);
  const frontmatter = yaml === null ? null : parseYaml(yaml);
  const tags: string[] = [];
  const addTag = (raw: string) => {
    const clean = raw.trim().replace(/^#/, "");
    if (clean === "" || /^\d+$/.test(clean)) return;
    const tag = `#${clean}`;
    if (!tags.includes(tag)) tags.push(tag);
  };
  for (const key of ["tags", "tag"]) {
    const value = frontmatter?.[key];
    if (Array.isArray(value)) value.forEach((v) => typeof v === "string" && addTag(v));
    else if (typeof value === "string") value.split(/[,\s]+/).forEach(addTag);
  }

  const links: Omit<NoteLink, "resolved">[] = [];
  const headings: NoteHeading[] = [];
  const tasks: NoteTask[] = [];
  const lines = text.split("\n");
  const fence = new CodeFence();
  for (let i = bodyLine; i < lines.length; i++) {
    const line = lines[i].replace(/\r$/, "");
    if (fence.covers(line)) continue;
    const heading = HEADING.exec(line);
    if (heading) headings.push({ level: heading[1].length, text: heading[2].trim(), line: i });
    const task = TASK.exec(line);
    if (task) tasks.push({ line: i, text: task[2].trim(), done: task[1] !== " ", status: task[1] });
    const plain = line.replace(/`[^`]*`/g, (m) => " ".repeat(m.length));
    const tagSource = heading ? plain.replace(/^#{1,6}\s/, "") : plain;
    for (const m of tagSource.replace(/\[\[[^\]]*\]\]|\]\([^)]*\)/g, (x) => " ".repeat(x.length)).matchAll(TAG)) addTag(m[2]);
    for (const m of plain.matchAll(WIKILINK)) links.push(wikilink(m[2], m[1] === "!", i));
    for (const m of plain.matchAll(MDLINK)) {
      const link = markdownLink(m[3], m[2], m[1] === "!", i);
      if (link) links.push(link);
    }
  }
  return { frontmatter, tags, links, headings, tasks };
}

/** Splits `target#sub|display` into its parts. */
export function wikilink(inner: string, embed: boolean, line: number): Omit<NoteLink, "resolved"> {
  const pipe = inner.indexOf("|");
  const display = pipe >= 0 ? inner.slice(pipe + 1).trim() : undefined;
  const ref = (pipe >= 0 ? inner.slice(0, pipe) : inner).trim();
  const hash = ref.indexOf("#");
  const target = (hash >= 0 ? ref.slice(0, hash) : ref).trim();
  const subpath = hash >= 0 ? ref.slice(hash + 1).trim() : undefined;
  const link: Omit<NoteLink, "resolved"> = { target, line, embed };
  if (display !== undefined) link.display = display;
  if (subpath) link.subpath = subpath;
  return link;
}

function markdownLink(rawUrl: string, text: string, embed: boolean, line: number): Omit<NoteLink, "resolved"> | null {
  let url = rawUrl.startsWith("<") ? rawUrl.slice(1, -1) : rawUrl;
  if (/^[a-z][a-z0-9+.-]*:/i.test(url) || url.startsWith("#")) return null;
  try {
    url = decodeURI(url);
  } catch {
    // A malformed escape: keep the link as written.
  }
  const hash = url.indexOf("#");
  const target = hash >= 0 ? url.slice(0, hash) : url;
  const subpath = hash >= 0 ? url.slice(hash + 1) : undefined;
  const link: Omit<NoteLink, "resolved"> = { target, line, embed };
  if (text) link.display = text;
  if (subpath) link.subpath = subpath;
  return link;
}

