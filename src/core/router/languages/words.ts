/**
 * The language tables and the function words of all of them, without the router's patterns: what memory search's
 * analysis reads (index.ts re-exports both, and builds its regexes, which a search never needs, on top).
 */
import { ALL_LANGUAGES } from "./all";
import type { RouterLanguage } from "./types";
import { fold } from "../fold";

export const LANGUAGES: readonly RouterLanguage[] = ALL_LANGUAGES;

/** Every word of one list of every language, folded. */
export function wordSet(pick: (l: RouterLanguage) => string): Set<string> {
  const out = new Set<string>();
  for (const l of LANGUAGES) for (const w of pick(l).split(/\s+/)) if (w) out.add(fold(w));
  return out;
}

/** Function words of every language, folded. */
export const STOP_WORDS: ReadonlySet<string> = wordSet((l) => l.stop);
