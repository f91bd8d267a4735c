/**
 * What the router knows of one language. Every list is written folded (lowercase, no diacritics) except the
 * hints, which are natural requests as users type them (they go through the same analysis as messages).
 */
export interface RouterLanguage {
  /** BCP 47 code. */
  code: string;
  /** Written without spaces between words (Chinese, Japanese): patterns match anywhere, not as whole words. */
  unspaced?: boolean;
  /** Function words dropped before scoring, space-separated. */
  stop: string;
  /** Today, yesterday, tomorrow and their forms, space-separated: each adds the `#today` signal. */
  days: string;
  /** Small talk at the start of a message (regex alternatives): greetings, thanks, "how are you", jokes, goodbyes. */
  smallTalk: string[];
  /** Words that make a message chat wherever they stand, unless it is about the vault (jokes, "funny"): regex alternatives. */
  chatWords: string[];
  /** Starts of a general-knowledge question (regex alternatives). */
  question: string[];
  /** Question words found anywhere (languages that put them last, or write without spaces). */
  questionAnywhere?: string[];
  /** Words that tie a message to the user's vault (regex alternatives, matched as words). */
  vault: string[];
  /** Words that ask to save or change something (regex alternatives, matched as words). */
  change: string[];
  /** Words that start a new step of a request ("then", "after that", "and", "but", "without"): regex alternatives. */
  stepStarts?: string[];
  /** Word endings that close a step (a verb joined to the next one: Turkish "-ip", Korean "-고", Japanese "てから"). */
  stepEnds?: string[];
  /** Negation cues ("don't", "nicht", "不要", "しないで"): a step with one changes nothing (regex alternatives). */
  negation?: string[];
  /** Negation cues that count only as a step's first word (Spanish "no", which is "in the" in Portuguese). */
  negationFirst?: string[];
  /** Negations that ask for something ("don't forget to…"): not read as negations. */
  notNegation?: string[];
  /** "just tell me", "read-only", "in your reply": the step asks for an answer, not a change. */
  answerOnly?: string[];
  /** Words that look at something ("go through", "schau dir … an", "看一下"): a step with one reads what it names. */
  look?: string[];
  /**
   * Words that read a request as one over a set of notes (regex alternatives, matched as words): a quantifier before a
   * noun ("every project", "toutes mes recettes"), an aggregation ("how many", "in total", "average"), a comparison
   * that filters ("more than 30", "at least"), a relative that filters ("whose", "cuya"). Such a request finds first.
   */
  sets?: string[];
  /**
   * Words of a fact that lives in the user's own notes, not in general knowledge (regex alternatives): the user as the
   * one who did it ("did I", "habe ich", "j'ai") and personal data ("phone number", "password", "Wi-Fi", "birthday").
   * A question with one of them looks it up (search and read), even when it would otherwise read as chat.
   */
  personal?: string[];
  /** Preferences ("prefer", "favourite", "lieblings…"): a question about one asks what the user told the agent. */
  recall?: string[];
  /** Routing hints per built-in tool: requests as people write them. */
  hints: Record<string, string[]>;
}
