/**
 * The languages the router understands, and what is derived from them once: the stop words and day words
 * of all of them (a message's language is never guessed: a word is a function word if it is one anywhere),
 * the routing hints per built-in tool, and the patterns behind small talk and change requests.
 */
import type { RouterLanguage } from "./types";
import { fold } from "../fold";
import { LANGUAGES, wordSet } from "./words";

export type { RouterLanguage } from "./types";
export { LANGUAGES, STOP_WORDS } from "./words";

/** Today, yesterday, tomorrow in every language, folded. */
export const DAY_WORDS: ReadonlySet<string> = wordSet((l) => l.days);

/** Routing hints per built-in tool name, all languages together. */
export const LOCALIZED_HINTS: Readonly<Record<string, readonly string[]>> = (() => {
  const out: Record<string, string[]> = {};
  for (const l of LANGUAGES) for (const [tool, hints] of Object.entries(l.hints)) (out[tool] ??= []).push(...hints);
  return out;
})();

/** `\w` in the lists means any letter or digit, in any script. */
function source(alternatives: readonly string[]): string {
  // Folded like the text they are matched against (a pattern's "й" must meet the message's folded "и").
  return alternatives.map((a) => fold(a).replace(/\\w/g, "[\\p{L}\\p{N}]")).join("|");
}

// The start of a word without a lookbehind (iOS before 16.4 cannot compile one): the unanchored patterns are only
// ever `test`ed, so consuming the character before the word changes no answer.
const EDGE_BEFORE = "(?:^|[^\\p{L}\\p{N}])";
const EDGE_AFTER = "(?![\\p{L}\\p{N}])";

/** One regex over every language's alternatives: whole words in spaced scripts, anywhere in unspaced ones. */
function anyLanguage(pick: (l: RouterLanguage) => readonly string[] | undefined, anchored: boolean): RegExp {
  const spaced = LANGUAGES.filter((l) => !l.unspaced).flatMap((l) => pick(l) ?? []);
  const unspaced = LANGUAGES.filter((l) => l.unspaced).flatMap((l) => pick(l) ?? []);
  const start = anchored ? "^" : EDGE_BEFORE;
  const parts = [];
  if (spaced.length) parts.push(`${start}(?:${source(spaced)})${EDGE_AFTER}`);
  if (unspaced.length) parts.push(`${anchored ? "^" : ""}(?:${source(unspaced)})`);
  return new RegExp(parts.join("|"), "u");
}

/** Small talk at the start of a cleaned message. */
export const SMALL_TALK_RE = anyLanguage((l) => l.smallTalk, true);
/** Chat words anywhere in a cleaned message. */
export const CHAT_WORD_RE = anyLanguage((l) => l.chatWords, false);
/** A general question's first words. */
export const QUESTION_START_RE = anyLanguage((l) => l.question, true);
/** Question words that may stand anywhere. */
export const QUESTION_ANYWHERE_RE = anyLanguage((l) => l.questionAnywhere, false);
/** Words about the vault. */
export const VAULT_RE = anyLanguage((l) => l.vault, false);
/** Words asking for a change. */
export const CHANGE_RE = anyLanguage((l) => l.change, false);

/** A request over a set of notes: quantifiers before a noun, aggregations, filtering comparisons and relatives. */
export const SETS_RE = anyLanguage((l) => l.sets, false);
/** A fact of the user's own: "did I", "habe ich", personal data ("phone number", "password"). */
export const PERSONAL_RE = anyLanguage((l) => l.personal, false);
/** Preferences: what the user told the agent ("prefer", "favourite"). */
export const RECALL_RE = anyLanguage((l) => l.recall, false);

/** Alternatives of every language for one kind of cue, folded, split by how they are matched. */
export interface CuePattern {
  /** Whole words of spaced scripts: group 1 is the character before the word (or ""), group 2 the cue. */
  spaced: RegExp | null;
  /** Anywhere in unspaced scripts: group 1 is the cue. */
  unspaced: RegExp | null;
}

function cuePattern(pick: (l: RouterLanguage) => readonly string[] | undefined): CuePattern {
  const spaced = LANGUAGES.filter((l) => !l.unspaced).flatMap((l) => pick(l) ?? []);
  const unspaced = LANGUAGES.filter((l) => l.unspaced).flatMap((l) => pick(l) ?? []);
  return {
    spaced: spaced.length ? new RegExp(`(^|[^\\p{L}\\p{N}])(${source(spaced)})${EDGE_AFTER}`, "gu") : null,
    unspaced: unspaced.length ? new RegExp(`(${source(unspaced)})`, "gu") : null,
  };
}

/** Words that start a new step ("then", "und dann", "然后"). */
export const STEP_START: CuePattern = cuePattern((l) => l.stepStarts);
/** Word endings that close a step (Turkish "-ip", Korean "-고", Japanese "てから"). */
export const STEP_END: CuePattern = cuePattern((l) => l.stepEnds);
/** Negation cues. */
export const NEGATION: CuePattern = cuePattern((l) => l.negation);
/** Negation cues that count only as a step's first word (after its connector). */
export const NEGATION_FIRST: CuePattern = cuePattern((l) => l.negationFirst);
/** Negations that ask for something ("don't forget"). */
export const NOT_NEGATION: CuePattern = cuePattern((l) => l.notNegation);
/** "just tell me", "read-only": an answer, not a change. */
export const ANSWER_ONLY: CuePattern = cuePattern((l) => l.answerOnly);
/** Words asking for a change, found as words (for the reading's account of a step). */
export const CHANGE: CuePattern = cuePattern((l) => l.change);
/** Words that look at something: a step with one reads. */
export const LOOK: CuePattern = cuePattern((l) => l.look);
