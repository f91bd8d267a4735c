/**
 * One streamed `/v1/chat/completions` request: text deltas passed on as they arrive, abort by closing the
 * request (llama-server stops the slot when the connection closes), and the server's final usage and timings.
 */
import { EngineError, type GenerateResult } from "../../core/ports/engine";
import { errorFields, GENERATE_HEADERS_TIMEOUT_MS, type ServerHttp } from "./server-http";
import { readJsonEvents } from "./sse";

/** llama-server's per-request timings (absent on other servers). */
export interface ServerTimings {
  /** Prompt tokens taken from the slot's cache. */
  cache_n?: number;
  /** Prompt tokens evaluated. */
  prompt_n?: number;
  prompt_ms?: number;
  predicted_n?: number;
  predicted_ms?: number;
}

export interface StreamedReply {
  text: string;
  stopReason: GenerateResult["stopReason"];
  /** Generated tokens: the server's count, else one per content delta. */
  tokensOut: number;
  /** Prompt tokens as the server counted them (0 when it did not say). */
  tokensIn: number;
  timings?: ServerTimings;
  /**
   * The reply's token ids as the server sampled them, which spell exactly its text (`/completion` streams; absent where
   * the stream did not say them all): the next prompt can send them as they are, so it extends what the slot holds.
   */
  tokenIds?: number[];
  /** performance.now() marks: request sent, first content delta, end. */
  startedAt: number;
  firstTokenAt?: number;
  endedAt: number;
}

interface Chunk {
  choices?: { delta?: { content?: string | null; reasoning_content?: string | null }; finish_reason?: string | null }[];
  usage?: { prompt_tokens?: number; completion_tokens?: number } | null;
  timings?: ServerTimings;
  error?: unknown;
}

/** A streamed reply's text as it arrives: pieces passed on, counted, and the first one's time marked. */
export class ReplyText {
  readonly startedAt = performance.now();
  text = "";
  pieces = 0;
  firstTokenAt: number | undefined;
  constructor(private readonly onText?: (chunk: string) => void) {}

  add(piece: string | null | undefined): void {
    if (typeof piece !== "string" || piece === "") return;
    this.firstTokenAt ??= performance.now();
    this.pieces++;
    this.text += piece;
    this.onText?.(piece);
  }

  /** The reply as an abort leaves it: the text so far, no server counts. */
  aborted(): StreamedReply {
    return { text: this.text, stopReason: "abort", tokensOut: this.pieces, tokensIn: 0, startedAt: this.startedAt, firstTokenAt: this.firstTokenAt, endedAt: performance.now() };
  }
}

const STOP: Record<string, GenerateResult["stopReason"]> = { stop: "eos", length: "maxTokens", tool_calls: "eos", content_filter: "stop" };

export async function streamChat(
  http: ServerHttp,
  body: Record<string, unknown>,
  opts: { signal?: AbortSignal; onText?: (chunk: string) => void },
): Promise<StreamedReply> {
  const reply = new ReplyText(opts.onText);
  let finish: string | undefined;
  let usage: Chunk["usage"];
  let timings: ServerTimings | undefined;
  const aborted = (): StreamedReply => reply.aborted();
  let response: Response;
  try {
    response = await http.send("/v1/chat/completions", { body: { ...body, stream: true }, signal: opts.signal, timeoutMs: GENERATE_HEADERS_TIMEOUT_MS });
  } catch (err) {
    if (opts.signal?.aborted) return aborted();
    throw err;
  }
  if (!response.body) throw http.notCompatible("/v1/chat/completions", "the reply had no body");
  const type = response.headers.get("content-type") ?? "";
  if (!type.includes("text/event-stream")) {
    // A server that ignores `stream` answers with one JSON completion.
    const whole = errorFields(await response.text().catch(() => ""));
    throw http.notCompatible("/v1/chat/completions", `not a stream: ${whole.message.slice(0, 80)}`);
  }
  try {
    for await (const chunk of readJsonEvents<Chunk>(response.body, http, "/v1/chat/completions")) {
      const choice = chunk.choices?.[0];
      reply.add(choice?.delta?.content);
      if (choice?.finish_reason) finish = choice.finish_reason;
      if (chunk.usage) usage = chunk.usage;
      if (chunk.timings) timings = chunk.timings;
    }
  } catch (err) {
    if (opts.signal?.aborted) return aborted();
    if (err instanceof EngineError) throw err;
    throw http.dropped(err);
  }
  if (opts.signal?.aborted) return aborted();
  // Every compatible server ends a reply with a finish_reason; a stream that just stops was cut (the server died).
  if (finish === undefined) throw http.dropped(new Error("the stream ended before the reply finished"));
  return {
    text: reply.text,
    stopReason: STOP[finish ?? "stop"] ?? "eos",
    tokensOut: usage?.completion_tokens ?? timings?.predicted_n ?? reply.pieces,
    tokensIn: usage?.prompt_tokens ?? (timings ? (timings.prompt_n ?? 0) + (timings.cache_n ?? 0) : 0),
    timings,
    startedAt: reply.startedAt,
    firstTokenAt: reply.firstTokenAt,
    endedAt: performance.now(),
  };
}
