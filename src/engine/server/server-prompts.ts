/**
 * Prompts for llama-server, rendered by the server's own chat template (`/apply-template`, the prompt
 * `/v1/chat/completions` would evaluate) the way the engine host renders grammar turns (core/protocol/past-reply-lead.ts):
 * on a thinking model (a template with an `enable_thinking` switch) with thinking off, and with past replies led by
 * what the generation prompt put before them, so each round's prompt extends the last and the slot's cache (and on a
 * hybrid model its recurrent state) goes on from where the previous reply ended instead of reading it again.
 */
import type { ChatMessage } from "../../core/ports/engine";
import { hasThinkingSwitch, LEAD_PROBE, pastReplyLead, withPastReplyLeads } from "../../core/protocol/past-reply-lead";
import type { MessageDelimiter, PromptParts } from "./completion-stream";
import type { ServerHttp } from "./server-http";

/** The prompt the server's chat template makes of these messages (with `kwargs` for the template, when given). */
export async function renderPrompt(http: ServerHttp, messages: readonly ChatMessage[] | unknown[], signal?: AbortSignal, kwargs?: Record<string, unknown>): Promise<string> {
  const body = { messages, ...(kwargs ? { chat_template_kwargs: kwargs } : {}) };
  const { prompt } = await http.json<{ prompt?: unknown }>("/apply-template", { body, signal });
  if (typeof prompt !== "string") throw http.notCompatible("/apply-template", "no prompt in the reply");
  return prompt;
}

export class ServerPrompts {
  /** Whether the server's template has a thinking mode (grammar turns then render with it off). */
  private thinking = false;
  /** The past-reply lead of grammar turns, once found (null: none); undefined until the first grammar turn. */
  private lead: Promise<string | null> | undefined;
  /** The system-end delimiter per system message and turn kind (a trim changes the message: a few are kept). */
  private readonly systemEnds = new Map<string, Promise<SystemEnd>>();

  constructor(private readonly http: ServerHttp) {}

  /** Takes the server's chat template (from `/props`); forgets what was found for the previous one. */
  configure(template: string): void {
    this.thinking = hasThinkingSwitch(template);
    this.lead = undefined;
    this.systemEnds.clear();
  }

  /** Whether grammar turns render with thinking off. */
  get thinkingModel(): boolean {
    return this.thinking;
  }

  /**
   * The prompt for a reply to `messages`: a free turn as the template renders it; a grammar turn with thinking off on
   * a thinking model and past replies led as their generation prompt was.
   */
  async render(messages: readonly ChatMessage[], grammar: boolean, signal?: AbortSignal): Promise<string> {
    if (!grammar || !this.thinking) return renderPrompt(this.http, messages, signal);
    const kwargs = { enable_thinking: false };
    const [rendered, lead] = await Promise.all([renderPrompt(this.http, messages, signal, kwargs), this.pastReplyLead()]);
    return lead === null ? rendered : withPastReplyLeads(rendered, messages, lead);
  }

  /**
   * Where the system message's own text ends, for llama-server: a trim appends the earlier turns' summaries there and
   * drops the turns after it. The `message_delimiters` make the server take a checkpoint there, so the first prompt
   * after a trim is read from it instead of from the start on a hybrid model: llama-server checkpoints at the start of
   * `user` spans (when the slot has no checkpoint yet, or at the last one), and the delimiter given the `user` role is
   * what the template puts between the system text and the first user message's text
   * (`<|im_end|>\n<|im_start|>user\n` on ChatML), from the token where the system text ends, found as the host's
   * systemTextTokens finds it: the common prefix of two renders differing only in text appended to the system message.
   * It also matches where a user message follows a reply, as the server's own chat delimiters do. `tokens` are the
   * prompt's tokens up to there (what a saved system state holds). None without a system message, or when the
   * delimiter's text does not tokenize back to its tokens.
   */
  systemEnd(messages: readonly ChatMessage[], grammar: boolean): Promise<SystemEnd> {
    const system = messages[0]?.role === "system" ? messages[0].content : undefined;
    if (system === undefined) return Promise.resolve(NO_SYSTEM_END);
    const key = `${grammar ? 1 : 0}${system}`;
    let found = this.systemEnds.get(key);
    if (!found) {
      found = this.findSystemEnd(system, grammar).catch(() => {
        this.systemEnds.delete(key);
        return NO_SYSTEM_END;
      });
      this.systemEnds.set(key, found);
      // The first entry is the oldest.
      if (this.systemEnds.size > SYSTEM_ENDS_KEPT) this.systemEnds.delete(this.systemEnds.keys().next().value!);
    }
    return found;
  }

  private async findSystemEnd(system: string, grammar: boolean): Promise<SystemEnd> {
    const render = async (systemText: string, user: string) =>
      this.tokens(await this.render([{ role: "system", content: systemText }, { role: "user", content: user }], grammar));
    const [a, appended, otherUser] = await Promise.all([render(system, "a"), render(`${system}\n- earlier turn`, "a"), render(system, "b")]);
    const end = commonPrefix(a, appended);
    const userText = commonPrefix(a, otherUser);
    if (end < 2 || userText <= end) return NO_SYSTEM_END;
    const between = a.slice(end, userText);
    const detokenized = await this.http.json<{ content?: unknown }>("/detokenize", { body: { tokens: between } });
    const delimiter = detokenized.content;
    if (typeof delimiter !== "string" || delimiter === "") return NO_SYSTEM_END;
    // The server tokenizes a delimiter without BOS, special tokens parsed.
    const back = await this.tokens(delimiter, false);
    const same = back.length === between.length && back.every((t, i) => t === between[i]);
    return same ? { delimiters: [{ role: "user", delimiter }], tokens: a.slice(0, end) } : NO_SYSTEM_END;
  }

  /** The lead, found once per template: rendered, then kept only when the continuation's tokens extend the prompt's. */
  private pastReplyLead(): Promise<string | null> {
    this.lead ??= this.findLead().catch(() => {
      this.lead = undefined;
      return null;
    });
    return this.lead;
  }

  private async findLead(): Promise<string | null> {
    const kwargs = { enable_thinking: false };
    const [open, past] = await Promise.all([renderPrompt(this.http, [...LEAD_PROBE.open], undefined, kwargs), renderPrompt(this.http, [...LEAD_PROBE.past], undefined, kwargs)]);
    const lead = pastReplyLead(open, past);
    if (lead === null) return null;
    const [prompt, extended] = await Promise.all([this.tokens(open), this.tokens(withPastReplyLeads(past, LEAD_PROBE.past, lead))]);
    return prompt.every((t, i) => extended[i] === t) ? lead : null;
  }

  private async tokens(content: string, addSpecial = true): Promise<number[]> {
    const reply = await this.http.json<{ tokens?: unknown[] }>("/tokenize", { body: { content, add_special: addSpecial, parse_special: true } });
    if (!Array.isArray(reply.tokens)) throw this.http.notCompatible("/tokenize", "no tokens in the reply");
    return reply.tokens as number[];
  }
}

/** Where a system message's text ends in the prompt (ServerPrompts.systemEnd). */
export interface SystemEnd {
  /** The `message_delimiters` that make llama-server checkpoint there (none: not found). */
  delimiters: MessageDelimiter[];
  /** The prompt's tokens up to there, BOS included (none: not found). */
  tokens: number[];
}

const NO_SYSTEM_END: SystemEnd = { delimiters: [], tokens: [] };

/** System messages whose end is kept (each trim makes a new one). */
const SYSTEM_ENDS_KEPT = 4;

function commonPrefix(a: readonly number[], b: readonly number[]): number {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return i;
}

/** A prefix a slot holds: its text and the prompt parts that give its tokens. */
export interface HeldPrefix {
  text: string;
  parts: PromptParts;
}

/** Prefixes kept per slot (the last prompts and prompts with their replies). */
const HELD_PREFIXES = 6;

/**
 * What each slot holds, as the prompt parts that gave its tokens: a prompt, and the prompt followed by its reply's token
 * ids as they were sampled. A reply's text tokenized again may not give those ids back (a reply under a grammar often
 * spells `{"` as two tokens where the tokenizer makes one), and on a model with recurrent layers a prompt that leaves
 * the slot's tokens inside the previous reply is read again from the server's last checkpoint before it (or from the
 * start). So the next prompt is sent as the longest held prefix's parts followed by the rest as text.
 */
export class HeldPrompts {
  private readonly slots = new Map<number, { owner: string; prefixes: HeldPrefix[] }>();

  /** The prompt for `text` on `slot` (of conversation `owner`): the longest prefix it holds, by its parts, and the rest. */
  parts(slot: number, owner: string | undefined, text: string): PromptParts {
    const held = owner === undefined ? undefined : this.slots.get(slot);
    if (!held || held.owner !== owner) return text;
    let best: HeldPrefix | undefined;
    for (const p of held.prefixes) if (text.startsWith(p.text) && p.text.length > (best?.text.length ?? 0)) best = p;
    if (!best) return text;
    const rest = text.slice(best.text.length);
    if (typeof best.parts === "string") return best.parts + rest;
    return rest === "" ? [...best.parts] : [...best.parts, rest];
  }

  /**
   * After a request: the slot holds the prompt and the reply after it, by its token ids when they are known (or as the
   * parts the forced-text path sent it as), else as text joined to the prompt's last text.
   */
  after(slot: number, owner: string | undefined, prompt: { text: string; parts: PromptParts }, reply?: { text: string; tokenIds?: number[]; heldParts?: PromptParts }): void {
    if (owner === undefined) return;
    let held = this.slots.get(slot);
    if (!held || held.owner !== owner) this.slots.set(slot, (held = { owner, prefixes: [] }));
    const parts = prompt.parts;
    const add = (p: HeldPrefix): void => {
      held.prefixes = [...held.prefixes.filter((q) => q.text !== p.text), p].slice(-HELD_PREFIXES);
    };
    add({ text: prompt.text, parts });
    if (!reply?.text) return;
    const replyParts = reply.heldParts ?? (reply.tokenIds?.length ? [...(typeof parts === "string" ? [parts] : parts), ...reply.tokenIds] : withText(parts, reply.text));
    add({ text: prompt.text + reply.text, parts: replyParts });
  }

  /** Whether `text` does not go on from the last prefix `slot` took on for `owner` (or nothing is known of it). */
  leaves(slot: number, owner: string, text: string): boolean {
    const latest = this.latest(slot, owner);
    return !latest || !text.startsWith(latest.text);
  }

  /** The last prefix `slot` took on for `owner` (its prompt and reply, what a save then writes), if any. */
  latest(slot: number, owner: string): HeldPrefix | undefined {
    const held = this.slots.get(slot);
    return held && held.owner === owner ? held.prefixes[held.prefixes.length - 1] : undefined;
  }

  /** Forgets what `slot` holds (its state was replaced). */
  forget(slot: number): void {
    this.slots.delete(slot);
  }
}

/** `parts` followed by `text`, joined to a last text part (so text sent as one piece stays one piece). */
export function withText(parts: PromptParts, text: string): PromptParts {
  if (text === "") return parts;
  if (typeof parts === "string") return parts + text;
  const last = parts[parts.length - 1];
  return typeof last === "string" ? [...parts.slice(0, -1), last + text] : [...parts, text];
}
