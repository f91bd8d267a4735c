/**
 * Routing before each round of a turn. The first round offers what the router chose for the message; every later
 * round may widen that offer with what happened: the tools the model's last thought asks for (the thought routed as
 * a request), and vault:read after a result that named notes (what was found can be read). The offer only grows: a
 * tool the turn has used successfully is never taken away, and a recovery round stays narrowed to the tool being
 * repaired (Recovery owns that). Each round whose offer differs from the last one announced gets a `routed` event.
 */
import type { Envelope } from "../protocol/envelope";
import type { GrammarBranch } from "./events";
import type { Recovery } from "./recovery";
import type { StoredToolResult } from "./conversation";
import type { Turn, TurnLoopInput } from "./turn";

/** A note named in a result (a [[link]] or a path): the model may read it next. */
const NOTE_PATH = /\[\[[^\]\n]+\]\]|[^\s"'()[\]]+\.(?:md|canvas)(?![\p{L}\p{N}])/u;
/** The reader offered once a result names notes. */
const READER = "vault:read";

/** The turn's offer, round by round. */
export class RoundRouting {
  /** The tools last announced in a `routed` event (round 1: the router's choice). */
  private lastAnnounced: string[];

  constructor(
    /** The first round's grammar branch: only a routed turn widens ("full" already offers all, chat offers none). */
    readonly branch: GrammarBranch,
    first: readonly string[],
    /** The router's scores of the first round's tools (a tool added later shows 0). */
    private readonly scores: ReadonlyMap<string, number>,
  ) {
    this.lastAnnounced = [...first];
  }

  /**
   * After a round whose calls ran: widens the turn's offer with what the round did (see the file comment).
   * Returns the tools added.
   */
  async widen(input: TurnLoopInput, turn: Turn, recovery: Recovery, reply: Envelope, results: readonly StoredToolResult[]): Promise<string[]> {
    if (this.branch !== "routed") return [];
    const { deps, signal } = input;
    const wanted: string[] = [];
    // Tools used successfully stay on offer (they are, by construction: the offer only grows; kept explicit here).
    for (const r of turn.toolResults) if (r.ok) wanted.push(r.name);
    if (reply.thought.trim()) {
      const d = await deps.router.route(reply.thought, { signal });
      if (!d.chatOnly && !d.unsure) wanted.push(...d.tools.map((t) => t.name));
    }
    if (results.some((r) => r.ok && NOTE_PATH.test(r.content))) wanted.push(READER);
    return recovery.widen(wanted.filter((n) => deps.tools.has(n)));
  }

  /** Before a round: a `routed` event when this round's offer differs from the last one announced. */
  announce(turn: Turn, recovery: Recovery, round: number, grammar: boolean): void {
    const names = recovery.names;
    if (names.length === this.lastAnnounced.length && names.every((n, i) => n === this.lastAnnounced[i])) return;
    const added = names.filter((n) => !this.lastAnnounced.includes(n));
    this.lastAnnounced = [...names];
    const branch: GrammarBranch = !grammar ? "none" : recovery.state === "Recover" ? (recovery.mode === "static" ? "static" : "targeted") : this.branch;
    turn.emit({ type: "routed", turnId: turn.id, round, tools: names.map((name) => ({ name, score: this.scores.get(name) ?? 0 })), chatOnly: false, branch, added });
  }
}
