/**
 * Splits a note into chunks for embedding: one chunk per heading section, long sections split on
 * paragraph, then line, then word boundaries, each part overlapping the previous one. A chunk is
 * known by the hash of what is embedded (note name, heading path, text) — never by its folder — so
 * editing one section leaves every other chunk's hash unchanged, and moving a note or a folder leaves
 * all of them unchanged: nothing is re-embedded.
 */
import { splitFrontmatter } from "./frontmatter";
import { contentHash } from "./content-hash";
import { CodeFence } from "./code-fence";

export interface ChunkOptions {
  /** Longest chunk in characters (default 1500, about 375 tokens). */
  maxChars?: number;
  /** Characters repeated from the end of one part at the start of the next (default 150). */
  overlapChars?: number;
}

/** One piece of a note, ready to embed. */
export interface Chunk {
  path: string;
  /** Heading path, e.g. "Project Alpha > Tasks"; "" before the first heading. */
  heading: string;
  /** The chunk's own text (what search results show). */
  text: string;
  /** What is embedded: note name and heading path, then the text, so the vector knows its context. */
  embedText: string;
  /** Hash of `embedText`: the chunk's key in the vector index; a changed hash means a new vector. */
  hash: string;
  /** 0-based line where the chunk starts. */
  line: number;
}

const HEADING = /^(#{1,6})[ \t]+(.*?)[ \t#]*$/;

export function chunkNote(path: string, text: string, options: ChunkOptions = {}): Chunk[] {
  const maxChars = Math.max(200, options.maxChars ?? 1500);
  const overlap = Math.min(Math.max(0, options.overlapChars ?? 150), Math.floor(maxChars / 3));
  const { body, bodyLine } = splitFrontmatter(text);
  const name = (path.split("/").pop() ?? path).replace(/\.md$/, "");
  const sections = splitSections(body, bodyLine);
  const chunks: Chunk[] = [];
  for (const section of sections) {
    for (const part of splitLong(section.text, maxChars, overlap)) {
      const embedText = `${name}${section.heading ? ` > ${section.heading}` : ""}\n${part}`;
      chunks.push({
        path,
        heading: section.heading,
        text: part,
        embedText,
        hash: contentHash(embedText, 7),
        line: section.line,
      });
    }
  }
  return chunks;
}

interface Section {
  heading: string;
  text: string;
  line: number;
}

/** Sections by heading; a heading with no text under it joins the next section, so no chunk is empty. */
function splitSections(body: string, firstLine: number): Section[] {
  const lines = body.split("\n");
  const sections: Section[] = [];
  const stack: { level: number; text: string }[] = [];
  let current: Section = { heading: "", text: "", line: firstLine };
  let buffer: string[] = [];
  const fence = new CodeFence();
  const flush = () => {
    const textOnly = buffer.filter((l) => !HEADING.test(l)).join("\n").trim();
    if (textOnly !== "") sections.push({ ...current, text: buffer.join("\n").trim() });
    return textOnly !== "";
  };
  lines.forEach((line, i) => {
    const m = fence.covers(line) ? null : HEADING.exec(line);
    if (m) {
      const hadText = flush();
      const level = m[1].length;
      while (stack.length && stack[stack.length - 1].level >= level) stack.pop();
      stack.push({ level, text: m[2].trim() });
      const heading = stack.map((s) => s.text).join(" > ");
      if (hadText || buffer.length === 0) {
        buffer = [line];
        current = { heading, text: "", line: firstLine + i };
      } else {
        // The previous heading had no text: keep it as context of this section.
        buffer.push(line);
        current = { ...current, heading };
      }
      return;
    }
    buffer.push(line);
  });
  flush();
  return sections;
}

/** Splits text longer than `max` at the best boundary, repeating `overlap` characters between parts. */
export function splitLong(text: string, max: number, overlap: number): string[] {
  if (text.length <= max) return [text];
  const parts: string[] = [];
  let start = 0;
  while (start < text.length) {
    let end = Math.min(text.length, start + max);
    if (end < text.length) {
      const window = text.slice(start, end);
      const cut = [window.lastIndexOf("\n\n"), window.lastIndexOf("\n"), window.lastIndexOf(". "), window.lastIndexOf(" ")].find((c) => c > max / 2);
      if (cut !== undefined) end = start + cut + 1;
    }
    parts.push(text.slice(start, end).trim());
    if (end >= text.length) break;
    let next = end - overlap;
    // Start the overlap on a word boundary.
    const space = text.indexOf(" ", next);
    if (space >= 0 && space < end) next = space + 1;
    start = Math.max(next, start + 1);
  }
  return parts.filter((p) => p !== "");
}
