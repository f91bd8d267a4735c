/**
 * Context budget: the prompt plus the generation cap always fit the model's context. The cap is
 * min(the grammar's length bound, what the context leaves after the counted prompt). History is trimmed
 * (oldest turn first; inside the current turn older rounds before the latest results; the system prompt
 * and the current task always stay) only until `reserveTokens` are free, so a huge grammar bound does not
 * wipe the history.
 */
import type { ChatMessage } from "../protocol/messages";
import type { ConversationEntry } from "./conversation";
import { entryMessage } from "./prompt";
import type { TokenCounter } from "./token-counter";

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
}

export interface BudgetedPrompt {
  messages: ChatMessage[];
  /** Estimated prompt tokens. */
  promptTokens: number;
  /** The generation cap: min(boundTokens, what the context leaves after the prompt). */
  maxTokens: number;
  /** Entries left out to fit. */
  dropped: number;
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

export async function budgetPrompt(input: BudgetInput): Promise<BudgetedPrompt> {
  const { counter } = input;
  const systemMsg: ChatMessage = { role: "system", content: input.system };
  const systemCost = await cost(counter, systemMsg);
  const historyTurns = turns(input.history);
  const historyMsgs = await Promise.all(historyTurns.map(async (t) => {
    const msgs = t.map(entryMessage);
    let c = 0;
    for (const m of msgs) c += await cost(counter, m);
    return { msgs, cost: c, size: t.length };
  }));
  // The current turn: [user, (assistant, results)*]; pairs are dropped oldest first, the last pair stays.
  const [userEntry, ...rounds] = input.current;
  const userMsg = entryMessage(userEntry);
  const userCost = await cost(counter, userMsg);
  const pairs: { msgs: ChatMessage[]; cost: number }[] = [];
  for (let i = 0; i < rounds.length; i += 2) {
    const msgs = rounds.slice(i, i + 2).map(entryMessage);
    let c = 0;
    for (const m of msgs) c += await cost(counter, m);
    pairs.push({ msgs, cost: c });
  }
  const limit = input.contextSize - input.marginTokens;
  const wanted = Math.max(input.minTokens, Math.min(input.reserveTokens, input.boundTokens));
  let total = systemCost + userCost + historyMsgs.reduce((s, h) => s + h.cost, 0) + pairs.reduce((s, p) => s + p.cost, 0);
  let dropped = 0;
  let firstTurn = 0;
  while (total + wanted > limit && firstTurn < historyMsgs.length) {
    total -= historyMsgs[firstTurn].cost;
    dropped += historyMsgs[firstTurn].size;
    firstTurn++;
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
  return { messages, promptTokens: total, maxTokens, dropped };
}
