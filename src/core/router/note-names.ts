/**
 * Note names in a message. "What is on my shopping list?" names the note "Shopping List"; its words say
 * which note, not what to do with it (the "list" there is no request to list files or tags). Like a file
 * path, a mention of a note's name is read as the word "note" before text scoring.
 *
 * A name of several words matches in any case ("shopping list"); a one-word name only as a proper name
 * (capitalized as the note is, not the message's first word), so a note called "Time" does not swallow
 * "what time is it". An English possessive is the name too ("Tom Reyes's phone number").
 *
 * The folders that hold notes are kinds of note the user keeps ("Projects", "Recettes", "Fatture"): a message that
 * names one by its word, singular or plural ("every project", "le fatture"), is about the notes in it. So are the
 * vault's own property keys ("budget", "beet", "referente"): a question that names one asks what notes hold.
 */
import { NOTE_NOUN_RE } from "./analyze";
import { fold } from "./fold";

/** Property keys every kind of vault has (Obsidian's own, dates, titles): naming one says nothing about the notes. */
const GENERIC_PROPERTIES = new Set(["tags", "aliases", "alias", "cssclasses", "cssclass", "publish", "permalink", "title", "date", "created", "modified", "updated", "type", "status", "description"]);

/** Longest note name matched, in words (longer names are still known, they just need an exact path). */
const MAX_NAME_WORDS = 8;

/** Edge punctuation of a message word that is not part of a name ("list?" → "list"). */
const EDGE_PUNCTUATION = /^[("'“‘[]+|[)"'”’\].,;:!?]+$/gu;

/** An English possessive after a name ("Reyes's", "Claire’s"). */
const POSSESSIVE = /['’]s$/u;

function stripEdges(word: string): string {
  return word.replace(EDGE_PUNCTUATION, "").replace(POSSESSIVE, "");
}

/** Letters two forms of one word share at least ("project"/"projects", "fattura"/"fatture", "recette"/"recettes"). */
const SHARED_LETTERS = 5;
/** Letters two forms of one word may differ by in length (a plural ending). */
const FORM_LETTERS = 2;

/** The same word, or forms of it: equal, or sharing their first letters and differing only in an ending. */
function sameWord(a: string, b: string): boolean {
  if (a === b) return true;
  if (a.length < SHARED_LETTERS || b.length < SHARED_LETTERS || Math.abs(a.length - b.length) > FORM_LETTERS) return false;
  const shared = Math.min(a.length, b.length) - 1;
  return a.slice(0, Math.max(SHARED_LETTERS, shared)) === b.slice(0, Math.max(SHARED_LETTERS, shared));
}

function words(text: string): string[] {
  return text.split(/\s+/).map(stripEdges).filter(Boolean);
}

/** The note's name: its file name without folder and extension. */
function noteName(path: string): string {
  const base = path.split("/").pop() ?? path;
  return base.replace(/\.(md|canvas)$/i, "");
}

export class NoteNames {
  /** Lowercased multi-word names, words joined by one space. */
  private readonly multi = new Set<string>();
  /** One-word names as written (matched case-sensitively). */
  private readonly single = new Set<string>();
  /** Most words in any known name. */
  private longest = 1;
  /** Folders that hold notes, one word each (folded), without the words that only say "notes". */
  private readonly folders = new Set<string>();
  /** The vault's property keys of one word (folded), without Obsidian's own and the generic ones. */
  private readonly properties = new Set<string>();

  /**
   * `paths`: vault-relative note paths (only .md and .canvas files count as notes); `properties`: the property keys
   * the vault's notes use.
   */
  constructor(paths: Iterable<string>, properties: Iterable<string> = []) {
    for (const key of properties) {
      const word = fold(key.trim());
      if (/^[\p{L}]{4,}$/u.test(word) && !GENERIC_PROPERTIES.has(word) && !NOTE_NOUN_RE.test(word)) this.properties.add(word);
    }
    for (const path of paths) {
      if (!/\.(md|canvas)$/i.test(path)) continue;
      for (const folder of path.split("/").slice(0, -1)) {
        const word = fold(folder.trim());
        if (/^[\p{L}]+$/u.test(word) && !NOTE_NOUN_RE.test(word)) this.folders.add(word);
      }
      const nameWords = words(noteName(path));
      if (nameWords.length === 0 || nameWords.length > MAX_NAME_WORDS) continue;
      if (nameWords.length === 1) {
        if (/^\p{Lu}/u.test(nameWords[0])) this.single.add(nameWords[0]);
      } else {
        this.multi.add(nameWords.join(" ").toLowerCase());
        this.longest = Math.max(this.longest, nameWords.length);
      }
    }
  }

  get size(): number {
    return this.multi.size + this.single.size;
  }

  /** The message names one of the vault's folders by its word, singular or plural ("all my projects" → Projects/). */
  namesFolder(message: string): boolean {
    if (this.folders.size === 0) return false;
    for (const word of fold(message).match(/[\p{L}]+/gu) ?? []) for (const f of this.folders) if (sameWord(word, f)) return true;
    return false;
  }

  /** The message names one of the vault's property keys by its word, singular or plural ("Beet 1" → `beet`). */
  namesProperty(message: string): boolean {
    if (this.properties.size === 0) return false;
    for (const word of fold(message).match(/[\p{L}]+/gu) ?? []) for (const p of this.properties) if (sameWord(word, p)) return true;
    return false;
  }

  /** The message names one of the vault's notes. */
  namesNote(message: string): boolean {
    return this.size > 0 && this.mark(message) !== message;
  }

  /** The message with each mentioned note name replaced by the word "note" (longest name first). */
  mark(message: string): string {
    if (this.size === 0) return message;
    const tokens = message.split(/(\s+)/);
    const wordAt: number[] = [];
    tokens.forEach((t, i) => {
      if (!/^\s*$/.test(t)) wordAt.push(i);
    });
    const out: string[] = [];
    let w = 0;
    let last = 0;
    while (w < wordAt.length) {
      let matched = 0;
      for (let n = Math.min(this.longest, wordAt.length - w); n >= 1; n--) {
        const span = wordAt.slice(w, w + n).map((i) => stripEdges(tokens[i]));
        if (span.some((s) => !s)) continue;
        const hit = n === 1 ? w > 0 && this.single.has(span[0]) : this.multi.has(span.join(" ").toLowerCase());
        if (hit) {
          matched = n;
          break;
        }
      }
      if (matched === 0) {
        w++;
        continue;
      }
      const first = wordAt[w];
      const lastToken = wordAt[w + matched - 1];
      out.push(tokens.slice(last, first).join(""), "note", trailingPunctuation(tokens[lastToken]));
      last = lastToken + 1;
      w += matched;
    }
    out.push(tokens.slice(last).join(""));
    return out.join("");
  }
}

function trailingPunctuation(token: string): string {
  return /(?:['’]s)?[)"'”’\].,;:!?]*$/u.exec(token)?.[0] ?? "";
}
