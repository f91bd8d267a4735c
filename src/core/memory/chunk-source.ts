/**
 * Chunks of any file the memory index holds: a note's by heading (chunker.ts); a PDF's by page, each chunk's heading
 * the page's link subpath (`page=3`), so a semantic hit cites `[[file.pdf#page=3]]` as a note's cites its heading;
 * a canvas's text as a note's.
 */
import { chunkNote, splitLong, type Chunk, type ChunkOptions } from "./chunker";
import { contentHash } from "./content-hash";
import { isPdf, pagesOf } from "./source-text";

export function chunkSource(path: string, text: string, options: ChunkOptions = {}): Chunk[] {
  if (!isPdf(path)) return chunkNote(path, text, options);
  const maxChars = Math.max(200, options.maxChars ?? 1500);
  const overlap = Math.min(Math.max(0, options.overlapChars ?? 150), Math.floor(maxChars / 3));
  const name = path.split("/").pop() ?? path;
  const chunks: Chunk[] = [];
  pagesOf(text).forEach((page, i) => {
    const heading = `page=${i + 1}`;
    for (const part of splitLong(page.trim(), maxChars, overlap)) {
      if (part === "") continue;
      const embedText = `${name} > page ${i + 1}\n${part}`;
      chunks.push({ path, heading, text: part, embedText, hash: contentHash(embedText, 7), line: i });
    }
  });
  return chunks;
}
