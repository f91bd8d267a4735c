/** Cheap intent cues that steer the router beyond scores, in every supported language. */
import { fold } from "./fold";
import {
  CHANGE_RE,
  CHAT_WORD_RE,
  DAY_WORDS,
  PERSONAL_RE,
  QUESTION_ANYWHERE_RE,
  QUESTION_START_RE,
  RECALL_RE,
  SETS_RE,
  SMALL_TALK_RE,
  STOP_WORDS,
  VAULT_RE,
} from "./languages";

/** Folded, punctuation as spaces (apostrophes and hyphens kept inside words), single spaces. */
function clean(message: string): string {
  return fold(message)
    .replace(/[^\p{L}\p{N}\p{M}'\s-]+/gu, " ")
    .replace(/(^|\s)['-]+|['-]+(?=\s|$)/g, " ")
    .replace(/\s+/g, " ")
    .trim();
}

/** A note path, file name, [[link]] or #tag: the message is about the vault whatever its words. */
const VAULT_MARK = /\.(md|canvas)\b|[\p{L}\p{N}]\/[\p{L}\p{N}]|\[\[|(^|\s)#[\p{L}\p{N}]/u;

function mentionsVault(raw: string, cleaned: string): boolean {
  return VAULT_MARK.test(raw) || VAULT_RE.test(cleaned);
}

/** The message mentions the vault: a note path, [[link]], #tag, or words about notes, files, tasks… in any language. */
export function aboutVault(message: string): boolean {
  return mentionsVault(message, clean(message));
}

/** The message asks to persist or change something (so a family's write siblings are offered). */
export function asksToChange(message: string): boolean {
  return CHANGE_RE.test(clean(message));
}

/**
 * Greetings, thanks, "how are you", jokes, goodbyes with nothing about the vault in them: the words after the
 * small talk, or null when the message is not small talk.
 */
export function smallTalkRest(message: string): string | null {
  const m = clean(message);
  // "Tell me a joke", "何か面白い話して": a joke is chat wherever the word stands, unless the vault (or a web page:
  // "summarize https://jokes.example") is in it.
  if (CHAT_WORD_RE.test(m) && !mentionsVault(message, m) && !CHANGE_RE.test(m) && !/https?:\/\/|www\./i.test(message)) return "";
  // One leading function or day word may come first ("so, how are you", "오늘 기분 어때").
  const first = /^\S+\s/.exec(m)?.[0] ?? "";
  const lead = first && (STOP_WORDS.has(first.trim()) || DAY_WORDS.has(first.trim())) ? first : "";
  let at = 0;
  let hit = SMALL_TALK_RE.exec(m);
  if (!hit && lead) {
    hit = SMALL_TALK_RE.exec(m.slice(lead.length));
    at = lead.length;
  }
  if (!hit) return null;
  // Small talk after small talk ("you're awesome, see you tomorrow") is still small talk.
  let rest = m.slice(at + hit[0].length).trim();
  for (let i = 0; i < 3 && rest; i++) {
    const next = SMALL_TALK_RE.exec(rest);
    if (!next) break;
    rest = rest.slice(next[0].length).trim();
  }
  // "ok, delete the draft", "thanks! now add eggs": what follows the greeting is a request.
  return !mentionsVault(message.slice(Math.min(message.length, at + hit[0].length)), rest) && !CHANGE_RE.test(rest) ? rest : null;
}

/** The message reads as a request over a set of notes: "every project", "toutes mes recettes", "in total", "more than 30". */
export function asksOverSet(message: string): boolean {
  return SETS_RE.test(clean(message));
}

/** The message asks about the user's own world: "did I", "habe ich", personal data ("phone number", "password"). */
export function asksPersonal(message: string): boolean {
  return PERSONAL_RE.test(clean(message));
}

/** The message asks about a preference ("prefer", "favourite"): what the user told the agent. */
export function asksPreference(message: string): boolean {
  return RECALL_RE.test(clean(message));
}

/** Greetings, thanks, "how are you", jokes, goodbyes: small talk with nothing about the vault in it. */
export function isSmallTalk(message: string): boolean {
  return smallTalkRest(message) !== null;
}

/**
 * The message without the first words of a general question ("explain", "what is", "erkläre mir"), or null when it
 * does not start as one. Words are counted on the cleaned text and dropped from the raw one, so paths survive.
 */
export function withoutQuestionStart(message: string): string | null {
  const hit = QUESTION_START_RE.exec(clean(message));
  if (!hit || !hit[0].trim()) return null;
  const words = hit[0].trim().split(/\s+/).length;
  return message.trim().split(/\s+/).slice(words).join(" ");
}

/** Small talk or a general-knowledge question that does not mention the vault. */
export function looksLikeChat(message: string): boolean {
  const m = clean(message);
  if (isSmallTalk(message)) return true;
  return (QUESTION_START_RE.test(m) || QUESTION_ANYWHERE_RE.test(m)) && !mentionsVault(message, m);
}

/**
 * Tool names written out in the message ("use vault:read to ..."). Only names with a separator count (a
 * catalog's tool called "search" is named by every message that says "search"), and only as a whole word.
 */
export function namedTools(message: string, names: readonly string[]): string[] {
  const m = message.toLowerCase();
  return names.filter((n) => {
    if (!/[:._]/.test(n)) return false;
    const at = m.indexOf(n.toLowerCase());
    if (at < 0) return false;
    const before = m[at - 1];
    const after = m[at + n.length];
    return !(before && /[\p{L}\p{N}_]/u.test(before)) && !(after && /[\p{L}\p{N}_]/u.test(after));
  });
}
