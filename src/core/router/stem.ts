/**
 * Term processing for tool routing: lowercase, fold diacritics, drop stop words, and a light English
 * suffix stemmer so "notes", "noting" and "noted" meet "note". Deliberately small: tool cards are short.
 */

const STOP = new Set(
  (
    "a an the and or but if then else of to in on at by for with from into onto about as is are was were be been being am " +
    "do does did doing have has had i me my mine we our you your he she it its they them their this that these those " +
    "what which who whom how when where why can could would should will shall may might must please pls just some any " +
    "all there here so very too also up out over again more most such no not only own same than s t don now"
  ).split(" "),
);

/** Lowercase without diacritics ("Überprüfe" → "uberprufe"). */
export function fold(word: string): string {
  return word.normalize("NFD").replace(/\p{M}+/gu, "").toLowerCase();
}

function undouble(stem: string): string {
  return /([b-df-hj-np-tv-z])\1$/.test(stem) && !/(ll|ss|zz)$/.test(stem) ? stem.slice(0, -1) : stem;
}

/** A light English stemmer; words of three letters or fewer pass through. */
export function stem(word: string): string {
  let w = word;
  if (w.length <= 3) return w;
  w = w.replace(/'s$/, "");
  if (w.endsWith("sses")) w = w.slice(0, -2);
  else if (w.endsWith("ies") && w.length > 4) w = w.slice(0, -3) + "y";
  else if (w.endsWith("s") && !/(ss|us|is)$/.test(w)) w = w.slice(0, -1);
  if (w.endsWith("ing") && w.length > 5) w = undouble(w.slice(0, -3));
  else if (w.endsWith("ed") && w.length > 4) w = undouble(w.slice(0, -2));
  if (w.endsWith("ation") && w.length > 7) w = w.slice(0, -5) + "ate";
  if (w.endsWith("ly") && w.length > 5) w = w.slice(0, -2);
  if (w.endsWith("ize") || w.endsWith("ise")) w = w.slice(0, -3);
  if (w.endsWith("y") && w.length > 4) w = w.slice(0, -1) + "i";
  if (w.endsWith("e") && w.length > 3) w = w.slice(0, -1);
  return w;
}

/** minisearch `processTerm`: null drops the term. */
export function processWord(term: string): string | null {
  const f = fold(term);
  if (!f || STOP.has(f)) return null;
  return stem(f);
}

/** Character trigrams of a folded word (with edge markers), the fallback for words in other languages. */
export function trigrams(term: string): string[] | null {
  const f = fold(term);
  if (f.length < 4 || STOP.has(f)) return null;
  const padded = `_${f}_`;
  const out: string[] = [];
  for (let i = 0; i + 3 <= padded.length; i++) out.push(padded.slice(i, i + 3));
  return out;
}

/** True when the text has letters outside ASCII (a hint that the message is not English). */
export function hasNonAsciiLetters(text: string): boolean {
  // Any letter outside the ASCII range.
  return /[^\p{ASCII}]/u.test(text) && /\p{L}/u.test(text.replace(/\p{ASCII}/gu, ""));
}
