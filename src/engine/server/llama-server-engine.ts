/**
 * llama.cpp's server as an engine: the prompt rendered by the server's own chat template (`/apply-template`; grammar turns
 * as the engine host renders them, server-prompts.ts), then `/completion` with our GBNF in `grammar`, streamed (completion-stream.ts says why not `/v1/chat/completions`,
 * whose reply parser refuses some replies of Qwen2.5 and Llama 3.2); a stable slot per conversation with `cache_prompt`, so each turn reuses the
 * evaluated prefix; `/tokenize` for counts, `/props` for the context size and model, `/v1/embeddings` when the
 * server runs with --embeddings, `/health` for readiness.
 */
import { EngineError, type Engine, type GenerateRequest, type ModelInfo } from "../../core/ports/engine";
import { completionBody, streamCompletion, type MessageDelimiter, type PromptParts } from "./completion-stream";
import { ForcedTextCompletion } from "./forced-text-completion";
import type { ServerProbe } from "./server-config";
import { abortedServerReply, ServerEngineOpening, toResult, type ServerReply } from "./server-opening";
import { SavedSlots } from "./saved-slots";
import { HeldPrompts, renderPrompt, ServerPrompts, type SystemEnd } from "./server-prompts";
import { SlotPool } from "./slot-pool";

export type { LlamaServerEngineOptions, ServerReply } from "./server-opening";

/** What `/props` says (the fields used). */
interface Props {
  default_generation_settings?: { n_ctx?: number };
  total_slots?: number;
  model_alias?: string;
  model_path?: string;
  chat_template?: string;
  build_info?: string;
}

/** `/v1/models` entry `meta` of llama-server. */
interface ModelMeta {
  n_params?: number;
  n_ctx_train?: number;
  n_embd?: number;
  size?: number;
}

/** The text of the checkpoint probe (a dozen tokens or more on any vocabulary). */
const CHECKPOINT_PROBE = "The notes in this vault are kept in folders by year, month and topic.";

/** Texts per embeddings request: a batch the server evaluates at once. */
const EMBED_BATCH = 16;

export class LlamaServerEngine extends ServerEngineOpening implements Engine {
  /** `logit_bias` entries (the split-character ban) sent with every request. */
  private grammarBias: [number, false][] = [];
  private slots = new SlotPool(1);
  private embeddings: boolean | undefined;
  /** The sentence for why embeddings failed, when they did. */
  private embeddingsRefusal: string | undefined;
  /** Saved slots, when the server saves them to a folder of ours (set when the model info is read). */
  private saved: SavedSlots | null = null;
  /**
   * Whether the server's model keeps a state that cannot be cut back (recurrent or hybrid layers), found when slots are
   * saved: their system states are kept then (SavedSlots.beforeLeaving).
   */
  private needsCheckpoints = false;
  /** How turns are rendered: the server's template, grammar turns as the engine host renders them. */
  private readonly prompts = new ServerPrompts(this.http);
  /** What each slot holds, so the next prompt extends it token for token. */
  private readonly held = new HeldPrompts();
  /** The forced-text path, when the configuration asks for it. */
  private readonly forced = this.config.forcedText ? new ForcedTextCompletion(this.http) : null;

  /** Conversations holding a slot. */
  get conversations(): number {
    return this.slots.conversations;
  }

  /** "Test connection": model, context size, and whether a grammar and embeddings are accepted, each tried for real. */
  async probe(): Promise<ServerProbe> {
    const info = await this.reconnect();
    // What a turn sends: the server's template, then a completion under a grammar.
    const prompt = await renderPrompt(this.http, [{ role: "user", content: "Say yes." }]);
    await this.http.json("/completion", { body: { prompt, grammar: 'root ::= "yes"', n_predict: 2, temperature: 0, cache_prompt: false }, timeoutMs: 60_000 });
    const embeddings = await this.embeddingsAvailable();
    const why = this.embeddingsRefusal;
    return {
      kind: "llama-server",
      url: this.http.url,
      model: info.name,
      contextSize: info.contextSize,
      grammar: true,
      constraint: "gbnf",
      embeddings,
      slots: this.slots.size,
      ...(embeddings ? {} : { note: why ?? "Embeddings are off on this server." }),
      ...this.http.transportReport(),
    };
  }

  async generate(request: GenerateRequest): Promise<ServerReply> {
    if (request.signal?.aborted) return abortedServerReply();
    await this.connect();
    const slot = this.slots.slotFor(request.conversationId);
    const saved = slot >= 0 && request.conversationId !== undefined ? this.saved : null;
    if (saved) await saved.before(slot, request.conversationId!);
    try {
      return await this.generateOn(slot, request);
    } finally {
      saved?.after(slot);
    }
  }

  /** Saves the slots not yet written (before the server stops). */
  override async dispose(): Promise<void> {
    await this.saved?.flush();
  }

  private async generateOn(slot: number, request: GenerateRequest): Promise<ServerReply> {
    let text: string;
    let systemEnd: SystemEnd;
    const grammar = request.grammar !== undefined;
    try {
      [text, systemEnd] = await Promise.all([this.prompts.render(request.messages, grammar, request.signal), this.prompts.systemEnd(request.messages, grammar)]);
    } catch (err) {
      if (request.signal?.aborted) return abortedServerReply();
      throw err;
    }
    const delimiters = systemEnd.delimiters;
    const owner = slot >= 0 ? request.conversationId : undefined;
    /** Prompt tokens the system text alone took to evaluate first (counted with the reply's). */
    let systemEvaluated = 0;
    if (this.saved && this.needsCheckpoints && owner !== undefined && systemEnd.tokens.length > 1 && this.held.leaves(slot, owner, text)) {
      const system = { content: request.messages[0].content, tokens: systemEnd.tokens, grammar };
      const evaluate = async (tokens: number[]) => void (systemEvaluated += await this.evaluateAlone(slot, tokens));
      if (await this.saved.beforeLeaving(slot, system, evaluate)) this.held.forget(slot);
    }
    const prompt = { text, parts: this.held.parts(slot, owner, text) };
    if (this.forced?.accepts(request)) {
      const reply = await this.forced.generate(request, { id_slot: slot, ...(this.grammarBias.length ? { logit_bias: this.grammarBias } : {}), delimiters }, prompt);
      this.held.after(slot, owner, prompt, reply.stopReason === "abort" ? undefined : reply);
      return { ...reply, tokensEvaluated: reply.tokensEvaluated + systemEvaluated };
    }
    const reply = await streamCompletion(this.http, this.body(request, prompt.parts, slot, delimiters), { signal: request.signal, onText: request.onText });
    this.held.after(slot, owner, prompt, reply.stopReason === "abort" ? undefined : reply);
    const result = toResult(reply, request.grammar ? "gbnf" : "none");
    return { ...result, tokensEvaluated: result.tokensEvaluated + systemEvaluated };
  }

  /**
   * Whether a prompt that leaves slot 0's tokens two before their end is served from fewer of them (`cache_n`): the
   * server then read it from a checkpoint (it takes one 4 tokens before a prompt's end) because the model's state
   * cannot be cut back. Two short requests, before any conversation holds the slot (a saved one is restored after).
   */
  private async probeCheckpoints(): Promise<boolean> {
    const { tokens } = await this.http.json<{ tokens?: number[] }>("/tokenize", { body: { content: CHECKPOINT_PROBE, add_special: true } });
    if (!Array.isArray(tokens) || tokens.length < 8) return false;
    const keep = tokens.length - 2;
    const other = tokens.slice(1).find((t) => t !== tokens[keep])!;
    const ask = (prompt: number[]) =>
      this.http.json<{ timings?: { cache_n?: number } }>("/completion", {
        body: { prompt, n_predict: 1, temperature: 0, cache_prompt: true, id_slot: 0, ...(this.grammarBias.length ? { logit_bias: this.grammarBias } : {}) },
        timeoutMs: 60_000,
      });
    await ask(tokens);
    const reply = await ask([...tokens.slice(0, keep), other, other]);
    return (reply.timings?.cache_n ?? keep) < keep;
  }

  /**
   * `tokens` evaluated alone on `slot` (one token sampled, never evaluated: the slot then holds just them); resolves
   * with the prompt tokens the server evaluated.
   */
  private async evaluateAlone(slot: number, tokens: number[]): Promise<number> {
    const body = { prompt: tokens, n_predict: 1, temperature: 0, cache_prompt: true, id_slot: slot, ...(this.grammarBias.length ? { logit_bias: this.grammarBias } : {}) };
    const reply = await this.http.json<{ timings?: { prompt_n?: number } }>("/completion", { body, timeoutMs: 120_000 });
    return reply.timings?.prompt_n ?? tokens.length;
  }

  async embed(texts: string[], options: { signal?: AbortSignal } = {}): Promise<number[][]> {
    if (texts.length === 0) return [];
    const vectors: number[][] = [];
    for (let i = 0; i < texts.length; i += EMBED_BATCH) {
      if (options.signal?.aborted) throw new EngineError("The embedding request was cancelled.", "aborted");
      vectors.push(...(await this.embedBatch(texts.slice(i, i + EMBED_BATCH).map((t) => (t === "" ? " " : t)), options.signal)));
    }
    return vectors;
  }

  async countTokens(text: string): Promise<number> {
    const reply = await this.http.json<{ tokens?: unknown[] }>("/tokenize", { body: { content: text } });
    if (!Array.isArray(reply.tokens)) throw this.http.notCompatible("/tokenize", "no tokens in the reply");
    return reply.tokens.length;
  }

  private body(request: GenerateRequest, prompt: PromptParts, slot: number, delimiters: MessageDelimiter[]): Record<string, unknown> {
    // The bias always, not only under a grammar: a reply must not end in half a character.
    return completionBody(request, { prompt, grammar: request.grammar, nPredict: request.maxTokens, slot, logitBias: this.grammarBias, stop: request.stop, delimiters });
  }

  /** Waits for /health, then reads /props and /v1/models. */
  protected async readInfo(): Promise<ModelInfo> {
    await this.http.json("/health");
    const props = await this.http.json<Props>("/props");
    this.prompts.configure(props.chat_template ?? "");
    const slots = props.total_slots ?? 1;
    if (slots !== this.slots.size) this.slots = new SlotPool(slots);
    const models = await this.http.json<{ data?: { id?: string; aliases?: string[]; meta?: ModelMeta }[] }>("/v1/models");
    const entry = models.data?.[0];
    const meta = entry?.meta ?? {};
    const path = props.model_path ?? "";
    const wanted = this.config.model?.trim();
    if (wanted) {
      const names = new Set([...(models.data ?? []).flatMap((m) => [m.id, ...(m.aliases ?? [])]), props.model_alias, path, path.split(/[\\/]/).pop()]);
      if (!names.has(wanted)) {
        const served = (models.data ?? []).map((m) => `"${(m.id ?? "").split(/[\\/]/).pop()}"`).join(", ");
        throw this.noSuchModel(wanted, served);
      }
    }
    // llama-server uses the file path as the alias unless started with --alias: show the file name then.
    const alias = props.model_alias && props.model_alias !== path ? props.model_alias : "";
    const name = alias || path.split(/[\\/]/).pop() || entry?.id || "model";
    const banned = await this.bannedTokens(path);
    this.grammarBias = banned.map((id) => [id, false]);
    const contextSize = props.default_generation_settings?.n_ctx;
    const folder = this.config.slotStates;
    const store = folder && contextSize ? this.options.slotStates?.(folder, { modelPath: path, contextSize, build: props.build_info ?? "" }) : null;
    this.saved = store ? new SavedSlots(this.http, store, folder?.saveDelayMs, this.options.onNotice, this.held) : null;
    this.needsCheckpoints = this.saved ? await this.probeCheckpoints().catch(() => false) : false;
    return {
      path,
      name,
      architecture: "unknown",
      ...(meta.n_params ? { parameterCount: meta.n_params } : {}),
      fileSizeBytes: meta.size ?? 0,
      ...(meta.n_ctx_train ? { trainedContextLength: meta.n_ctx_train } : {}),
      ...(props.default_generation_settings?.n_ctx ? { contextSize: props.default_generation_settings.n_ctx } : {}),
      ...(meta.n_embd ? { embeddingLength: meta.n_embd } : {}),
      hasChatTemplate: !!props.chat_template,
      thinkingModel: this.prompts.thinkingModel,
      constraint: "gbnf",
      server: this.http.label,
    };
  }

  private async embeddingsAvailable(): Promise<boolean> {
    if (this.embeddings !== undefined) return this.embeddings;
    try {
      await this.embedBatch(["probe"]);
      return (this.embeddings = true);
    } catch (err) {
      if (!(err instanceof EngineError) || err.code !== "server_rejected") throw err;
      this.embeddingsRefusal = err.message;
      return (this.embeddings = false);
    }
  }

  private async embedBatch(input: string[], signal?: AbortSignal): Promise<number[][]> {
    let reply: { data?: { index?: number; embedding?: unknown }[] };
    try {
      reply = await this.http.json("/v1/embeddings", { body: { input, ...(this.config.model ? { model: this.config.model } : {}) }, signal, timeoutMs: 120_000 });
    } catch (err) {
      if (err instanceof EngineError && /--embeddings|not support embeddings|pooling/i.test(err.message)) {
        throw new EngineError(
          `${this.label()} does not serve embeddings; restart it with --embeddings --pooling mean for semantic search, or turn semantic search off.`,
          "server_rejected",
        );
      }
      throw err;
    }
    return this.vectors(reply, input.length);
  }
}
