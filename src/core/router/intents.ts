/** Cheap intent cues that steer the router beyond scores. */
import { fold } from "./stem";

const PERSIST = /\b(save|saving|saved|write|writing|add|adding|append|create|creating|make|update|updating|change|changing|edit|editing|remember|store|record|put|insert|rename|move|delete|remove|mark|check off|tick|set|log|jot|note down|keep|fix|replace|tag|link)\b/;

/** The message asks to persist or change something (so a family's write siblings are offered). */
export function asksToChange(message: string): boolean {
  return PERSIST.test(fold(message));
}

const SMALL_TALK = /^(hi|hello|hey|yo|thanks|thank you|thx|good (morning|evening|night|afternoon)|how are you|who are you|what are you|what can you do|tell me a joke|ok|okay|cool|great|bye|goodbye)\b/;
const GENERAL_QUESTION = /^(what|who|why|how|when|where|explain|define|tell me|is|are|can you explain)\b/;
const VAULT_WORDS = /\b(note|notes|vault|file|files|folder|daily|journal|tag|tags|link|links|backlink|backlinks|my|i|me|we|our|inbox|todo|todos|task|tasks|project|projects|page|pages|write|save|remember|search|find|open|read)\b/;

function clean(message: string): string {
  return fold(message).trim().replace(/[!?.,']+/g, " ").replace(/\s+/g, " ").trim();
}

/** Greetings, thanks, "tell me a joke": small talk with nothing about the vault in it. */
export function isSmallTalk(message: string): boolean {
  const m = clean(message);
  return SMALL_TALK.test(m) && !VAULT_WORDS.test(m.replace(SMALL_TALK, ""));
}

/** Small talk or a general-knowledge question that does not mention the vault. */
export function looksLikeChat(message: string): boolean {
  const m = clean(message);
  return isSmallTalk(message) || (GENERAL_QUESTION.test(m) && !VAULT_WORDS.test(m));
}

/** Tool names written out in the message ("use vault:read to ..."). */
export function namedTools(message: string, names: readonly string[]): string[] {
  const m = message.toLowerCase();
  return names.filter((n) => m.includes(n.toLowerCase()));
}
