/**
 * llama-server's raw completion: the prompt rendered by the server's own chat template (`/apply-template`, the
 * prompt `/v1/chat/completions` would evaluate), then one streamed `/completion` request on it. The reply comes back
 * as generated, unparsed: `/v1/chat/completions` reads every reply with the template's tool-call parser (Qwen2.5's
 * and Llama 3.2's "peg-native" format among them), which refuses text it cannot read (a thought that mentions
 * `<tool_call>`, a stray byte) with a 500 after the whole reply was generated. Our grammar is the only format a reply
 * has to follow, so nothing on the server parses it.
 */
import { EngineError, type GenerateRequest, type GenerateResult } from "../../core/ports/engine";
import { ReplyText, type ServerTimings, type StreamedReply } from "./chat-stream";
import { GENERATE_HEADERS_TIMEOUT_MS, type ServerHttp } from "./server-http";
import { readJsonEvents } from "./sse";

/**
 * A `/completion` request body: the request's sampling, our repeat penalty and the conversation's slot with its
 * prompt cache. The plain path and each forced-text step send the same sampling, so both build it here.
 */
export function completionBody(
  request: Pick<GenerateRequest, "temperature" | "topP" | "seed">,
  parts: { prompt: PromptParts; grammar?: string; nPredict: number; slot: number; logitBias?: [number, false][]; stop?: string[]; delimiters?: MessageDelimiter[] },
): Record<string, unknown> {
  return {
    prompt: parts.prompt,
    ...(parts.grammar !== undefined ? { grammar: parts.grammar } : {}),
    ...(parts.logitBias?.length ? { logit_bias: parts.logitBias } : {}),
    n_predict: parts.nPredict,
    temperature: request.temperature ?? 0.7,
    top_p: request.topP ?? 0.95,
    ...(request.seed !== undefined ? { seed: request.seed } : {}),
    ...(parts.stop?.length ? { stop: parts.stop } : {}),
    // Penalizing repeats would fight JSON, whose punctuation repeats by design (as in the built-in engine).
    repeat_penalty: 1,
    cache_prompt: true,
    id_slot: parts.slot,
    ...(parts.delimiters?.length ? { message_delimiters: parts.delimiters } : {}),
  };
}

/**
 * A `/completion` `message_delimiters` entry: llama-server splits the prompt's tokens where the delimiter's tokens
 * occur and, on a model that needs checkpoints (recurrent or hybrid layers, sliding-window attention), ends a batch and
 * takes a checkpoint where a `user` span starts (server-prompts.ts systemEnd says which we send).
 */
export interface MessageDelimiter {
  role: "user";
  delimiter: string;
}

/**
 * A `/completion` prompt: text, or text and token ids in order (llama-server tokenizes each text and adds the ids as
 * they are; BOS only before a first text). Ids carry a reply's tokens as they were sampled, which its text, tokenized
 * again, may not give back.
 */
export type PromptParts = string | (string | number)[];

/** One `/completion` stream event (the fields used). */
export interface CompletionEvent {
  content?: string;
  /** The token ids this event's content came from (a streamed event carries the one token it was sampled as). */
  tokens?: number[];
  stop?: boolean;
  /** "eos", "limit" (n_predict reached), "word" (a stop string), "none". */
  stop_type?: string;
  stopping_word?: string;
  tokens_predicted?: number;
  /** Prompt tokens, cached ones included. */
  tokens_evaluated?: number;
  timings?: ServerTimings;
  error?: unknown;
}

/**
 * The events of one streamed `/completion` request, until the server's stop event (inclusive). An error event is
 * thrown as the server's sentence; a stream that ends without a stop event is a dropped connection. The caller
 * closes the request early by aborting `signal` (llama-server stops the slot when the connection closes).
 */
export async function* completionEvents(http: ServerHttp, body: Record<string, unknown>, signal?: AbortSignal): AsyncGenerator<CompletionEvent> {
  const response = await http.send("/completion", { body: { ...body, stream: true }, signal, timeoutMs: GENERATE_HEADERS_TIMEOUT_MS });
  if (!response.body) throw http.notCompatible("/completion", "the reply had no body");
  try {
    for await (const event of readJsonEvents<CompletionEvent>(response.body, http, "/completion")) {
      yield event;
      if (event.stop) return;
    }
  } catch (err) {
    if (signal?.aborted || err instanceof EngineError) throw err;
    throw http.dropped(err);
  }
  if (!signal?.aborted) throw http.dropped(new Error("the stream ended before the reply finished"));
}

const STOP: Record<string, GenerateResult["stopReason"]> = { eos: "eos", limit: "maxTokens", word: "stop" };

/** One whole `/completion` reply, text passed on as it arrives; an abort settles with what came so far. */
export async function streamCompletion(
  http: ServerHttp,
  body: Record<string, unknown>,
  opts: { signal?: AbortSignal; onText?: (chunk: string) => void },
): Promise<StreamedReply> {
  const reply = new ReplyText(opts.onText);
  let last: CompletionEvent | undefined;
  /** The reply's token ids; null once an event's ids could not be placed (a token with no text before more text). */
  let ids: number[] | null = [];
  let textless = 0;
  try {
    for await (const event of completionEvents(http, body, opts.signal)) {
      reply.add(event.content);
      if (event.stop) {
        last = event;
        if (event.content) ids = null;
      } else if (ids && Array.isArray(event.tokens)) {
        // A token without text is the end of generation (the end-of-turn token), never part of the reply's text.
        if (!event.content) textless += event.tokens.length;
        else if (textless > 0) ids = null;
        else ids.push(...event.tokens);
      } else ids = null;
    }
  } catch (err) {
    if (!opts.signal?.aborted) throw err;
  }
  if (opts.signal?.aborted || !last) return reply.aborted();
  const timings = last.timings;
  return {
    text: reply.text,
    stopReason: STOP[last.stop_type ?? "eos"] ?? "eos",
    tokensOut: last.tokens_predicted ?? timings?.predicted_n ?? reply.pieces,
    tokensIn: last.tokens_evaluated ?? (timings ? (timings.prompt_n ?? 0) + (timings.cache_n ?? 0) : 0),
    timings,
    ...(ids && ids.length > 0 ? { tokenIds: ids } : {}),
    startedAt: reply.startedAt,
    firstTokenAt: reply.firstTokenAt,
    endedAt: performance.now(),
  };
}
