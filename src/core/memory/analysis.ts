/**
 * Text analysis for memory search, the same at index and at query time, in every language the router supports.
 * It is built from the router's own pieces (router/fold.ts, router/stem.ts and the stop words of the language
 * tables), so a word the router ignores is ignored here too:
 *
 * - Words are lowercased and folded ("Überprüfe", "uberprufe" and "ÜBERPRÜFE" meet), English-like suffixes are
 *   stripped ("notes" → "note") and function words of any of the 14 languages are dropped. A word's script already
 *   picks its language's list (Cyrillic words only ever meet Russian and Ukrainian stop words, Hangul Korean ones).
 * - Han, kana and Hangul runs, written without spaces between words, give character bigrams, as the router's
 *   analysis does ("如何使用标签" → 如何 何使 使用 用标 标签): the same bigrams come from a note and from a question,
 *   whatever a dictionary would have cut. Pairs of hiragana alone (grammar) and the question words of the Chinese
 *   and Japanese tables are dropped.
 * - Thai, also written without spaces, is cut into words with `Intl.Segmenter` where the platform has it.
 *
 * The index records ANALYSIS_KEY (this code's version and a hash of the word lists it uses, the concept groups of
 * concepts.ts included): an index built by another analysis, or before those lists changed, is rebuilt from the notes.
 */
import { fold } from "../router/fold";
import { stem } from "../router/stem";
import { LANGUAGES, STOP_WORDS } from "../router/languages/words";
import { contentHash } from "./content-hash";
import { CONCEPT_LISTS } from "./concepts";

/** Changes whenever this code gives other terms for the same text (the text index is then rebuilt). */
export const ANALYSIS_VERSION = 4;

/** Letters, digits and marks, with inner apostrophes ("l'article", "пам'ять"). */
const WORD_RE = /[\p{L}\p{N}\p{M}]+(?:'[\p{L}\p{N}\p{M}]+)*/gu;
const CJK_RE = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}ー]+|[\p{Script=Hangul}]+/u;
const CJK_SPLIT_RE = /([\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}ー]+|[\p{Script=Hangul}]+)/u;
const THAI_RE = /[\u0E00-\u0E7F]/u;
const CYRILLIC_RE = /[\u0400-\u04FF]/u;
const HIRAGANA_PAIR = /^\p{Script=Hiragana}{2}$/u;
/** Longest term kept: longer tokens are hashes, base64 and the like. */
const MAX_TERM = 40;

/** Two-character function and question words of the unspaced languages (如何, 什么, どう…): no content of their own. */
const CJK_STOP: ReadonlySet<string> = (() => {
  const out = new Set<string>();
  for (const l of LANGUAGES) {
    if (!l.unspaced && l.code !== "ko") continue;
    for (const w of [...l.stop.split(/\s+/), ...(l.questionAnywhere ?? [])]) if ([...w].length === 2) out.add(fold(w));
  }
  return out;
})();

/** Elided articles and English clitics around an apostrophe: "l'article" → "article", "what's" → "what". */
const ELIDED = new Set(["l", "d", "j", "m", "t", "s", "c", "n", "qu", "jusqu", "lorsqu", "puisqu", "dell", "all", "nell", "dall", "sull", "un", "quell"]);

/** One word (folded) → its term, or null when it says nothing (a function word, one letter, a hash). */
export function wordTerm(word: string): string | null {
  const n = word.length;
  if (n < 2 || n > MAX_TERM || STOP_WORDS.has(word)) return null;
  return stem(word);
}

/** Bigrams of a run written without spaces (a single character stays itself). */
function pushRun(run: string, out: string[]): void {
  const chars = [...run];
  if (chars.length === 1) {
    out.push(run);
    return;
  }
  for (let i = 0; i + 1 < chars.length; i++) {
    const pair = chars[i] + chars[i + 1];
    if (!HIRAGANA_PAIR.test(pair) && !CJK_STOP.has(pair)) out.push(pair);
  }
}

let thaiSegmenter: Intl.Segmenter | null | undefined;

/** Thai words by the platform's segmenter; without one, the run as one term. */
function pushThai(run: string, out: string[]): void {
  if (thaiSegmenter === undefined) thaiSegmenter = typeof Intl !== "undefined" && "Segmenter" in Intl ? new Intl.Segmenter("th", { granularity: "word" }) : null;
  if (!thaiSegmenter) {
    out.push(run);
    return;
  }
  for (const s of thaiSegmenter.segment(run)) if (s.isWordLike && s.segment.length >= 2) out.push(s.segment);
}

function hasHighChar(token: string): boolean {
  for (let i = 0; i < token.length; i++) if (token.charCodeAt(i) >= 0x0e00) return true;
  return false;
}

function pushToken(token: string, out: string[]): void {
  if (token.includes("'")) {
    // Ukrainian writes an apostrophe inside words; elsewhere it separates an article or a clitic.
    if (CYRILLIC_RE.test(token)) token = token.replace(/'/g, "");
    else {
      for (const part of token.split("'")) if (!ELIDED.has(part)) pushToken(part, out);
      return;
    }
  }
  // Everything below U+0E00 (Latin, Greek, Cyrillic…) is a spaced script: the common case, tested by one char code.
  if (!hasHighChar(token)) {
    const t = wordTerm(token);
    if (t !== null) out.push(t);
    return;
  }
  if (CJK_RE.test(token)) {
    // Mixed tokens ("inbox笔记"): spaced parts are words, unspaced runs give bigrams.
    for (const part of token.split(CJK_SPLIT_RE)) {
      if (!part) continue;
      if (CJK_RE.test(part)) pushRun(part, out);
      else pushToken(part, out);
    }
    return;
  }
  if (THAI_RE.test(token)) pushThai(token, out);
  else {
    const t = wordTerm(token);
    if (t !== null) out.push(t);
  }
}

/** The terms of a text, in order, repeats kept: what the text index stores and what a query looks up. */
export function analyzeText(text: string): string[] {
  const out: string[] = [];
  const folded = fold(text);
  WORD_RE.lastIndex = 0;
  for (let m = WORD_RE.exec(folded); m !== null; m = WORD_RE.exec(folded)) pushToken(m[0], out);
  return out;
}

/** For each function word of a spaced language (folded), the languages it belongs to: which language a text is in. */
const STOP_LANGUAGES: ReadonlyMap<string, readonly string[]> = (() => {
  const out = new Map<string, string[]>();
  for (const l of LANGUAGES) {
    if (l.unspaced || l.code === "ko") continue;
    for (const w of new Set(l.stop.split(/\s+/).filter(Boolean).map(fold))) {
      const codes = out.get(w);
      if (codes) codes.push(l.code);
      else out.set(w, [l.code]);
    }
  }
  return out;
})();
const CYRILLIC_CODES = new Set(["ru", "uk"]);
const KANA_RE = /[\p{Script=Hiragana}\p{Script=Katakana}]/u;
const HAN_RE = /\p{Script=Han}/u;
const HANGUL_RE = /\p{Script=Hangul}/u;
const UKRAINIAN_RE = /[іїєґ]/u;
const LETTERS_RE = /\p{L}/gu;
const LATIN_CYRILLIC_LETTERS_RE = /[\p{Script=Latin}\p{Script=Cyrillic}]/gu;
/** Characters looked at to tell a note's language: its start says enough. */
const SAMPLE = 3000;
/** A text of at least this many words is long enough for its own function words to show (a note, not a question). */
const TELLING_WORDS = 30;
/**
 * In such a text, the language's own function words (those of no other of the 14 lists) make at least this share of
 * its words. Romanian, Catalan or Hungarian meet Spanish, French and Italian in "de", "la" and "un", but hardly ever
 * in "los", "les" or "gli": on Obsidian's help vault the pages of the 14 languages have 3 % or more of their own
 * words (the 5th percentile, Spanish lowest), those of Romanian and Hungarian 1 % or less.
 */
const OWN_WORDS_SHARE = 0.01;

function count(re: RegExp, text: string): number {
  let n = 0;
  re.lastIndex = 0;
  while (re.exec(text) !== null) n++;
  return n;
}

/**
 * The languages a text is most likely written in (of the router's 14): by script for Chinese, Japanese, Korean,
 * Russian and Ukrainian, else by which language's function words it uses most. Empty when it cannot tell (no
 * function word at all) and when the text is in none of them: most of its letters in a script none of the 14 writes
 * (Arabic, Greek, Hebrew, Thai, Khmer…), or, in a text long enough to tell, too few of the language's own function
 * words (Romanian, Catalan, Swedish… share some of their short words with the 14, not their own ones). Several
 * when they tie (a short question: "la" is French, Spanish and Italian).
 */
export function languagesOf(text: string): string[] {
  const sample = fold(text.slice(0, SAMPLE));
  if (KANA_RE.test(sample)) return ["ja"];
  if (HANGUL_RE.test(sample)) return ["ko"];
  if (HAN_RE.test(sample)) return ["zh"];
  const letters = count(LETTERS_RE, sample);
  const covered = count(LATIN_CYRILLIC_LETTERS_RE, sample);
  if (letters - covered > covered) return [];
  const cyrillic = CYRILLIC_RE.test(sample);
  if (cyrillic && UKRAINIAN_RE.test(sample)) return ["uk"];
  const counts = new Map<string, number>();
  const own = new Map<string, number>();
  let words = 0;
  WORD_RE.lastIndex = 0;
  for (let m = WORD_RE.exec(sample); m !== null; m = WORD_RE.exec(sample)) {
    words++;
    const codes = STOP_LANGUAGES.get(m[0]);
    if (!codes) continue;
    let only: string | null = null;
    let kept = 0;
    for (const code of codes) {
      if (cyrillic && !CYRILLIC_CODES.has(code)) continue;
      counts.set(code, (counts.get(code) ?? 0) + 1);
      only = code;
      kept++;
    }
    if (kept === 1) own.set(only!, (own.get(only!) ?? 0) + 1);
  }
  const best = Math.max(0, ...counts.values());
  if (best === 0) return cyrillic ? ["ru"] : [];
  const winners = [...counts].filter(([, n]) => n === best).map(([code]) => code);
  if (cyrillic || words < TELLING_WORDS) return winners;
  return winners.filter((code) => (own.get(code) ?? 0) >= words * OWN_WORDS_SHARE);
}

/** Language marks start with a digit after two letters: no word analysis gives looks like one. */
const MARK = "zz0";

/** The term that marks a note as written in a language ("zz0de"): a digit keeps it out of any word's way. */
export function languageMark(code: string): string {
  return `${MARK}${code}`;
}

/** Whether a term is a language mark (not a word of the note: left out of the terms a snippet looks for). */
export function isLanguageMark(term: string): boolean {
  return term.startsWith(MARK);
}

/**
 * What an index records of the analysis that built it: the version and a hash of the word lists it reads (the
 * router's function words and question words, the concept groups), which change as the router learns. Another key:
 * rebuilt.
 */
export const ANALYSIS_KEY = ((): string => {
  const lists = [
    [...STOP_WORDS].sort().join(" "),
    [...CJK_STOP].sort().join(" "),
    [...STOP_LANGUAGES].map(([word, codes]) => `${word}:${codes.join(",")}`).sort().join(" "),
    CONCEPT_LISTS,
  ];
  return `${ANALYSIS_VERSION}-${contentHash(lists.join("\n")).slice(0, 8)}`;
})();
