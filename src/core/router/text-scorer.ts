/**
 * BM25 over tool cards (minisearch): name, description and routing hints, stemmed, stop words dropped.
 * A routing hint whose every word appears in the message adds a bonus (hints are what users say).
 * A second index of character trigrams is the fallback for messages whose words the first does not know
 * (other languages, typos), so related words across languages can still meet ("nota" ~ "note").
 */
import MiniSearch from "minisearch";
import { hasNonAsciiLetters, processWord, trigrams } from "./stem";
import type { ToolCard } from "./tool-card";

/** Raw BM25 score at which a match counts as clear (scores are divided by max(best, this)). */
const CLEAR_MATCH = 8;
/** Score of a trigram hit that matches every trigram of the message. */
const GRAM_WEIGHT = 0.8;
/** Added when all words of a routing hint appear in the message. */
const HINT_BONUS = 0.35;

/** Message words that are paths or file names ("Projects/Alpha.md") say "a note", not what to do with it. */
function withoutPaths(message: string): string {
  return message.replace(/\S*[/\\]\S*|\S+\.(md|canvas|pdf|png|jpe?g)\b/gi, " note ");
}

/** "What did I write about X" asks to find what was written, not to write: say so in words the index knows. */
function withoutPastWriting(message: string): string {
  return message.replace(/\b(did i write|have i written|i wrote|i've written|did i note|i noted)\b/gi, " find notes mentioning ");
}

/**
 * "What is on my list?", "what's in Projects/Alpha.md?": a question about what something holds asks to read it.
 * The word "read" is added rather than substituted, so the user's own words still meet the routing hints
 * ("what's on my plate today", "what's in the folder").
 */
function withReadingQuestion(message: string): string {
  return /\b(what(?:'s|’s| is| are)|whats)\s+(on|in|inside)\b/i.test(message) ? `${message} read` : message;
}

function terms(text: string): string[] {
  return (text.match(/[\p{L}\p{N}']+/gu) ?? []).map(processWord).filter((t): t is string => !!t);
}

export class TextScorer {
  private readonly words: MiniSearch<ToolCard>;
  private readonly grams: MiniSearch<ToolCard>;
  /** Per tool: each routing hint's processed words (hints with at least two). */
  private readonly hintTerms: { name: string; hints: string[][] }[];

  constructor(cards: readonly ToolCard[]) {
    const fields = ["nameWords", "description", "hints"];
    this.words = new MiniSearch<ToolCard>({ idField: "name", fields, processTerm: processWord });
    this.grams = new MiniSearch<ToolCard>({ idField: "name", fields, processTerm: trigrams });
    this.words.addAll(cards);
    this.grams.addAll(cards);
    this.hintTerms = cards.map((c) => ({ name: c.name, hints: c.hints.split("\n").map(terms).filter((t) => t.length >= 2) }));
  }

  /** Scores in 0..1 per tool name; tools that do not match are absent. */
  score(message: string): Map<string, number> {
    const query = withReadingQuestion(withoutPastWriting(withoutPaths(message)));
    const out = new Map<string, number>();
    const hits = this.words.search(query, {
      boost: { nameWords: 2, hints: 1.5 },
      prefix: (term) => term.length >= 4,
      fuzzy: (term) => (term.length >= 6 ? 0.2 : false),
      weights: { prefix: 0.5, fuzzy: 0.3 },
    });
    const best = hits.length ? hits[0].score : 0;
    const scale = Math.max(best, CLEAR_MATCH);
    for (const h of hits) out.set(String(h.id), h.score / scale);
    const queryTerms = new Set(terms(query));
    for (const { name, hints } of this.hintTerms) {
      if (hints.some((h) => h.every((t) => queryTerms.has(t)))) out.set(name, Math.min(1, (out.get(name) ?? 0) + HINT_BONUS));
    }
    // Fallback for words the index does not know: only when no word matched, or the message is in another script.
    // A trigram hit scores by the share of the message's trigrams it matched, so noise stays low.
    if (hits.length === 0 || hasNonAsciiLetters(query)) {
      const queryGrams = new Set((query.match(/[\p{L}\p{N}']+/gu) ?? []).flatMap((w) => trigrams(w) ?? []));
      if (queryGrams.size > 0) {
        for (const h of this.grams.search(query)) {
          const id = String(h.id);
          const share = new Set(h.queryTerms).size / queryGrams.size;
          out.set(id, Math.max(out.get(id) ?? 0, GRAM_WEIGHT * share));
        }
      }
    }
    return out;
  }
}
