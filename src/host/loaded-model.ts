/**
 * A chat model loaded in the host, with its context, per-conversation sequences, grammar cache and
 * (lazily) an embedding context: everything generate / embed / countTokens need.
 */
import type { ChatHistoryItem, ChatWrapper, Llama, LlamaChat, LlamaContext, LlamaContextSequence, LlamaEmbeddingContext, LlamaGrammar, LlamaModel, Token } from "node-llama-cpp";
import { EngineError, type GenerateResult, type ModelInfo } from "../core/ports/engine";
import type { ChatMessage } from "../core/protocol/messages";
import { ChatFormats } from "./chat-formats";
import { ConversationSlots } from "./conversation-slots";
import { alignToEvaluated } from "./evaluated-prefix";
import { checkpointSystemPrompt, cutBackTo, meteredTokens, preparePrompt } from "./sequence-checkpoints";
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
  /** Bound on the sequences' checkpoints together (recurrent and hybrid models); default DEFAULT_CHECKPOINT_BYTES. */
  checkpointBytes?: number;
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
      parts.checkpointBytes,
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

  /** The checkpoints' bytes now and their bound; undefined for a model that needs none. */
  get checkpoints(): { bytes: number; maxBytes: number } | undefined {
    const bytes = this.slots.checkpointUsage;
    return bytes === undefined ? undefined : { bytes, maxBytes: this.slots.checkpointBytes };
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
    const meterAtStart = meteredTokens(sequence);
    let held = [...sequence.contextTokens];
    if (params.conversationId !== undefined && sequence.contextTokens.length === 0) {
      // A system prompt restored from its saved state is held like a restored conversation; one evaluated now is not.
      if (await this.primeSystemPrompt(params.messages, grammar ? this.formats.grammar : this.formats.chat, sequence)) held = [...sequence.contextTokens];
    }
    try {
      if (signal.aborted) return abortedReply();
      const restored = restoredTokens !== undefined && restoredTokens > 0;
      const turn = grammar ? await this.grammarTurn(params, grammar, sequence, signal, onText, restored) : await this.freeTurn(params, slot.chat, sequence, signal, onText);
      return { ...(await this.metered(turn, sequence, meterAtStart, held, params.conversationId !== undefined)), ...stateFacts };
    } catch (err) {
      // Aborted before the first token: node-llama-cpp throws the abort reason.
      if (signal.aborted) return abortedReply();
      throw err;
    } finally {
      release();
    }
  }

  /**
   * The turn's figures from what the engine evaluated (node-llama-cpp's token meter on the sequence), not from the
   * prefix the sequence held: an erase on a recurrent model restores a checkpoint, or nothing, and evaluates again
   * inside the call. `tokensEvaluated` is the meter's count less the reply's tokens fed back into the sequence; a
   * cancelled reply is cut back to its prompt (the next prompt goes on from there), and what that re-reads counts too.
   */
  private async metered(
    turn: { result: OpResults["generate"]; prompt: Token[] },
    sequence: LlamaContextSequence,
    meterAtStart: number,
    held: readonly Token[],
    kept: boolean,
  ): Promise<OpResults["generate"]> {
    const { result, prompt } = turn;
    const fed = Math.max(0, sequence.nextTokenIndex - prompt.length);
    let evaluated = meteredTokens(sequence) - meterAtStart - fed;
    if (kept && result.stopReason === "abort" && prompt.length > 0) {
      const before = meteredTokens(sequence);
      await cutBackTo(sequence, prompt.length);
      evaluated += meteredTokens(sequence) - before;
    }
    return {
      ...result,
      tokensEvaluated: Math.max(0, evaluated),
      tokensHeld: Math.min(commonPrefixLength(held, prompt), Math.max(0, prompt.length - 1)),
      tokensMetered: meteredTokens(sequence) - meterAtStart,
      checkpointBytes: sequence.checkpointsMemoryUsage,
    };
  }

  /** One free turn through LlamaChat (its chat wrapper, its stop triggers). */
  private async freeTurn(
    params: OpParams["generate"],
    chat: LlamaChat,
    sequence: LlamaContextSequence,
    signal: AbortSignal,
    onText: (text: string) => void,
  ): Promise<{ result: OpResults["generate"]; prompt: Token[] }> {
    const started = performance.now();
    let firstTokenAt: number | undefined;
    let prompt: Token[] | undefined;
    let tokensOut = 0;
    const utf8 = Utf8TokenGuard.for(this.parts.model).tracker();
    const response = await chat.generateResponse(toHistory(params.messages), {
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
    const result = {
      text: response.response,
      tokensIn: promptTokens.length,
      tokensOut,
      promptEvalMs: (firstTokenAt ?? ended) - started,
      generateMs: firstTokenAt === undefined ? 0 : ended - firstTokenAt,
      stopReason: STOP_REASONS[response.metadata.stopReason] ?? "eos",
      utf8Valid: !utf8.broken,
      tokensEvaluated: 0,
    };
    return { result, prompt: promptTokens };
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
    restored = false,
  ): Promise<{ result: OpResults["generate"]; prompt: Token[] }> {
    const { model } = this.parts;
    const formats = this.formats;
    const guard = Utf8TokenGuard.for(model);
    const history = toHistory(params.messages);
    const sampling = { temperature: params.temperature ?? 0.7, topP: params.topP ?? 0.95, seed: params.seed };
    const started = performance.now();
    const think = params.thinkFirst && params.thinkFirst.maxTokens > 0 ? formats.think : null;
    let prompt: Token[];
    let thoughtTokens = 0;
    /** Where the reply begins (a think span's prompt ends there): the meter's count past it is the reply's (metered()). */
    let replyStart = 0;
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
      if (thinking.stopReason === "abort") return { result: abortedReply(), prompt };
      thoughtTokens = thinking.tokensOut;
      firstTokenAt = thinking.firstTokenAt;
      // Closed by the model: only the template's separator is missing; otherwise close the span ourselves.
      const closing = thinking.stopReason === "stop" ? think.after : think.close + think.after;
      replyStart = prompt.length;
      prompt = prompt.concat(thinking.tokens, formats.markerTokens(closing));
    } else {
      prompt = alignToEvaluated(model, sequence.contextTokens, formats.promptTokens(history, formats.grammar));
      if (restored) await this.fromSystemStateIfDiverged(params.messages, sequence, prompt);
      await this.saveNewSystemMessage(params.messages, sequence, prompt);
    }
    const initialPrompt = think ? prompt.length - thoughtTokens : prompt.length;
    if (!think) replyStart = prompt.length;
    // A trim appends to the system message: a checkpoint where it ends now serves the next trim (hybrid models).
    const system = params.messages[0]?.role === "system" && sequence.needsCheckpoints ? params.messages[0].content : undefined;
    const checkpointAt = system === undefined || think ? [] : [this.formats.systemTextTokens(system, formats.grammar).length];
    // Forced text is evaluated in batches and small choices get cheap masks (forced-text-generator.ts);
    // with stop strings, or when asked for llama.cpp's grammar alone, the plain loop runs.
    const jumping = params.jumpForward !== false && !(params.stop && params.stop.length > 0);
    const walking = jumping ? this.walkers.get(params.grammar!, guard.bias(UTF8_BOUNDARY)) : null;
    let out: { text: string; tokensOut: number; stopReason: GenerateResult["stopReason"]; firstTokenAt?: number; utf8Valid: boolean; tokensSampled?: number };
    if (walking) {
      let promptDoneAt: number | undefined;
      const forced = await generateConstrained({
        sequence, grammar, prompt, checkpointAt, ...walking, ...sampling,
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
        firstTokenAt: promptDoneAt,
        utf8Valid: forced.utf8Valid,
      };
    } else {
      out = await generateUnderGrammar({
        model, sequence, guard, promptTokens: prompt, grammar, checkpointAt, ...sampling,
        maxTokens: params.maxTokens,
        stop: params.stop,
        signal,
        onText,
      });
    }
    firstTokenAt ??= out.firstTokenAt;
    const ended = performance.now();
    const tokensIn = think ? initialPrompt : prompt.length;
    const result = {
      text: out.text,
      tokensIn,
      tokensOut: out.tokensOut,
      ...(out.tokensSampled === undefined ? {} : { tokensSampled: out.tokensSampled }),
      promptEvalMs: (firstTokenAt ?? ended) - started,
      generateMs: firstTokenAt === undefined ? 0 : ended - firstTokenAt,
      stopReason: out.stopReason,
      utf8Valid: out.utf8Valid,
      tokensEvaluated: 0,
      thoughtTokens,
    };
    return { result, prompt: prompt.slice(0, replyStart) };
  }

  /**
   * A conversation starting on an empty sequence: its system prompt's evaluated state is loaded from the
   * per-model state (or evaluated once and saved), so the first turn evaluates only its own messages. The state ends
   * where the system message's own text ends (systemTextTokens): a trim appends the earlier turns' summaries there. On a
   * model that needs checkpoints the system text is evaluated (without a state folder too) and checkpointed there, so
   * a trim restores it instead of reading everything again. True when it was restored from its state.
   */
  private async primeSystemPrompt(messages: ChatMessage[], wrapper: ChatWrapper, sequence: LlamaContextSequence): Promise<boolean> {
    const states = this.parts.states;
    if ((!states && !sequence.needsCheckpoints) || messages[0]?.role !== "system") return false;
    const tokens = this.formats.systemTextTokens(messages[0].content, wrapper);
    if (tokens.length < 2) return false;
    const name = states ? states.systemName(tokens) : "";
    try {
      if (states && (await states.restore(name, sequence))) {
        await checkpointSystemPrompt(sequence);
        return true;
      }
    } catch {
      // A refused system state was removed; it is evaluated and saved again below.
      await sequence.clearHistory();
    }
    await sequence.evaluateWithoutGeneratingNewTokens(tokens);
    await checkpointSystemPrompt(sequence);
    await states?.save(name, sequence).catch((err: unknown) => this.parts.onStateError?.(`The system prompt's state could not be saved: ${String(err)}`));
    return false;
  }

  /**
   * A conversation state just restored from disk has no checkpoints: on a model that needs them, a prompt that leaves it
   * after the system text (a trim, a replaced last reply) would make the erase read everything again. The system
   * prompt's own saved state is loaded instead, so only what follows the system text is read.
   */
  private async fromSystemStateIfDiverged(messages: ChatMessage[], sequence: LlamaContextSequence, prompt: Token[]): Promise<void> {
    const states = this.parts.states;
    if (!sequence.needsCheckpoints || !states || messages[0]?.role !== "system") return;
    const keep = Math.min(sequence.compareContextTokens(prompt).firstDifferentIndex, prompt.length - 1);
    if (keep >= sequence.nextTokenIndex) return;
    if (keep >= this.formats.systemTextTokens(messages[0].content, this.formats.grammar).length) {
      await sequence.clearHistory();
      await this.primeSystemPrompt(messages, this.formats.grammar, sequence);
      return;
    }
    // The system message itself changed (a trim appended more turns to it): the longest system state saved before that
    // the prompt starts with (the one an earlier trim saved), so only what follows it is read.
    const length = await states.longestSystemPrefix(prompt, keep);
    if (length < 2) return;
    await sequence.clearHistory();
    try {
      if (await states.restore(states.systemName(prompt.slice(0, length)), sequence)) await checkpointSystemPrompt(sequence);
    } catch {
      // A refused state was removed; the prompt is read from its text.
      await sequence.clearHistory();
    }
  }

  /**
   * A system message this sequence does not hold yet (a trim appended the earlier turns to it), on a model that needs
   * checkpoints: it is evaluated first, checkpointed and saved as a system state, so after a restart a prompt that leaves
   * the conversation's saved state after it restores it (fromSystemStateIfDiverged) instead of reading everything again.
   */
  private async saveNewSystemMessage(messages: ChatMessage[], sequence: LlamaContextSequence, prompt: Token[]): Promise<void> {
    const states = this.parts.states;
    if (!states || !sequence.needsCheckpoints || messages[0]?.role !== "system") return;
    const tokens = this.formats.systemTextTokens(messages[0].content, this.formats.grammar);
    const keep = Math.min(sequence.compareContextTokens(prompt).firstDifferentIndex, prompt.length - 1);
    if (tokens.length < 2 || keep >= tokens.length || tokens.length >= prompt.length - 1) return;
    const name = states.systemName(tokens);
    if (await states.has(name)) return;
    await preparePrompt(sequence, prompt.slice(0, tokens.length + 1));
    await checkpointSystemPrompt(sequence);
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
