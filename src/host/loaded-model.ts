/**
 * A chat model loaded in the host, with its context, per-conversation sequences, grammar cache and
 * (lazily) an embedding context: everything generate / embed / countTokens need.
 */
import type { ChatHistoryItem, ChatWrapper, Llama, LlamaContext, LlamaContextSequence, LlamaEmbeddingContext, LlamaGrammar, LlamaModel, Token } from "node-llama-cpp";
import { EngineError, type GenerateResult, type ModelInfo } from "../core/ports/engine";
import type { ChatMessage } from "../core/protocol/messages";
import { ChatFormats } from "./chat-formats";
import { ConversationSlots } from "./conversation-slots";
import { alignToEvaluated } from "./evaluated-prefix";
import type { SequenceStates } from "./sequence-states";
import { GrammarCache } from "./grammar-cache";
import { generateConstrained } from "./forced-text-generator";
import { generateUnderGrammar } from "./grammar-generation";
import { GrammarWalkers } from "./grammar-walkers";
import { UTF8_BOUNDARY } from "./utf8-state";
import { Utf8TokenGuard } from "./utf8-token-guard";
import { abortedReply, type OpParams, type OpResults } from "../engine/client/host-protocol";

/** What a LoadedModel is made of (built by the host's load op). */
export interface LoadedModelParts {
  llama: Llama;
  model: LlamaModel;
  context: LlamaContext;
  /** Header facts of the chat model file. */
  info: ModelInfo;
  /** Threads the contexts run with. */
  threads: number;
  grammars: GrammarCache;
  /** A separate embedding model, when configured. */
  embeddingModel?: LlamaModel;
  /** Saved sequence states (conversations and the system prompt), when the client gave a state folder. */
  states?: SequenceStates;
  /** Idle time before a conversation's state is saved. */
  saveDelayMs?: number;
  /** Where a failed save is reported (the host log). */
  onStateError?: (message: string) => void;
}

/** Largest context an embedding context gets: chunks are short, and memory is better spent on chat. */
const EMBEDDING_CONTEXT_MAX = 4096;

function toHistory(messages: ChatMessage[]): ChatHistoryItem[] {
  const history: ChatHistoryItem[] = messages.map((m) =>
    m.role === "assistant" ? { type: "model", response: [m.content] } : { type: m.role, text: m.content },
  );
  // The reply goes into a trailing model item; a trailing assistant message is continued instead.
  if (history.at(-1)?.type !== "model") history.push({ type: "model", response: [] });
  return history;
}

function commonPrefixLength(a: readonly Token[], b: readonly Token[]): number {
  const n = Math.min(a.length, b.length);
  let i = 0;
  while (i < n && a[i] === b[i]) i++;
  return i;
}

/**
 * Free generation's stop reasons. A chat-wrapper stop trigger is the model's end-of-turn text, the end of a
 * free reply; grammar turns never stop on text (grammar-generation.ts).
 */
const STOP_REASONS: Record<string, GenerateResult["stopReason"]> = {
  eogToken: "eos",
  stopGenerationTrigger: "eos",
  functionCalls: "eos",
  maxTokens: "maxTokens",
  customStopTrigger: "stop",
  abort: "abort",
};

export class LoadedModel {
  private readonly slots: ConversationSlots;
  private embeddingContext: Promise<LlamaEmbeddingContext> | null = null;
  /** How turns are rendered for this model (its chat wrapper; thinking off for grammar turns). */
  readonly formats: ChatFormats;
  /** Our walker and choice masks per grammar, for forced-text generation. */
  private readonly walkers: GrammarWalkers;

  constructor(private readonly parts: LoadedModelParts) {
    this.formats = new ChatFormats(parts.model);
    this.slots = new ConversationSlots(
      parts.context,
      this.formats.chat,
      parts.states ? { states: parts.states, saveDelayMs: parts.saveDelayMs, onError: parts.onStateError } : undefined,
    );
    this.walkers = new GrammarWalkers(parts.model);
  }

  /** Threads the contexts run with. */
  get threads(): number {
    return this.parts.threads;
  }

  /** Conversations whose sequence is kept. */
  get conversations(): number {
    return this.slots.conversations;
  }

  /** Header facts plus the context size this model runs with and how its turns are rendered. */
  info(): ModelInfo {
    return {
      ...this.parts.info,
      contextSize: this.parts.context.contextSize,
      chatWrapper: this.formats.wrapperName,
      thinkingModel: this.formats.thinkingModel,
    };
  }

  countTokens(text: string): number {
    return this.parts.model.tokenize(text).length;
  }

  async generate(
    params: OpParams["generate"],
    signal: AbortSignal,
    onText: (text: string) => void,
  ): Promise<OpResults["generate"]> {
    if (!Array.isArray(params.messages) || params.messages.length === 0) {
      throw new EngineError("A generate request needs at least one chat message.", "internal");
    }
    if (!params.messages.every((m) => ["system", "user", "assistant"].includes(m?.role) && typeof m.content === "string")) {
      throw new EngineError("Each chat message needs a role (system, user or assistant) and text content.", "internal");
    }
    if (!Number.isInteger(params.maxTokens) || params.maxTokens < 1) {
      throw new EngineError(`maxTokens must be a positive whole number, got ${String(params.maxTokens)}.`, "internal");
    }
    const grammar = params.grammar === undefined ? undefined : await this.parts.grammars.get(params.grammar);
    const { slot, release, notice, restoredTokens } = await this.slots.acquire(params.conversationId);
    const sequence = slot.sequence;
    const stateFacts = { ...(notice ? { stateNotice: notice } : {}), ...(restoredTokens ? { restoredTokens } : {}) };
    if (params.conversationId !== undefined && sequence.contextTokens.length === 0) {
      await this.primeSystemPrompt(params.messages, grammar ? this.formats.grammar : this.formats.chat, sequence);
    }
    const before = [...sequence.contextTokens];
    const started = performance.now();
    let firstTokenAt: number | undefined;
    let prompt: Token[] | undefined;
    let tokensOut = 0;
    const utf8 = Utf8TokenGuard.for(this.parts.model).tracker();
    try {
      if (signal.aborted) return abortedReply();
      if (grammar) return { ...(await this.grammarTurn(params, grammar, sequence, signal, onText)), ...stateFacts };
      const response = await slot.chat.generateResponse(toHistory(params.messages), {
        maxTokens: params.maxTokens,
        temperature: params.temperature ?? 0.7,
        topP: params.topP ?? 0.95,
        seed: params.seed,
        customStopTriggers: params.stop && params.stop.length > 0 ? params.stop : undefined,
        // Penalizing repeats would fight JSON, whose punctuation repeats by design.
        repeatPenalty: false,
        signal,
        stopOnAbortSignal: true,
        onToken: (tokens) => {
          if (firstTokenAt === undefined) {
            firstTokenAt = performance.now();
            // The sampled token is not in the sequence yet: what is there now is exactly the prompt.
            prompt = sequence.contextTokens.slice(0, sequence.nextTokenIndex);
          }
          tokensOut += tokens.length;
          for (const t of tokens) utf8.push(t);
        },
        onTextChunk: (text) => {
          if (text) onText(text);
        },
      });
      const ended = performance.now();
      const promptTokens = prompt ?? sequence.contextTokens.slice(0, Math.max(0, sequence.nextTokenIndex - tokensOut));
      const reused = commonPrefixLength(before, promptTokens);
      return {
        text: response.response,
        tokensIn: promptTokens.length,
        tokensOut,
        promptEvalMs: (firstTokenAt ?? ended) - started,
        generateMs: firstTokenAt === undefined ? 0 : ended - firstTokenAt,
        stopReason: STOP_REASONS[response.metadata.stopReason] ?? "eos",
        utf8Valid: !utf8.broken,
        tokensEvaluated: Math.max(promptTokens.length > 0 ? 1 : 0, promptTokens.length - reused),
        ...stateFacts,
      };
    } catch (err) {
      // Aborted before the first token: node-llama-cpp throws the abort reason.
      if (signal.aborted) return abortedReply();
      throw err;
    } finally {
      release();
    }
  }

  /**
   * One turn under a grammar, on this model's own loop (grammar-generation.ts). With `thinkFirst` on a
   * thinking model, a bounded free think span runs first and is closed before the grammar starts; its
   * text is dropped, never part of the reply.
   */
  private async grammarTurn(
    params: OpParams["generate"],
    grammar: LlamaGrammar,
    sequence: LlamaContextSequence,
    signal: AbortSignal,
    onText: (text: string) => void,
  ): Promise<OpResults["generate"]> {
    const { model } = this.parts;
    const formats = this.formats;
    const guard = Utf8TokenGuard.for(model);
    const history = toHistory(params.messages);
    const sampling = { temperature: params.temperature ?? 0.7, topP: params.topP ?? 0.95, seed: params.seed };
    const started = performance.now();
    const think = params.thinkFirst && params.thinkFirst.maxTokens > 0 ? formats.think : null;
    let prompt: Token[];
    let thoughtTokens = 0;
    let reused: number;
    let firstTokenAt: number | undefined;
    if (think) {
      prompt = alignToEvaluated(model, sequence.contextTokens, formats.promptTokens(history, formats.chat));
      const tail = model.detokenize(prompt.slice(-8), true);
      if (!tail.trimEnd().endsWith(think.open.trimEnd())) prompt = prompt.concat(formats.markerTokens(think.open));
      const thinking = await generateUnderGrammar({
        model, sequence, guard, promptTokens: prompt, ...sampling,
        maxTokens: params.thinkFirst!.maxTokens,
        stop: [think.close.trim()],
        signal,
      });
      if (thinking.stopReason === "abort") return abortedReply();
      thoughtTokens = thinking.tokensOut;
      reused = thinking.reusedTokens;
      firstTokenAt = thinking.firstTokenAt;
      // Closed by the model: only the template's separator is missing; otherwise close the span ourselves.
      const closing = thinking.stopReason === "stop" ? think.after : think.close + think.after;
      prompt = prompt.concat(thinking.tokens, formats.markerTokens(closing));
    } else {
      prompt = alignToEvaluated(model, sequence.contextTokens, formats.promptTokens(history, formats.grammar));
    }
    const initialPrompt = think ? prompt.length - thoughtTokens : prompt.length;
    // Forced text is evaluated in batches and small choices get cheap masks (forced-text-generator.ts);
    // with stop strings, or when asked for llama.cpp's grammar alone, the plain loop runs.
    const jumping = params.jumpForward !== false && !(params.stop && params.stop.length > 0);
    const walking = jumping ? this.walkers.get(params.grammar!, guard.bias(UTF8_BOUNDARY)) : null;
    let out: { text: string; tokensOut: number; stopReason: GenerateResult["stopReason"]; reusedTokens: number; firstTokenAt?: number; utf8Valid: boolean; tokensSampled?: number };
    if (walking) {
      let promptDoneAt: number | undefined;
      const forced = await generateConstrained({
        sequence, grammar, prompt, ...walking, ...sampling,
        maxTokens: params.maxTokens,
        baseBias: guard.bias(UTF8_BOUNDARY),
        utf8: guard.tracker(),
        signal,
        onText,
        onPromptEvaluated: () => (promptDoneAt = performance.now()),
      });
      out = {
        text: forced.text,
        tokensOut: forced.tokens.length,
        tokensSampled: forced.sampled,
        stopReason: forced.stopReason,
        reusedTokens: prompt.length - forced.promptEvaluated,
        firstTokenAt: promptDoneAt,
        utf8Valid: forced.utf8Valid,
      };
    } else {
      out = await generateUnderGrammar({
        model, sequence, guard, promptTokens: prompt, grammar, ...sampling,
        maxTokens: params.maxTokens,
        stop: params.stop,
        signal,
        onText,
      });
    }
    if (!think) reused = out.reusedTokens;
    firstTokenAt ??= out.firstTokenAt;
    const ended = performance.now();
    const tokensIn = think ? initialPrompt : prompt.length;
    return {
      text: out.text,
      tokensIn,
      tokensOut: out.tokensOut,
      ...(out.tokensSampled === undefined ? {} : { tokensSampled: out.tokensSampled }),
      promptEvalMs: (firstTokenAt ?? ended) - started,
      generateMs: firstTokenAt === undefined ? 0 : ended - firstTokenAt,
      stopReason: out.stopReason,
      utf8Valid: out.utf8Valid,
      tokensEvaluated: Math.max(tokensIn > 0 ? 1 : 0, tokensIn - reused!),
      thoughtTokens,
    };
  }

  /**
   * A conversation starting on an empty sequence: its system prompt's evaluated state is loaded from the
   * per-model state (or evaluated once and saved), so the first turn evaluates only its own messages.
   */
  private async primeSystemPrompt(messages: ChatMessage[], wrapper: ChatWrapper, sequence: LlamaContextSequence): Promise<void> {
    const states = this.parts.states;
    if (!states || messages[0]?.role !== "system") return;
    const tokens = this.formats.systemPrefixTokens(messages[0].content, wrapper);
    if (tokens.length < 2) return;
    const name = `system:${states.key}:${tokens.join(",")}`;
    try {
      if (await states.restore(name, sequence)) return;
    } catch {
      // A refused system state was removed; it is evaluated and saved again below.
      await sequence.clearHistory();
    }
    await sequence.evaluateWithoutGeneratingNewTokens(tokens);
    await states.save(name, sequence).catch((err: unknown) => this.parts.onStateError?.(`The system prompt's state could not be saved: ${String(err)}`));
  }

  /** Writes every conversation state not yet saved (before unload or shutdown). */
  flushStates(): Promise<void> {
    return this.slots.flush();
  }

  async embed(texts: string[], signal: AbortSignal): Promise<number[][]> {
    if (!Array.isArray(texts) || texts.some((t) => typeof t !== "string")) {
      throw new EngineError("An embed request needs a list of texts.", "internal");
    }
    const context = await this.embeddingContextReady();
    const model = this.parts.embeddingModel ?? this.parts.model;
    const limit = Math.min(EMBEDDING_CONTEXT_MAX, model.trainContextSize);
    const vectors: number[][] = [];
    for (const text of texts) {
      if (signal.aborted) throw new EngineError("The embedding request was cancelled.", "aborted");
      // Over-long texts are cut to what the embedding context holds, rather than failing the batch.
      const tokens = model.tokenize(text).slice(0, limit - 2);
      const embedding = await context.getEmbeddingFor(tokens.length > 0 ? tokens : model.tokenize(" "));
      vectors.push([...embedding.vector]);
    }
    return vectors;
  }

  private embeddingContextReady(): Promise<LlamaEmbeddingContext> {
    if (!this.embeddingContext) {
      const model = this.parts.embeddingModel ?? this.parts.model;
      const attempt = model.createEmbeddingContext({
        contextSize: Math.min(EMBEDDING_CONTEXT_MAX, model.trainContextSize),
        threads: this.parts.threads,
      });
      this.embeddingContext = attempt;
      attempt.catch(() => {
        if (this.embeddingContext === attempt) this.embeddingContext = null;
      });
    }
    return this.embeddingContext;
  }

  async dispose(): Promise<void> {
    await this.slots.flush();
    const embedding = this.embeddingContext;
    this.embeddingContext = null;
    if (embedding) await embedding.then((c) => c.dispose()).catch(() => undefined);
    await this.parts.context.dispose();
    await this.parts.model.dispose();
    await this.parts.embeddingModel?.dispose();
  }
}
