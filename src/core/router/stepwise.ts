/**
 * Routing a request step by step. The request is read as steps (steps.ts); the whole request, without its negated
 * steps, is routed as before (so a one-step request gets exactly the old decision), then every step is routed on its
 * own words and the offer is the union: the whole request's tools first, then each step's in order.
 *
 * - A negated step ("do not modify any files") and an answer-only step ("just tell me") add no tool that writes; the
 *   readers they name still count ("don't touch the notes that link to X" still asks who links to X).
 * - A request that says to change nothing, where no other step asks for a change, is offered no writer at all.
 * - A request about notes whose offer would change a note it has not looked at gets the reader it needs first: a
 *   note named by path or link is read (vault:read), notes described by their content are searched (vault:search).
 */
import type { RouteDecision } from "../ports/agent";
import { analyze, SIGNAL } from "./analyze";
import { aboutVault, asksToChange } from "./intents";
import { lookupTools, type VaultNames } from "./lookup";
import { CONCEPT } from "./related";
import { readSteps, withoutNames, type Step } from "./steps";

/** One step as the router read it: its words, the tools it chose, and why it may not write. */
export interface StepReading {
  /** The words read as this step. */
  text: string;
  /** The tools this step chose (after negation). */
  tools: string[];
  /** The negation cue read in this step, or null: a negated step adds no writer. */
  negated: string | null;
  /** The answer-only cue ("just tell me"), or null: such a step adds no writer. */
  answerOnly: string | null;
}

/** How the router read a request. */
export interface Reading {
  steps: StepReading[];
  /**
   * Finders and readers added to look first: a step acts on notes it has not looked at, the request is over a set of
   * notes, or it asks a fact of the user's own (lookup.ts).
   */
  lookFirst: string[];
  /** The request says to change nothing and no step asks for a change: no writer is offered. */
  readOnly: boolean;
}

export type ReadDecision = RouteDecision & { reading: Reading };

/** What step routing needs of the router. */
export interface StepScorer {
  /** The router's decision for a text (text scores), offering at most `topK` by score. */
  decide(text: string, topK: number): RouteDecision;
  /** Whether a tool only reads (never changes the vault). */
  reads(name: string): boolean;
  /** Whether the catalog has this tool. */
  has(name: string): boolean;
  /** The vault's note and folder names (none without a vault). */
  vault?: VaultNames;
}

/** No vault: no names. */
const NO_NAMES: VaultNames = { namesNote: () => false, namesFolder: () => false, namesProperty: () => false };

/** Tools a step offers at most from its scores. */
const STEP_TOP_K = 2;

/** The reader to look with before a writer changes what exists: the note's text, its properties, its tasks. */
const LOOK_BEFORE: Record<string, string> = {
  "vault:edit": "vault:read",
  "vault:append": "vault:read",
  "frontmatter:set": "frontmatter:get",
  "tasks:complete": "tasks:list",
  "canvas:edit": "canvas:read",
};
/** A note named by its path or link. */
const NAMED_NOTE = /\.(?:md|canvas)(?![\p{L}\p{N}])|\[\[/u;
/** What a request about notes that must change nothing gets when no tool matched it: find and read. */
const LOOK_TOOLS = ["vault:search", "vault:read"];
/** Writers that change a note that exists: the request must find it first when it does not name it. */
const CHANGES_EXISTING = new Set(["vault:edit", "vault:append", "vault:move", "vault:delete", "frontmatter:set", "tasks:complete", "canvas:edit"]);
/** Writers that gather notes into something new (a canvas of the project's notes): they find the notes first. */
const GATHERS = new Set(["canvas:create"]);
/** Readers that give a note's content: any of them on offer lets a request read before it writes. */
const CONTENT_READERS = new Set(["vault:read", "note:active", "note:selection", "daily:get"]);
/** Readers that find notes: any of them on offer lets a request find what it acts on. */
const FINDERS = new Set(["vault:search", "vault:semantic_search", "vault:list", "tags:notes", "links:backlinks", "links:outgoing", "tasks:list", "tags:list"]);

/** The request names a web page or the web: its steps may fetch one. */
function webRequest(message: string): boolean {
  const a = analyze(message);
  return a.signals.has(SIGNAL.url) || a.terms.includes(CONCEPT + "web");
}

/**
 * A step that says not to change something ("do not modify any files", "Ändere keine Dateien", "不要修改"): a change
 * word in the negation's scope. In spaced scripts the scope is the cue's clause from two words before it (the verb of
 * "Ändere keine", "değiştirme"), so "Delete the notes I don't need" refuses nothing; in unspaced ones, the step.
 */
function refusesChange(step: Step): boolean {
  if (step.negation === null) return false;
  const unspaced = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u.test(step.negation);
  const scope = unspaced ? step.text : scopeOf(step.text, step.negationAt);
  if (asksForChange(scope)) return true;
  const terms = analyze(withoutNames(scope)).terms;
  return CHANGE_CONCEPTS.some((c) => terms.includes(CONCEPT + c));
}

/** Words before a negation cue that are still in its scope (a verb-second or verb-final clause's verb). */
const SCOPE_WORDS_BEFORE = 2;

/** The text from a few words before the cue at `at` to the end. */
function scopeOf(text: string, at: number): string {
  const before = text.slice(0, Math.max(0, at)).split(/\s+/).filter(Boolean);
  return [...before.slice(Math.max(0, before.length - SCOPE_WORDS_BEFORE)), text.slice(Math.max(0, at))].join(" ");
}

/** Concepts of changing (related.ts): a negated step with one of them refuses a change ("não corrija", "不要改动"). */
const CHANGE_CONCEPTS = ["edit", "delete", "create", "add", "move"];

/** The words (not the names) of a text ask for a change. */
function asksForChange(text: string): boolean {
  return asksToChange(withoutNames(text));
}

/**
 * The request without its steps that refuse a change, as one text (what the whole request is routed on). A negated
 * step that changes nothing ("I don't need Draft.md anymore") keeps its words: they still say what the request is about.
 */
export function affirmedText(message: string, steps: readonly Step[]): string {
  const kept = steps.filter((s) => !refusesChange(s));
  if (kept.length === steps.length) return message;
  return kept.map((s) => s.text).join(". ");
}

/**
 * The decision for a request read as steps. `whole` is the decision for the affirmed text (the caller's, with
 * embeddings when it has them); steps are routed on their words with text scores.
 */
export function routeSteps(message: string, whole: (affirmed: string) => RouteDecision, scorer: StepScorer): ReadDecision {
  return lookUp(message, routeEachStep(message, whole, scorer), scorer);
}

/**
 * A request over a set of notes, or a question about a fact of the user's own, finds and reads first (lookup.ts):
 * the tools it needs follow the decision's own. A chat decision becomes the lookup's tools.
 */
function lookUp(message: string, d: ReadDecision, scorer: StepScorer): ReadDecision {
  const { added } = lookupTools(message, d, scorer.vault ?? NO_NAMES, (n) => scorer.has(n));
  if (added.length === 0) return d;
  const tools = [...(d.chatOnly ? [] : d.tools), ...added.map((name) => ({ name, score: 0 }))];
  return { ...d, tools, chatOnly: false, unsure: false, reading: { ...d.reading, lookFirst: [...d.reading.lookFirst, ...added] } };
}

function routeEachStep(message: string, whole: (affirmed: string) => RouteDecision, scorer: StepScorer): ReadDecision {
  const steps = readSteps(message);
  if (steps.length <= 1) return oneStep(message, steps[0], whole(message), scorer);
  const affirmed = affirmedText(message, steps);
  const base = whole(affirmed || message);
  if (base.chatOnly) return { ...base, reading: { steps: steps.map((s) => ({ text: s.text, tools: [], negated: s.negation, answerOnly: s.answerOnly })), lookFirst: [], readOnly: false } };
  const affirmedChange = steps.some((s) => !s.negation && !s.answerOnly && !s.question && asksForChange(s.text));
  const readOnly = steps.some((s) => s.answerOnly || refusesChange(s)) && !affirmedChange;
  const web = webRequest(message);
  const readings: StepReading[] = steps.map((s) => {
    // A question keeps its mark: it asks to look something up, and does not lean to the tools that change things.
    const d = scorer.decide(s.question ? `${s.text}?` : s.text, STEP_TOP_K);
    let tools = d.chatOnly || d.unsure ? [] : withoutWeb(d.tools.map((t) => t.name), web);
    if (s.negation || s.answerOnly || readOnly) tools = tools.filter((n) => scorer.reads(n));
    return { text: s.text, tools, negated: s.negation, answerOnly: s.answerOnly };
  });
  const offered = new Map<string, number>();
  if (!base.unsure) for (const t of base.tools) if (web || t.name !== "web:fetch") offered.set(t.name, t.score);
  for (const r of readings) for (const n of r.tools) if (!offered.has(n)) offered.set(n, 0);
  if (readOnly) for (const n of [...offered.keys()]) if (!scorer.reads(n)) offered.delete(n);
  // A request that must change nothing and that no tool matched can still look: it gets the readers, not the catalog.
  if (offered.size === 0 && readOnly && aboutVault(message)) for (const n of LOOK_TOOLS) if (scorer.has(n)) offered.set(n, 0);
  if (offered.size === 0) return { ...base, reading: { steps: readings, lookFirst: [], readOnly } };
  // The actions to look before: the whole request's best tool and each step's (not the siblings family completion adds).
  const acting = [base.tools[0]?.name, ...readings.map((r) => r.tools[0])].filter((n): n is string => n !== undefined && offered.has(n));
  const lookFirst = readersFirst(message, steps, readings, [...offered.keys()], scorer, acting);
  for (const n of lookFirst) offered.set(n, 0);
  const tools = [...offered.entries()].map(([name, score]) => ({ name, score }));
  return { tools, chatOnly: false, unsure: false, reading: { steps: readings, lookFirst, readOnly } };
}

/**
 * A request of one step: the router's decision as it always was, except that a step which refuses a change or asks
 * only for an answer ("which tasks are not done yet?", "just tell me what X says") keeps only its readers (none left:
 * chat only), and that readers to look before acting follow the router's own tools.
 */
function oneStep(message: string, step: Step | undefined, d: RouteDecision, scorer: StepScorer): ReadDecision {
  const negated = step?.negation ?? null;
  const answerOnly = step?.answerOnly ?? null;
  let tools = d.tools;
  const readOnly = !d.chatOnly && !d.unsure && ((step !== undefined && refusesChange(step)) || answerOnly !== null);
  if (readOnly) tools = tools.filter((t) => scorer.reads(t.name));
  const read: StepReading = { text: step?.text ?? message, tools: tools.map((t) => t.name), negated, answerOnly };
  // "Don't delete Draft.md": a request that refuses its only change and asks nothing to look at is answered in words.
  if (readOnly && tools.length === 0) return { tools: [], chatOnly: true, unsure: false, reading: { steps: [read], lookFirst: [], readOnly } };
  // Readers to look before acting come after the router's own choice, so its first tools stay first.
  // One step: only its best tool's action is looked before (a sibling that family completion added is no plan).
  const lookFirst = d.chatOnly || d.unsure || readOnly || !step ? [] : readersFirst(message, [step], [read], read.tools, scorer, read.tools.slice(0, 1));
  if (lookFirst.length) tools = [...tools, ...lookFirst.map((name) => ({ name, score: 0 }))];
  return { ...d, tools, reading: { steps: [read], lookFirst, readOnly } };
}

/**
 * The readers a request about notes needs to look before it acts, when none is on offer (see the file comment): a
 * step that says "read" (and no web page is named) reads a note; a writer that changes what exists gets the reader of
 * what it changes; a request of several steps that finds nothing yet gets a finder (the folder's list when it names a
 * folder, else search).
 */
function readersFirst(
  message: string,
  steps: readonly Step[],
  readings: readonly StepReading[],
  offered: readonly string[],
  scorer: StepScorer,
  /** The tools whose action needs a look first: every offered tool of a request of several steps, the best of one step. */
  acting: readonly string[] = offered,
): string[] {
  if (!aboutVault(message) && !analyze(message).signals.has(SIGNAL.note)) return [];
  const terms = new Set(analyze(message).terms);
  const web = terms.has(CONCEPT + "web");
  const several = steps.length > 1;
  const add = new Set<string>();
  // The open note's own readers stand in for vault:read only when the request is about the open note.
  const readers = analyze(message).signals.has(SIGNAL.thisNote) ? CONTENT_READERS : new Set(["vault:read", "daily:get"]);
  const reads = offered.some((n) => readers.has(n));
  // A step that says "read" or "go through them" reads a note, unless that step's own tools already read it.
  const looking = readings.filter((r, i) => !r.negated && (steps[i].looks || analyze(r.text).terms.includes(CONCEPT + "read")));
  if (!web && looking.some((r) => !r.tools.some((n) => readers.has(n))) && !offered.includes("vault:read")) add.add("vault:read");
  // "Read the weekly review Reviews/2026-W47.md": a note named by path or link and read is vault:read's, whatever
  // reader the words alone (weekly, today) brought.
  if (!web && looking.length > 0 && NAMED_NOTE.test(message) && !offered.includes("vault:read")) add.add("vault:read");
  // A step that names a note by path or link and does not write it ("translate poem.md into French") reads it.
  const namesToRead = readings.some((r) => NAMED_NOTE.test(r.text) && r.tools.length > 0 && scorer.reads(r.tools[0]) && !r.tools.some((n) => readers.has(n)));
  if (several && namesToRead && !reads) add.add("vault:read");
  for (const n of acting) {
    const reader = LOOK_BEFORE[n];
    if (reader && !offered.includes(reader) && !(reader === "vault:read" && reads)) add.add(reader);
  }
  // A folder named is listed ("every note in Projects/"); when nothing on offer finds notes, in a request of several
  // steps or one that changes notes that exist, notes described are searched (a note named by path or link needs none).
  const changes = offered.some((n) => CHANGES_EXISTING.has(n) || GATHERS.has(n));
  const looksIn = several || changes || acting.some((n) => CONTENT_READERS.has(n) || n === "frontmatter:get");
  if (looksIn && namesFolder(message, terms)) add.add("vault:list");
  else if (!offered.some((n) => FINDERS.has(n)) && (several || changes) && !NAMED_NOTE.test(message)) add.add("vault:search");
  // Notes found in one step are read in the next: a request of several steps that finds gets the reader too.
  if (several && !web && !reads && (offered.some((n) => FINDERS.has(n)) || add.has("vault:search") || add.has("vault:list"))) add.add("vault:read");
  return [...add].filter((n) => scorer.has(n) && !offered.includes(n));
}

/** The request names a folder: the word ("folder", "Ordner", "文件夹"…), a path ending in "/", or a path without a file. */
function namesFolder(message: string, terms: ReadonlySet<string>): boolean {
  if (terms.has(CONCEPT + "folder") || /[\p{L}\p{N}]\/(?=\s|$)/u.test(message)) return true;
  // "every note in eval-scratch/inbox": a path of words without spaces that no file extension ends.
  return FOLDER_PATH.test(withoutQuotes(message));
}

/** A path without spaces and without a file extension ("eval-scratch/people", not "eval-scratch/people.md"). */
const FOLDER_PATH = /(?:^|[\s(])[\p{L}\p{N}_-]+(?:\/[\p{L}\p{N}_-]+)+(?=[\s,;:!?)]|[.](?:\s|$)|$)/u;

/** The text without quoted spans. */
function withoutQuotes(text: string): string {
  return text.replace(/"[^"\n]*"|“[^”\n]*”|«[^»\n]*»|「[^」\n]*」/gu, " ");
}

/** A step's tools without web:fetch when the request names no web page (a bare "read them" reads notes). */
function withoutWeb(tools: string[], web: boolean): string[] {
  return web ? tools : tools.filter((n) => n !== "web:fetch");
}
