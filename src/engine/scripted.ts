/**
 * A scripted engine for tests: replies come from a script, and each reply is checked against the grammar
 * the request carries with the GBNF recognizer, so a scripted reply the grammar would not allow fails
 * the test (`ScriptViolation`). Replies stream in chunks and honour abort.
 */
import { GbnfRecognizer } from "../core/grammar";
import type { ChatMessage } from "../core/protocol/messages";
import type { Engine, GenerateRequest, GenerateResult, ModelInfo } from "../core/ports/engine";

/** One scripted reply: the text, or a function of the request (to echo paths etc.). */
export type ScriptStep = string | ((request: GenerateRequest) => string);

export interface ScriptedEngineOptions {
  /** Context size reported by modelInfo. Default 4096. */
  contextSize?: number;
  /** Characters per streamed chunk. Default 8. */
  chunkChars?: number;
  /** Milliseconds between chunks (0 = a microtask). Default 0. */
  chunkDelayMs?: number;
  /** Called once per request before streaming (tests abort from here). */
  onRequest?(request: GenerateRequest, index: number): void;
  /** Called after each chunk with the text so far (tests abort mid-stream from here). */
  onChunk?(textSoFar: string, request: GenerateRequest): void;
  /** Repeat the script from the start when it runs out (long sessions). Default false. */
  loop?: boolean;
  /** Requests remembered in `requests` (oldest dropped). Default 50. */
  keepRequests?: number;
}

/** A scripted reply broke the protocol the agent asked for: a test failure, never a model's fault. */
export class ScriptViolation extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ScriptViolation";
  }
}

/** Tokens as the scripted engine counts them: about four characters each. */
export function scriptedTokenCount(text: string): number {
  return Math.ceil(text.length / 4);
}

export class ScriptedEngine implements Engine {
  /** Recent requests, oldest first (bounded by keepRequests). */
  readonly requests: GenerateRequest[] = [];
  /** Replies served so far. */
  served = 0;
  /** Largest prompt + maxTokens seen, in scripted tokens (tests check it stays inside the context). */
  peakTokens = 0;
  private readonly recognizers = new Map<string, GbnfRecognizer>();
  private readonly options: Required<Omit<ScriptedEngineOptions, "onRequest" | "onChunk">> & ScriptedEngineOptions;

  constructor(
    private readonly script: ScriptStep[],
    options: ScriptedEngineOptions = {},
  ) {
    this.options = { contextSize: 4096, chunkChars: 8, chunkDelayMs: 0, loop: false, keepRequests: 50, ...options };
  }

  /** Replies not yet served (Infinity when looping). */
  get remaining(): number {
    return this.options.loop ? Infinity : this.script.length - this.served;
  }

  private recognizer(gbnf: string): GbnfRecognizer {
    let r = this.recognizers.get(gbnf);
    if (!r) {
      r = new GbnfRecognizer(gbnf);
      this.recognizers.set(gbnf, r);
      if (this.recognizers.size > 32) this.recognizers.delete(this.recognizers.keys().next().value as string);
    }
    return r;
  }

  async generate(request: GenerateRequest): Promise<GenerateResult> {
    const index = this.served;
    if (!this.options.loop && index >= this.script.length) {
      throw new ScriptViolation(`The script has ${this.script.length} replies but the agent asked for reply ${index + 1}.`);
    }
    this.served++;
    this.requests.push(request);
    if (this.requests.length > this.options.keepRequests) this.requests.shift();
    const step = this.script[index % this.script.length];
    const text = typeof step === "function" ? step(request) : step;
    const promptTokens = request.messages.reduce((n, m) => n + scriptedTokenCount(m.content), 0);
    this.peakTokens = Math.max(this.peakTokens, promptTokens + request.maxTokens);
    if (request.grammar !== undefined && !this.recognizer(request.grammar).accepts(text)) {
      throw new ScriptViolation(`Scripted reply ${index + 1} is not allowed by the grammar the agent sent: ${text.slice(0, 200)}`);
    }
    if (scriptedTokenCount(text) > request.maxTokens) {
      throw new ScriptViolation(`Scripted reply ${index + 1} needs ${scriptedTokenCount(text)} tokens but maxTokens is ${request.maxTokens}.`);
    }
    this.options.onRequest?.(request, index);
    const started = Date.now();
    let sent = "";
    for (let i = 0; i < text.length; i += this.options.chunkChars) {
      if (request.signal?.aborted) return this.result(request, sent, started, "abort");
      const chunk = text.slice(i, i + this.options.chunkChars);
      sent += chunk;
      request.onText?.(chunk);
      this.options.onChunk?.(sent, request);
      await new Promise<void>((resolve) => (this.options.chunkDelayMs > 0 ? setTimeout(resolve, this.options.chunkDelayMs) : queueMicrotask(resolve)));
    }
    if (request.signal?.aborted) return this.result(request, sent, started, "abort");
    return this.result(request, sent, started, "eos");
  }

  private result(request: GenerateRequest, text: string, started: number, stopReason: GenerateResult["stopReason"]): GenerateResult {
    return {
      text,
      tokensIn: request.messages.reduce((n: number, m: ChatMessage) => n + scriptedTokenCount(m.content), 0),
      tokensOut: scriptedTokenCount(text),
      promptEvalMs: 0,
      generateMs: Date.now() - started,
      stopReason,
    };
  }

  /** Deterministic bag-of-words vectors (64 dimensions) so embedding paths can run without a model. */
  async embed(texts: string[]): Promise<number[][]> {
    return texts.map((t) => {
      const v = new Array<number>(64).fill(0);
      for (const word of t.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []) {
        let h = 0;
        for (let i = 0; i < word.length; i++) h = (h * 31 + word.charCodeAt(i)) >>> 0;
        v[h % 64] += 1;
      }
      return v;
    });
  }

  async countTokens(text: string): Promise<number> {
    return scriptedTokenCount(text);
  }

  async modelInfo(): Promise<ModelInfo> {
    return { path: "scripted", name: "scripted", architecture: "scripted", fileSizeBytes: 0, contextSize: this.options.contextSize, hasChatTemplate: true };
  }
}
