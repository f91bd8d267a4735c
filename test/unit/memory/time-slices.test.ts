/**
 * Loading and saving the memory indexes in time slices (no frame blocked over 50 ms on a phone): the slicer itself,
 * and the loops it cuts — exporting, writing, parsing and importing full-text shards, reading the manifest — which
 * must give the same result however often they pause.
 */
import { describe, expect, it } from "vitest";
import { TimeSlices } from "../../../src/core/memory/yield";
import { TextEngine, type CompactShard } from "../../../src/core/memory/text-engine";
import { parseManifest, stringifyManifest, type Manifest } from "../../../src/core/memory/index-manifest";
import { parseShard, stringifyShard } from "../../../src/core/memory/shard-parse";

/** A clock that moves one millisecond each time it is read, and a slicer over it that counts its pauses (budget 1: every check is due). */
function steppingSlices(budgetMs: number): { slices: TimeSlices; pauses: () => number } {
  let now = 0;
  let pauses = 0;
  const slices = new TimeSlices(budgetMs, () => (pauses++, Promise.resolve()), () => now++);
  return { slices, pauses: () => pauses };
}

const never = () => new TimeSlices(Number.POSITIVE_INFINITY);

/** Shard 0 of an engine as stored: exported, its chunks of postings joined. */
async function storedShard(engine: TextEngine<Doc>): Promise<CompactShard> {
  const shard = (await engine.exportShards(() => 0, new Set([0]), () => "h")).get(0)!;
  return { ...shard, post: shard.post.flat() };
}

interface Doc {
  id: string;
  title: string;
  body: string;
}
const OPTIONS = { fields: ["title", "body"], storeFields: [] as string[] };

/** `n` notes (default 400, about 3,000 distinct terms): a shard long enough to be cut several times. */
function engineWithNotes(n = 400): TextEngine<Doc> {
  const engine = new TextEngine<Doc>(OPTIONS);
  for (let i = 0; i < n; i++) {
    const words = Array.from({ length: 12 }, (_, k) => `w${(i * 7 + k) % 3000}x`).join(" ");
    engine.add({ id: `Notes/${i}.md`, title: `Note ${i}`, body: `${words} garden tomato ${i % 2 ? "budget" : "review"}` });
  }
  return engine;
}

describe("TimeSlices", () => {
  it("is due once its budget is used, and starts a new slice after each pause", async () => {
    let now = 100;
    let yields = 0;
    const slices = new TimeSlices(8, () => (yields++, Promise.resolve()), () => now);
    now = 107;
    expect(slices.due()).toBe(false);
    await slices.maybePause();
    expect(yields).toBe(0);
    now = 108;
    expect(slices.due()).toBe(true);
    await slices.maybePause();
    expect(yields).toBe(1);
    expect(slices.due()).toBe(false);
    now = 116;
    expect(slices.due()).toBe(true);
  });
});

describe("loading in slices", () => {
  it("imports a full-text shard in many slices with the same search results as in one piece", async () => {
    const source = engineWithNotes();
    const shard = await storedShard(source);
    expect(shard.terms.length).toBeGreaterThan(2048);
    const whole = new TextEngine<Doc>(OPTIONS);
    await whole.importShard(shard, never());
    await whole.finishImport();
    const { slices, pauses } = steppingSlices(1);
    const sliced = new TextEngine<Doc>(OPTIONS);
    await sliced.importShard(shard, slices);
    await sliced.finishImport();
    // A check every 2,048 terms (an import into an empty index only finds where each term's postings start), each due on this clock.
    expect(pauses()).toBeGreaterThanOrEqual(Math.floor(shard.terms.length / 2048));
    for (const query of ["garden", "w17x budget", "w2800x", "tomato review"]) {
      expect(sliced.search(query)).toEqual(whole.search(query));
      expect(sliced.search(query).length).toBeGreaterThan(0);
    }
  });

  it("reads a manifest in slices to the same notes as in one piece", async () => {
    const notes: Manifest["notes"] = {};
    for (let i = 0; i < 1000; i++) notes[`N/${i}.md`] = { mtime: i, size: 10 + i, hash: `h${i}`, ids: [`a${i}`, `b${i}`] };
    const raw = await stringifyManifest({ version: 3, modelKey: "m", notes, skipped: {} });
    const { slices, pauses } = steppingSlices(1);
    const sliced = await parseManifest(raw, slices);
    expect(pauses()).toBeGreaterThanOrEqual(Math.floor(1000 / 128));
    expect(sliced).toEqual(await parseManifest(raw, never()));
    expect(sliced?.notes["N/999.md"]).toEqual({ mtime: 999, size: 1009, hash: "h999", ids: ["a999", "b999"] });
  });

  it("parses a stored shard in pieces to exactly what one JSON.parse gives, and any other layout whole", async () => {
    const engine = engineWithNotes(4000);
    const shard = await storedShard(engine);
    const text = JSON.stringify(shard);
    expect(text.length).toBeGreaterThan(3 * 64 * 1024);
    const { slices, pauses } = steppingSlices(1);
    // The postings come back as 32-bit integers, the same numbers.
    const sliced = await parseShard(text, slices);
    expect(sliced.post).toBeInstanceOf(Int32Array);
    expect({ ...sliced, post: Array.from(sliced.post) }).toEqual(JSON.parse(text));
    // The head, then one pause per 64 KB piece of postings.
    expect(pauses()).toBeGreaterThanOrEqual(4);
    const empty = JSON.stringify({ ...shard, docs: [], hashes: [], len: [], terms: [], post: [] });
    const none = await parseShard(empty, never());
    expect({ ...none, post: Array.from(none.post) }).toEqual(JSON.parse(empty));
    const pretty = JSON.stringify(shard, null, 1);
    expect(await parseShard(pretty, never())).toEqual(shard);
    await expect(parseShard(text.slice(0, -9), never())).rejects.toThrow();
  });

  it("exports shards in many slices to exactly what one pass gives", async () => {
    const engine = engineWithNotes(2000);
    const shardOf = (id: string) => Number(id.split("/")[1].split(".")[0]) % 3;
    const whole = await engine.exportShards(shardOf, new Set([0, 2]), (id) => `h-${id}`, never());
    const { slices, pauses } = steppingSlices(1);
    const sliced = await engine.exportShards(shardOf, new Set([0, 2]), (id) => `h-${id}`, slices);
    // A check every 256 documents and at every term.
    expect(pauses()).toBeGreaterThanOrEqual(Math.floor(2000 / 256) + whole.get(0)!.terms.length);
    expect(sliced).toEqual(whole);
    expect([...whole.keys()].sort()).toEqual([0, 2]);
    expect(whole.get(2)!.docs).toContain("Notes/2.md");
    expect(whole.get(2)!.hashes[whole.get(2)!.docs.indexOf("Notes/2.md")]).toBe("h-Notes/2.md");
  });

  it("writes a shard in pieces to exactly the text of one JSON.stringify of it with its postings joined", async () => {
    const shard = (await engineWithNotes(4000).exportShards(() => 0, new Set([0]), () => "h")).get(0)!;
    // Postings in chunks of 16,384 numbers or a little less.
    expect(shard.post.length).toBeGreaterThan(3);
    expect(Math.max(...shard.post.map((c) => c.length))).toBeLessThanOrEqual(16 * 1024);
    const joined = { ...shard, post: shard.post.flat() };
    const { slices, pauses } = steppingSlices(1);
    expect(await stringifyShard(shard, slices)).toBe(JSON.stringify(joined));
    expect(pauses()).toBeGreaterThanOrEqual(4);
    const empty = { ...shard, docs: [], hashes: [], len: [], terms: [], post: [[]] };
    expect(await stringifyShard(empty, never())).toBe(JSON.stringify({ ...empty, post: [] }));
    const one = { ...shard, post: [[], [7], [], [8, 9]] };
    expect(await stringifyShard(one, never())).toBe(JSON.stringify({ ...shard, post: [7, 8, 9] }));
  });

  it("after a load, adds, replaces and discards documents with the same search results as an index built in one piece", async () => {
    const source = engineWithNotes(600);
    const shard = await storedShard(source);
    const loaded = new TextEngine<Doc>(OPTIONS);
    await loaded.importShard(shard, never());
    await loaded.finishImport();
    const built = engineWithNotes(600);
    const edits = (e: TextEngine<Doc>) => {
      // New documents (their postings sit beside the packed ones), a replaced one and a discarded one.
      e.add({ id: "New/a.md", title: "Garden plan", body: "garden tomato budget w17x w17x" });
      e.add({ id: "New/b.md", title: "Review", body: "tomato review w2800x" });
      e.replace({ id: "Notes/17.md", title: "Note 17", body: "garden garden budget" });
      e.discard("Notes/3.md");
    };
    edits(loaded);
    edits(built);
    for (const query of ["garden", "w17x budget", "w2800x", "tomato review", "note"]) {
      const a = loaded.search(query).map((r) => [r.id, r.score.toFixed(9)]);
      const b = built.search(query).map((r) => [r.id, r.score.toFixed(9)]);
      expect(a.sort()).toEqual(b.sort());
      expect(a.length).toBeGreaterThan(0);
    }
    // A save after the edits writes loaded and new documents alike.
    const again = await parseShard(await stringifyShard((await loaded.exportShards(() => 0, new Set([0]), () => "h")).get(0)!, never()), never());
    const reloaded = new TextEngine<Doc>(OPTIONS);
    await reloaded.importShard(again, never());
    await reloaded.finishImport();
    for (const query of ["garden", "w2800x", "tomato review"]) {
      expect(reloaded.search(query).map((r) => [r.id, r.score.toFixed(9)]).sort()).toEqual(built.search(query).map((r) => [r.id, r.score.toFixed(9)]).sort());
    }
  });

  it("parses a manifest's text in pieces to the same notes, whatever characters its paths hold", async () => {
    const notes: Manifest["notes"] = {};
    const odd = ['a "quoted"],"x.md', 'comma, brace } bracket ].md', 'key ,"notes":{ inside.md', "back\\slash\"],\".md", "日本語/メモ.md"];
    for (let i = 0; i < 4000; i++) notes[i % 50 === 0 ? `${odd[(i / 50) % odd.length]}${i}` : `Folder ${i % 7}/Note ${i}.md`] = { mtime: 1_700_000_000_000 + i, size: i, hash: `h${i}`, ids: i % 3 ? [`a${i}`, `b${i}`] : [] };
    const manifest: Manifest = { version: 3, modelKey: "m", notes, skipped: { 'skip "me",".md': "excluded", "notes.md": "huge", "Bin.md": "binary" }, skippedAt: { "Bin.md": "1700000000000.5:12" } };
    const raw = await stringifyManifest(manifest);
    expect(raw.length).toBeGreaterThan(3 * 64 * 1024);
    const { slices, pauses } = steppingSlices(1);
    expect(await parseManifest(raw, slices)).toEqual(manifest);
    // The head, then one pause per 64 KB piece of entries.
    expect(pauses()).toBeGreaterThanOrEqual(4);
    // Another layout of the same JSON (a hand-edited file) is parsed whole, to the same notes.
    expect(await parseManifest(JSON.stringify(JSON.parse(raw), null, 1), never())).toEqual(manifest);
    await expect(parseManifest(raw.slice(0, -20), never())).rejects.toThrow();
  });
});
