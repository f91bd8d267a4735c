/**
 * The full-text ranking: BM25 over the index's fields, read per query word rather than per matched term.
 *
 * - **A word counts once per field.** A query word matches its exact term, longer terms it begins (prefix), near
 *   spellings (fuzzy) and terms its stem begins; a note scores, in each field, by the best of these, not their sum. Summed, a long
 *   page with "benutzer", "benutzern", "benutzeroberfläche" and "benutzerdefiniert" outscored the page titled with
 *   the question's subject, on one common word.
 * - **Word weights from each note's language.** A word's rarity (IDF, per field as minisearch counts it) is counted
 *   among the notes of the language the note is in (its mark, analysis.ts) when the vault has enough of them, else among
 *   the vault's: in a vault of many languages "notities" is in one note of thirty-five (rare, so it weighed like a
 *   subject) but in nearly every Dutch note (common, so it weighs little next to "tags"). A word no note in the
 *   question's language has ("callout" in Spanish titles) no longer weighs as the rarest of all in the notes of other
 *   languages that have it. In a vault of one language the counts are the vault's.
 * - **A field's length against the notes that have it** (BM25's length norm, as Lucene counts it): the concept field is
 *   empty in most notes, and over every note its average length was 0.19, so any note with a concept read as ten times
 *   too long and its concept weighed little.
 * - **Near spellings of a word are words**: "callout" is one edit from the concept term "=callout"; that match took the
 *   word's place and the question's own concept then counted for nothing.
 * - **Notes in the question's language** are preferred: their score is multiplied by LANGUAGE_FACTOR, so a Spanish
 *   question about callouts finds the Spanish page that writes "callout" in its text before the pages of other
 *   languages that carry it as an alias.
 * - **A note's term answers one word**: "Notizen" and "Notiz" in one question both find "notiz", counted once.
 * - A note matching more of the question's words ranks higher: the sum is multiplied by how many matched (as
 *   minisearch does).
 */

import { languageMark } from "./analysis";
import { isConceptTerm } from "./concepts";

/** minisearch's index internals the ranking reads (pinned version; see text-engine.ts). */
export interface RankIndex {
  /** Term -> field id -> (document short id -> term frequency). */
  index: {
    get(term: string): Map<number, Map<number, number>> | undefined;
    atPrefix(prefix: string): Iterable<[string, Map<number, Map<number, number>>]>;
    fuzzyGet(term: string, maxDistance: number): Map<string, [Map<number, Map<number, number>>, number]>;
  };
  documentIds: Map<number, unknown>;
  fieldLength: Map<number, number[]>;
  avgFieldLength: number[];
  documentCount: number;
  /** Every short id is below this. */
  nextId: number;
  /** Calls `fn` for each posting of a field's map (without unpacking packed ones). */
  eachPosting(postings: Map<number, number>, fn: (shortId: number, freq: number) => void): void;
}

/** One word of the question. */
export interface RankWord {
  term: string;
  /** Also match longer terms it begins. */
  prefix: boolean;
  /** Most edits for a fuzzy match (0: none). */
  fuzzy: number;
  /** A stem to match as a prefix too, at STEM_WEIGHT (for words few notes contain as written). */
  stem?: string;
}

export interface RankQuery {
  words: RankWord[];
  /** Terms whose notes are in the question's language (language marks); empty when it cannot tell. */
  languageTerms: string[];
  /** Field weights, by field id. */
  boosts: number[];
}

/** A stem's match weighs this much against the word as written. */
const STEM_WEIGHT = 0.6;
/** minisearch's weights for prefix and fuzzy matches, and its BM25 parameters. */
const PREFIX_WEIGHT = 0.375;
const FUZZY_WEIGHT = 0.45;
const BM25 = { k: 1.2, b: 0.7, d: 0.5 };
/** How much more a note in the question's language weighs. */
export const LANGUAGE_FACTOR = 3;
/** The question's language gives word weights when it has at least this many notes (and this share of the vault). */
const MIN_LANGUAGE_NOTES = 20;
const MIN_LANGUAGE_SHARE = 0.02;

type FieldData = Map<number, Map<number, number>>;

/** The start of every language mark (analysis.ts): the marks say which notes are in which language. */
const LANGUAGE_MARK_PREFIX = languageMark("");

/**
 * What the ranking reads of the whole index besides the postings: the same for every query until the notes change,
 * then brought up to date rather than counted again (see updateCorpus). Arrays by short id have room for notes added after.
 */
interface Corpus {
  /** The number of fields it was counted for. */
  F: number;
  /** Short ids below this are counted. */
  n: number;
  /** The index's documentCount when last counted. */
  documentCount: number;
  /** Each note's language: 1 + the index of its mark in `marks`; 0: none. */
  languageOf: Uint8Array;
  /** The language marks found, in the order of `languageOf`'s numbers (from 1). */
  marks: string[];
  /** How many notes each language has (index 0: the vault's). */
  notes: number[];
  /** Whose word weights a language's notes take: their own language's when it has enough notes, else the vault's (0). */
  statsOf: number[];
  /** Per field, its average length among the notes that have it, and the sum and count it is made of. */
  avgFieldLength: number[];
  sums: number[];
  counts: number[];
  /** Per field, each note's length in it (NaN where its lengths lack the field). */
  lengths: Float64Array[];
  /** Whether a note has field lengths (is indexed): 1; discarded or never added: 0. */
  live: Uint8Array;
}

/**
 * The corpus of an index (by its term map, which lives as long as the index), and the view it was last brought up to
 * date for: the engine makes a new view when its notes change.
 */
const corpora = new WeakMap<object, { ix: RankIndex; corpus: Corpus }>();

function corpusOf(ix: RankIndex, F: number): Corpus {
  const key = ix.index as object;
  const cached = corpora.get(key);
  if (cached && cached.corpus.F === F) {
    if (cached.ix === ix) return cached.corpus;
    try {
      if (updateCorpus(cached.corpus, ix)) {
        corpora.set(key, { ix, corpus: cached.corpus });
        return cached.corpus;
      }
    } catch {
      // Left half brought up to date: counted again below.
    }
  }
  const corpus = countCorpus(ix, F);
  corpora.set(key, { ix, corpus });
  return corpus;
}

/** Arrays by short id with room for `n` notes and more. */
function roomFor(n: number): number {
  return n + (n >> 3) + 1024;
}

/** The language marks of the index, in its order, with their field data. */
function languageMarks(ix: RankIndex): [string, FieldData][] {
  const found: [string, FieldData][] = [];
  for (const [mark, data] of ix.index.atPrefix(LANGUAGE_MARK_PREFIX)) {
    // A mark is the prefix and a two-letter code; a word of a note that merely begins like one is not.
    if (mark.length !== LANGUAGE_MARK_PREFIX.length + 2 || found.length >= 255) continue;
    found.push([mark, data]);
  }
  return found;
}

/** Every note's language and field lengths, counted from the index. */
function countCorpus(ix: RankIndex, F: number): Corpus {
  const n = ix.nextId;
  const room = roomFor(n);
  const languageOf = new Uint8Array(room);
  const marks: string[] = [];
  const notes: number[] = [ix.documentCount];
  for (const [mark, data] of languageMarks(ix)) {
    marks.push(mark);
    const l = marks.length;
    notes.push(0);
    for (const postings of data.values()) {
      ix.eachPosting(postings, (d) => {
        if (d < n && languageOf[d] === 0 && ix.documentIds.has(d)) {
          languageOf[d] = l;
          notes[l]++;
        }
      });
    }
  }
  // BM25's length norm compares a field with the same field of the notes that have it (as Lucene counts it): over
  // every note, a field most notes leave empty (the concepts) has an average near 0, and any note that has it
  // reads as many times too long.
  const sums = new Array<number>(F).fill(0);
  const counts = new Array<number>(F).fill(0);
  const lengths = Array.from({ length: F }, () => new Float64Array(room));
  const live = new Uint8Array(room);
  for (let d = 0; d < n; d++) addLengths(ix.fieldLength.get(d), d, lengths, live, sums, counts);
  const corpus: Corpus = { F, n, documentCount: ix.documentCount, languageOf, marks, notes, statsOf: [], avgFieldLength: [], sums, counts, lengths, live };
  settle(corpus);
  return corpus;
}

/** Counts a note's field lengths (none: a note not indexed). */
function addLengths(noteLengths: number[] | undefined, d: number, lengths: Float64Array[], live: Uint8Array, sums: number[], counts: number[]): void {
  if (!noteLengths) return;
  live[d] = 1;
  for (let f = 0; f < lengths.length; f++) {
    lengths[f][d] = noteLengths[f];
    const len = noteLengths[f] ?? 0;
    if (len > 0) {
      sums[f] += len;
      counts[f]++;
    }
  }
}

/** What follows from the counts: which languages have word weights of their own, and the average field lengths. */
function settle(c: Corpus): void {
  c.statsOf = c.notes.map((count, l) => (l > 0 && count >= MIN_LANGUAGE_NOTES && count >= c.notes[0] * MIN_LANGUAGE_SHARE ? l : 0));
  // Integer sums: the same whatever order the notes were added and taken away in.
  c.avgFieldLength = c.sums.map((sum, f) => (c.counts[f] > 0 ? sum / c.counts[f] : 1));
}

/**
 * Brings a corpus up to date with a later view of the same index: notes discarded since are taken out, notes added
 * since (short ids from `c.n`: minisearch never reuses one) are counted in, their language read from the marks'
 * postings for each of them. A 50,000-note vault's marks hold 50,000 postings, which an edit's first search read again.
 * False when it cannot be (another set of languages, fewer short ids, many notes added): the caller counts it again.
 */
function updateCorpus(c: Corpus, ix: RankIndex): boolean {
  const n0 = c.n;
  const n = ix.nextId;
  if (n < n0 || n - n0 > 1024 + (n0 >> 3)) return false;
  const found = languageMarks(ix);
  if (found.length !== c.marks.length || found.some(([mark], i) => mark !== c.marks[i])) return false;
  if (c.live.length < n) {
    const room = roomFor(n);
    const grow = <A extends Uint8Array | Float64Array>(a: A, make: (size: number) => A): A => {
      const b = make(room);
      b.set(a);
      return b;
    };
    c.languageOf = grow(c.languageOf, (size) => new Uint8Array(size));
    c.live = grow(c.live, (size) => new Uint8Array(size));
    c.lengths = c.lengths.map((a) => grow(a, (size) => new Float64Array(size)));
  }
  const { languageOf, live, lengths, sums, counts, notes } = c;
  const F = c.F;
  // New notes.
  let added = 0;
  for (let d = n0; d < n; d++) {
    addLengths(ix.fieldLength.get(d), d, lengths, live, sums, counts);
    if (!ix.documentIds.has(d)) continue;
    added++;
    marks: for (let l = 0; l < found.length; l++) {
      for (const postings of found[l][1].values()) {
        if (postings.has(d)) {
          languageOf[d] = l + 1;
          notes[l + 1]++;
          break marks;
        }
      }
    }
  }
  // Notes taken out since (discarded, removed, or replaced by a new version): only looked for when there are some.
  if (ix.documentCount !== c.documentCount + added) {
    for (let d = 0; d < n0; d++) {
      if (live[d] === 1 && ix.fieldLength.get(d) === undefined) {
        live[d] = 0;
        for (let f = 0; f < F; f++) {
          const len = lengths[f][d];
          if (len > 0) {
            sums[f] -= len;
            counts[f]--;
          }
        }
      }
      if (languageOf[d] !== 0 && !ix.documentIds.has(d)) {
        notes[languageOf[d]]--;
        languageOf[d] = 0;
      }
    }
  }
  c.n = n;
  c.documentCount = ix.documentCount;
  notes[0] = ix.documentCount;
  settle(c);
  return true;
}

/**
 * A query's arrays by short id: made once for the process, with room for the notes added after, and left clean by each
 * query (new ones were 4 MB a query at 50,000 notes, a load for the collector). A note's query-wide state (score,
 * words matched, their terms) counts only when its stamp is the query's, so nothing is cleared per query. A ranking
 * runs start to end without yielding.
 */
interface Scratch {
  F: number;
  score: Float64Array;
  matched: Uint8Array;
  /** The query a note's score, matches and terms belong to (`epoch`). */
  stamp: Int32Array;
  /** Per field, each note's best match for the current word, and its term (an id in the query's `terms`). */
  best: Float64Array[];
  bestTerm: Int32Array[];
  /** Whether a note is in `touched`: matched by the current word. */
  seen: Uint8Array;
  touched: Int32Array;
  /** A note's last matched term: a node of `nodeTerm`/`nodePrev` (-1: none), which lead back to its first. */
  last: Int32Array;
}
let scratch: Scratch | null = null;
let epoch = 0;
/** The matched terms of the notes, as linked nodes (term id, previous node), for the query. */
let nodeTerm = new Int32Array(4096);
let nodePrev = new Int32Array(4096);
/** Nodes kept for the next query at most (8 MB): more are made again when needed. */
const MAX_KEPT_NODES = 1 << 20;
/** One field's postings of one term, copied out of the index: read in plain loops, not a callback per posting. */
let postDoc = new Int32Array(4096);
let postFreq = new Float64Array(4096);
let postCount = 0;
function collect(shortId: number, freq: number): void {
  if (postCount === postDoc.length) {
    postDoc = doubled(postDoc);
    postFreq = doubled(postFreq);
  }
  postDoc[postCount] = shortId;
  postFreq[postCount++] = freq;
}

/** A typed array twice as long, its values kept. */
function doubled<A extends Int32Array | Float64Array>(a: A): A {
  const out = new (a.constructor as new (n: number) => A)(a.length * 2);
  out.set(a);
  return out;
}

function scratchOf(n: number, F: number): Scratch {
  let s = scratch;
  if (!s || s.F !== F || s.score.length < n) {
    const room = roomFor(n);
    s = {
      F,
      score: new Float64Array(room),
      matched: new Uint8Array(room),
      stamp: new Int32Array(room),
      best: Array.from({ length: F }, () => new Float64Array(room)),
      bestTerm: Array.from({ length: F }, () => new Int32Array(room)),
      seen: new Uint8Array(room),
      touched: new Int32Array(room),
      last: new Int32Array(room),
    };
    scratch = s;
    epoch = 0;
  }
  if (epoch === 0x7fffffff) {
    s.stamp.fill(0);
    epoch = 0;
  }
  epoch++;
  return s;
}

/** Counts what the ranking reads of an index (its corpus: languages, field lengths) ahead of the first query. */
export function prepareRank(ix: RankIndex, fields: number): void {
  corpusOf(ix, fields);
}

/** The best `k` notes (short ids), best first, ties by id, with each one's matched terms. */
export function rankTop(ix: RankIndex, query: RankQuery, k: number, idOf: (shortId: number) => string, keep?: (id: string) => boolean): { id: string; score: number; terms: string[] }[] {
  const n = ix.nextId;
  const F = query.boosts.length;
  const corpus = corpusOf(ix, F);
  const s = scratchOf(n, F);
  try {
    return rank(ix, corpus, s, query, k, idOf, keep);
  } catch (err) {
    // Its per-word arrays may be left unclean: the next query makes new ones.
    scratch = null;
    throw err;
  } finally {
    // A long question over many notes may have needed millions of nodes: not kept between queries.
    if (nodeTerm.length > MAX_KEPT_NODES) {
      nodeTerm = new Int32Array(4096);
      nodePrev = new Int32Array(4096);
    }
  }
}

/** Counts a field's postings (`m` short ids in `docs`) by whose word weights their notes take, into `df`. */
function countByLanguage(docs: Int32Array, m: number, n: number, languageOf: Uint8Array, statsOf: number[], df: Float64Array): void {
  for (let i = 0; i < m; i++) {
    const d = docs[i];
    if (d < n) df[statsOf[languageOf[d]]]++;
  }
}

const K1 = BM25.k + 1;
const B1 = 1 - BM25.b;

/**
 * Scores a field's postings of one term (`m` short ids and frequencies) with the term's weight per language `w`,
 * keeping each note's best in `best` (the term's id in `bestTerm`); notes met for the first time by the current word
 * go in `touched`. Answers the new count of `touched`. A plain loop over arrays: a callback per posting, reading
 * maps, cost several times as much.
 */
function scorePostings(docs: Int32Array, freqs: Float64Array, m: number, n: number, live: Uint8Array, languageOf: Uint8Array, statsOf: number[], w: Float64Array, len: Float64Array, avg: number, best: Float64Array, bestTerm: Int32Array, id: number, seen: Uint8Array, touched: Int32Array, touchedCount: number): number {
  for (let i = 0; i < m; i++) {
    const d = docs[i];
    if (d >= n || live[d] === 0) continue;
    const tf = freqs[i];
    const v = w[statsOf[languageOf[d]]] * (BM25.d + (tf * K1) / (tf + BM25.k * (B1 + (BM25.b * len[d]) / avg)));
    if (seen[d] === 0) {
      seen[d] = 1;
      touched[touchedCount++] = d;
    }
    if (v > best[d]) {
      best[d] = v;
      bestTerm[d] = id;
    }
  }
  return touchedCount;
}

/**
 * The current word done: each note it touched adds its best term in each field, added up, and the term that weighed
 * most, unless that term already answered another word of the question for the note. Answers the new count of nodes.
 */
function finishWord(sc: Scratch, touchedCount: number, now: number, nodes: number): number {
  const { score, matched, stamp, best, bestTerm, seen, touched, last } = sc;
  const F = best.length;
  for (let j = 0; j < touchedCount; j++) {
    const d = touched[j];
    seen[d] = 0;
    let sum = 0;
    let top = 0;
    let id = 0;
    for (let f = 0; f < F; f++) {
      const v = best[f][d];
      if (v === 0) continue;
      sum += v;
      if (v > top) {
        top = v;
        id = bestTerm[f][d];
      }
      best[f][d] = 0;
    }
    if (stamp[d] !== now) {
      stamp[d] = now;
      score[d] = 0;
      matched[d] = 0;
      last[d] = -1;
    }
    // A term of the note answers one word of the question ("Notizen" and "Notiz" both find "notiz": counted once).
    let answered = false;
    for (let node = last[d]; node >= 0; node = nodePrev[node]) {
      if (nodeTerm[node] === id) {
        answered = true;
        break;
      }
    }
    if (answered) continue;
    score[d] += sum;
    matched[d]++;
    if (nodes === nodeTerm.length) {
      nodeTerm = doubled(nodeTerm);
      nodePrev = doubled(nodePrev);
    }
    nodeTerm[nodes] = id;
    nodePrev[nodes] = last[d];
    last[d] = nodes++;
  }
  return nodes;
}

function rank(ix: RankIndex, corpus: Corpus, sc: Scratch, query: RankQuery, k: number, idOf: (shortId: number) => string, keep?: (id: string) => boolean): { id: string; score: number; terms: string[] }[] {
  const n = ix.nextId;
  const F = query.boosts.length;
  const { languageOf, marks, notes, statsOf, avgFieldLength, lengths, live } = corpus;
  // Whether each language (by its number) is the question's.
  const questionLanguage = [false, ...marks.map((m) => query.languageTerms.includes(m))];
  const hasQuestionLanguage = questionLanguage.some(Boolean);
  const partitioned = statsOf.some((g) => g > 0);
  const { score, matched, stamp, best, bestTerm, seen, touched, last } = sc;
  const now = epoch;
  /** Notes the current word matched so far (in `touched`), and the nodes of the notes' matched terms used. */
  let touchedCount = 0;
  let nodes = 0;

  /** The query's terms by id (0: none, a note that matched a word without weight), and the ids by term. */
  const terms: string[] = [""];
  const termIds = new Map<string, number>();
  const G = notes.length;
  const df = new Float64Array(G);
  const w = new Float64Array(G);
  /** Scores one term's postings at `weight`, keeping each note's best term per field for the current word. */
  const scoreTerm = (term: string, data: FieldData, weight: number) => {
    let id = termIds.get(term);
    if (id === undefined) {
      id = terms.length;
      terms.push(term);
      termIds.set(term, id);
    }
    for (let f = 0; f < F; f++) {
      const postings = data.get(f);
      const boost = query.boosts[f];
      if (!postings || !boost) continue;
      postCount = 0;
      ix.eachPosting(postings, collect);
      // The term's rarity in this field, for each language's notes: among that language's notes when they are enough, else the vault's.
      df.fill(0);
      df[0] = postings.size;
      if (partitioned) countByLanguage(postDoc, postCount, n, languageOf, statsOf, df);
      for (let g = 0; g < G; g++) w[g] = (statsOf[g] === g ? Math.log(1 + (notes[g] - df[g] + 0.5) / (df[g] + 0.5)) : 0) * (weight * boost);
      touchedCount = scorePostings(postDoc, postFreq, postCount, n, live, languageOf, statsOf, w, lengths[f], avgFieldLength[f], best[f], bestTerm[f], id, seen, touched, touchedCount);
    }
  };

  const seenWords = new Set<string>();
  for (const word of query.words) {
    if (seenWords.has(word.term)) continue;
    seenWords.add(word.term);
    const concept = isConceptTerm(word.term);
    const exact = ix.index.get(word.term);
    if (exact) scoreTerm(word.term, exact, 1);
    if (word.prefix) {
      for (const [term, data] of ix.index.atPrefix(word.term)) {
        const distance = term.length - word.term.length;
        if (distance > 0) scoreTerm(term, data, (PREFIX_WEIGHT * term.length) / (term.length + 0.3 * distance));
      }
    }
    if (word.fuzzy > 0) {
      for (const [term, [data, distance]] of ix.index.fuzzyGet(word.term, word.fuzzy)) {
        // A word's near spellings are words: "callout" is one letter from the concept term "=callout", which only the
        // question's own concept term may match (else the word took it, and the concept counted for nothing).
        if (distance > 0 && !(word.prefix && term.startsWith(word.term)) && isConceptTerm(term) === concept) scoreTerm(term, data, (FUZZY_WEIGHT * term.length) / (term.length + distance));
      }
    }
    if (word.stem) {
      for (const [term, data] of ix.index.atPrefix(word.stem)) {
        if (term === word.term || (word.prefix && term.startsWith(word.term))) continue;
        const distance = term.length - word.stem.length;
        scoreTerm(term, data, distance === 0 ? STEM_WEIGHT : (STEM_WEIGHT * PREFIX_WEIGHT * term.length) / (term.length + 0.3 * distance));
      }
    }
    nodes = finishWord(sc, touchedCount, now, nodes);
    touchedCount = 0;
  }

  const top: { shortId: number; id: string; score: number }[] = [];
  const want = Math.max(0, Math.floor(k));
  if (want === 0) return [];
  const before = (s: number, id: string, other: { id: string; score: number }) => s > other.score || (s === other.score && id.localeCompare(other.id) < 0);
  for (let d = 0; d < n; d++) {
    if (stamp[d] !== now || matched[d] === 0) continue;
    let s = score[d] * matched[d];
    if (hasQuestionLanguage && questionLanguage[languageOf[d]]) s *= LANGUAGE_FACTOR;
    if (top.length === want && s < top[want - 1].score) continue;
    const id = idOf(d);
    if (top.length === want && !before(s, id, top[want - 1])) continue;
    if (keep && !keep(id)) continue;
    let at = top.length;
    while (at > 0 && before(s, id, top[at - 1])) at--;
    top.splice(at, 0, { shortId: d, id, score: s });
    if (top.length > want) top.pop();
  }
  return top.map((t) => {
    const found: string[] = [];
    for (let node = last[t.shortId]; node >= 0; node = nodePrev[node]) found.push(terms[nodeTerm[node]]);
    return { id: t.id, score: t.score, terms: found.reverse() };
  });
}
