/**
 * The sorted vocabulary a loaded full-text index searches where its shards hold it (shard-vocabulary.ts) against
 * minisearch's own SearchableMap holding the same terms: the same answers to every lookup, prefix and fuzzy query,
 * before and after terms are added, replaced and deleted; and a whole index loaded from sorted shards ranking, editing,
 * vacuuming and saving exactly as one loaded through the radix tree.
 */
import { describe, expect, it } from "vitest";
import MiniSearch from "minisearch";
import { ShardVocabulary, type TermMap } from "../../../src/core/memory/shard-vocabulary";
import { TextEngine, type CompactShard } from "../../../src/core/memory/text-engine";
import { TimeSlices } from "../../../src/core/memory/yield";
import { SeededRandom } from "../../../src/node/test-model/prng";

/** minisearch's SearchableMap (not exported from its main module): the class of an index's term map. */
const SearchableMap = (new MiniSearch({ fields: ["x"] }) as unknown as { _index: { constructor: new () => TermMap<number> } })._index.constructor;

/** A seeded generator, so a failure replays. */
function random(seed: number): () => number {
  const source = new SeededRandom(seed);
  return () => source.next();
}

/** Terms over a small alphabet (so prefixes and near spellings abound), with CJK, a surrogate pair and the empty term. */
function terms(rand: () => number, n: number): string[] {
  const alphabet = ["a", "b", "c", "e", "t", "s", "é", "标", "签", "タ", "グ", "😀"];
  const out = new Set<string>(["", "tag", "tags", "tagi", "标签", "タグ"]);
  while (out.size < n) {
    const len = 1 + Math.floor(rand() * 9);
    let t = "";
    for (let i = 0; i < len; i++) t += alphabet[Math.floor(rand() * alphabet.length)];
    out.add(t);
  }
  return [...out];
}

/** A vocabulary of `all` split over `shards` sorted lists (a term may be in several), values from `valueOf`, and the reference map. */
function pair(all: string[], shards: number, rand: () => number): { view: ShardVocabulary<number>; ref: TermMap<number>; opened: string[] } {
  const lists: string[][] = Array.from({ length: shards }, () => []);
  for (const t of all) {
    const homes = new Set([Math.floor(rand() * shards), Math.floor(rand() * shards)]);
    for (const s of homes) lists[s].push(t);
  }
  for (const list of lists) list.sort();
  const opened: string[] = [];
  const view = new ShardVocabulary(
    lists,
    (term, hits) => {
      opened.push(term);
      // Each hit names a shard holding the term.
      for (let k = 0; k < hits.length; k += 2) expect(lists[hits[k]][hits[k + 1]]).toBe(term);
      return valueOf(term);
    },
    new SearchableMap(),
  );
  const ref = new SearchableMap();
  for (const t of all) ref.set(t, valueOf(t));
  return { view, ref, opened };
}

const valueOf = (term: string) => term.length * 1000 + (term.charCodeAt(0) || 0);

function sameAnswers(view: ShardVocabulary<number>, ref: TermMap<number>, probes: string[]): void {
  expect([...view.entries()]).toEqual([...ref].sort(([a], [b]) => (a < b ? -1 : 1)));
  expect(view.size).toBe(ref.size);
  for (const p of probes) {
    expect(view.get(p)).toBe(ref.get(p));
    expect(view.has(p)).toBe(ref.get(p) !== undefined);
    expect(view.atPrefix(p)).toEqual([...ref.atPrefix(p)].sort(([a], [b]) => (a < b ? -1 : 1)));
    for (const d of [1, 2]) {
      const want = [...ref.fuzzyGet(p, d)].sort(([a], [b]) => (a < b ? -1 : 1));
      expect([...view.fuzzyGet(p, d)]).toEqual(want);
    }
  }
}

describe("ShardVocabulary", () => {
  it("answers get, atPrefix, fuzzyGet, size and iteration exactly as minisearch's SearchableMap over the same terms", () => {
    for (const seed of [1, 2, 3]) {
      const rand = random(seed);
      const all = terms(rand, 1500);
      const { view, ref, opened } = pair(all, 16, rand);
      const probes = [...all.slice(0, 150), "", "t", "ta", "tagz", "xyz", "标", "签标", "😀😀", "aaaaaaaaaaaa"];
      sameAnswers(view, ref, probes);
      // A value is made once per term, however often it is read.
      expect(opened.length).toBe(new Set(opened).size);
    }
  });

  it("keeps answering as the map after terms are added, replaced and deleted (an edit after a load)", () => {
    const rand = random(7);
    const all = terms(rand, 800);
    const { view, ref } = pair(all, 4, rand);
    const fresh = terms(random(99), 120).filter((t) => !all.includes(t));
    for (const t of fresh) {
      view.fetch(t, () => valueOf(t) + 1);
      ref.set(t, valueOf(t) + 1);
    }
    for (const t of all.slice(0, 60)) {
      view.delete(t);
      ref.delete(t);
    }
    for (const t of all.slice(60, 90)) {
      view.set(t, -1);
      ref.set(t, -1);
    }
    // Deleted, then added again: the overlay's value, not the shard's.
    view.set(all[0], -2);
    ref.set(all[0], -2);
    sameAnswers(view, ref, [...all.slice(0, 120), ...fresh.slice(0, 40), "", "ta", "标"]);
    expect(view.fetch(all[200], () => -3)).toBe(valueOf(all[200]));
  });

  it("checks that lists are sorted in JavaScript's string order", () => {
    expect(ShardVocabulary.sorted(["", "a", "b", "标", "😀"])).toBe(true);
    expect(ShardVocabulary.sorted(["b", "a"])).toBe(false);
    expect(ShardVocabulary.sorted(["a", "a"])).toBe(false);
  });
});

interface Doc {
  id: string;
  title: string;
  body: string;
}
const OPTIONS = { fields: ["title", "body"], storeFields: [] as string[] };

/** Notes with shared words, prefixes, near spellings and CJK. */
function notes(n: number): Doc[] {
  const rand = random(5);
  const words = ["garden", "gardens", "gardening", "tomato", "tomatoes", "budget", "budgets", "review", "reviews", "标签", "标注", "タグ", "notiz", "notizen", "callout", "callouts"];
  return Array.from({ length: n }, (_, i) => ({
    id: `N/${i}.md`,
    title: `Note ${i} ${words[i % words.length]}`,
    body: Array.from({ length: 10 }, () => words[Math.floor(rand() * words.length)]).join(" ") + ` w${i % 37}x`,
  }));
}

/** An engine's shards as stored (postings joined), optionally with their terms in the order of a reversed export. */
async function shards(engine: TextEngine<Doc>, count: number, unsorted = false): Promise<CompactShard[]> {
  const wanted = new Set(Array.from({ length: count }, (_, i) => i));
  const out = await engine.exportShards((id) => Number(id.replace(/\D/g, "")) % count, wanted, () => "h");
  return [...wanted].map((s) => {
    const shard = out.get(s)!;
    const post = shard.post.flat();
    if (!unsorted) return { ...shard, post };
    // The same shard with its terms in reverse order (each term's counts and postings moved with it).
    const F = shard.fields.length;
    const pieces: number[][] = [];
    let p = 0;
    for (let t = 0; t < shard.terms.length; t++) {
      const from = p;
      for (let f = 0; f < F; f++) p += 1 + 2 * post[p];
      pieces.push(post.slice(from, p));
    }
    return { ...shard, terms: [...shard.terms].reverse(), post: pieces.reverse().flat() };
  });
}

async function load(stored: CompactShard[]): Promise<{ engine: TextEngine<Doc>; sorted: boolean[] }> {
  const engine = new TextEngine<Doc>(OPTIONS);
  const sorted: boolean[] = [];
  for (const s of stored) sorted.push(await engine.importShard(s, new TimeSlices()));
  await engine.finishImport();
  return { engine, sorted };
}

const QUERIES = ["garden", "gardenz budget", "tomatos", "标签", "タグ", "notiz callout", "w3x", "review"];

/** minisearch's own search and ours; with `places`, scores rounded and ties by id (for an index loaded another way: field averages summed in another order). */
function ranked(engine: TextEngine<Doc>, places?: number) {
  const round = (x: unknown) => JSON.parse(JSON.stringify(x), (k, v: unknown) => (k === "score" && typeof v === "number" && places ? Number(v.toFixed(places)) : v)) as unknown;
  // Equal scores come in the order minisearch met the notes, which differs with where each note was loaded.
  const search = (q: string) => (places ? engine.search(q).sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : 1)) : engine.search(q));
  return QUERIES.map((q) => round([search(q), engine.rank({ words: q.split(" ").map((term) => ({ term, prefix: term.length >= 4, fuzzy: term.length >= 6 ? 1 : 0, stem: term.slice(0, 3) })), languageTerms: [], boosts: [2, 1] }, 8)]));
}

describe("a full-text index loaded from sorted shards", () => {
  it("ranks, edits, vacuums and saves as the same index loaded through the radix tree", async () => {
    const source = new TextEngine<Doc>(OPTIONS);
    for (const d of notes(300)) source.add(d);
    const sortedShards = await shards(source, 4);
    for (const s of sortedShards) expect(ShardVocabulary.sorted(s.terms)).toBe(true);
    const fast = await load(sortedShards);
    const tree = await load(await shards(source, 4, true));
    expect(fast.sorted).toEqual([true, true, true, true]);
    expect(tree.sorted).toEqual([false, false, false, false]);
    expect(ranked(fast.engine)).toEqual(ranked(tree.engine));
    expect(ranked(fast.engine, 9)).toEqual(ranked(source, 9));
    expect(fast.engine.termCount).toBe(source.termCount);

    // Edits after the load: new words, changed notes, removed notes, then minisearch's vacuum.
    const edits = (engine: TextEngine<Doc>) => {
      engine.add({ id: "N/new.md", title: "Gardenia", body: "brand new words 标签库 gardening" });
      engine.replace({ id: "N/3.md", title: "Note 3 replaced", body: "tomato budget review" });
      engine.discard("N/4.md");
      engine.remove(notes(300)[5]);
      for (let i = 10; i < 60; i++) engine.discard(`N/${i}.md`);
    };
    edits(fast.engine);
    edits(tree.engine);
    edits(source);
    await Promise.all([fast.engine.vacuum(), tree.engine.vacuum(), source.vacuum()]);
    expect(ranked(fast.engine)).toEqual(ranked(tree.engine));
    expect(ranked(fast.engine, 9)).toEqual(ranked(source, 9));
    expect(fast.engine.termCount).toBe(source.termCount);

    // Saved again: sorted, and the same shards whichever way the index was loaded.
    const again = await shards(fast.engine, 4);
    expect(again).toEqual(await shards(tree.engine, 4));
    for (const s of again) expect(ShardVocabulary.sorted(s.terms)).toBe(true);
    expect(ranked((await load(again)).engine, 9)).toEqual(ranked(source, 9));
  });
});
