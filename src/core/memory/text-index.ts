/**
 * The full-text index over notes (minisearch): note name, headings, tags, body and the concepts the name and tags
 * name (concepts.ts), with prefix and
 * light fuzzy matching. One index in memory (one vocabulary, one query per search); on disk it is 16
 * shards of documents in a compact form (text-engine.ts), so saving after an edit rewrites one small
 * shard and loading 10,000 notes takes a fraction of a second instead of seconds.
 */
import type { IndexStore } from "../ports/index-store";
import { parseNote } from "./note-parser";
import { splitFrontmatter } from "./frontmatter";
import { TimeSlices } from "./yield";
import { contentHash } from "./content-hash";
import { TextEngine } from "./text-engine";
import type { RankQuery, RankWord } from "./text-rank";
import { parseShard, stringifyShard } from "./shard-parse";
import { analyzeText, ANALYSIS_KEY, isLanguageMark, languageMark, languagesOf } from "./analysis";
import { conceptTerms, isConceptTerm } from "./concepts";

/** What minisearch stores per note: the fields a user writes a note's subject in, apart from its text. */
interface TextDoc {
  id: string;
  /** The note's name, aliases and tags: what it is about, in its author's words. */
  title: string;
  /** Its headings and folders. */
  heads: string;
  body: string;
  /** The concepts its name, aliases and tags name (concepts.ts), space-separated: "=tag =daily". */
  concepts: string;
}

export interface TextHit {
  path: string;
  score: number;
  /** The words that matched, for snippets. */
  terms: string[];
}

/** Terms as analysis.ts gives them; minisearch's own lowercasing is not wanted on top. */
const keepTerm = (term: string): string => term;
/** The concept field holds concept terms already; the others are analysed. */
const tokenize = (text: string, field?: string): string[] => (field === "concepts" ? text.split(" ").filter(Boolean) : analyzeText(text));

/**
 * Version of the head file. 4: three fields and the multilingual analysis (analysis.ts); version 3 (two fields,
 * English stop words, no segmentation) and version 2 (64 shards of minisearch's JSON) are rebuilt from the notes.
 */
const FORMAT_VERSION = 4;
/**
 * Field weights: a word in a note's name, aliases or tags says what the note is about far more than the same word
 * in its text (a page titled "Tags" answers "how do I use tags" better than a long FAQ that mentions tags). A concept
 * of the title (concepts.ts: "Labels" and "tags" both give "=tag") weighs a little less than a word of it; with 1,
 * 2 or 3 the held-out help vault's backlink and tag questions missed some of their pages (docs/search.md).
 */
export const FIELD_BOOST = { title: 5, heads: 2, body: 1, concepts: 4 } as const;

/** The ranking's weights by field id (the order of the index's fields). */
function fieldBoosts(): number[] {
  return [FIELD_BOOST.title, FIELD_BOOST.heads, FIELD_BOOST.body, FIELD_BOOST.concepts];
}

const OPTIONS = {
  // Four fields: minisearch keeps a map per field and term, and memory grows with each (the concepts are few).
  fields: ["title", "heads", "body", "concepts"],
  storeFields: [] as string[],
  tokenize,
  processTerm: keepTerm,
  searchOptions: {
    boost: { title: FIELD_BOOST.title, heads: FIELD_BOOST.heads },
    tokenize: analyzeText,
    processTerm: keepTerm,
    // Prefix and typo matching only for longer words: on short ones they match half the vocabulary and cost more than they find.
    prefix: (term: string) => term.length >= 4,
    fuzzy: (term: string) => (term.length >= 6 ? 0.15 : false),
    combineWith: "OR" as const,
  },
};

/** Shards on disk: a save after one edit rewrites a sixteenth of the index. */
const SHARDS = 16;
/** Shard files of format version 2, removed when such an index is found. */
const LEGACY_SHARDS = 64;

/** What a search may be limited to. */
export interface TextFilter {
  /** Only notes under this folder ("Projects/" or "Projects"). */
  pathPrefix?: string;
}

export class TextIndex {
  private engine = new TextEngine<TextDoc>(OPTIONS);
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
    const doc = toDoc(path, text);
    if (this.engine.has(path)) this.engine.replace(doc);
    else this.engine.add(doc);
    this.hashes.set(path, hash);
    this.dirty.add(shardOf(path));
  }

  remove(path: string): void {
    if (this.engine.has(path)) {
      this.engine.discard(path);
      this.dirty.add(shardOf(path));
    }
    this.hashes.delete(path);
  }

  /**
   * The best `limit` notes for the query. A folder filter is applied to every match inside the query,
   * before ranking is cut off, so a match in a small folder is found however many better ones lie elsewhere.
   */
  search(query: string, limit: number, filter?: TextFilter): TextHit[] {
    if (query.trim() === "") return [];
    const folder = (filter?.pathPrefix ?? "").replace(/\/+$/, "");
    const prefix = folder === "" ? "" : `${folder}/`;
    const hits = this.engine.rank(rankQuery(query, (t) => this.engine.termDocs(t)), limit, prefix === "" ? undefined : (id) => id.startsWith(prefix));
    return hits.map((r) => ({ path: r.id, score: r.score, terms: r.terms.filter((t) => !isLanguageMark(t) && !isConceptTerm(t)) }));
  }

  /**
   * Does ahead what the first search after a load would: the ranking's arrays and corpus made, its code compiled (a
   * search for one note's name). At 50,000 notes the first search took 80–105 ms of CPU, the next ones 5–20. For a
   * process that serves searches (the search worker, the engine host), not the main thread, where it would block.
   */
  prepareSearch(): void {
    this.engine.prepareRank(fieldBoosts().length);
    const first = this.hashes.keys().next().value;
    if (first !== undefined) this.search(first.replace(/^.*\//, "").replace(/\.[^.]*$/, ""), 10);
  }

  /** Writes the changed shards, then the head, yielding between shards. */
  async save(store: IndexStore, key: string): Promise<void> {
    const wanted = new Set(this.dirty);
    this.dirty.clear();
    if (wanted.size > 0) {
      const slices = new TimeSlices();
      const shards = await this.engine.exportShards(shardOf, wanted, (p) => this.hashes.get(p) ?? "", slices);
      for (const shard of [...wanted].sort((a, b) => a - b)) {
        await slices.pause();
        await store.save(shardKey(key, shard), await stringifyShard(shards.get(shard)!, slices));
      }
    }
    await store.save(key, JSON.stringify({ version: FORMAT_VERSION, shards: SHARDS, analysis: ANALYSIS_KEY }));
  }

  /**
   * Loads a saved index; false (and an empty index) when absent, truncated, corrupt or from another
   * version — the caller rebuilds it from the notes.
   */
  async load(store: IndexStore, key: string): Promise<boolean> {
    // Whatever happens, shard files from an earlier index must not survive next to a rebuilt one.
    for (let i = 0; i < SHARDS; i++) this.dirty.add(i);
    try {
      const head = await store.load(key);
      if (head === null) return false;
      const parsed = JSON.parse(head) as { version?: number; shards?: number; analysis?: string };
      if (parsed.version !== FORMAT_VERSION || parsed.shards !== SHARDS || parsed.analysis !== ANALYSIS_KEY) {
        // Files of the previous format are of no use to the rebuilt index.
        if (parsed.version === 2) for (let i = 0; i < LEGACY_SHARDS; i++) await store.remove(legacyShardKey(key, i));
        return false;
      }
      const engine = new TextEngine<TextDoc>(OPTIONS);
      const hashes = new Map<string, string>();
      const slices = new TimeSlices();
      /** Shards whose terms are not in string order (written before they were): written again at the next save. */
      const unsorted: number[] = [];
      for (let i = 0; i < SHARDS; i++) {
        const text = await store.load(shardKey(key, i));
        if (text === null) continue;
        await slices.pause();
        const shard = await parseShard(text, slices);
        if (!(await engine.importShard(shard, slices))) unsorted.push(i);
        if (!Array.isArray(shard.hashes) || shard.hashes.length !== shard.docs.length) throw new Error("text index shard is malformed");
        shard.docs.forEach((p, k) => hashes.set(p, String(shard.hashes[k])));
      }
      await engine.finishImport(slices);
      this.engine = engine;
      this.hashes.clear();
      for (const [p, h] of hashes) this.hashes.set(p, h);
      this.dirty.clear();
      for (const i of unsorted) this.dirty.add(i);
      return true;
    } catch {
      this.engine = new TextEngine<TextDoc>(OPTIONS);
      this.hashes.clear();
      return false;
    }
  }
}

/** A query word found in fewer notes than this is also searched by its stem. */
const RARE = 3;
/** A query word this long is always searched by its stem too ("синхронизировать" finds "синхронизация"). */
const ALWAYS_STEM = 6;

/**
 * The question as the ranking reads it (text-rank.ts): its words, prefix matching from 4 letters and one typo from 6;
 * for each longer word that fewer than RARE notes contain as written, its stem as a prefix: "tagów", "тегов" and
 * "notatek" find "tagi", "теги" and "notatki". The stem keeps three fifths of the word (at least 3 letters): a
 * truncation, as the router's analysis uses, sized for endings of inflecting languages. Then its concept terms
 * (concepts.ts), which only the concept field holds. And the question's languages, whose notes come first among equals.
 */
function rankQuery(query: string, docs: (term: string) => number): RankQuery {
  const words: RankWord[] = analyzeText(query).map((term) => {
    const word: RankWord = { term, prefix: term.length >= 4, fuzzy: term.length >= 6 ? Math.round(term.length * 0.15) : 0 };
    if (term.length >= 5 && !/\d/.test(term) && (term.length >= ALWAYS_STEM || docs(term) < RARE)) word.stem = term.slice(0, Math.max(3, Math.ceil(term.length * 0.6)));
    return word;
  });
  for (const term of conceptTerms(query)) words.push({ term, prefix: false, fuzzy: 0 });
  return { words, languageTerms: languagesOf(query).map(languageMark), boosts: fieldBoosts() };
}

function shardOf(path: string): number {
  return parseInt(contentHash(path).slice(0, 8), 16) % SHARDS;
}

function shardKey(key: string, shard: number): string {
  return key.replace(/(\.json)?$/, `-v3-${String(shard).padStart(2, "0")}.json`);
}

function legacyShardKey(key: string, shard: number): string {
  return key.replace(/(\.json)?$/, `-${String(shard).padStart(2, "0")}.json`);
}

function toDoc(path: string, text: string): TextDoc {
  const note = parseNote(text);
  const name = (path.split("/").pop() ?? path).replace(/\.md$/, "");
  const folders = path.replace(/\.md$/, "").split("/").slice(0, -1).join(" ");
  const body = splitFrontmatter(text).body;
  const title = [name, ...aliasesOf(note.frontmatter), ...note.tags.map((t) => t.slice(1).replace(/\//g, " "))].join("\n");
  return {
    id: path,
    title,
    heads: [folders, ...note.headings.map((h) => h.text), ...languagesOf(body).slice(0, 1).map(languageMark)].join("\n"),
    body,
    concepts: conceptTerms(title).join(" "),
  };
}

/** The note's other names (frontmatter `aliases` or `alias`, a list or one string). */
function aliasesOf(frontmatter: Record<string, unknown> | null): string[] {
  const out: string[] = [];
  for (const key of ["aliases", "alias"]) {
    const value = frontmatter?.[key];
    if (Array.isArray(value)) for (const v of value) if (typeof v === "string") out.push(v);
    if (typeof value === "string") out.push(...value.split(","));
  }
  return out;
}
