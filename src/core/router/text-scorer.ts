/**
 * BM25F over tool cards: the tool's name words, description, routing hints and parameter text are fields with
 * their own weight and length normalization, scored over the terms `analyze` gives (stems, truncations, CJK
 * bigrams, signals, concepts) so that one index serves every language. A message word no card has may stand in
 * for one it has: its umlaut spelling, or a card word one letter away (a typo). A routing hint that the message
 * covers adds a bonus (hints are what users say). Kept small and allocation-light: a catalog of 1,000 tools routes
 * in well under the 5 ms budget (`bench router --tools 1000`).
 */
import { analyze, SIGNAL, TRUNC, TRUNC_LENGTH } from "./analyze";
import { CONCEPT } from "./related";
import type { ToolCard } from "./tool-card";

/** Field weights and length normalization (b). */
const FIELDS = [
  { key: "nameWords", weight: 2.5, b: 0.3 },
  { key: "description", weight: 1, b: 0.6 },
  { key: "hints", weight: 1.4, b: 0.4 },
  { key: "params", weight: 1, b: 0.6 },
] as const;
const K1 = 1.2;
/** Query weight of a truncation term (it also matches where the full stem does, so it adds less). */
const TRUNC_WEIGHT = 0.5;
/**
 * Query weight of a concept term (see related.ts). A little over a word's: a concept is what the request and the
 * tool agree on when their words differ, and an exact word adds its own term on top. BFCL and every language's
 * sets are flat from 1.0 to 1.5; at 0.7 BFCL top-3 and top-10 drop by about a point.
 */
const CONCEPT_WEIGHT = 1.2;
/** Query weight of a single Han character (bigrams carry most of the meaning). */
const HAN_WEIGHT = 0.4;
/** A clear match is worth this many matches of a word only one tool has (scores are divided by max(best, this)). */
const CLEAR_MATCH_WORDS = 1.8;
/** Added when a routing hint is covered by the message. */
const HINT_BONUS = 0.35;
/** Hints shorter than this (in terms) give a bonus only to a message that says nothing else. */
const MIN_HINT_TERMS = 2;

/** Query weight of a vocabulary word that stands in for a misspelt word ("serach" → "search"). */
const TYPO_WEIGHT = 0.7;
/** Words shorter than this are never read as typos (too many short words are one letter apart). */
const TYPO_MIN_LENGTH = 6;
/** A plain word term (letters of an alphabet; not a signal, truncation, concept or CJK term). */
const PLAIN_WORD = /^[\p{Script=Latin}\p{Script=Cyrillic}\p{Script=Greek}]+$/u;

/** "ae", "oe", "ue" for "ä", "ö", "ü" (after folding: "a", "o", "u"). */
const UMLAUT_SPELLING = /([aou])e/g;

/** The word and every form of it with one letter left out: two words one edit apart share one of these. */
function deletions(word: string): string[] {
  const chars = [...word];
  const out = [word];
  for (let i = 0; i < chars.length; i++) out.push(chars.slice(0, i).join("") + chars.slice(i + 1).join(""));
  return out;
}

/** A term at most this share of tools have (or three) is rare enough to stand for a tool alone. */
const RARE_SHARE = 0.1;

const HAN_CHAR = /^\p{Script=Han}$/u;

/** "What did I write about X" asks to find what was written, not to write: say so in words the index knows. */
function withoutPastWriting(message: string): string {
  return message.replace(/\b(did i write|have i written|i wrote|i've written|did i note|i noted)\b/gi, " find notes mentioning ");
}

/**
 * "What is on my list?", "what's in Projects/Alpha.md?": a question about what something holds asks to read it.
 * The word "read" is added rather than substituted, so the user's own words still meet the routing hints.
 */
function withReadingQuestion(message: string): string {
  return /\b(what(?:'s|’s| is| are)|whats)\s+(on|in|inside)\b/i.test(message) ? `${message} read` : message;
}

interface Posting {
  doc: number;
  /** Term frequency per field, in FIELDS order. */
  tf: number[];
}

/** One hint: its terms, each with the truncation that may stand in for it. */
type HintTerms = { term: string; trunc: string | null }[];

function queryWeight(term: string): number {
  if (term.startsWith(TRUNC)) return TRUNC_WEIGHT;
  if (term.startsWith(CONCEPT)) return CONCEPT_WEIGHT;
  if (HAN_CHAR.test(term)) return HAN_WEIGHT;
  return 1;
}

/** Hint lines are the same text in every rebuild (a catalog change rebuilds the index): analyze each once. */
const HINT_CACHE = new Map<string, string[]>();
const HINT_CACHE_LIMIT = 50_000;

function hintLineTerms(line: string): string[] {
  let terms = HINT_CACHE.get(line);
  if (!terms) {
    terms = analyze(line).terms;
    if (HINT_CACHE.size >= HINT_CACHE_LIMIT) HINT_CACHE.clear();
    HINT_CACHE.set(line, terms);
  }
  return terms;
}

/** The hint's primary terms with their truncation partners (analyze emits a word's truncation right after it). */
function hintTerms(terms: readonly string[]): HintTerms {
  const out: HintTerms = [];
  const seen = new Set<string>();
  for (let i = 0; i < terms.length; i++) {
    const t = terms[i];
    if (t.startsWith(TRUNC) || t.startsWith(CONCEPT) || HAN_CHAR.test(t) || t === SIGNAL.ask || seen.has(t)) continue;
    seen.add(t);
    const next = terms[i + 1];
    out.push({ term: t, trunc: next?.startsWith(TRUNC) ? next : null });
  }
  return out;
}

/**
 * The message covers a hint when it has every term of it. A hint of one term counts only when the message says
 * nothing else ("what time is it" is the hint "time"), or one shared word would lift every tool that has it.
 */
function covers(hint: HintTerms, terms: Set<string>, primary: string[], rare: (term: string) => boolean): boolean {
  if (!hint.every(({ term, trunc }) => terms.has(term) || (trunc !== null && terms.has(trunc)))) return false;
  if (hint.length >= MIN_HINT_TERMS) return true;
  // A one-term hint stands for its tool only if few tools share the term ("time" does, "note" does not).
  return rare(hint[0].term) && primary.every((t) => hint.some((h) => h.term === t));
}

export class TextScorer {
  private readonly names: string[];
  private readonly postings = new Map<string, Posting[]>();
  /** Per doc and field: length in terms. */
  private readonly lengths: number[][];
  private readonly avgLength: number[];
  /** Per doc: its hints' terms (only hints long enough to count). */
  private readonly hints: HintTerms[][];
  /** IDF of a term only one tool has: the unit of `CLEAR_MATCH_WORDS`. */
  private readonly clearMatch: number;
  /** One-letter-deleted forms → the cards' words they come from; built on the first word no card has. */
  private typoIndex: Map<string, string[]> | null = null;

  constructor(cards: readonly ToolCard[]) {
    this.names = cards.map((c) => c.name);
    this.lengths = cards.map(() => FIELDS.map(() => 0));
    cards.forEach((card, doc) => {
      const local = new Map<string, number[]>();
      FIELDS.forEach((field, f) => {
        const text = card[field.key] ?? "";
        const terms = field.key === "hints" ? text.split("\n").flatMap(hintLineTerms) : analyze(text).terms;
        this.lengths[doc][f] = terms.length;
        for (const t of terms) {
          let tf = local.get(t);
          if (!tf) local.set(t, (tf = FIELDS.map(() => 0)));
          tf[f]++;
        }
      });
      for (const [t, tf] of local) {
        let list = this.postings.get(t);
        if (!list) this.postings.set(t, (list = []));
        list.push({ doc, tf });
      }
    });
    this.avgLength = FIELDS.map((_, f) => Math.max(1, this.lengths.reduce((s, l) => s + l[f], 0) / Math.max(1, cards.length)));
    this.hints = cards.map((c) =>
      c.hints
        .split("\n")
        .map((line) => hintTerms(hintLineTerms(line)))
        .filter((h) => h.length > 0),
    );
    const n = Math.max(1, cards.length);
    this.clearMatch = CLEAR_MATCH_WORDS * Math.log(1 + (n - 1 + 0.5) / 1.5);
  }

  private idf(df: number): number {
    const n = this.names.length;
    return Math.log(1 + (n - df + 0.5) / (df + 0.5));
  }

  private typos(): Map<string, string[]> {
    if (this.typoIndex) return this.typoIndex;
    const index = new Map<string, string[]>();
    for (const term of this.postings.keys()) {
      if (term.length < TYPO_MIN_LENGTH || !PLAIN_WORD.test(term)) continue;
      for (const d of deletions(term)) {
        const list = index.get(d);
        if (!list) index.set(d, [term]);
        else if (!list.includes(term)) list.push(term);
      }
    }
    return (this.typoIndex = index);
  }

  /**
   * Stand-ins, with their query weights, for a word no card has: its umlaut spelling ("loesche" → "lösche"), else
   * the cards' words one edit away (a letter added, left out, changed or two swapped) when its truncation is unknown
   * too: a misspelling ("serach"), not an inflection the truncation already meets.
   */
  private corrections(word: string, trunc: string | undefined): [string, number][] {
    if (!PLAIN_WORD.test(word) || this.postings.has(word)) return [];
    const out = new Map<string, number>();
    // German typed without umlauts ("loesche", "fuege hinzu"): the cards' words are folded from "lösche", "füge".
    if (/[aou]e/.test(word)) {
      const plain = word.replace(UMLAUT_SPELLING, "$1");
      if (this.postings.has(plain)) out.set(plain, 1);
      const cut = TRUNC + [...plain].slice(0, TRUNC_LENGTH).join("");
      if (plain.length >= TRUNC_LENGTH && this.postings.has(cut)) out.set(cut, TRUNC_WEIGHT);
      if (out.size > 0) return [...out];
    }
    if (word.length < TYPO_MIN_LENGTH || (trunc !== undefined && this.postings.has(trunc))) return [];
    const index = this.typos();
    for (const d of deletions(word)) for (const w of index.get(d) ?? []) if (w !== word) out.set(w, TYPO_WEIGHT);
    return [...out];
  }

  /** Raw BM25F scores per doc index, and the message's distinct terms. */
  private raw(message: string): { scores: Float64Array; terms: Set<string> } {
    const scores = new Float64Array(this.names.length);
    const order = analyze(message).terms;
    const terms = new Set(order);
    const weights = new Map<string, number>();
    for (const t of terms) weights.set(t, queryWeight(t));
    for (let i = 0; i < order.length; i++) {
      const next = order[i + 1];
      for (const [c, w] of this.corrections(order[i], next?.startsWith(TRUNC) ? next : undefined)) {
        if (!weights.has(c)) weights.set(c, w);
      }
    }
    for (const [term, qw] of weights) {
      const list = this.postings.get(term);
      if (!list) continue;
      const weight = qw * this.idf(list.length);
      for (const { doc, tf } of list) {
        let tfw = 0;
        for (let f = 0; f < FIELDS.length; f++) {
          if (tf[f] === 0) continue;
          const { weight: w, b } = FIELDS[f];
          tfw += (w * tf[f]) / (1 - b + (b * this.lengths[doc][f]) / this.avgLength[f]);
        }
        scores[doc] += (weight * tfw) / (tfw + K1);
      }
    }
    return { scores, terms };
  }

  /** Scores in 0..1 per tool name; tools that do not match are absent. */
  score(message: string): Map<string, number> {
    const { scores, terms } = this.raw(withReadingQuestion(withoutPastWriting(message)));
    const primary = [...terms].filter((t) => !t.startsWith(TRUNC) && !t.startsWith(CONCEPT) && !HAN_CHAR.test(t) && t !== SIGNAL.ask);
    const rare = (term: string): boolean => (this.postings.get(term)?.length ?? 0) <= Math.max(3, RARE_SHARE * this.names.length);
    let best = 0;
    for (const s of scores) if (s > best) best = s;
    const scale = Math.max(best, this.clearMatch);
    const out = new Map<string, number>();
    for (let doc = 0; doc < scores.length; doc++) {
      let s = scores[doc] / scale;
      if (s > 0 && this.hints[doc].length > 0 && this.hints[doc].some((h) => covers(h, terms, primary, rare))) {
        s = Math.min(1, s + HINT_BONUS);
      }
      if (s > 0) out.set(this.names[doc], s);
    }
    return out;
  }
}
