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

/** What the ranking reads of the whole index besides the postings: the same for every query until the notes change. */
interface Corpus {
  /** Each note's language: 1 + the index of its mark in `marks`; 0: none. */
  languageOf: Uint8Array;
  /** The language marks found, in the order of `languageOf`'s numbers (from 1). */
  marks: string[];
  /** How many notes each language has (index 0: the vault's). */
  notes: number[];
  /** Whose word weights a language's notes take: their own language's when it has enough notes, else the vault's (0). */
  statsOf: number[];
  /** Per field, its average length among the notes that have it. */
  avgFieldLength: number[];
}

/** Per index view: the engine makes a new view when its notes change. */
const corpora = new WeakMap<RankIndex, Corpus>();

function corpusOf(ix: RankIndex, F: number): Corpus {
  const cached = corpora.get(ix);
  if (cached && cached.avgFieldLength.length === F) return cached;
  const n = ix.nextId;
  const languageOf = new Uint8Array(n);
  const marks: string[] = [];
  const notes: number[] = [ix.documentCount];
  for (const [mark, data] of ix.index.atPrefix(LANGUAGE_MARK_PREFIX)) {
    // A mark is the prefix and a two-letter code; a word of a note that merely begins like one is not.
    if (mark.length !== LANGUAGE_MARK_PREFIX.length + 2 || marks.length >= 255) continue;
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
  const statsOf = notes.map((count, l) => (l > 0 && count >= MIN_LANGUAGE_NOTES && count >= ix.documentCount * MIN_LANGUAGE_SHARE ? l : 0));
  // BM25's length norm compares a field with the same field of the notes that have it (as Lucene counts it): over
  // every note, a field most notes leave empty (the concepts) has an average near 0, and any note that has it
  // reads as many times too long.
  const sums = new Array<number>(F).fill(0);
  const counts = new Array<number>(F).fill(0);
  for (let d = 0; d < n; d++) {
    const lengths = ix.fieldLength.get(d);
    if (!lengths) continue;
    for (let f = 0; f < F; f++) {
      const len = lengths[f] ?? 0;
      if (len > 0) {
        sums[f] += len;
        counts[f]++;
      }
    }
  }
  const corpus: Corpus = { languageOf, marks, notes, statsOf, avgFieldLength: sums.map((sum, f) => (counts[f] > 0 ? sum / counts[f] : 1)) };
  corpora.set(ix, corpus);
  return corpus;
}

/**
 * A query's arrays by short id: made once, with room for the notes added after, and cleared per query (new ones were
 * 4 MB a query at 50,000 notes, a load for the collector; made per index view, they were made again after every edit).
 * One set for the process: a ranking runs start to end without yielding.
 */
interface Scratch {
  score: Float64Array;
  matched: Uint8Array;
  terms: (string[] | undefined)[];
  /** Per field, each note's best match for the current word, and its term. */
  best: Float64Array[];
  bestTerm: (string | undefined)[][];
  seen: Uint8Array;
}
let scratch: Scratch | null = null;

function scratchOf(ix: RankIndex, F: number): Scratch {
  const n = ix.nextId;
  let s = scratch;
  if (!s || s.best.length !== F || s.score.length < n) {
    const room = n + (n >> 3) + 1024;
    s = {
      score: new Float64Array(room),
      matched: new Uint8Array(room),
      terms: new Array<string[] | undefined>(room).fill(undefined),
      best: Array.from({ length: F }, () => new Float64Array(room)),
      bestTerm: Array.from({ length: F }, () => new Array<string | undefined>(room).fill(undefined)),
      seen: new Uint8Array(room),
    };
    scratch = s;
    return s;
  }
  s.score.fill(0);
  s.matched.fill(0);
  s.terms.fill(undefined);
  s.seen.fill(0);
  for (let f = 0; f < F; f++) {
    s.best[f].fill(0);
    s.bestTerm[f].fill(undefined);
  }
  return s;
}

/** The best `k` notes (short ids), best first, ties by id, with each one's matched terms. */
export function rankTop(ix: RankIndex, query: RankQuery, k: number, idOf: (shortId: number) => string, keep?: (id: string) => boolean): { id: string; score: number; terms: string[] }[] {
  const n = ix.nextId;
  const F = query.boosts.length;
  const { languageOf, marks, notes, statsOf, avgFieldLength } = corpusOf(ix, F);
  // Whether each language (by its number) is the question's.
  const questionLanguage = [false, ...marks.map((m) => query.languageTerms.includes(m))];
  const hasQuestionLanguage = questionLanguage.some(Boolean);
  const partitioned = statsOf.some((g) => g > 0);

  const { score, matched, terms, best, bestTerm, seen } = scratchOf(ix, F);
  const touched: number[] = [];

  const G = notes.length;
  const df = new Float64Array(G);
  const idf = new Float64Array(G);
  /** A term's rarity in one field's postings, for each language's notes: among that language's notes when they are enough, else the vault's. */
  const idfOf = (postings: Map<number, number>): Float64Array => {
    df.fill(0);
    df[0] = postings.size;
    if (partitioned) ix.eachPosting(postings, (d) => void (d < n && df[statsOf[languageOf[d]]]++));
    for (let g = 0; g < G; g++) idf[g] = statsOf[g] === g ? Math.log(1 + (notes[g] - df[g] + 0.5) / (df[g] + 0.5)) : 0;
    return idf;
  };
  /** Scores one term's postings at `weight`, keeping each note's best term per field for the current word. */
  const scoreTerm = (term: string, data: FieldData, weight: number) => {
    for (let f = 0; f < F; f++) {
      const postings = data.get(f);
      const boost = query.boosts[f];
      if (!postings || !boost) continue;
      const avg = avgFieldLength[f];
      const w = idfOf(postings);
      for (let g = 0; g < G; g++) w[g] *= weight * boost;
      const bf = best[f];
      const bt = bestTerm[f];
      ix.eachPosting(postings, (d, tf) => {
        const lengths = d < n ? ix.fieldLength.get(d) : undefined;
        if (!lengths) return;
        const s = w[statsOf[languageOf[d]]] * (BM25.d + (tf * (BM25.k + 1)) / (tf + BM25.k * (1 - BM25.b + (BM25.b * lengths[f]) / avg)));
        if (seen[d] === 0) {
          seen[d] = 1;
          touched.push(d);
        }
        if (s > bf[d]) {
          bf[d] = s;
          bt[d] = term;
        }
      });
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
    for (const d of touched) {
      seen[d] = 0;
      // The word's score: its best term in each field, added up; its term: the one that weighed most.
      let sum = 0;
      let top = 0;
      let term = "";
      for (let f = 0; f < F; f++) {
        const v = best[f][d];
        if (v === 0) continue;
        sum += v;
        if (v > top) {
          top = v;
          term = bestTerm[f][d]!;
        }
        best[f][d] = 0;
        bestTerm[f][d] = undefined;
      }
      const list = (terms[d] ??= []);
      // A term of the note answers one word of the question ("Notizen" and "Notiz" both find "notiz": counted once).
      if (list.includes(term)) continue;
      score[d] += sum;
      matched[d]++;
      list.push(term);
    }
    touched.length = 0;
  }

  const top: { shortId: number; id: string; score: number }[] = [];
  const want = Math.max(0, Math.floor(k));
  if (want === 0) return [];
  const before = (s: number, id: string, other: { id: string; score: number }) => s > other.score || (s === other.score && id.localeCompare(other.id) < 0);
  for (let d = 0; d < n; d++) {
    if (matched[d] === 0) continue;
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
  return top.map((t) => ({ id: t.id, score: t.score, terms: terms[t.shortId] ?? [] }));
}
