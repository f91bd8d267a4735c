/**
 * Reading a request as steps. A request of several steps ("Search my notes for X. Read the relevant ones, then
 * create a note with the key points") is cut into its clauses: at sentence ends, semicolons, commas and colons, line
 * breaks and enumerations ("1.", "- "), before the words that start a step in any supported language ("then", "und
 * dann", "puis", "然后", "그리고", "but", "without"), and after the verb endings that join two steps (Turkish "-ip",
 * Korean "-고", Japanese "てから"). Quoted text, paths, links and URLs are never cut.
 *
 * Each step is then read for negation: a step with a negation cue ("don't", "nicht", "ne … pas", "不要", "しないで",
 * "하지 마") changes nothing, and a step that asks only for an answer ("just tell me", "read-only", "in your reply")
 * offers no tool that writes. The language is never guessed: a cue of any supported language counts.
 */
import { fold } from "./fold";
import { ANSWER_ONLY, LOOK, NEGATION, NEGATION_FIRST, NOT_NEGATION, STEP_END, STEP_START, type CuePattern } from "./languages";

/** One step of a request, as read. */
export interface Step {
  /** The words read as this step (the message's own text). */
  text: string;
  /** Where the step starts in the message. */
  start: number;
  /** The negation cue found in the step ("don't", "nichts"), or null: a negated step changes nothing. */
  negation: string | null;
  /** Where the negation cue starts in `text` (-1 without one). */
  negationAt: number;
  /** The step asks only for an answer ("just tell me", "read-only"), or null. */
  answerOnly: string | null;
  /** The step says to look at something ("go through them", "schau dir … an"): it reads. */
  looks: boolean;
  /** The step is a question ("where did I note…?"): it asks, it does not change. */
  question: boolean;
}

/** Spans never cut: quoted text, URLs, [[links]], paths and file names. */
const PROTECTED =
  /"[^"\n]{1,300}"|“[^”\n]{1,300}”|„[^“”\n]{1,300}[“”]|«[^»\n]{1,300}»|「[^」\n]{1,300}」|『[^』\n]{1,300}』|\b(?:https?:\/\/|www\.)\S+|!?\[\[[^\]\n]{1,200}\]\]|[^\s"'“”„«»「」『』()（）[\]、。，：；！？]*\.(?:md|canvas|pdf|png|jpe?g|txt)(?![\p{L}\p{N}])|[\p{L}\p{N}_.-]+(?:\/[\p{L}\p{N}_.-]+)+\/?/gu;

/**
 * Sentence and clause ends: punctuation before a space or the end (so "Plan.md" and "1.5" stay whole), CJK punctuation
 * anywhere. Not the colon: it introduces what a step is about ("new task: buy milk"), not another step.
 */
const CLAUSE_END = /[.!?;,](?=\s|$)|[。！？；，、\n]/gu;
/** An enumeration mark at the start of an item: "1.", "2)", "(3)", "-", "•". */
const ENUMERATION = /(?:^|\s)(?:\(?\d{1,2}[.)]|[-*•])\s/gu;

/** Lowercase and fold letter by letter, so positions in the result are positions in the message. */
function foldInPlace(text: string): string {
  let out = "";
  for (const c of text) {
    const f = fold(c);
    out += f.length === c.length ? f : c.toLowerCase().length === c.length ? c.toLowerCase() : c;
  }
  return out;
}

/** The same text with every protected span blanked to letters of its length ("x"), so no cut or cue falls inside it. */
function blankProtected(text: string): string {
  return text.replace(PROTECTED, (m) => "x".repeat(m.length));
}

/** The text without quoted text, paths, links and URLs: what is named is no request ("expedition-log.md" asks to log nothing). */
export function withoutNames(text: string): string {
  return text.replace(PROTECTED, " ");
}

/** Every match of a cue pattern in folded text: where the cue starts and ends. */
export function findCues(pattern: CuePattern, text: string): { start: number; end: number; cue: string }[] {
  const out: { start: number; end: number; cue: string }[] = [];
  if (pattern.spaced) {
    pattern.spaced.lastIndex = 0;
    for (let m = pattern.spaced.exec(text); m; m = pattern.spaced.exec(text)) {
      const start = m.index + m[1].length;
      out.push({ start, end: start + m[2].length, cue: m[2] });
      // The character before a word is consumed: step back so adjacent cues ("and then") are both found.
      pattern.spaced.lastIndex = start + Math.max(1, m[2].length);
    }
  }
  if (pattern.unspaced) {
    pattern.unspaced.lastIndex = 0;
    for (let m = pattern.unspaced.exec(text); m; m = pattern.unspaced.exec(text)) out.push({ start: m.index, end: m.index + m[1].length, cue: m[1] });
  }
  return out.sort((a, b) => a.start - b.start);
}

/** Words between two connectors for the second to start a step of its own ("und lies dann die…": one step). */
const CONNECTOR_GAP_WORDS = 2;

/** "I" in English is no Polish "i" (and): a one-letter cue counts only when the message writes it in lowercase. */
function capitalPronoun(message: string, cue: { start: number; cue: string }): boolean {
  return cue.cue.length === 1 && message[cue.start] !== cue.cue;
}

/** Where the message is cut into steps (positions in the message; `text` is the message folded in place). */
function cuts(message: string, text: string): number[] {
  const at = new Set<number>();
  for (const m of text.matchAll(CLAUSE_END)) at.add(m.index + m[0].length);
  for (const m of text.matchAll(ENUMERATION)) at.add(m.index);
  // A second connector right after the first ("und lies dann", "and then") starts no further step.
  let previous = -Infinity;
  for (const c of findCues(STEP_START, text)) {
    if (capitalPronoun(message, c)) continue;
    const between = text.slice(previous, c.start).match(/[\p{L}\p{N}]+/gu)?.length ?? 0;
    if (previous < 0 || between > CONNECTOR_GAP_WORDS) at.add(c.start);
    previous = c.start;
  }
  for (const c of findCues(STEP_END, text)) at.add(c.end);
  return [...at].filter((n) => n > 0 && n < text.length).sort((a, b) => a - b);
}

/** A step's first negation cue that is not a request in disguise ("don't forget to…"), or null. */
function negationIn(folded: string): { cue: string; at: number } | null {
  const cues = findCues(NEGATION, folded);
  const first = findCues(NEGATION_FIRST, folded)[0];
  if (first && onlyConnectors(folded.slice(0, first.start))) cues.unshift(first);
  if (cues.length === 0) return null;
  const exceptions = findCues(NOT_NEGATION, folded);
  const real = cues.find((c) => !exceptions.some((e) => c.start >= e.start && c.start < e.end));
  return real ? { cue: real.cue, at: real.start } : null;
}

/** Nothing but step-starting words, spaces and punctuation ("and", "e poi"). */
function onlyConnectors(folded: string): boolean {
  let rest = folded;
  for (const c of findCues(STEP_START, folded).reverse()) rest = rest.slice(0, c.start) + rest.slice(c.end);
  return !/[\p{L}\p{N}]/u.test(rest);
}

/** Punctuation and spaces at a step's edges. */
const EDGES = /^[\s.,;:!?。！？；：，、()（）\-–—*•]+|[\s.,;:!?。！？；：，、()（）\-–—*•]+$/gu;

/** The message read as steps, in order. A message of one clause is one step. */
export function readSteps(message: string): Step[] {
  const folded = blankProtected(foldInPlace(message));
  const bounds = [0, ...cuts(message, folded), message.length];
  const steps: Step[] = [];
  let from = 0;
  for (let i = 0; i + 1 < bounds.length; i++) {
    // A piece that is only a connector ("e" of "e poi crea") joins the next one.
    if (i + 2 < bounds.length && onlyConnectors(folded.slice(from, bounds[i + 1]))) continue;
    const raw = message.slice(from, bounds[i + 1]);
    const at = from;
    from = bounds[i + 1];
    const text = raw.replace(EDGES, "");
    // An enumeration's number ("1.") is no step.
    if (!/\p{L}/u.test(text)) continue;
    const start = at + raw.indexOf(text);
    const own = folded.slice(start, start + text.length);
    const answer = findCues(ANSWER_ONLY, own)[0];
    const question = /[?？¿]/.test(raw) || /[?？]/.test(message.slice(bounds[i + 1], bounds[i + 1] + 1));
    const looks = findCues(LOOK, own).length > 0;
    const negation = negationIn(own);
    steps.push({ text, start, negation: negation?.cue ?? null, negationAt: negation?.at ?? -1, answerOnly: answer ? answer.cue : null, looks, question });
  }
  return steps;
}
