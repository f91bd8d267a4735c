/**
 * How one model's turns are rendered: node-llama-cpp's chat wrapper for the model (resolved from its
 * template, name and architecture, as LlamaChat would), and for thinking models (templates with an
 * `enable_thinking` switch: Qwen3, Gemma 4, SmolLM3) the variant with thinking off that grammar turns
 * use — a reply under the envelope grammar must start with `{`, so the prompt closes the think span
 * the way the template does for non-thinking mode (Qwen3's and SmolLM3's empty `<think></think>`,
 * Gemma 4 without `<|think|>` in the system turn).
 *
 * Such templates begin the generation prompt with more than they keep of a past reply (Qwen3 and Qwen3.5 drop the
 * empty think span from replies already given), so each round's prompt would differ from the sequence just before
 * the previous reply and re-read it. Grammar turns therefore render past replies with the same lead their
 * generation prompt had: every prompt extends the last (checked once per model; kept only where it holds).
 */
import type { ChatHistoryItem, ChatModelSegment, ChatWrapper, LlamaModel, Token } from "node-llama-cpp";
import type { ChatMessage } from "../core/ports/engine";
import { hasThinkingSwitch, LEAD_PROBE, pastReplyLead } from "../core/protocol/past-reply-lead";
import { llamaRuntime } from "./llama-runtime";

/** Where a thinking model's think span opens and closes, as text. */
export interface ThinkMarkers {
  /** Opens the span at the start of the reply (e.g. "<think>\n"). */
  open: string;
  /** Closes it (e.g. "\n</think>"). */
  close: string;
  /** What the template puts between the closed span and the answer. */
  after: string;
}

export class ChatFormats {
  /** The model's own wrapper: free generation and the think span of "think first" turns. */
  readonly chat: ChatWrapper;
  /** Renders grammar turns: the same wrapper with thinking off, for thinking models. */
  readonly grammar: ChatWrapper;
  /** Whether the template has a thinking mode. */
  readonly thinkingModel: boolean;
  /** Think-span markers of a thinking model; null otherwise. */
  readonly think: ThinkMarkers | null;
  /** What grammar turns' generation prompts put before a reply and the template leaves out of past replies; null when nothing. */
  readonly pastReplyLead: string | null;

  constructor(private readonly model: LlamaModel) {
    const { GeneralChatWrapper, LlamaText, resolveChatWrapper } = llamaRuntime();
    const raw = (model.fileInfo.metadata as { tokenizer?: { chat_template?: unknown } }).tokenizer?.chat_template;
    const template = typeof raw === "string" ? raw : "";
    const base = { bosString: model.tokens.bosString, filename: model.filename, fileInfo: model.fileInfo, tokenizer: model.tokenizer };
    this.chat = resolveChatWrapper(base) ?? new GeneralChatWrapper();
    this.thinkingModel = hasThinkingSwitch(template);
    this.grammar = this.thinkingModel
      ? (resolveChatWrapper({
          ...base,
          customWrapperSettings: { qwen: { thoughts: "discourage" }, gemma4: { reasoning: false }, jinjaTemplate: { template, reasoning: false } },
        }) ?? this.chat)
      : this.chat;
    const thought = this.chat.settings.segments?.thought;
    if (this.thinkingModel && thought) {
      const close = thought.suffix === undefined ? "" : LlamaText(thought.suffix).toString();
      // "openedOnStart": the template itself opens the span in the generation prompt.
      const open = typeof thought.prefix === "object" && "type" in thought.prefix ? "" : LlamaText(thought.prefix).toString();
      this.think = { open, close, after: /<\/think>/.test(close) ? "\n\n" : "" };
    } else {
      this.think = null;
    }
    this.pastReplyLead = this.findPastReplyLead();
  }

  /**
   * The text a grammar turn's generation prompt adds before the reply that a past reply lacks (`<think>\n\n</think>\n\n`
   * on Qwen3), found by rendering a prompt and its continuation; kept only when rendering it into past replies makes the
   * continuation extend the prompt token for token.
   */
  private findPastReplyLead(): string | null {
    if (this.grammar === this.chat && !this.thinkingModel) return null;
    const history = (messages: readonly ChatMessage[], lead: string | null): ChatHistoryItem[] => [
      ...messages.map((m): ChatHistoryItem =>
        m.role === "assistant" ? { type: "model", response: lead === null ? [m.content] : [this.leadSegment(lead), m.content] } : { type: m.role, text: m.content },
      ),
      { type: "model", response: [] },
    ];
    const text = (items: ChatHistoryItem[]): string => this.grammar.generateContextState({ chatHistory: items }).contextText.toString();
    const lead = pastReplyLead(text(history(LEAD_PROBE.open, null)), text(history(LEAD_PROBE.past, null)));
    if (lead === null) return null;
    const prompt = this.promptTokens(history(LEAD_PROBE.open, null), this.grammar);
    const extended = this.renderTokens(history(LEAD_PROBE.past, lead), this.grammar);
    return prompt.every((t, i) => extended[i] === t) ? lead : null;
  }

  /** A past reply's lead as a response segment the wrappers write out verbatim (a comment, which none of them drops). */
  private leadSegment(lead: string): ChatModelSegment {
    const { LlamaText, SpecialTokensText } = llamaRuntime();
    return { type: "segment", segmentType: "comment", text: "", ended: true, raw: LlamaText(new SpecialTokensText(lead)).toJSON() };
  }

  private renderTokens(history: ChatHistoryItem[], wrapper: ChatWrapper): Token[] {
    const { contextText } = wrapper.generateContextState({ chatHistory: history });
    return contextText.tokenize(this.model.tokenizer);
  }

  /** The name of the wrapper (what the settings and logs show). */
  get wrapperName(): string {
    return this.chat.wrapperName;
  }

  /**
   * Prompt tokens for a reply to `history` (which ends with an open model item). Under the grammar wrapper, past replies
   * keep the lead their generation prompt had (pastReplyLead), so the prompt extends the previous round's.
   */
  promptTokens(history: ChatHistoryItem[], wrapper: ChatWrapper): Token[] {
    const lead = wrapper === this.grammar ? this.pastReplyLead : null;
    if (lead === null) return this.renderTokens(history, wrapper);
    const segment = this.leadSegment(lead);
    const led = history.map((item, i) => (item.type === "model" && i < history.length - 1 ? { ...item, response: [segment, ...item.response] } : item));
    return this.renderTokens(led, wrapper);
  }

  /**
   * The tokens every prompt with this system message starts with and keeps when text is appended to the system message
   * (a trim appends the earlier turns' summaries there): the common prefix of two renders that differ only in that
   * appended text (no template knowledge needed).
   */
  systemTextTokens(system: string, wrapper: ChatWrapper): Token[] {
    const render = (text: string): Token[] =>
      this.promptTokens([{ type: "system", text }, { type: "user", text: "a" }, { type: "model", response: [] }], wrapper);
    const a = render(system);
    const b = render(`${system}\n- earlier turn`);
    let i = 0;
    while (i < a.length && i < b.length && a[i] === b[i]) i++;
    return a.slice(0, i);
  }

  /** Tokens of model-side text that may hold special-token markers (think-span markers). */
  markerTokens(text: string): Token[] {
    return text === "" ? [] : this.model.tokenize(text, true, "trimLeadingSpace");
  }
}
