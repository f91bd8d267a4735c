/**
 * Catches a model that has lost the plot: the same call again (in this turn, or right after the last turn without
 * the user asking for it), and rounds that keep finding nothing. The first time it corrects, the next time it ends
 * the turn with a sentence, instead of spending the remaining rounds.
 */
import type { EnvelopeToolCall } from "../protocol/envelope";
import type { ConversationEntry } from "./conversation";

/** A call that ran, remembered by its tool and canonical arguments. */
interface SeenCall {
  content: string;
  empty: boolean;
  /** How many times the model asked for it (the first run included). */
  times: number;
  /** True when it ran in the previous turn. */
  lastTurn: boolean;
}

/** What a repeated call gets instead of a second run. */
export type RepeatVerdict =
  | { kind: "repeat"; content: string; empty: boolean; correction: string }
  | { kind: "end"; sentence: string };

/** JSON with object keys sorted, so argument order does not hide a repeat. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (value && typeof value === "object") {
    const keys = Object.keys(value).sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`).join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}

function callKey(call: EnvelopeToolCall): string {
  return `${call.name} ${canonicalJson(call.args)}`;
}

/** The words (3+ letters or digits, lower case) of a text. */
function words(text: string): string[] {
  return text.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter((w) => w.length >= 3 && w !== "md");
}

/** Every string in a value (the arguments' paths, queries, names...). */
function strings(value: unknown): string[] {
  if (typeof value === "string") return [value];
  if (Array.isArray(value)) return value.flatMap(strings);
  if (value && typeof value === "object") return Object.values(value).flatMap(strings);
  return [];
}

/**
 * Whether a user message asks for this call again: it names something the call works on (a word of an argument
 * value or of the tool's name), as "read my Project Alpha note" does for vault:read "Projects/Project Alpha.md".
 */
export function asksFor(message: string, call: EnvelopeToolCall): boolean {
  const wanted = new Set(words(message));
  return [call.name, ...strings(call.args)].some((text) => words(text).some((w) => wanted.has(w)));
}

/** The sentence that names calls: `vault:search {"query":"x"}`, `…`. */
function describe(calls: EnvelopeToolCall[]): string {
  const unique = [...new Set(calls.map(callKey))];
  return unique.join(", ");
}

export function repeatCorrection(name: string, where: "in this turn" | "in the last turn"): string {
  return `You already called ${name} with these arguments ${where}; the result above is that earlier one, not a new run. Answer from it, or call ${name} with different arguments.`;
}

export function repeatEnd(name: string): string {
  return `Stopped: ${name} was called three times with the same arguments; the results so far are above. Try rephrasing the request.`;
}

export function noProgressCorrection(tried: string): string {
  return `Nothing was found by ${tried}. Tell the user nothing was found, or try a different tool or different arguments.`;
}

export function noProgressEnd(tried: string): string {
  return `Stopped: searched with ${tried} and found nothing.`;
}

export class LoopGuard {
  private readonly seen = new Map<string, SeenCall>();
  /** Consecutive rounds whose calls all found nothing, and those calls. */
  private emptyRounds: EnvelopeToolCall[][] = [];

  /** A guard for a new turn, remembering the calls of the turn before unless the user's message asks for them again. */
  static forTurn(history: readonly ConversationEntry[], message: string): LoopGuard {
    const guard = new LoopGuard();
    const lastTurn = history.at(-1)?.turnId;
    if (lastTurn === undefined) return guard;
    const entries = history.filter((e) => e.turnId === lastTurn);
    for (let i = 0; i < entries.length - 1; i++) {
      const entry = entries[i];
      const next = entries[i + 1];
      if (entry.kind !== "assistant" || next.kind !== "tool-results") continue;
      entry.envelope.tool_calls.forEach((call, c) => {
        const result = next.results[c];
        if (!result?.ok || asksFor(message, call)) return;
        guard.seen.set(callKey(call), { content: result.content, empty: false, times: 1, lastTurn: true });
      });
    }
    return guard;
  }

  /** A call about to run: undefined when it is new, else what it gets instead of running. */
  check(call: EnvelopeToolCall): RepeatVerdict | undefined {
    const seen = this.seen.get(callKey(call));
    if (!seen) return undefined;
    seen.times++;
    if (seen.times >= 3) return { kind: "end", sentence: repeatEnd(call.name) };
    const where = seen.lastTurn ? "in the last turn" : "in this turn";
    return { kind: "repeat", content: seen.content, empty: seen.empty, correction: repeatCorrection(call.name, where) };
  }

  /** Remembers a call that ran. */
  ran(call: EnvelopeToolCall, content: string, empty: boolean): void {
    this.seen.set(callKey(call), { content, empty, times: 1, lastTurn: false });
  }

  /**
   * After a round's calls: whether every one found nothing. The second such round in a row gets a correction that
   * names what was tried; the third ends the turn.
   */
  progress(calls: EnvelopeToolCall[], allEmpty: boolean): { kind: "correct"; correction: string } | { kind: "end"; sentence: string } | undefined {
    if (!allEmpty || calls.length === 0) {
      this.emptyRounds = [];
      return undefined;
    }
    this.emptyRounds.push(calls);
    const tried = describe(this.emptyRounds.flat());
    if (this.emptyRounds.length >= 3) return { kind: "end", sentence: noProgressEnd(tried) };
    if (this.emptyRounds.length === 2) return { kind: "correct", correction: noProgressCorrection(tried) };
    return undefined;
  }
}
