/**
 * Related words: a small, general-purpose map of words that people use for one thing ("dollars" for a currency,
 * "tunes" for music, "loud" for volume). Each group is a concept; a word of the group gives, besides its own
 * terms, the group's concept term, in messages and tool cards alike, so "How many Canadian dollars for 500 US
 * dollars?" meets a tool that "converts currency". General language only, never words of one catalog; a few
 * concepts list their everyday word in the other supported languages, for catalogs written in English.
 *
 * Encoded compactly (it ships in main.js): groups separated by "|", the first word of a group names it.
 */
import { fold } from "./fold";
import { stem } from "./stem";

/** Prefix of concept terms ("=" never occurs in a word term). */
export const CONCEPT = "=";

const GROUPS =
  "currency money dollar dollars usd eur euro euros gbp jpy yen cad aud inr rupee rupees yuan peso pesos franc francs cash forex|" +
  "weather forecast temperature rain raining snow snowing wind windy humidity precipitation sunny cloudy storm climate wetter meteo 天气 天気 날씨 погода погоду погоди pogoda hava|" +
  "music song songs tune tunes track tracks album albums playlist singer band listen listening melody musique musik musica muziek muzyka музыка музику музика müzik 音乐 音楽 음악|" +
  "movie movies film films cinema flick|" +
  "food eat eating meal meals dinner lunch breakfast pizza burger burgers sushi snack cuisine dish dishes|" +
  "restaurant restaurants diner eatery bistro cafe|" +
  "language languages english french german spanish portuguese italian dutch polish russian ukrainian turkish chinese japanese korean arabic hindi danish swedish norwegian finnish greek translate translation translator|" +
  "volume loud louder quiet quieter mute unmute sound|" +
  "leader king queen president ruler monarch emperor empress pharaoh sultan chancellor|" +
  "purchase buy buying bought order ordering|" +
  "execute run running command commands shell terminal cmd bash powershell cli|" +
  "concatenate concat combine combining join merge|" +
  "probability probabilities odds chance chances likelihood|" +
  "car cars vehicle vehicles sedan suv automobile|" +
  "hotel hotels accommodation lodging motel hostel inn|" +
  "flight flights airline airlines airfare plane|" +
  "lawyer lawyers attorney attorneys|" +
  "doctor doctors physician physicians|" +
  "image images picture pictures photo photos photograph|" +
  "email emails mail inbox|" +
  "web website websites webpage url urls http https|" +
  "artwork artworks art sculpture sculptures painting paintings statue statues|" +
  "coordinate coordinates latitude longitude lat lon lng gps|" +
  "stock stocks shares ticker equity|" +
  "distance far miles kilometers km|" +
  "calculate calculation compute computing math arithmetic|" +
  "date dates calendar|" +
  "year years annual yearly|" +
  "time clock hour hours|" +
  "unit units teaspoon teaspoons tablespoon tablespoons cup cups ounce ounces gram grams kilogram kilograms liter liters litre litres gallon gallons celsius fahrenheit kelvin";

/** Stem (or whole CJK word) → its concept terms. */
const WORD_CONCEPTS = new Map<string, string[]>();
/** CJK members, found inside a run (no spaces between words). */
const CJK_MEMBERS: [string, string][] = [];
const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;

for (const group of GROUPS.split("|")) {
  const words = group.split(" ");
  const term = CONCEPT + words[0];
  for (const word of words) {
    if (CJK.test(word)) {
      CJK_MEMBERS.push([word, term]);
      continue;
    }
    const key = stem(fold(word));
    const list = WORD_CONCEPTS.get(key) ?? [];
    if (!list.includes(term)) list.push(term);
    WORD_CONCEPTS.set(key, list);
  }
}

/** The concept terms of one word's stem (empty when it is in no group). */
export function conceptsOfStem(wordStem: string): readonly string[] {
  return WORD_CONCEPTS.get(wordStem) ?? [];
}

/** The concept terms of a CJK run ("上海的天气" → weather). */
export function conceptsInRun(run: string): string[] {
  const out: string[] = [];
  for (const [word, term] of CJK_MEMBERS) if (run.includes(word) && !out.includes(term)) out.push(term);
  return out;
}
