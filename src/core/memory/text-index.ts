/**
 * The full-text index over notes (minisearch): note name, headings, tags and body, with prefix and
 * light fuzzy matching. Persisted through IndexStore; saving and loading work in slices so a
 * 10,000-note index never blocks the event loop for long.
 */
import MiniSearch from "minisearch";
import type { IndexStore } from "../ports/index-store";
import { parseNote } from "./note-parser";
import { splitFrontmatter } from "./frontmatter";
import { yieldToLoop } from "./yield";

/** What minisearch stores per note. */
interface TextDoc {
  id: string;
  name: string;
  headings: string;
  tags: string;
  body: string;
}

export interface TextHit {
  path: string;
  score: number;
  /** The words that matched, for snippets. */
  terms: string[];
}

const FORMAT_VERSION = 1;
const OPTIONS = {
  fields: ["name", "headings", "tags", "body"],
  storeFields: [] as string[],
  searchOptions: { boost: { name: 3, headings: 2, tags: 2 }, prefix: true, fuzzy: 0.15, combineWith: "OR" as const },
};

export class TextIndex {
  private engine: MiniSearch<TextDoc> = new MiniSearch<TextDoc>(OPTIONS);
  /** Content hash per indexed path, so a reload knows what it holds. */
  private readonly hashes = new Map<string, string>();

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
  }

  remove(path: string): void {
    if (this.engine.has(path)) this.engine.discard(path);
    this.hashes.delete(path);
  }

  search(query: string, limit: number): TextHit[] {
    if (query.trim() === "") return [];
    return this.engine
      .search(query)
      .slice(0, limit)
      .map((r) => ({ path: String(r.id), score: r.score, terms: r.terms }));
  }

  /** Writes the index to the store without long event-loop blocks. */
  async save(store: IndexStore, key: string): Promise<void> {
    const plain = this.engine.toJSON() as unknown as Record<string, unknown>;
    const envelope = { version: FORMAT_VERSION, hashes: Object.fromEntries(this.hashes), index: plain };
    await store.save(key, await stringifyInSlices(envelope));
  }

  /** Loads a saved index; false (and an empty index) when absent, corrupt or from another version. */
  async load(store: IndexStore, key: string): Promise<boolean> {
    const text = await store.load(key);
    if (text === null) return false;
    try {
      const parsed = JSON.parse(text) as { version?: number; hashes?: Record<string, string>; index?: unknown };
      if (parsed.version !== FORMAT_VERSION || !parsed.index || !parsed.hashes) return false;
      const loaded = await MiniSearch.loadJSAsync<TextDoc>(parsed.index as Parameters<typeof MiniSearch.loadJS>[0], OPTIONS);
      this.engine = loaded;
      this.hashes.clear();
      for (const [p, h] of Object.entries(parsed.hashes)) this.hashes.set(p, h);
      return true;
    } catch {
      this.engine = new MiniSearch<TextDoc>(OPTIONS);
      this.hashes.clear();
      return false;
    }
  }
}

function toDoc(path: string, text: string): TextDoc {
  const note = parseNote(text);
  const name = (path.split("/").pop() ?? path).replace(/\.md$/, "");
  return {
    id: path,
    name: `${name} ${path.replace(/\.md$/, "").replace(/\//g, " ")}`,
    headings: note.headings.map((h) => h.text).join("\n"),
    tags: note.tags.map((t) => `${t} ${t.slice(1).replace(/\//g, " ")}`).join(" "),
    body: splitFrontmatter(text).body,
  };
}

/** JSON.stringify, one top-level field's entries at a time, yielding to the event loop between slices. */
export async function stringifyInSlices(value: Record<string, unknown>, sliceSize = 2000): Promise<string> {
  const out: string[] = ["{"];
  let first = true;
  for (const [key, v] of Object.entries(value)) {
    out.push(`${first ? "" : ","}${JSON.stringify(key)}:`);
    first = false;
    if (Array.isArray(v)) {
      out.push("[");
      for (let i = 0; i < v.length; i += sliceSize) {
        out.push((i ? "," : "") + v.slice(i, i + sliceSize).map((x) => JSON.stringify(x)).join(","));
        await yieldToLoop();
      }
      out.push("]");
    } else if (v && typeof v === "object") {
      const entries = Object.entries(v as Record<string, unknown>);
      if (entries.length > sliceSize) {
        out.push("{");
        for (let i = 0; i < entries.length; i += sliceSize) {
          out.push((i ? "," : "") + entries.slice(i, i + sliceSize).map(([k, x]) => `${JSON.stringify(k)}:${JSON.stringify(x)}`).join(","));
          await yieldToLoop();
        }
        out.push("}");
      } else out.push(await stringifyInSlices(v as Record<string, unknown>, sliceSize));
    } else out.push(JSON.stringify(v) ?? "null");
  }
  out.push("}");
  return out.join("");
}
