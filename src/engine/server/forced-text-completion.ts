/**
 * A grammar turn on llama-server that skips sampling where the grammar leaves one way forward. llama-server samples
 * every token under llama.cpp's grammar, which at large vocabularies costs far more than evaluating a token; so our
 * walker finds the text the grammar forces (`","status":"`, keys, closing punctuation), appends it to the reply and
 * sends the reply so far as the end of the prompt (`/completion` with `cache_prompt` on the conversation's slot: the
 * server evaluates it at prompt speed), with the grammar of what may follow there. A request is cut (its stream
 * closed) as soon as the text it produced reaches forced text again; where one character leads there (the quote that
 * closes a string), it is a stop string, so the server ends the request itself without sampling a token past it,
 * and the character is put back. The prompt is the engine's (server-prompts.ts: the server's own template, grammar
 * turns rendered as the engine host renders them, sent as the parts that extend what the slot holds).
 */
import { EngineError, type GenerateRequest } from "../../core/ports/engine";
import { GbnfWalker, type WalkPosition } from "../../core/grammar/gbnf-walker";
import type { CharElem, Frame } from "../../core/grammar/recognizer";
import { restGrammar } from "../../core/grammar/rest-grammar";
import type { ServerTimings } from "./chat-stream";
import { completionBody, completionEvents, type MessageDelimiter, type PromptParts } from "./completion-stream";
import type { ServerReply } from "./server-opening";
import type { ServerHttp } from "./server-http";
import { withText } from "./server-prompts";

export interface ForcedTextOptions {
  /** Forced text shorter than this is left to the server's sampling, since a new request costs more (default 6 characters). */
  minForcedChars?: number;
}

/** A reply of the forced-text path, with the round trips it took. */
export type ForcedTextReply = ServerReply & {
  requests: number;
  forcedChars: number;
  /** The prompt and the reply as the parts the last request's slot tokens came from (sampled text by its token ids). */
  heldParts: PromptParts;
};

/** Token ids a request sampled, and the text they spell. */
interface SampledIds {
  tokens: number[];
  text: string;
}

/** Walkers kept (one per grammar text; a conversation's grammar repeats turn after turn). */
const WALKERS = 8;

export class ForcedTextCompletion {
  private readonly walkers = new Map<string, GbnfWalker | null>();
  private readonly minForced: number;

  constructor(
    private readonly http: ServerHttp,
    options: ForcedTextOptions = {},
  ) {
    this.minForced = options.minForcedChars ?? 6;
  }

  /** Whether this path can take the request: a grammar our walker reads, and nothing the plain path handles alone. */
  accepts(request: GenerateRequest): boolean {
    return request.grammar !== undefined && !request.stop?.length && !request.thinkFirst && this.walker(request.grammar) !== null;
  }

  /**
   * `extra`: the fields every request of the plain path sends too (slot, split-character ban, the system-end delimiter); `prompt`: the rendered
   * prompt's text and the parts to send it as (server-prompts.ts HeldPrompts).
   */
  async generate(request: GenerateRequest, extra: { id_slot: number; logit_bias?: [number, false][]; delimiters?: MessageDelimiter[] }, prompt: { text: string; parts: PromptParts }): Promise<ForcedTextReply> {
    const walker = this.walker(request.grammar!)!;
    const startedAt = performance.now();
    const base = await this.promptTokens(prompt.text, request.signal);
    let requests = 2;
    let reply = "";
    let forcedChars = 0;
    let pos: WalkPosition = walker.start();
    /** The prompt and the reply so far as sent: forced text as text, sampled text by the ids it was sampled as. */
    let parts = prompt.parts;
    /** Reply tokens as the server last counted them, and forced characters appended since (a forced character is at most a token). */
    let counted = 0;
    let uncounted = 0;
    let firstTokenAt: number | undefined;
    let promptN = 0;
    let stopReason: ServerReply["stopReason"] = "eos";
    const append = (text: string) => {
      reply += text;
      request.onText?.(text);
    };
    for (;;) {
      if (request.signal?.aborted) return { ...this.result(reply, base, counted + uncounted, startedAt, firstTokenAt, "abort", promptN), requests, forcedChars, heldParts: parts };
      const forced = walker.forcedText(pos, 4096);
      if (forced.text) {
        parts = withText(parts, forced.text);
        append(forced.text);
        forcedChars += forced.text.length;
        uncounted += forced.text.length;
        pos = forced.pos;
      }
      if (walker.complete(pos)) break;
      const room = request.maxTokens - counted - uncounted;
      if (room <= 0) {
        stopReason = "maxTokens";
        break;
      }
      requests++;
      let sampled = "";
      const step = await this.request(parts, restGrammar(pos), room, request, extra, walker, pos, (piece) => {
        firstTokenAt ??= performance.now();
        sampled += piece;
        append(piece);
      });
      // The sampled text by its ids where the stream gave them all (a stop character the server held back goes as text).
      const viaIds = step.ids && step.ids.text.length <= sampled.length ? step.ids : undefined;
      parts = viaIds ? withText([...(typeof parts === "string" ? [parts] : parts), ...viaIds.tokens], sampled.slice(viaIds.text.length)) : withText(parts, sampled);
      pos = step.pos;
      promptN += step.timings?.prompt_n ?? 0;
      if (step.evaluated !== undefined) {
        counted = step.evaluated - base + step.predicted;
        uncounted = 0;
      }
      if (step.aborted) return { ...this.result(reply, base, counted + uncounted, startedAt, firstTokenAt, "abort", promptN), requests, forcedChars, heldParts: parts };
      if (step.end) {
        stopReason = step.end;
        break;
      }
    }
    const tokensOut = uncounted > 0 ? (await this.promptTokens(prompt.text + reply, request.signal)) - base : counted;
    if (uncounted > 0) requests++;
    return { ...this.result(reply, base, tokensOut, startedAt, firstTokenAt, stopReason, promptN), requests, forcedChars, heldParts: parts };
  }

  private result(text: string, tokensIn: number, tokensOut: number, startedAt: number, first: number | undefined, stopReason: ServerReply["stopReason"], promptN: number): ServerReply {
    const endedAt = performance.now();
    return {
      text,
      tokensIn,
      tokensOut,
      promptEvalMs: (first ?? endedAt) - startedAt,
      generateMs: first === undefined ? 0 : endedAt - first,
      stopReason,
      constraint: "gbnf",
      tokensEvaluated: promptN,
    };
  }

  /**
   * One `/completion` stream from the reply so far; it ends at the server's stop, or is cut where the text it
   * produced leads to forced text of `minForced` characters or more (or completes the grammar).
   */
  private async request(
    prompt: PromptParts,
    grammar: string,
    room: number,
    request: GenerateRequest,
    extra: { id_slot: number; logit_bias?: [number, false][]; delimiters?: MessageDelimiter[] },
    walker: GbnfWalker,
    from: WalkPosition,
    onPiece: (piece: string) => void,
  ): Promise<{ pos: WalkPosition; predicted: number; evaluated?: number; timings?: ServerTimings; end?: ServerReply["stopReason"]; aborted?: boolean; ids?: SampledIds }> {
    const cut = new AbortController();
    const stops = this.stopChars(walker, from);
    const signal = request.signal ? AbortSignal.any([request.signal, cut.signal]) : cut.signal;
    const body = {
      ...completionBody(request, { prompt, grammar, nPredict: room, slot: extra.id_slot, logitBias: extra.logit_bias, stop: stops, delimiters: extra.delimiters }),
      // A request cut at a choice point never sees the final event; per-token timings still say what it evaluated.
      timings_per_token: true,
    };
    let pos = from;
    let predicted = 0;
    let evaluated: number | undefined;
    let timings: ServerTimings | undefined;
    /** The ids of the text passed on so far, while every piece came with its ids. */
    let sampled: SampledIds | null = { tokens: [], text: "" };
    /** A token came without text (held back as a possible stop, or the end of generation): no text may follow it. */
    let textless = false;
    try {
      for await (const event of completionEvents(this.http, body, signal)) {
        const ids = sampled;
        if (ids && event.content && (textless || !Array.isArray(event.tokens) || event.stop)) sampled = null;
        else if (ids && event.content) {
          ids.tokens.push(...event.tokens!);
          ids.text += event.content;
        } else if (!event.stop) textless = true;
        if (event.tokens_evaluated !== undefined) evaluated = event.tokens_evaluated;
        if (event.tokens_predicted !== undefined) predicted = event.tokens_predicted;
        if (event.timings) timings = event.timings;
        const piece = event.content ?? "";
        if (piece) {
          const next = walker.advance(pos, piece);
          // The server's grammar is ours from `from`: a piece our walker refuses means the two disagree.
          if (!next) throw new EngineError(`${capital(this.http.label)} produced text outside the grammar ("${piece.slice(0, 40)}"); send the message again, and report it if it repeats.`, "internal");
          pos = next;
          onPiece(piece);
        }
        if (event.stop && event.stop_type === "word" && event.stopping_word) {
          // One of our stop characters: the server left it out of the text; it belongs to the reply.
          const next = walker.advance(pos, event.stopping_word);
          if (!next) throw new EngineError(`${capital(this.http.label)} stopped at text outside the grammar ("${event.stopping_word}"); send the message again, and report it if it repeats.`, "internal");
          onPiece(event.stopping_word);
          return { pos: next, predicted, evaluated, timings, ...(sampled ? { ids: sampled } : {}) };
        }
        if (event.stop) return { pos, predicted, evaluated, timings, end: event.stop_type === "limit" ? "maxTokens" : "eos", ...(sampled ? { ids: sampled } : {}) };
        if (walker.complete(pos) || walker.forcedText(pos, this.minForced).text.length >= this.minForced) {
          cut.abort();
          return { pos, predicted, evaluated, timings, ...(sampled ? { ids: sampled } : {}) };
        }
      }
    } catch (err) {
      if (request.signal?.aborted) return { pos, predicted, evaluated, timings, aborted: true };
      throw err;
    } finally {
      // However the request ends here, close it: an open stream keeps the server generating into the slot.
      cut.abort();
    }
    if (request.signal?.aborted) return { pos, predicted, evaluated, timings, aborted: true };
    throw this.http.dropped(new Error("the stream ended before the reply finished"));
  }

  /**
   * Characters that some stack names explicitly at `pos` (a closing quote, a comma) after which the grammar forces
   * at least `minForced` characters: sent as stop strings. A stop met elsewhere (an escaped quote) costs a request, not
   * correctness: the character is put back and the walk goes on.
   */
  private stopChars(walker: GbnfWalker, pos: WalkPosition): string[] {
    const chars = new Set<number>();
    for (const f of pos.threads as Frame[]) {
      const el = f.seq.elems[f.i] as CharElem;
      if (el.negated) continue;
      for (const [a, b] of el.ranges) if (b - a < 4) for (let c = a; c <= b; c++) chars.add(c);
    }
    return [...chars]
      .filter((c) => {
        const next = walker.step(pos, c);
        return !walker.dead(next) && (walker.complete(next) || walker.forcedText(next, this.minForced).text.length >= this.minForced);
      })
      .map((c) => String.fromCodePoint(c));
  }

  /** Tokens of a prompt as `/completion` counts them (special tokens parsed, BOS added where the model wants one). */
  private async promptTokens(content: string, signal?: AbortSignal): Promise<number> {
    const reply = await this.http.json<{ tokens?: unknown[] }>("/tokenize", { body: { content, add_special: true, parse_special: true }, signal });
    if (!Array.isArray(reply.tokens)) throw this.http.notCompatible("/tokenize", "no tokens in the reply");
    return reply.tokens.length;
  }

  private walker(gbnf: string): GbnfWalker | null {
    let walker = this.walkers.get(gbnf);
    if (walker === undefined) {
      try {
        walker = new GbnfWalker(gbnf);
      } catch {
        walker = null;
      }
      this.walkers.set(gbnf, walker);
      while (this.walkers.size > WALKERS) this.walkers.delete(this.walkers.keys().next().value as string);
    } else {
      this.walkers.delete(gbnf);
      this.walkers.set(gbnf, walker);
    }
    return walker;
  }
}

function capital(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
