/**
 * A light English suffix stemmer, so "notes", "noting" and "noted" meet "note". It runs on every word of every
 * language: on other languages it strips little, and the same way in messages and tool cards, so it does no
 * harm there; truncation terms (see analyze.ts) do the work across inflections.
 */

function undouble(stem: string): string {
  return /([b-df-hj-np-tv-z])\1$/.test(stem) && !/(ll|ss|zz)$/.test(stem) ? stem.slice(0, -1) : stem;
}

/** Words of three letters or fewer, and words with letters outside a–z, pass through. */
export function stem(word: string): string {
  let w = word;
  if (w.length <= 3 || !/^[a-z]+$/.test(w)) return w;
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
