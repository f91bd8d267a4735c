/**
 * The full-text index over notes (minisearch): note name, headings, tags and body, with prefix and
 * light fuzzy matching. Persisted through IndexStore in 64 shards, so saving after an edit rewrites one
 * small shard and a 10,000-note index never blocks the event loop for long.
 */
import MiniSearch from "minisearch";
import type { IndexStore } from "../ports/index-store";
import { parseNote } from "./note-parser";
import { splitFrontmatter } from "./frontmatter";
import { yieldToLoop } from "./yield";
import { contentHash } from "./content-hash";

/** What minisearch stores per note. */
interface TextDoc {
  id: string;
  /** Name, folders, headings and tags: short, boosted. */
  title: string;
  body: string;
}

export interface TextHit {
  path: string;
  score: number;
  /** The words that matched, for snippets. */
  terms: string[];
}

/** Words too common to tell notes apart; leaving them out saves about a fifth of the index's memory. */
const STOP_WORDS = new Set(
  "a an and are as at be but by for from has have i in is it its me my of on or so that the their then there these this to was we were what when which who will with you your".split(" "),
);

/** Lowercase terms; stop words, one-letter words and very long tokens (hashes, base64) are not indexed. */
function processTerm(term: string): string | null {
  const t = term.toLowerCase();
  return t.length < 2 || t.length > 40 || STOP_WORDS.has(t) ? null : t;
}

const FORMAT_VERSION = 2;
const OPTIONS = {
  // Two fields, not four: minisearch keeps a map per field and term, and memory grows with each.
  fields: ["title", "body"],
  storeFields: [] as string[],
  processTerm,
  searchOptions: {
    boost: { title: 3 },
    processTerm,
    // Prefix and typo matching only for longer words: on short ones they match half the vocabulary and cost more than they find.
    prefix: (term: string) => term.length >= 4,
    fuzzy: (term: string) => (term.length >= 6 ? 0.15 : false),
    combineWith: "OR" as const,
  },
};

/** Shards keep each save and load step small: one shard of a 10,000-note vault (27 MB of text) serialises in about 25 ms. */
const SHARDS = 64;

export class TextIndex {
  private shards: MiniSearch<TextDoc>[] = Array.from({ length: SHARDS }, () => new MiniSearch<TextDoc>(OPTIONS));
  /** Content hash per indexed path, so a reload knows what it holds. */
  private readonly hashes = new Map<string, string>();
  /** Shards changed since the last save. */
  private readonly dirty = new Set<number>();

  /** Number of indexed notes. */
  get size(): number {
    return this.hashes.size;
  }

  /** The hash a path was indexed with, if any. */
  hashOf(path: string): string | undefined {
    return this.hashes.get(path);
  }

  paths(): string[] {
    return [...this.hashes.keys()];
  }

  /** Indexes (or re-indexes) a note's text. */
  set(path: string, text: string, hash: string): void {
    const shard = shardOf(path);
    const engine = this.shards[shard];
    const doc = toDoc(path, text);
    if (engine.has(path)) engine.replace(doc);
    else engine.add(doc);
    this.hashes.set(path, hash);
    this.dirty.add(shard);
  }

  remove(path: string): void {
    const shard = shardOf(path);
    if (this.shards[shard].has(path)) {
      this.shards[shard].discard(path);
      this.dirty.add(shard);
    }
    this.hashes.delete(path);
  }

  search(query: string, limit: number): TextHit[] {
    if (query.trim() === "") return [];
    const hits: TextHit[] = [];
    for (const engine of this.shards) {
      for (const r of engine.search(query).slice(0, limit)) hits.push({ path: String(r.id), score: r.score, terms: r.terms });
    }
    return hits.sort((a, b) => b.score - a.score || a.path.localeCompare(b.path)).slice(0, limit);
  }

  /** Writes the changed shards and the list of indexed notes, yielding between shards. */
  async save(store: IndexStore, key: string): Promise<void> {
    for (const shard of [...this.dirty].sort((a, b) => a - b)) {
      this.dirty.delete(shard);
      const plain = this.shards[shard].toJSON();
      await yieldToLoop();
      await store.save(shardKey(key, shard), JSON.stringify(plain));
      await yieldToLoop();
    }
    await store.save(key, JSON.stringify({ version: FORMAT_VERSION, shards: SHARDS, hashes: Object.fromEntries(this.hashes) }));
  }

  /** Loads a saved index; false (and an empty index) when absent, corrupt or from another version. */
  async load(store: IndexStore, key: string): Promise<boolean> {
    // Whatever happens, shard files from an earlier index must not survive next to a rebuilt one.
    for (let i = 0; i < SHARDS; i++) this.dirty.add(i);
    try {
      const head = await store.load(key);
      if (head === null) return false;
      const parsed = JSON.parse(head) as { version?: number; shards?: number; hashes?: Record<string, string> };
      if (parsed.version !== FORMAT_VERSION || parsed.shards !== SHARDS || !parsed.hashes) return false;
      const shards: MiniSearch<TextDoc>[] = [];
      for (let i = 0; i < SHARDS; i++) {
        const text = await store.load(shardKey(key, i));
        shards.push(text === null ? new MiniSearch<TextDoc>(OPTIONS) : await MiniSearch.loadJSONAsync<TextDoc>(text, OPTIONS));
        await yieldToLoop();
      }
      this.shards = shards;
      this.hashes.clear();
      for (const [p, h] of Object.entries(parsed.hashes)) this.hashes.set(p, h);
      // A shard may be older than the list (a crash between writes): keep only paths it really holds.
      for (const p of [...this.hashes.keys()]) if (!this.shards[shardOf(p)].has(p)) this.hashes.delete(p);
      this.dirty.clear();
      return true;
    } catch {
      this.shards = Array.from({ length: SHARDS }, () => new MiniSearch<TextDoc>(OPTIONS));
      this.hashes.clear();
      return false;
    }
  }
}

function shardOf(path: string): number {
  return parseInt(contentHash(path).slice(0, 8), 16) % SHARDS;
}

function shardKey(key: string, shard: number): string {
  return key.replace(/(\.json)?$/, `-${String(shard).padStart(2, "0")}.json`);
}

function toDoc(path: string, text: string): TextDoc {
  const note = parseNote(text);
  const name = (path.split("/").pop() ?? path).replace(/\.md$/, "");
  const folders = path.replace(/\.md$/, "").split("/").slice(0, -1).join(" ");
  return {
    id: path,
    title: [name, folders, ...note.headings.map((h) => h.text), ...note.tags.map((t) => t.slice(1).replace(/\//g, " "))].join("\n"),
    body: splitFrontmatter(text).body,
  };
}
