export { chunkNote, type Chunk, type ChunkOptions } from "./chunker";
export { contentHash } from "./content-hash";
export { Indexer, MAX_FILE_BYTES, type IndexerOptions, type IndexProgress, type IndexReport, type SkipCounts, type EmbedTexts } from "./indexer";
export { TextIndex } from "./text-index";
export { createMemorySearch, type MemorySearchDeps } from "./memory-search";
export { prefetchMemories, type PrefetchOptions, type PrefetchResult } from "./prefetch";
export { parseNote, type ParsedNote } from "./note-parser";
export { parseYaml, stringifyYaml, splitFrontmatter, setFrontmatterKey, withFrontmatter } from "./frontmatter";
export { resolveLinkpath, rewriteLinks, shortestLinktext } from "./links";
