/**
 * A chat model loaded in the host, with its context, per-conversation sequences, grammar cache and
 * (lazily) an embedding context: everything generate / embed / countTokens need.
 */
import type { ChatHistoryItem, Llama, LlamaContext, LlamaEmbeddingContext, LlamaModel, Token, TokenBias } from "node-llama-cpp";
import { EngineError, type GenerateResult, type ModelInfo } from "../../core/ports/engine";
import type { ChatMessage } from "../../core/protocol/messages";
import { ConversationSlots } from "./conversation-slots";
import { GrammarCache } from "./grammar-cache";
import { splitCharacterBan } from "./split-character-ban";
import { generateConstrained } from "./forced-text-generator";
import { GrammarWalkers } from "./grammar-walkers";
import { abortedReply, type OpParams, type OpResults } from "./protocol";

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
  /** Computed on the first grammar-constrained generation; null when the vocabulary needs no ban. */
  private grammarBias: TokenBias | null | undefined;
  /** Our walker and choice masks per grammar, for forced-text generation. */
  private readonly walkers: GrammarWalkers;

  constructor(private readonly parts: LoadedModelParts) {
    this.slots = new ConversationSlots(parts.context);
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

  /** Header facts plus the context size this model runs with. */
  info(): ModelInfo {
    return { ...this.parts.info, contextSize: this.parts.context.contextSize };
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
    if (grammar && this.grammarBias === undefined) this.grammarBias = splitCharacterBan(this.parts.model);
    // Under a grammar every generated character must be whole, or the grammar's guarantees break.
    const tokenBias = grammar ? (this.grammarBias ?? undefined) : undefined;
    const { slot, release } = await this.slots.acquire(params.conversationId);
    const sequence = slot.sequence;
    const before = [...sequence.contextTokens];
    const started = performance.now();
    let firstTokenAt: number | undefined;
    let prompt: Token[] | undefined;
    let tokensOut = 0;
    try {
      if (signal.aborted) return abortedReply();
      // Under a grammar, forced text is evaluated in batches and small choices get cheap masks
      // (stop strings are left to the chat path, which watches the text for them).
      const jumping = grammar && params.jumpForward !== false && !(params.stop && params.stop.length > 0);
      const walking = jumping ? this.walkers.get(params.grammar!, this.grammarBias ?? null) : null;
      if (grammar && walking) {
        const prompt = slot.chat.chatWrapper.generateContextState({ chatHistory: toHistory(params.messages) }).contextText.tokenize(this.parts.model.tokenizer);
        const out = await generateConstrained({
          sequence, grammar, prompt, ...walking,
          maxTokens: params.maxTokens,
          temperature: params.temperature ?? 0.7,
          topP: params.topP ?? 0.95,
          seed: params.seed,
          baseBias: tokenBias,
          signal,
          onText,
          onPromptEvaluated: () => (firstTokenAt = performance.now()),
        });
        const ended = performance.now();
        return {
          text: out.text,
          tokensIn: prompt.length,
          tokensOut: out.tokens.length,
          tokensSampled: out.sampled,
          promptEvalMs: (firstTokenAt ?? ended) - started,
          generateMs: firstTokenAt === undefined ? 0 : ended - firstTokenAt,
          stopReason: out.stopReason,
          tokensEvaluated: out.promptEvaluated,
        };
      }
      const response = await slot.chat.generateResponse(toHistory(params.messages), {
        grammar,
        tokenBias,
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
        tokensEvaluated: Math.max(promptTokens.length > 0 ? 1 : 0, promptTokens.length - reused),
      };
    } catch (err) {
      // Aborted before the first token: node-llama-cpp throws the abort reason.
      if (signal.aborted) return abortedReply();
      throw err;
    } finally {
      release();
    }
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
    const embedding = this.embeddingContext;
    this.embeddingContext = null;
    if (embedding) await embedding.then((c) => c.dispose()).catch(() => undefined);
    await this.parts.context.dispose();
    await this.parts.model.dispose();
    await this.parts.embeddingModel?.dispose();
  }
}
