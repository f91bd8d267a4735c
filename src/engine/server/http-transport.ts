/**
 * How the server engines reach a server. Desktop (engine host, CLI): Node's fetch, streamed. In Obsidian's
 * renderer (mobile): `fetch` streams too, but only when the server allows the app's origin (CORS — llama-server
 * sends the headers, Ollama needs OLLAMA_ORIGINS); Obsidian's `requestUrl` has no CORS limit but buffers the
 * whole reply and cannot be aborted, so Stop abandons the request (the body's max_tokens caps what the server
 * still generates) and a reply that arrives after that is ignored. `AutoTransport` tries fetch first and keeps
 * requestUrl once fetch was refused where requestUrl got through — "Test connection" says which is used.
 */

/** What a transport is asked to send. */
export interface TransportRequest {
  method: "GET" | "POST";
  headers: Record<string, string>;
  body?: string;
  signal: AbortSignal;
}

export type TransportName = "fetch" | "requestUrl";

export interface HttpTransport {
  /** Which mechanism answered (for AutoTransport: the one chosen so far). */
  readonly name: TransportName;
  /** Whether a reply's text arrives while it is generated (false: all at once, when the server is done). */
  readonly streams: boolean;
  /** Resolves with the reply (any status); rejects on a network failure or when `signal` aborts. */
  send(url: string, req: TransportRequest): Promise<Response>;
}

/** The platform's fetch: streamed, abortable. */
export const fetchTransport: HttpTransport = {
  name: "fetch",
  streams: true,
  send: (url, req) => fetch(url, { method: req.method, headers: req.headers, body: req.body, signal: req.signal }),
};

/** The part of Obsidian's `requestUrl` used here (src/engine does not import obsidian; the plugin passes it in). */
export type RequestUrlFunction = (request: {
  url: string;
  method: string;
  headers: Record<string, string>;
  body?: string;
  contentType?: string;
  throw: false;
}) => Promise<{ status: number; headers: Record<string, string>; arrayBuffer: ArrayBuffer }>;

/** Statuses whose Response may not carry a body. */
const NULL_BODY = new Set([101, 103, 204, 205, 304]);

/** Obsidian's requestUrl as a transport: buffered; an abort settles at once and the late reply is dropped. */
export function requestUrlTransport(requestUrl: RequestUrlFunction): HttpTransport {
  return {
    name: "requestUrl",
    streams: false,
    send(url, req) {
      return new Promise<Response>((resolve, reject) => {
        const onAbort = () => reject(abortError(req.signal));
        if (req.signal.aborted) return onAbort();
        req.signal.addEventListener("abort", onAbort, { once: true });
        requestUrl({ url, method: req.method, headers: req.headers, body: req.body, contentType: req.headers["Content-Type"], throw: false }).then(
          (reply) => {
            req.signal.removeEventListener("abort", onAbort);
            if (req.signal.aborted) return;
            const status = reply.status >= 200 && reply.status <= 599 ? reply.status : 502;
            resolve(new Response(NULL_BODY.has(status) ? null : reply.arrayBuffer, { status, headers: reply.headers }));
          },
          (err: unknown) => {
            req.signal.removeEventListener("abort", onAbort);
            reject(err instanceof Error ? err : new Error(String(err)));
          },
        );
      });
    },
  };
}

/**
 * fetch first; when fetch fails before any reply (a CORS refusal looks like a network error) and requestUrl
 * then gets an answer, requestUrl is used from then on. A server that is down fails both: the error is fetch's.
 */
export class AutoTransport implements HttpTransport {
  private chosen: HttpTransport;
  /** Why requestUrl is used, once it is (one sentence for "Test connection"). */
  reason: string | undefined;

  constructor(
    private readonly streaming: HttpTransport,
    private readonly buffered: HttpTransport,
  ) {
    this.chosen = streaming;
  }

  get name(): TransportName {
    return this.chosen.name;
  }

  get streams(): boolean {
    return this.chosen.streams;
  }

  async send(url: string, req: TransportRequest): Promise<Response> {
    if (this.chosen === this.buffered) return this.buffered.send(url, req);
    try {
      return await this.streaming.send(url, req);
    } catch (first) {
      if (req.signal.aborted) throw first;
      let reply: Response;
      try {
        reply = await this.buffered.send(url, req);
      } catch {
        throw first;
      }
      this.chosen = this.buffered;
      this.reason = `fetch could not reach the server (${first instanceof Error ? first.message : String(first)}), most likely because it does not allow this app's origin (CORS)`;
      return reply;
    }
  }
}

/** "Test connection"'s sentence on how replies travel. */
export function describeTransport(transport: HttpTransport): string {
  if (transport.streams) return "Replies stream as they are generated (fetch; the server allows this app's origin).";
  const why = transport instanceof AutoTransport && transport.reason ? ` because ${transport.reason}` : "";
  return `Replies arrive whole when the server is done (Obsidian's requestUrl${why}); Stop abandons a reply. To stream, let the server allow this app's origin (llama-server does; for Ollama set OLLAMA_ORIGINS).`;
}

function abortError(signal: AbortSignal): Error {
  const reason: unknown = signal.reason;
  if (reason instanceof Error) return reason;
  const err = new Error("The request was aborted.");
  err.name = "AbortError";
  return err;
}
