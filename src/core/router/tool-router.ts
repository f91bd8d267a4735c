/**
 * The hybrid tool router: BM25 over tool cards fused with embedding cosine (when an embedder is set),
 * then a threshold, top-K, family completion for persist/change intents, tools named in the message,
 * and the two special decisions: chat only (offer nothing) and unsure (offer everything).
 */
import type { RouteDecision, RouterPort } from "../ports/agent";
import type { EmbeddingScorer } from "./embedding-scorer";
import { analyze } from "./analyze";
import { aboutVault, asksToChange, looksLikeChat, namedTools, smallTalkRest, withoutQuestionStart } from "./intents";
import { NoteNames } from "./note-names";
import { readSteps } from "./steps";
import { affirmedText, routeSteps, type ReadDecision } from "./stepwise";
import { TextScorer } from "./text-scorer";
import { toolCard, type RoutableTool, type ToolCard } from "./tool-card";

export interface RouterOptions {
  /** Tools offered at most from scores (named tools and family completion may add). Default 3. */
  topK: number;
  /** A tool is offered when its fused score reaches this (0..1). Default 0.3. */
  threshold: number;
  /** Below this best score the message gets no tools when it reads like chat, else the full catalog. Default 0.12. */
  chatFloor: number;
  /** Weight of the text score when embeddings are fused in (the embedding gets the rest). Default 0.5. */
  textWeight: number;
  /** Write siblings added per family by family completion, at most. Default 2. */
  maxFamilyAdds: number;
}

export const DEFAULT_ROUTER_OPTIONS: RouterOptions = { topK: 3, threshold: 0.3, chatFloor: 0.12, textWeight: 0.5, maxFamilyAdds: 2 };

/** Paths, links, tags, URLs, dates, quotes: the message is about something, even when no tool matched its words. */
function hasSignals(message: string): boolean {
  return analyze(message).signals.size > 0;
}

/** Share of the best score a further tool must reach to be offered too. */
const RELATIVE_CUT = 0.4;

/** Words after a greeting that still read as part of the small talk ("thanks, that's all"). */
const SMALL_TALK_TAIL_WORDS = 4;

/** Words in a message short enough to be chat when nothing in it matched. */
const SHORT_MESSAGE_WORDS = 5;

function wordCount(message: string): number {
  return message.split(/\s+/).filter((w) => /[\p{L}\p{N}]/u.test(w)).length;
}

/** A message that reads like chat needs a tool score this many thresholds high to get tools. */
const CHAT_MARGIN = 1.7;

/** Factor on the scores of writing tools when a statement asks for a change. */
const CHANGE_LEAN = 1.4;

const round = (n: number): number => Math.round(n * 1000) / 1000;

export class ToolRouter implements RouterPort {
  readonly options: RouterOptions;
  private readonly cards: ToolCard[];
  private readonly byName: Map<string, ToolCard>;
  private readonly text: TextScorer;
  /** Why the last routing fell back to text only (the embedding failed), or null. */
  embeddingError: string | null = null;
  /** The vault's note names: a mention of one reads as "a note" (see NoteNames). Empty until `setNotes`. */
  private notes = new NoteNames([]);

  constructor(
    tools: readonly RoutableTool[],
    options: Partial<RouterOptions> = {},
    /** Set when an embedding model is configured. */
    private readonly embedding?: EmbeddingScorer,
  ) {
    this.options = { ...DEFAULT_ROUTER_OPTIONS, ...options };
    this.cards = tools.map(toolCard);
    this.byName = new Map(this.cards.map((c) => [c.name, c]));
    this.text = new TextScorer(this.cards);
  }

  /**
   * Tells the router which notes the vault has (vault-relative paths), so their names in a message read as "a note",
   * and which property keys its notes use, so a question that names one looks in the notes.
   */
  setNotes(paths: Iterable<string>, properties: Iterable<string> = []): void {
    this.notes = new NoteNames(paths, properties);
  }

  /** Routes with text scores only (synchronous; what `bench router` measures). */
  routeText(message: string, topK = this.options.topK): RouteDecision {
    return this.readText(message, topK);
  }

  /** Routes with text scores only and says how it read the request: its steps, each step's tools, negations. */
  readText(message: string, topK = this.options.topK): ReadDecision {
    return routeSteps(message, (affirmed) => this.decide(affirmed, this.textScores(affirmed), topK), this.stepScorer);
  }

  /** Step routing's view of this router: text decisions, and which tools only read. */
  private readonly stepScorer = {
    decide: (text: string, topK: number): RouteDecision => this.decide(text, this.textScores(text), topK),
    reads: (name: string): boolean => this.byName.get(name)?.effect === "read",
    has: (name: string): boolean => this.byName.has(name),
    vault: {
      namesNote: (text: string): boolean => this.notes.namesNote(text),
      namesFolder: (text: string): boolean => this.notes.namesFolder(text),
      namesProperty: (text: string): boolean => this.notes.namesProperty(text),
    },
  };

  /** The `limit` best tools by text score, best first (no decision: what recall at K is measured on). */
  rankText(message: string, limit = 10): { name: string; score: number }[] {
    return [...this.textScores(message).entries()]
      .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
      .slice(0, limit)
      .map(([name, score]) => ({ name, score: round(score) }));
  }

  private textScores(message: string): Map<string, number> {
    const scores = this.text.score(this.notes.mark(message));
    // A statement that asks for a change ("remember that…", "neue Aufgabe…") leans to the tools that change things;
    // a question ("do you remember…?") does not.
    if (asksToChange(message) && !/[?？¿]/.test(message)) {
      let top = 0;
      for (const [name, s] of scores) {
        const leaned = this.byName.get(name)?.effect !== "read" ? s * CHANGE_LEAN : s;
        scores.set(name, leaned);
        top = Math.max(top, leaned);
      }
      // Back into 0..1 by one factor: capping each at 1 would tie the leaned tools and lose their order.
      if (top > 1) for (const [name, s] of scores) scores.set(name, s / top);
    }
    return scores;
  }

  async route(message: string, options: { signal?: AbortSignal; topK?: number } = {}): Promise<RouteDecision> {
    if (!this.embedding) return this.readText(message, options.topK);
    // The whole request (without the steps that refuse a change) with embeddings; its steps by text (see stepwise.ts).
    const whole = await this.routeWhole(affirmedText(message, readSteps(message)) || message, options);
    return routeSteps(message, () => whole, this.stepScorer);
  }

  /** The decision for one text, fusing embedding and text scores. */
  private async routeWhole(message: string, options: { signal?: AbortSignal; topK?: number }): Promise<RouteDecision> {
    const topK = options.topK ?? this.options.topK;
    const textScores = this.textScores(message);
    if (!this.embedding) return this.decide(message, textScores, topK);
    let embedScores: Map<string, number>;
    try {
      embedScores = await this.embedding.score(message, options.signal);
      this.embeddingError = null;
    } catch (err) {
      if (options.signal?.aborted) throw err;
      // A failing embedding model must not stop the turn: route on text alone and say why.
      this.embeddingError = err instanceof Error ? err.message : String(err);
      return this.decide(message, textScores, topK);
    }
    const w = this.options.textWeight;
    const fused = new Map<string, number>();
    for (const card of this.cards) {
      const s = w * (textScores.get(card.name) ?? 0) + (1 - w) * (embedScores.get(card.name) ?? 0);
      if (s > 0) fused.set(card.name, s);
    }
    return this.decide(message, fused, topK);
  }

  private decide(message: string, scores: Map<string, number>, topK: number): RouteDecision {
    const { threshold, chatFloor } = this.options;
    const ranked = [...scores.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
    const best = ranked[0]?.[1] ?? 0;
    const named = namedTools(message, [...this.byName.keys()]);
    const top = ranked.slice(0, topK).map(([name, score]) => ({ name, score: round(score) }));
    if (named.length === 0) {
      // A message that names one of the vault's notes is about the vault, never small talk: judge it with the name
      // read as "note" ("when is the Team Offsite" → "when is the note").
      const said = this.notes.mark(message);
      const chatLike = looksLikeChat(said);
      // Small talk stays chat even when a hint shares a word with it ("tell me a joke" vs "tell me about").
      // "Hi, are there free venues in London?" is a request after a greeting: when a tool matches it, it is no small talk.
      const rest = smallTalkRest(said);
      if (rest !== null && best < 0.95 && (best < threshold || wordCount(rest) <= SMALL_TALK_TAIL_WORDS)) return { tools: [], chatOnly: true, unsure: false };
      // "Explain what inflation is": a general question whose only match is its own first word ("explain" is also
      // note:selection's word) is chat, where "explain the highlighted passage" still matches without it.
      const chatQuestion = chatLike && (best < threshold * CHAT_MARGIN || this.bestWithout(withoutQuestionStart(said)) < threshold * CHAT_MARGIN);
      if (best < chatFloor || chatQuestion) {
        // A short message where nothing matched and nothing is about the vault ("cool, that works"): chat, not the
        // whole catalog. A longer one may be a request in words no tool card has: it gets the catalog.
        const chat = chatLike || (best === 0 && wordCount(said) <= SHORT_MESSAGE_WORDS && !aboutVault(said) && !hasSignals(said) && !asksToChange(said));
        return chat ? { tools: [], chatOnly: true, unsure: false } : { tools: top, chatOnly: false, unsure: true };
      }
      if (best < threshold) return { tools: top, chatOnly: false, unsure: true };
    }
    const picked = new Map<string, number>();
    for (const name of named) picked.set(name, 1);
    // A tool far below the best one is noise that a small model may still pick: it must reach a share of the best.
    const cut = Math.max(threshold, best * RELATIVE_CUT);
    for (const [name, score] of this.diverse(ranked, topK)) if (score >= cut && !picked.has(name)) picked.set(name, round(score));
    if (asksToChange(message)) this.completeFamilies(picked, scores, named);
    return { tools: [...picked.entries()].map(([name, score]) => ({ name, score })), chatOnly: false, unsure: false };
  }

  /** The best text score of what is left of a message (1 when nothing was cut: the message's own score stands). */
  private bestWithout(rest: string | null): number {
    if (rest === null) return 1;
    let best = 0;
    // Still a question without its first words: the mark keeps it one.
    for (const s of this.textScores(`${rest} ?`).values()) best = Math.max(best, s);
    return best;
  }

  /**
   * The top K, with at most K-1 from one family while another family also clears the threshold: "read my Inbox
   * note and list its tasks" asks for two things, and three task tools would crowd out reading the note.
   */
  private diverse(ranked: [string, number][], topK: number): [string, number][] {
    const top = ranked.slice(0, topK);
    if (topK < 3 || top.length < topK) return top;
    const family = this.byName.get(top[0][0])?.family;
    if (!top.every(([n]) => this.byName.get(n)?.family === family)) return top;
    const other = ranked.find(([n, s]) => s >= this.options.threshold && this.byName.get(n)?.family !== family);
    return other ? [...top.slice(0, topK - 1), other] : top;
  }

  /** Family completion: a family that made the cut also offers its write siblings when the message asks for a change. */
  private completeFamilies(picked: Map<string, number>, scores: Map<string, number>, named: string[]): void {
    // Only families that clearly made the cut (or were named) grow; a weak neighbour does not bring its writers.
    const strong = [...picked.entries()].filter(([n, s]) => s >= 0.5 || named.includes(n)).map(([n]) => n);
    const families = new Set(strong.map((n) => this.byName.get(n)?.family));
    for (const family of families) {
      const siblings = this.cards
        .filter((c) => c.family === family && c.effect === "write" && !picked.has(c.name))
        .sort((a, b) => (scores.get(b.name) ?? 0) - (scores.get(a.name) ?? 0))
        .slice(0, this.options.maxFamilyAdds);
      for (const s of siblings) picked.set(s.name, round(scores.get(s.name) ?? 0));
    }
  }
}
