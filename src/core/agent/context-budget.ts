/**
 * Context budget: the prompt plus the generation cap always fit the model's context. The cap is
 * min(the grammar's length bound, what the context leaves after the counted prompt). When earlier turns
 * no longer fit, whole old turns leave in one large step (down to `trimTarget` of the context), so the
 * replayed prefix changes rarely instead of on every turn; the turns that left are summarized in one line
 * each, in the system message, and the caller records them in the conversation. Inside the current turn
 * older rounds go before the latest results; the system prompt and the current task always stay.
 * Trimming makes room only for `reserveTokens`, so a huge grammar bound does not wipe the history.
 */
import type { ChatMessage } from "../protocol/messages";
import type { ConversationEntry } from "./conversation";
import { summarizeTurn } from "./conversation-summary";
import { earlierTurnsText, entryMessage } from "./prompt";
import type { TokenCounter } from "./token-counter";

/** Share of the context the kept prompt fills after a trim step: the rest is room for the next turns. */
export const DEFAULT_TRIM_TARGET = 0.5;
/** Characters of earlier-turn summaries the system message carries at most (newest first). */
const SUMMARY_CHARS = 2400;

/** Tokens a chat template adds around each message (role markers); a safe over-estimate. */
const PER_MESSAGE_TOKENS = 6;

export interface BudgetInput {
  system: string;
  /** Entries of earlier turns, oldest first. */
  history: readonly ConversationEntry[];
  /** Entries of this turn so far, starting with the user message. */
  current: readonly ConversationEntry[];
  /** The model's context size in tokens. */
  contextSize: number;
  /** Tokens kept free for template overhead. */
  marginTokens: number;
  /** Upper bound on the reply: the grammar's length bound in tokens (a token is at least one byte), or a cap without one. */
  boundTokens: number;
  /** Tokens trimming makes room for (at most `boundTokens` are used); more is given when the context has it. */
  reserveTokens: number;
  /** Fewer generation tokens than this is a context_full failure. */
  minTokens: number;
  counter: TokenCounter;
  /** Earlier turns up to this turn id already left the prompt (the conversation's trim). */
  trimmedThrough?: string;
  /** Summary lines of the turns that already left, oldest first. */
  summaries?: readonly string[];
  /** Share of the context a trim step brings the prompt down to. Default DEFAULT_TRIM_TARGET. */
  trimTarget?: number;
}

/** Turns this prompt left out for the first time: record them with `Conversation.recordTrim`. */
export interface TrimStep {
  throughTurnId: string;
  /** One line per newly left-out turn, oldest first. */
  summaries: string[];
}

export interface BudgetedPrompt {
  messages: ChatMessage[];
  /** Estimated prompt tokens. */
  promptTokens: number;
  /** The generation cap: min(boundTokens, what the context leaves after the prompt). */
  maxTokens: number;
  /** Entries left out to fit. */
  dropped: number;
  /** Set when this prompt left more earlier turns out. */
  trim?: TrimStep;
}

/** The context cannot hold even the system prompt and the current task. */
export class ContextFullError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ContextFullError";
  }
}

function turns(entries: readonly ConversationEntry[]): ConversationEntry[][] {
  const out: ConversationEntry[][] = [];
  for (const e of entries) {
    const last = out[out.length - 1];
    if (last && last[0].turnId === e.turnId) last.push(e);
    else out.push([e]);
  }
  return out;
}

async function cost(counter: TokenCounter, msg: ChatMessage): Promise<number> {
  return (await counter.count(msg.content)) + PER_MESSAGE_TOKENS;
}

interface TurnCost {
  entries: readonly ConversationEntry[];
  msgs: ChatMessage[];
  cost: number;
}

async function costs(counter: TokenCounter, groups: ConversationEntry[][]): Promise<TurnCost[]> {
  return Promise.all(groups.map(async (entries) => {
    const msgs = entries.map(entryMessage);
    let c = 0;
    for (const m of msgs) c += await cost(counter, m);
    return { entries, msgs, cost: c };
  }));
}

/** Earlier turns still replayed: those after the conversation's trim point. */
function replayedTurns(history: readonly ConversationEntry[], trimmedThrough: string | undefined): ConversationEntry[][] {
  const all = turns(history);
  if (trimmedThrough === undefined) return all;
  const at = all.findIndex((t) => t[0].turnId === trimmedThrough);
  return at < 0 ? all : all.slice(at + 1);
}

function systemMessage(system: string, summaries: readonly string[]): ChatMessage {
  const earlier = earlierTurnsText(summaries, SUMMARY_CHARS);
  return { role: "system", content: earlier ? `${system}\n${earlier}` : system };
}

export async function budgetPrompt(input: BudgetInput): Promise<BudgetedPrompt> {
  const { counter } = input;
  const summaries = [...(input.summaries ?? [])];
  let systemMsg = systemMessage(input.system, summaries);
  let systemCost = await cost(counter, systemMsg);
  const historyMsgs = await costs(counter, replayedTurns(input.history, input.trimmedThrough));
  // The current turn: [user, (assistant, results)*]; pairs are dropped oldest first, the last pair stays.
  const [userEntry, ...rounds] = input.current;
  const userMsg = entryMessage(userEntry);
  const userCost = await cost(counter, userMsg);
  const pairGroups: ConversationEntry[][] = [];
  for (let i = 0; i < rounds.length; i += 2) pairGroups.push(rounds.slice(i, i + 2));
  const pairs = await costs(counter, pairGroups);
  const limit = input.contextSize - input.marginTokens;
  const wanted = Math.max(input.minTokens, Math.min(input.reserveTokens, input.boundTokens));
  const historyCost = historyMsgs.reduce((s, h) => s + h.cost, 0);
  let total = systemCost + userCost + historyCost + pairs.reduce((s, p) => s + p.cost, 0);
  let dropped = 0;
  let firstTurn = 0;
  let trim: TrimStep | undefined;
  if (total + wanted > limit && historyMsgs.length > 0) {
    // One large step: drop old turns until the prompt fills at most trimTarget of the context (or none are left).
    const target = Math.min(limit, Math.floor(input.contextSize * (input.trimTarget ?? DEFAULT_TRIM_TARGET)));
    const fresh: string[] = [];
    while (firstTurn < historyMsgs.length && total + wanted > target) {
      const turn = historyMsgs[firstTurn];
      total -= turn.cost;
      dropped += turn.entries.length;
      fresh.push(summarizeTurn(turn.entries));
      firstTurn++;
      // The summaries join the system message; count them as they grow.
      const nextSystem = systemMessage(input.system, [...summaries, ...fresh]);
      const nextCost = await cost(counter, nextSystem);
      total += nextCost - systemCost;
      systemMsg = nextSystem;
      systemCost = nextCost;
    }
    trim = { throughTurnId: historyMsgs[firstTurn - 1].entries[0].turnId, summaries: fresh };
  }
  let firstPair = 0;
  while (total + wanted > limit && firstPair < pairs.length - 1) {
    total -= pairs[firstPair].cost;
    dropped += pairs[firstPair].msgs.length;
    firstPair++;
  }
  const kept = pairs.slice(firstPair);
  // Still too long: shorten the latest results (kept in the prompt, cut in the middle) until they fit.
  const last = kept[kept.length - 1];
  if (total + wanted > limit && last && last.msgs.length === 2) {
    const over = total + wanted - limit;
    const resultMsg = last.msgs[1];
    const tokens = await counter.count(resultMsg.content);
    const keepTokens = Math.max(0, tokens - over - 8);
    const keepChars = Math.floor((resultMsg.content.length * keepTokens) / Math.max(1, tokens));
    const shortened: ChatMessage = { role: resultMsg.role, content: resultMsg.content.slice(0, keepChars) + "\n[…results cut to fit the context]" };
    const newCost = await cost(counter, shortened);
    total = total - last.cost + (last.cost - (await cost(counter, resultMsg)) + newCost);
    last.msgs = [last.msgs[0], shortened];
  }
  const available = limit - total;
  const maxTokens = Math.min(input.boundTokens, available);
  if (maxTokens < input.minTokens) {
    throw new ContextFullError(
      `The message and its attachments need about ${total} tokens, but the model's context holds ${input.contextSize}; shorten the message or attach less.`,
    );
  }
  const messages: ChatMessage[] = [systemMsg];
  for (const h of historyMsgs.slice(firstTurn)) messages.push(...h.msgs);
  messages.push(userMsg);
  for (const p of kept) messages.push(...p.msgs);
  return { messages, promptTokens: total, maxTokens, dropped, ...(trim ? { trim } : {}) };
}
