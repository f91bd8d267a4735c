/**
 * Looking things up. Two kinds of request need to find notes before anything else, whatever tool their words match:
 *
 * - **A request over a set of notes**: a quantifier before a noun ("every project", "toutes mes recettes", "tutte le
 *   fatture"), an aggregation ("how many", "in total", "Summe"), a comparison or relative that filters ("more than
 *   300 pages", "cuya fecha ya pasó"), or the name of one of the vault's folders ("le riunioni" → Riunioni/). It gets
 *   the finders (vault:list, vault:search) and the reader, besides what its words matched ("set the status on every
 *   project" still sets a property, after listing the projects).
 * - **A question about a fact of the user's own**: the user as the one who did it ("which variety did I plant",
 *   "habe ich", "j'ai"), personal data ("phone number", "Wi-Fi password", "referente", "密码"), or the name of one of
 *   the vault's notes ("Tom Reyes's phone number"). It gets vault:search and vault:read, and memory:recall when it
 *   asks what the user told the agent or prefers. Such a question is never chat: the answer is in the notes, not in
 *   general knowledge. Small talk stays small talk ("thanks, that's all" has no fact in it).
 *
 * And a question never only writes: each writer a question matched brings its reader ("A que horas prefiro estudar?"
 * matched memory:save through "prefiro"; asking, it recalls).
 */
import type { RouteDecision } from "../ports/agent";
import { analyze, SIGNAL } from "./analyze";
import { aboutVault, asksOverSet, asksPersonal, asksPreference, asksToChange, isSmallTalk, withoutQuestionStart } from "./intents";
import { CONCEPT } from "./related";
import { withoutNames } from "./steps";

/** What looking up needs to know of the vault (empty without one). */
export interface VaultNames {
  /** The text names one of the vault's notes. */
  namesNote(text: string): boolean;
  /** The text names one of the vault's folders by its word ("projects" → Projects/). */
  namesFolder(text: string): boolean;
  /** The text names one of the property keys the vault's notes use ("Beet 1" → `beet`). */
  namesProperty(text: string): boolean;
}

/** The finders and the reader a request over a set of notes gets. */
const SET_TOOLS = ["vault:list", "vault:search", "vault:read", "base:query"];
/** Tools that change notes that exist: a request that matched one is about the user's notes. */
const NOTE_WRITERS = new Set(["vault:edit", "vault:append", "vault:move", "vault:delete", "frontmatter:set", "tasks:complete"]);
/** A note named by its path or link. */
const NAMED_NOTE = /\.(?:md|canvas)(?![\p{L}\p{N}])|\[\[/u;
/** Tools that find notes. */
const FINDERS = new Set(["vault:search", "vault:semantic_search", "vault:list", "tags:notes", "links:backlinks", "links:outgoing", "tasks:list"]);
/** What a question about a fact of the user's own gets. */
const FACT_TOOLS = ["vault:search", "vault:read"];
/** The reader of what each writer changes: a question that matched the writer looks with the reader. */
const READER_OF: Record<string, string> = {
  "memory:save": "memory:recall",
  "daily:append": "daily:get",
  "tasks:add": "tasks:list",
  "tasks:complete": "tasks:list",
  "frontmatter:set": "frontmatter:get",
  "vault:write": "vault:read",
  "vault:append": "vault:read",
  "vault:edit": "vault:read",
};
/** Concepts of what the user told the agent: a question about them recalls a memory. */
const RECALL_CONCEPTS = [CONCEPT + "remember", CONCEPT + "told"];

/** What looking up added to a decision, for the reading. */
export interface Lookup {
  /** The request reads as one over a set of notes. */
  set: boolean;
  /** The request is a question about a fact of the user's own. */
  fact: boolean;
  /** The tools added. */
  added: string[];
}

/** The tools a request needs to look up (see the file comment), in the order they are offered after its own. */
export function lookupTools(message: string, d: RouteDecision, vault: VaultNames, has: (name: string) => boolean): Lookup {
  const none = { set: false, fact: false, added: [] };
  if (d.unsure) return none;
  const words = withoutNames(message);
  const a = analyze(message);
  const question = a.signals.has(SIGNAL.ask);
  const changes = asksToChange(words);
  const folder = vault.namesFolder(words);
  const named = vault.namesNote(message);
  // A question that names a property the vault's notes use asks what those notes hold ("Welche Pflanze steht in Beet 1?").
  const property = question && !isSmallTalk(message) && vault.namesProperty(words);
  // "When is Marc's birthday?" asks, even where a word of it is a change word elsewhere ("marc…" is "mark" in Spanish).
  const asks = question && (!changes || withoutQuestionStart(words) !== null);
  const fact = asks && !isSmallTalk(message) && (asksPersonal(words) || named || property);
  // A set named in words is one of notes when the request is about the vault or changes notes ("Setze gegossen auf
  // true bei allen Beeten": setting a property on every bed is setting it on notes; a question that only matched a
  // reader weakly, "how many days has February", is not).
  const set = folder || property || (asksOverSet(words) && (aboutVault(message) || named || fact || d.tools.some((t) => NOTE_WRITERS.has(t.name))));
  // Chat stays chat unless the question asks a fact of the user's own or names what the vault keeps.
  if (d.chatOnly && !fact && !(folder && question && !isSmallTalk(message))) return none;
  const want: string[] = [];
  if (set) want.push(...SET_TOOLS);
  if (fact || (d.chatOnly && set)) want.push(...FACT_TOOLS);
  if (fact && (asksPreference(words) || RECALL_CONCEPTS.some((c) => a.terms.includes(c)))) want.push("memory:recall");
  if (question && !changes) for (const t of d.tools) if (READER_OF[t.name]) want.push(READER_OF[t.name]);
  const offered = new Set(d.tools.map((t) => t.name));
  // A note to read that is named by its name or described ("the vendor email note"), not by path, link or as the open
  // note, is found first: reading needs its path.
  const unnamed = !NAMED_NOTE.test(message) && !a.signals.has(SIGNAL.thisNote) && (named || aboutVault(message));
  if (offered.has("vault:read") && unnamed && !d.tools.some((t) => FINDERS.has(t.name))) want.push("vault:search");
  const added = [...new Set(want)].filter((n) => has(n) && !offered.has(n));
  return { set, fact, added };
}
