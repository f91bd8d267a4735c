/**
 * Text analysis for routing, for every language the router supports: one function turns a message (or a tool
 * card's text) into the terms BM25 scores.
 *
 * - Spans that carry meaning beyond their words become language-independent signal terms: note paths and file
 *   names, `[[links]]`, `#tags`, URLs, dates, times and quoted text (what is quoted is content, not the request).
 * - Words are lowercased and folded (diacritics, ß, ł, ı…), so "Überprüfe", "uberprufe" and "ÜBERPRÜFE" meet.
 * - Each word gives its light stem and, from five letters on, its first five letters ("~notat" for notatka,
 *   notatkę, notatki): truncation is the stemmer that works across inflecting languages without knowing which
 *   one the message is in.
 * - Han, kana and Hangul runs, written without spaces, give character bigrams (and Han characters alone, which
 *   carry meaning by themselves); Korean words also give themselves without their trailing particle.
 * - Words for today, yesterday and tomorrow in any language add the `#today` signal.
 * - A word of a related-word group (related.ts) adds the group's concept term ("=currency" for "dollars"), and
 *   so do values: a year, a date, a sum of money, a coordinate pair, a command-line option, a URL (whose host name
 *   also gives its words).
 */
import { fold } from "./fold";
import { DAY_WORDS, QUESTION_ANYWHERE_RE, QUESTION_START_RE, STOP_WORDS } from "./languages";
import { CONCEPT, conceptsInRun, conceptsOf } from "./related";
import { stem } from "./stem";

/** Signal terms; "#" never occurs in a word term, so they cannot collide with words. */
export const SIGNAL = {
  note: "#note",
  link: "#wikilink",
  tag: "#tag",
  url: "#url",
  date: "#date",
  time: "#time",
  quote: "#quote",
  /** Two quoted pieces or more: "replace 'a' with 'b'", in any language. */
  quotes: "#quote2",
  today: "#today",
  /** "this note", "the current page", "diese Notiz", "这篇笔记": the note open in the editor. */
  thisNote: "#this",
  /** A question mark: questions ask to look something up; statements ("remember that…") to keep or change. */
  ask: "#ask",
} as const;

/** Prefix of truncation terms. */
export const TRUNC = "~";
/** Letters a truncation term keeps. */
export const TRUNC_LENGTH = 5;

const URL_RE = /\b(?:https?:\/\/|www\.)[^\s<>"'“”«»）)]+/giu;
const WIKILINK_RE = /!?\[\[[^\]\n]{1,200}\]\]/gu;
const DATE_RE =
  /\b\d{4}-\d{1,2}-\d{1,2}\b|\b\d{1,2}[./]\d{1,2}[./]\d{2,4}\b|\d{1,4}\s?[年월]\s?\d{1,2}\s?[月월](?:\s?\d{1,2}\s?[日일号])?|\d{1,2}\s?[月월]\s?\d{1,2}\s?[日일号]/gu;
const TIME_RE = /\b\d{1,2}[:h]\d{2}\b|\b\d{1,2}\s?(?:am|pm|uhr|h)\b|\d{1,2}\s?(?:時|点|시)(?:\d{1,2}\s?分)?/giu;
/** A vault path or a file name with a note or attachment extension. */
const PATH_RE = /[^\s"'“”„«»「」『』()（）[\]]*\.(?:md|canvas|pdf|png|jpe?g|gif|webp|txt)(?![A-Za-z0-9])|(?<![\p{L}\p{N}])[\p{L}\p{N}_.-]+(?:\/[\p{L}\p{N}_.-]+)+\/?/gu;
const TAG_RE = /(?<![\p{L}\p{N}&/])#[\p{L}\p{N}_][\p{L}\p{N}_/-]*/gu;
/** Quoted text in the quote marks of the supported languages (single quotes only around a whole phrase). */
const QUOTE_RE = /"[^"\n]{1,300}"|“[^”\n]{1,300}”|„[^“”\n]{1,300}[“”]|«[^»\n]{1,300}»|「[^」\n]{1,300}」|『[^』\n]{1,300}』|(?<![\p{L}\p{N}])'[^'\n]{1,300}'(?![\p{L}\p{N}])|‘[^’\n]{1,300}’|‚[^‘’\n]{1,300}[‘’]/gu;

const NOTE_NOUN =
  "notes?|pages?|files?|documents?|notiz(?:en)?|datei|seite|fichier|nota|notas|archivo|pagina|arquivo|notitie|bestand|notatk\\p{L}*|plik\\p{L}*|" +
  "замет\\p{L}*|файл\\p{L}*|страниц\\p{L}*|нотатк\\p{L}*|сторінк\\p{L}*|not(?:u|un|um|umu)?|dosya\\p{L}*|sayfa\\p{L}*";
/** A word that only says "note" or "file" in one of the languages (a folder called "Notes" names no kind of note). */
export const NOTE_NOUN_RE = new RegExp(`^(?:${NOTE_NOUN})$`, "u");
const THIS_WORD =
  "this|current|currently open|diese[rsmn]?|aktuelle[rsmn]?|cette|ce|cet|actuelle?|este|esta|actual|esse|essa|atual|questa|questo|attuale|corrente|" +
  "deze|dit|huidige|ta|tej|te|ten|biezac\\p{L}*|obecn\\p{L}*|эт\\p{L}{0,2}|текущ\\p{L}*|ц[яюі]|цiєi|цієї|поточн\\p{L}*|bu|su|mevcut|simdiki|acik";
const THIS_NOTE_RE = new RegExp(
  `(?<![\\p{L}\\p{N}])(?:${THIS_WORD})\\s+(?:${NOTE_NOUN})(?![\\p{L}\\p{N}])|(?:这篇|这个|这|当前|此|该)(?:笔记|文档|页面|文件)|(?:この|今の|現在の|今開いている)(?:ノート|メモ|ページ|ファイル)|(?:이|지금|현재|열려 있는|열어둔)\\s?(?:노트|메모|페이지|파일)`,
  "u",
);

const MONTH = "january|february|march|april|may|june|july|august|september|october|november|december|jan|feb|mar|apr|jun|jul|aug|sept?|oct|nov|dec";
/** English dates with the month's name: "December 13, 2019", "April 14th", "the 5th of march 2023". */
const MONTH_DATE_RE = new RegExp(
  `\\b(?:${MONTH})\\.?\\s+\\d{1,2}(?:st|nd|rd|th)?\\b(?:,?\\s+\\d{4}\\b)?|\\b\\d{1,2}(?:st|nd|rd|th)?\\s+(?:of\\s+)?(?:${MONTH})\\b(?:,?\\s+\\d{4}\\b)?`,
  "giu",
);
/** A year on its own ("in 1510", "from 2021"); not a part of a longer number, a date or a version. */
const YEAR_RE = /(?<![\p{L}\p{N}.,:/-])(?:1[0-9]{3}|20[0-9]{2})(?![\p{L}\p{N}]|[.,:/-]\d)/u;
/** An amount of money: a currency sign by a number. */
const MONEY_RE = /[$€£¥₹₩₽]\s?\d|\d\s?[$€£¥₹₩₽]/u;
/** A latitude/longitude pair: "46.603354,1.8883340", "37.8651 N, 119.5383 W". */
const COORD_RE = /-?\d{1,3}\.\d{2,}\s?°?\s?[NSns]?\s?,\s?-?\d{1,3}\.\d{2,}/u;
/** A command-line option ("docker --version", "ls -la"): the message is about running a command. */
const CLI_RE = /(?:^|\s)(?:--[a-z][a-z-]+|-[a-z]{1,3})(?=\s|$)/iu;

/**
 * Concept terms of values that carry meaning whatever the words around them (see related.ts): a year asks about a
 * date, a sum of money about currency, a coordinate pair about a location, an option about a command.
 */
function valueConcepts(text: string): string[] {
  const out: string[] = [];
  const noDates = text.replace(DATE_RE, " ").replace(MONTH_DATE_RE, " ");
  if (YEAR_RE.test(noDates)) out.push(CONCEPT + "year", CONCEPT + "date");
  if (MONEY_RE.test(text)) out.push(CONCEPT + "currency");
  if (COORD_RE.test(text)) out.push(CONCEPT + "coordinate");
  if (CLI_RE.test(text)) out.push(CONCEPT + "execute");
  return out;
}

/** A URL's host name as words ("https://www.httpbin.org/post" → "httpbin"): the site is what the user named. */
function hostWords(url: string): string[] {
  const host = url.replace(/^(?:https?:\/\/)?/i, "").split(/[/?#:]/)[0].toLowerCase();
  return host
    .split(".")
    .slice(0, -1)
    .filter((w) => w !== "www" && /^[a-z][a-z0-9-]*$/.test(w))
    .flatMap((w) => w.split("-"));
}

/** Starts with a question's first words, in any language (as intents.ts cleans a message: folded, no punctuation). */
function startsAsQuestion(text: string): boolean {
  // A question shows in its first words; a tool card's long description need not be scanned to its end.
  const m = fold(text.slice(0, 120))
    .replace(/[^\p{L}\p{N}\p{M}'\s-]+/gu, " ")
    .replace(/\s+/g, " ")
    .trim();
  return QUESTION_START_RE.test(m) || QUESTION_ANYWHERE_RE.test(m);
}

/** Replaces each match with a space-padded signal placeholder; returns the remaining text and the signals. */
function extract(text: string, re: RegExp, signal: string, found: string[]): string {
  return text.replace(re, () => {
    found.push(signal);
    return " ";
  });
}

const CJK_RUN = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}ー]+/u;
const HANGUL_RUN = /^[\p{Script=Hangul}]+$/u;
const HAN = /\p{Script=Han}/u;
/** Day words written in Han or kana: found inside a run, which has no spaces. */
const CJK_DAY_WORDS = [...DAY_WORDS].filter((d) => CJK_RUN.test(d));
/** Korean particles and endings at the end of a word, longest first ("시야", "시예요" → "시"). */
const KO_PARTICLE = /(에서는|에서|으로|에게|한테|까지|부터|처럼|보다|이랑|하고|이나|에는|이에요|예요|에요|이야|은|는|이|가|을|를|에|의|로|와|과|도|만|랑|나|야)$/u;

/** Chinese particles and Japanese case particles: a bigram with one of them spans a word boundary. */
const CJK_PARTICLE = new Set([..."的了吗呢吧啊呀嘛么のはがをにでとも"]);
/** Chinese function characters: alone, or paired with each other, they say nothing about the request. */
const CJK_FUNCTION = new Set([..."是在把被给和与我你他她它们这那哪里个一下也都就还很有要会能可以请帮让怎为多少几谁吗"]);
const HIRAGANA_PAIR = /^\p{Script=Hiragana}{2}$/u;

function pushCjk(run: string, out: string[]): void {
  const chars = [...run];
  for (let i = 0; i < chars.length; i++) {
    const c = chars[i];
    if (HAN.test(c) && !CJK_FUNCTION.has(c) && !CJK_PARTICLE.has(c)) out.push(c);
    if (i + 1 >= chars.length) continue;
    const d = chars[i + 1];
    if (CJK_PARTICLE.has(c) || CJK_PARTICLE.has(d) || (CJK_FUNCTION.has(c) && CJK_FUNCTION.has(d))) continue;
    const pair = c + d;
    if (!HIRAGANA_PAIR.test(pair)) out.push(pair);
  }
}

function pushHangul(word: string, out: string[]): void {
  const bare = word.length >= 2 ? word.replace(KO_PARTICLE, "") : word;
  if (DAY_WORDS.has(word) || DAY_WORDS.has(bare)) out.push(SIGNAL.today);
  if (STOP_WORDS.has(word) || STOP_WORDS.has(bare)) return;
  if (bare.length >= 1) out.push(bare);
  out.push(...conceptsInRun(word));
  const chars = [...word];
  for (let i = 0; i + 1 < chars.length; i++) out.push(chars[i] + chars[i + 1]);
}

/** One word (already folded, letters and digits only) → its terms. */
function pushWord(word: string, out: string[]): void {
  if (/^\d+$/.test(word)) return; // Bare numbers say nothing about the tool.
  if (DAY_WORDS.has(word)) out.push(SIGNAL.today);
  const s = stem(word);
  // A function word gives no term of its own, but may stand for a concept ("about", "über", "про").
  if (STOP_WORDS.has(word)) {
    out.push(...conceptsOf(word, s));
    return;
  }
  out.push(s);
  // The truncation right after its word (routing hints pair them), then the word's concepts.
  if ([...word].length >= TRUNC_LENGTH) out.push(TRUNC + [...word].slice(0, TRUNC_LENGTH).join(""));
  for (const c of conceptsOf(word, s)) out.push(c);
}

/** French and Italian elisions before an apostrophe ("l'article", "dell'anno"). */
const ELISION = new Set(["l", "d", "j", "m", "t", "s", "c", "n", "qu", "jusqu", "lorsqu", "puisqu", "dell", "all", "nell", "dall", "sull", "un", "quell", "cos"]);
/** English clitics after an apostrophe ("what's", "don't", "I'm"). */
const CLITIC = new Set(["s", "t", "re", "ll", "ve", "d", "m"]);

/** "l'article" → "article", "today's" → "today", "пам'ять" → "память". */
function unApostrophe(word: string): string {
  const parts = word.split("'");
  if (ELISION.has(parts[0])) return parts.slice(1).join("");
  if (CLITIC.has(parts[parts.length - 1])) return parts.slice(0, -1).join("");
  return parts.join("");
}

export interface Analysis {
  /** Every term in order (words, truncations, bigrams, signals); repeats kept. */
  terms: string[];
  /** The signals found, once each. */
  signals: Set<string>;
}

/** The text's terms for BM25. */
export function analyze(text: string): Analysis {
  const signals: string[] = [];
  let rest = text;
  const values = valueConcepts(text);
  const hosts: string[] = [];
  rest = rest.replace(URL_RE, (url) => {
    signals.push(SIGNAL.url);
    hosts.push(...hostWords(url));
    return " ";
  });
  rest = extract(rest, WIKILINK_RE, SIGNAL.link, signals);
  rest = extract(rest, DATE_RE, SIGNAL.date, signals);
  rest = extract(rest, MONTH_DATE_RE, SIGNAL.date, signals);
  rest = extract(rest, TIME_RE, SIGNAL.time, signals);
  rest = extract(rest, QUOTE_RE, SIGNAL.quote, signals);
  rest = extract(rest, PATH_RE, SIGNAL.note, signals);
  rest = extract(rest, TAG_RE, SIGNAL.tag, signals);
  if (signals.includes(SIGNAL.link)) signals.push(SIGNAL.note);
  if (signals.filter((x) => x === SIGNAL.quote).length >= 2) signals.push(SIGNAL.quotes);
  // A question mark, or a question's first words where it was left out ("hoe laat is het nu", "what am I looking at").
  if (/[?？¿]/.test(rest) || startsAsQuestion(rest)) signals.push(SIGNAL.ask);
  if (THIS_NOTE_RE.test(fold(rest))) signals.push(SIGNAL.thisNote);
  const terms: string[] = [...signals, ...values];
  if (signals.includes(SIGNAL.date)) terms.push(CONCEPT + "date");
  if (signals.includes(SIGNAL.time)) terms.push(CONCEPT + "time");
  if (signals.includes(SIGNAL.url)) terms.push(CONCEPT + "web");
  for (const w of hosts) pushWord(w, terms);
  // "aujourd'hui" is one word whose apostrophe is no elision.
  // Identifiers split into words as tool names do ("columnCount" → "column count").
  const folded = fold(rest.replace(/(\p{Ll})(\p{Lu})/gu, "$1 $2")).replace(/aujourd['’]hui/g, "aujourdhui");
  for (const raw of folded.match(/[\p{L}\p{N}\p{M}]+(?:'[\p{L}\p{N}\p{M}]+)*/gu) ?? []) {
    const token = raw.includes("'") ? unApostrophe(raw) : raw;
    if (!token) continue;
    if (HANGUL_RUN.test(token)) {
      pushHangul(token, terms);
      continue;
    }
    if (CJK_RUN.test(token)) {
      // Mixed tokens ("inbox笔记"): Latin parts are words, CJK runs give bigrams.
      for (const part of token.split(/([\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}ー]+)/u)) {
        if (!part) continue;
        if (CJK_RUN.test(part)) {
          if (CJK_DAY_WORDS.some((d) => part.includes(d))) terms.push(SIGNAL.today);
          pushCjk(part, terms);
          terms.push(...conceptsInRun(part));
        } else pushWord(part, terms);
      }
      continue;
    }
    pushWord(token, terms);
  }
  return { terms, signals: new Set(signals) };
}
